// A declarative schema for TOML files (the config file and the device profile): every key with
// its type, range, default and meaning. Reading checks unknown keys, wrong types and
// out-of-range values, and each error names the file, the line and the key; writing prints
// every key with its value, so that a file round-trips.
//
//   streampipe::TomlSchema<Config> s;
//   s.Double("detector.threshold", &Config::threshold, 0.001, 10.0, "relative divergence");
//   absl::Status st = s.ReadFile("pipeline.toml", &config);   // config starts as defaults
//   std::string text = s.Write(config);
//
// Thread-compatible.
#ifndef STREAMPIPE_CORE_TOML_SCHEMA_HPP_
#define STREAMPIPE_CORE_TOML_SCHEMA_HPP_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/status.h"

namespace streampipe {

enum class TomlType { kDouble, kInt, kBool, kString };
const char* TomlTypeName(TomlType type);

using TomlValue = std::variant<double, std::int64_t, bool, std::string>;

// One key of a schema, type-erased over the target struct.
struct TomlKey {
  std::string path;  // dotted: "detector.threshold"
  TomlType type = TomlType::kDouble;
  double min = 0.0;  // numbers: inclusive range
  double max = 0.0;
  std::vector<std::string> choices;  // strings: allowed values (empty: any)
  // Strings: a check of the value beyond `choices` (null: none), and what it allows, in words
  // (the reference table's "allowed" column).
  std::function<absl::Status(std::string_view)> check;
  std::string allowed;
  std::string help;
  std::function<TomlValue(const void*)> get;
  std::function<void(void*, const TomlValue&)> set;
  // The field itself, for binding it to a command-line flag: double*, bool*, std::string*, and
  // for kInt int* (int_bytes == sizeof(int)) or std::int64_t*.
  std::function<void*(void*)> address;
  int int_bytes = 0;
};

namespace detail {
// Parses `text` (named `file` in messages) and applies it to `target` through `keys`; the paths
// of the keys the text sets are appended to `present` (when not null).
absl::Status ReadToml(std::string_view text, std::string_view file,
                      const std::vector<TomlKey>& keys, void* target,
                      std::vector<std::string>* present = nullptr);
// The shortest text that reads back as exactly `v`, in fixed notation where 1e-5 <= |v| < 1e15
// or v is 0 (0.05, 0.0009, 1000000), else in scientific (1e-07, 1e+20); "inf", "-inf", "nan".
std::string ShortestDouble(double v);
// How WriteToml writes a float: the shortest text that reads back as exactly the value (0.05),
// or with 17 significant digits (0.050000000000000003), the form before session 47, which
// DeviceProfileFingerprint hashes so that the fingerprints recorded in sweeps still match.
enum class TomlNumbers { kShortest, kSeventeenDigits };
std::string WriteToml(const std::vector<TomlKey>& keys, const void* target, bool with_help,
                      TomlNumbers numbers = TomlNumbers::kShortest);
// The reference table of a schema (key, type, default, allowed values, meaning), in markdown;
// `defaults` is a default-constructed target.
std::string MarkdownTable(const std::vector<TomlKey>& keys, const void* defaults);
// Whether `value` is one `key` allows: its type's range, its choices and its check.
// InvalidArgument with what is wrong, worded to follow the key and its value ("is out of range
// [0, 10]", "is not one of: a, b", "is not valid: ..."); the callers name key and value.
absl::Status CheckValue(const TomlKey& key, const TomlValue& value);
// A value read from a file, as a message shows it: at most 64 bytes of it (then "... (N bytes)"),
// so that a megabyte-long value makes no megabyte-long line, and no byte that would act on the
// terminal. `Utf8::kKeep` (a configuration: valid UTF-8) escapes only control characters, C1
// included (\x1b, \xc2\x9b), and cuts where a character starts; `Utf8::kEscape` (a CSV read
// whole, maybe binary) escapes every byte that is not printable ASCII, as absl::CHexEscape does.
enum class Utf8 { kKeep, kEscape };
std::string ShownInMessage(std::string_view text, Utf8 utf8);
// `text` whole with its control characters, C1 included, written \xNN (ShownInMessage's
// kKeep, uncut): a message of one line that does not act on the terminal.
std::string EscapedControls(std::string_view text);
// Reads a whole file: NotFound if missing, PermissionDenied if unreadable, OutOfRange past
// `max_bytes` (read in pieces up to it: a path such as /dev/zero is not read until memory runs
// out; a configuration or profile is a few KiB).
absl::Status ReadTextFile(const std::string& path, std::string* out,
                          std::size_t max_bytes = std::size_t{16} << 20);
}  // namespace detail

template <typename T>
class TomlSchema {
 public:
  template <typename M>
  void Double(std::string path, M accessor, double min, double max, std::string help) {
    Add(std::move(path), TomlType::kDouble, min, max, {}, std::move(help), accessor,
        [](const TomlValue& v) { return std::get<double>(v); });
  }
  template <typename M>
  void Int(std::string path, M accessor, double min, double max, std::string help) {
    Add(std::move(path), TomlType::kInt, min, max, {}, std::move(help), accessor,
        [](const TomlValue& v) { return std::get<std::int64_t>(v); });
  }
  template <typename M>
  void Bool(std::string path, M accessor, std::string help) {
    Add(std::move(path), TomlType::kBool, 0, 0, {}, std::move(help), accessor,
        [](const TomlValue& v) { return std::get<bool>(v); });
  }
  template <typename M>
  void String(std::string path, M accessor, std::vector<std::string> choices, std::string help) {
    Add(std::move(path), TomlType::kString, 0, 0, std::move(choices), std::move(help), accessor,
        [](const TomlValue& v) { return std::get<std::string>(v); });
  }
  // A string whose value `check` must accept (a list, a size); `allowed` says what it accepts.
  template <typename M>
  void String(std::string path, M accessor, std::string allowed,
              std::function<absl::Status(std::string_view)> check, std::string help) {
    String(std::move(path), accessor, std::vector<std::string>{}, std::move(help));
    keys_.back().check = std::move(check);
    keys_.back().allowed = std::move(allowed);
  }

