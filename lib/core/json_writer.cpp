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

std::string JsonWriter::Escape(std::string_view s) {
  std::string r;
  r.reserve(s.size() + 2);
  r.push_back('"');
  for (unsigned char c : s) {
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
