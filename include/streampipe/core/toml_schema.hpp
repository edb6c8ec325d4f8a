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

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
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
  std::string help;
  std::function<TomlValue(const void*)> get;
  std::function<void(void*, const TomlValue&)> set;
};

namespace detail {
// Parses `text` (named `file` in messages) and applies it to `target` through `keys`.
absl::Status ReadToml(std::string_view text, std::string_view file,
                      const std::vector<TomlKey>& keys, void* target);
std::string WriteToml(const std::vector<TomlKey>& keys, const void* target, bool with_help);
// Reads a whole file: NotFound if missing, PermissionDenied if unreadable.
absl::Status ReadTextFile(const std::string& path, std::string* out);
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

  // `target` holds the defaults; keys present in the text overwrite them.
  absl::Status Read(std::string_view text, std::string_view file, T* target) const {
    return detail::ReadToml(text, file, keys_, target);
  }
  absl::Status ReadFile(const std::string& path, T* target) const {
    std::string text;
    absl::Status s = detail::ReadTextFile(path, &text);
    if (!s.ok()) return s;
    return Read(text, path, target);
  }
  std::string Write(const T& value, bool with_help = true) const {
    return detail::WriteToml(keys_, &value, with_help);
  }
  const std::vector<TomlKey>& keys() const { return keys_; }

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
    keys_.push_back(std::move(k));
  }

  std::vector<TomlKey> keys_;
};

}  // namespace streampipe

#endif  // STREAMPIPE_CORE_TOML_SCHEMA_HPP_
