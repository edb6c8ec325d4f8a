#include "streampipe/core/json_writer.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace streampipe {

void JsonWriter::Separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) out_->push_back(',');
    first_.back() = false;
  }
}

void JsonWriter::BeginObject() {
  Separate();
  out_->push_back('{');
  first_.push_back(true);
}

void JsonWriter::EndObject() {
  out_->push_back('}');
  if (!first_.empty()) first_.pop_back();  // (an End with nothing open: the caller's error)
}

void JsonWriter::BeginArray() {
  Separate();
  out_->push_back('[');
  first_.push_back(true);
}

void JsonWriter::EndArray() {
  out_->push_back(']');
  if (!first_.empty()) first_.pop_back();
}

void JsonWriter::Key(std::string_view key) {
  Separate();
  out_->append(Escape(key));
  out_->push_back(':');
  after_key_ = true;
}

void JsonWriter::String(std::string_view value) {
  Separate();
  out_->append(Escape(value));
}

void JsonWriter::Double(double value) {
  Separate();
  if (!std::isfinite(value)) {
    out_->append("null");
    return;
  }
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), value);
  out_->append(buf, ec == std::errc() ? end : buf);
}

void JsonWriter::Int(std::int64_t value) {
  Separate();
  out_->append(std::to_string(value));
}

void JsonWriter::Bool(bool value) {
  Separate();
  out_->append(value ? "true" : "false");
}

void JsonWriter::Null() {
  Separate();
  out_->append("null");
}

namespace {
// The length of the well-formed UTF-8 sequence at s[i] (RFC 3629: no overlong forms, no
// surrogates, nothing past U+10FFFF), or 0 where the bytes there are not one.
std::size_t Utf8SequenceAt(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  std::size_t len = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3;
    if (b0 == 0xE0) lo = 0xA0;  // overlong
    if (b0 == 0xED) hi = 0x9F;  // surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4;
    if (b0 == 0xF0) lo = 0x90;  // overlong
    if (b0 == 0xF4) hi = 0x8F;  // past U+10FFFF
  } else {
    return 0;  // a continuation byte, C0/C1 (overlong) or F5-FF
  }
  if (s.size() - i < len) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < len; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return len;
}
}  // namespace

std::string JsonWriter::Escape(std::string_view s) {
  std::string r;
  r.reserve(s.size() + 2);
  r.push_back('"');
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      // JSON and TOML text is UTF-8: a well-formed sequence is kept, any other byte becomes
      // U+FFFD (the replacement character), so that a reason or path with stray bytes still
      // gives a line every parser reads.
      if (const std::size_t len = Utf8SequenceAt(s, i); len > 0) {
        r.append(s.substr(i, len));
        i += len - 1;
      } else {
        r += "\\ufffd";
      }
      continue;
    }
    switch (c) {
      case '"':
        r += "\\\"";
        break;
      case '\\':
        r += "\\\\";
        break;
      case '\n':
        r += "\\n";
        break;
      case '\r':
        r += "\\r";
        break;
      case '\t':
        r += "\\t";
        break;
      default:
        if (c < 0x20 || c == 0x7F) {  // DEL too: TOML (toml_schema's Quote) needs it escaped
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          r += buf;
        } else {
          r.push_back(static_cast<char>(c));
        }
    }
  }
  r.push_back('"');
  return r;
}

}  // namespace streampipe
