// A minimal streaming JSON writer for reports, Chrome traces and JSON-lines logs.
//
//   std::string out;
//   streampipe::JsonWriter j(&out);
//   j.BeginObject();
//   j.Key("streams"); j.Int(16);
//   j.Key("ms"); j.Double(1.52);     // non-finite doubles are written as null
//   j.EndObject();                   // out == {"streams":16,"ms":1.52}
//
// Not thread-safe; one writer per output string.
#ifndef STREAMPIPE_CORE_JSON_WRITER_HPP_
#define STREAMPIPE_CORE_JSON_WRITER_HPP_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace streampipe {

class JsonWriter {
 public:
  explicit JsonWriter(std::string* out) : out_(out) {}

  void BeginObject();
  void EndObject();
  void BeginArray();
  void EndArray();
  void Key(std::string_view key);
  void String(std::string_view value);
  void Double(double value);  // shortest round-trip form; NaN and infinities become null
  void Int(std::int64_t value);
  void Bool(bool value);
  void Null();

  // With the quotes. Control characters and DEL are escaped; the text must come out UTF-8, so a
  // byte that does not start a well-formed UTF-8 sequence (stray, truncated, overlong, a
  // surrogate, past U+10FFFF) is written as \ufffd and well-formed sequences are kept as they are.
  static std::string Escape(std::string_view s);

 private:
  void Separate();
  std::string* out_;
  std::vector<bool> first_;  // per open container: no element written yet
  bool after_key_ = false;
};

}  // namespace streampipe

#endif  // STREAMPIPE_CORE_JSON_WRITER_HPP_