  // `target` holds the defaults; keys present in the text overwrite them (and their paths are
  // appended to `present`, when given).
  absl::Status Read(std::string_view text, std::string_view file, T* target,
                    std::vector<std::string>* present = nullptr) const {
    return detail::ReadToml(text, file, keys_, target, present);
  }
  absl::Status ReadFile(const std::string& path, T* target,
                        std::vector<std::string>* present = nullptr) const {
    std::string text;
    absl::Status s = detail::ReadTextFile(path, &text);
    if (!s.ok()) return s;
    return Read(text, path, target, present);
  }
  std::string Write(const T& value, bool with_help = true,
                    detail::TomlNumbers numbers = detail::TomlNumbers::kShortest) const {
    return detail::WriteToml(keys_, &value, with_help, numbers);
  }
  const std::vector<TomlKey>& keys() const { return keys_; }
  // The key at `path`; nullptr where the schema has none.
  const TomlKey* Find(std::string_view path) const {
    for (const TomlKey& key : keys_) {
      if (key.path == path) return &key;
    }
    return nullptr;
  }

 private:
  // `accessor` is a callable T& -> field& (a lambda), so that nested fields work.
  template <typename Accessor, typename Convert>
  void Add(std::string path, TomlType type, double min, double max,
           std::vector<std::string> choices, std::string help, Accessor accessor,
           Convert convert) {
    TomlKey k;
    k.path = std::move(path);
    k.type = type;
    k.min = min;
    k.max = max;
    k.choices = std::move(choices);
    k.help = std::move(help);
    k.get = [accessor](const void* p) -> TomlValue {
      auto& field = accessor(*const_cast<T*>(static_cast<const T*>(p)));
      using F = std::decay_t<decltype(field)>;
      if constexpr (std::is_same_v<F, bool>) {
        return TomlValue(field);
      } else if constexpr (std::is_integral_v<F>) {
        return TomlValue(static_cast<std::int64_t>(field));
      } else if constexpr (std::is_floating_point_v<F>) {
        return TomlValue(static_cast<double>(field));
      } else {
        return TomlValue(std::string(field));
      }
    };
    k.set = [accessor, convert](void* p, const TomlValue& v) {
      auto& field = accessor(*static_cast<T*>(p));
      using F = std::decay_t<decltype(field)>;
      field = static_cast<F>(convert(v));
    };
    k.address = [accessor](void* p) -> void* { return &accessor(*static_cast<T*>(p)); };
    using Field = std::decay_t<decltype(accessor(std::declval<T&>()))>;
    if constexpr (std::is_integral_v<Field> && !std::is_same_v<Field, bool>) {
      static_assert(std::is_same_v<Field, int> || std::is_same_v<Field, std::int64_t>,
                    "integer keys are int or std::int64_t");
      k.int_bytes = static_cast<int>(sizeof(Field));
    }
    keys_.push_back(std::move(k));
  }

  std::vector<TomlKey> keys_;
};

}  // namespace streampipe

#endif  // STREAMPIPE_CORE_TOML_SCHEMA_HPP_
