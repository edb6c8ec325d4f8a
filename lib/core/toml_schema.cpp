#include "streampipe/core/toml_schema.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "streampipe/core/json_writer.hpp"

namespace streampipe {

const char* TomlTypeName(TomlType type) {
  switch (type) {
    case TomlType::kDouble:
      return "a number";
    case TomlType::kInt:
      return "an integer";
    case TomlType::kBool:
      return "a boolean";
    case TomlType::kString:
      return "a string";
  }
  return "?";
}

namespace detail {
namespace {

std::string S(std::string_view v) { return std::string(v); }

std::string Where(std::string_view file, const toml::source_region& src) {
  if (src.begin.line == 0) return S(file);
  return absl::StrCat(S(file), ":", src.begin.line);
}

const char* NodeTypeName(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a number";
    case toml::node_type::boolean:
      return "a boolean";
    default:
      return "a date/time";
  }
}

std::string FormatNumber(double v, TomlNumbers numbers) {
  std::string s;
  if (numbers == TomlNumbers::kShortest) {
    s = ShortestDouble(v);
  } else {
    std::ostringstream os;
    os.precision(17);
    os << v;
    s = os.str();
  }
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";  // keep it a TOML float
  return s;
}

std::string Shown(std::string_view text) { return ShownInMessage(text, Utf8::kKeep); }

std::string Render(const toml::node& n) {
  std::ostringstream os;
  if (const auto* d = n.as_floating_point()) {
    os << FormatNumber(d->get(), TomlNumbers::kShortest);
  } else if (const auto* s = n.as_string()) {
    os << '"' << Shown(s->get()) << '"';
  } else if (n.is_table()) {
    os << "{...}";
  } else if (n.is_array()) {
    os << "[...]";
  } else {
    n.visit([&os](const auto& v) {
      if constexpr (toml::is_value<decltype(v)>) os << v;
    });
  }
  return os.str();
}

// A TOML basic string. JSON's string escapes are TOML's too, so JsonWriter's escaper writes it
// (a control character written as it is makes the file unreadable: test/fuzz/config_fuzz found
// a form feed that did).
std::string Quote(std::string_view s) { return JsonWriter::Escape(s); }

// Walks every leaf (and sub-table) of `table`, reporting keys the schema does not know.
absl::Status CheckUnknown(const toml::table& table, const std::string& prefix,
                          std::string_view file, const std::set<std::string>& leaves,
                          const std::set<std::string>& tables) {
  for (auto&& [key, node] : table) {
    const std::string path = prefix.empty() ? S(key.str()) : absl::StrCat(prefix, ".", S(key.str()));
    if (node.is_table()) {
      if (leaves.count(path)) {
        // `threshold = {a = 1}`: a value of the wrong type, not a table the schema lacks.
        return absl::InvalidArgumentError(absl::StrCat(
            Where(file, key.source()), ": key '", path, "' must be a value, not a table"));
      }
      if (!tables.count(path)) {
        return absl::InvalidArgumentError(
            absl::StrCat(Where(file, key.source()), ": unknown table [", Shown(path), "]"));
      }
      absl::Status s = CheckUnknown(*node.as_table(), path, file, leaves, tables);
      if (!s.ok()) return s;
    } else if (!leaves.count(path)) {
      // Suggest the known keys of the same table.
      std::vector<std::string> siblings;
      for (const std::string& l : leaves) {
        const std::size_t dot = l.rfind('.');
        const std::string parent = dot == std::string::npos ? "" : l.substr(0, dot);
        if (parent == prefix) siblings.push_back(l.substr(dot == std::string::npos ? 0 : dot + 1));
      }
      std::string msg =
          absl::StrCat(Where(file, key.source()), ": unknown key '", Shown(path), "'");
      if (tables.count(path)) {
        msg = absl::StrCat(Where(file, key.source()), ": '", path, "' must be a table");
      } else if (!siblings.empty()) {
        absl::StrAppend(&msg, " (known keys", prefix.empty() ? "" : " in [" + prefix + "]", ": ",
                        absl::StrJoin(siblings, ", "), ")");
      }
      return absl::InvalidArgumentError(msg);
    }
  }
  return absl::OkStatus();
}

// toml++ 3.3.0 (Debian 12's) reaches __builtin_unreachable when it asks whether some non-ASCII
// characters are whitespace (upstream issues #190 and #295, fixed by PR #305, not in 3.3.0):
// undefined behaviour on a user's file. It asks in more places than strings' edges: a number
// token scans every character up to a terminator, across quotes (found by
// test/fuzz/config_fuzz). So toml++ is only ever given ASCII: every non-ASCII character is
// made ASCII without changing what the document means, and the column of a parse error is
// mapped back to the user's text.
//  - in a basic string ("...", """..."""): written as its escape (\u and 4 hex digits, or \U
//    and 8: "é" as "\u00e9");
//  - in a literal string ('...', '''...''') that holds one: the string becomes a basic string
//    (backslashes and double quotes escaped too);
//  - in a comment: '?' (comments are dropped; one column for one);
//  - anywhere else: an error naming line, column and character (TOML allows non-ASCII only in
//    strings and comments; a fixed toml++ refuses it there too).
// Invalid UTF-8 is an error naming the byte. Strings and comments are found by the lexical
// rules of TOML 1.0; where toml++ would see them elsewhere, the document is invalid there and
// stays invalid. A file in ASCII is given to toml++ unchanged.
struct AsciiToml {
  // Columns [first, last] of `line` in `text` stand for column `original` of the user's text.
  struct Rewrite {
    int line;
    int first;
    int last;
    int original;
  };
  std::string text;
  std::vector<Rewrite> rewrites;  // in text order

  int OriginalColumn(int line, int column) const {
    int shift = 0;
    for (const Rewrite& r : rewrites) {
      if (r.line < line) continue;
      if (r.line > line || column < r.first) break;
      if (column <= r.last) return r.original;
      shift += r.last - r.first;
    }
    return column - shift;
  }
};

// The code point at text[i] and its length in bytes; length 0 if it is not valid UTF-8
// (overlong forms, surrogates and values past U+10FFFF are not).
int DecodeUtf8(std::string_view text, std::size_t i, char32_t* cp) {
  const auto byte = [&](std::size_t k) -> unsigned {
    return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0u;
  };
  const unsigned b0 = byte(0);
  if (b0 < 0x80) {
    *cp = b0;
    return 1;
  }
  int len = 0;
  unsigned lo = 0x80;
  unsigned hi = 0xBF;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2;
    *cp = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3;
    *cp = b0 & 0x0F;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4;
    *cp = b0 & 0x07;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  for (int k = 1; k < len; ++k) {
    const unsigned b = byte(static_cast<std::size_t>(k));
    if (b < (k == 1 ? lo : 0x80u) || b > (k == 1 ? hi : 0xBFu)) return 0;
    *cp = (*cp << 6) | (b & 0x3F);
  }
  return len;
}

std::string CodePointName(char32_t cp) {
  return absl::StrFormat("U+%04X", static_cast<std::uint32_t>(cp));
}

absl::StatusOr<AsciiToml> MakeAsciiToml(std::string_view in, std::string_view file) {
  enum class State { kNormal, kComment, kBasic, kMlBasic, kLiteral, kMlLiteral };
  AsciiToml out;
  out.text.reserve(in.size());
  State st = State::kNormal;
  bool convert = false;  // kLiteral, kMlLiteral: written as a basic string
  bool escaped = false;  // kBasic, kMlBasic: the previous character was a backslash
  int line = 1;
  int col = 0;      // of the current character in `in`, in characters as toml++ counts them
  int out_col = 0;  // in out.text
  // The dots of this line's key (or table header) so far, outside strings: toml++ parses dotted
  // keys recursively, and a key of tens of thousands of parts overflowed its stack (SIGSEGV).
  // No key of ours has more than three parts.
  constexpr int kMaxKeyDots = 64;
  int key_dots = 0;
  bool in_key = true;  // before this line's first '=', or a key's '=' in an inline table
  // The arrays and inline tables open here ('[' or '{'), outside strings: an inline table's keys
  // are keys too (`x = {a.a.a... = 1}` of 150000 parts overflowed toml++'s stack before session
  // 49), and an array's values are not (the dots of its floats are no key's, over lines too).
  std::vector<char> open;
  std::size_t i = in.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;  // a BOM: toml++ skips it too
  const auto error = [&](std::string_view what) {
    return absl::InvalidArgumentError(
        absl::StrCat(S(file), ":", line, ":", col, ": parse error: ", S(what)));
  };
  // `s` for as many characters of `in`, one for one.
  const auto copy = [&](std::string_view s) {
    out.text.append(s);
    out_col += static_cast<int>(s.size());
  };
  // `s` for the one character at `col`.
  const auto replace = [&](std::string_view s) {
    if (s.size() != 1) {
      out.rewrites.push_back({line, out_col + 1, out_col + static_cast<int>(s.size()), col});
    }
    copy(s);
  };
  // A literal string written as a basic one would join a double quote next to it into another
  // string; TOML never lets a string touch a quote, so the document is invalid there.
  const auto touching = [&]() {
    return error("a string directly next to a double quote (invalid TOML)");
  };
  const auto run_of = [&](char q) {
    std::size_t n = 0;
    while (i + n < in.size() && in[i + n] == q) ++n;
    return n;
  };
  // Whether a non-ASCII byte comes before `end` (or the end of the text; for a single-line
  // string, the end of the line) from `from` on.
  // One pass from `from` to the first of those (before session 49 each single-quoted string
  // looked for its line's end first: a line of 4 MB of them took 28 s, of 16 MB 9.5 minutes).
  const auto has_non_ascii = [&](std::size_t from, std::string_view end) {
    for (std::size_t k = from; k < in.size(); ++k) {
      if (end.size() == 1 && in[k] == '\n') return false;
      if (in.compare(k, end.size(), end) == 0) return false;
      if (static_cast<unsigned char>(in[k]) >= 0x80) return true;
    }
    return false;
  };
  while (i < in.size()) {
    char32_t cp = 0;
    const int len = DecodeUtf8(in, i, &cp);
    ++col;
    if (len == 0) {
      return error(absl::StrCat("invalid UTF-8 (byte 0x",
                                absl::Hex(static_cast<unsigned char>(in[i]), absl::kZeroPad2),
                                ")"));
    }
    const std::string_view raw = in.substr(i, static_cast<std::size_t>(len));
    const bool ascii = cp < 0x80;
    std::size_t next = i + static_cast<std::size_t>(len);
    if (cp == '\n') {
      out.text.push_back('\n');
      ++line;
      col = 0;
      out_col = 0;
      escaped = false;
      key_dots = 0;
      in_key = open.empty() || open.back() == '{';
      // A newline ends a comment; in a single-line string it is an error toml++ reports.
      if (st == State::kComment || st == State::kBasic || st == State::kLiteral) {
        st = State::kNormal;
      }
      i = next;
      continue;
    }
    const auto as_escape = [cp]() {
      const auto v = static_cast<std::uint32_t>(cp);
      return cp <= 0xFFFF ? absl::StrCat("\\u", absl::Hex(v, absl::kZeroPad4))
                          : absl::StrCat("\\U", absl::Hex(v, absl::kZeroPad8));
    };
    switch (st) {
      case State::kNormal:
        if (!ascii) {
          return error(absl::StrCat("character '", S(raw), "' (", CodePointName(cp),
                                    ") is only allowed in strings and comments"));
        }
        if (cp == '=') in_key = false;
        if (cp == '{') {
          open.push_back('{');
          in_key = true;
          key_dots = 0;
        } else if (cp == '[' && !(in_key && open.empty())) {  // an array (not a table header)
          open.push_back('[');
          in_key = false;
        } else if ((cp == ']' || cp == '}') && !open.empty() &&
                   open.back() == (cp == ']' ? '[' : '{')) {
          open.pop_back();
          in_key = false;
        } else if (cp == ',' && !open.empty() && open.back() == '{') {
          in_key = true;  // the next key of an inline table
          key_dots = 0;
        }
        if (cp == '.' && in_key && ++key_dots > kMaxKeyDots) {
          return error(absl::StrCat("a key of more than ", kMaxKeyDots + 1, " dotted parts"));
        }
        if (cp == '#') {
          st = State::kComment;
          copy(raw);
        } else if (cp == '"' && run_of('"') >= 3) {
          st = State::kMlBasic;
          copy(in.substr(i, 3));
          next = i + 3;
          col += 2;
        } else if (cp == '"') {
          st = State::kBasic;
          copy(raw);
        } else if (cp == '\'' && run_of('\'') >= 3) {
          st = State::kMlLiteral;
          convert = has_non_ascii(i + 3, in.substr(i, 3));
          if (convert && !out.text.empty() && out.text.back() == '"') return touching();
          copy(convert ? std::string(3, '"') : std::string(3, '\''));
          next = i + 3;
          col += 2;
        } else if (cp == '\'') {
          st = State::kLiteral;
          convert = has_non_ascii(i + 1, raw);
          if (convert && !out.text.empty() && out.text.back() == '"') return touching();
          copy(convert ? "\"" : "'");
        } else {
          copy(raw);
        }
        break;
      case State::kComment:
        copy(ascii ? raw : "?");
        break;
      case State::kBasic:
      case State::kMlBasic:
        if (escaped) {
          if (!ascii) {
            return error(absl::StrCat("invalid escape sequence '\\", S(raw), "' in a string"));
          }
          escaped = false;
          copy(raw);
        } else if (!ascii) {
          replace(as_escape());
        } else if (cp == '\\') {
          escaped = true;
          copy(raw);
        } else if (cp == '"' && st == State::kBasic) {
          st = State::kNormal;
          copy(raw);
        } else if (cp == '"' && run_of('"') >= 3) {
          // """ closes; up to two more quotes before it belong to the string.
          const std::size_t n = run_of('"');
          copy(in.substr(i, n));
          next = i + n;
          col += static_cast<int>(n) - 1;
          st = State::kNormal;
        } else {
          copy(raw);
        }
        break;
      case State::kLiteral:
      case State::kMlLiteral: {
        const bool ml = st == State::kMlLiteral;
        const std::size_t n = cp == '\'' ? run_of('\'') : 0;
        if (cp == '\'' && (!ml || n >= 3)) {
          // ''' closes; up to two more quotes before it belong to the string.
          if (ml && n > 5 && convert) {
            return error("a multi-line literal string ends with at most five quotes");
          }
          const std::size_t closing = ml ? 3 : 1;
          const std::size_t body = ml ? n - closing : 0;
          copy(std::string(body, '\''));
          copy(std::string(closing, convert ? '"' : '\''));
          next = i + body + closing;
          col += static_cast<int>(body + closing) - 1;
          st = State::kNormal;
          if (convert && next < in.size() && in[next] == '"') {
            ++col;
            return touching();
          }
        } else if (!ascii) {
          replace(as_escape());  // only when converting: the look-ahead saw it
        } else if (convert && (cp == '\\' || cp == '"')) {
          replace(cp == '\\' ? "\\\\" : "\\\"");
        } else {
          copy(raw);
        }
        break;
      }
    }
    i = next;
  }
  return out;
}

}  // namespace

absl::Status ReadTextFile(const std::string& path, std::string* out, std::size_t max_bytes) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return absl::PermissionDeniedError(absl::StrCat(path, ": cannot read: it is a directory"));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const int err = errno;
    if (err == ENOENT) return absl::NotFoundError(absl::StrCat(path, ": no such file"));
    return absl::PermissionDeniedError(
        absl::StrCat(path, ": cannot read: ", std::strerror(err)));
  }
  std::string text;
  char piece[1 << 16];
  while (in.read(piece, sizeof(piece)) || in.gcount() > 0) {
    text.append(piece, static_cast<std::size_t>(in.gcount()));
    if (text.size() > max_bytes) {
      return absl::OutOfRangeError(absl::StrCat(path, ": over ", max_bytes >> 20, " MiB"));
    }
  }
  if (in.bad()) {
    return absl::PermissionDeniedError(absl::StrCat(path, ": read error"));
  }
  *out = std::move(text);
  return absl::OkStatus();
}

std::string ShortestDouble(double v) {
  char buf[400];  // the longest fixed form below 1e15 with every digit of a double
  const double a = std::fabs(v);
  if (std::isfinite(v) && (a == 0.0 || (a >= 1e-5 && a < 1e15))) {
    // As people write them: 0.0009 (not 9e-04), 1000000 (not 1e+06).
    const auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::fixed);
    if (ec == std::errc()) return std::string(buf, end);
  }
  const auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v);
  if (ec != std::errc()) return absl::StrFormat("%.17g", v);
  return std::string(buf, end);
}

absl::Status CheckValue(const TomlKey& k, const TomlValue& value) {
  switch (k.type) {
    case TomlType::kDouble: {
      const double v = std::get<double>(value);
      if (!std::isfinite(v) || v < k.min || v > k.max) {
        return absl::InvalidArgumentError(absl::StrCat(
            "is out of range [", ShortestDouble(k.min), ", ", ShortestDouble(k.max), "]"));
      }
      break;
    }
    case TomlType::kInt: {
      const std::int64_t v = std::get<std::int64_t>(value);
      if (static_cast<double>(v) < k.min || static_cast<double>(v) > k.max) {
        return absl::InvalidArgumentError(absl::StrCat(
            "is out of range [", static_cast<std::int64_t>(k.min), ", ",
            static_cast<std::int64_t>(k.max), "]"));
      }
      break;
    }
    case TomlType::kBool:
      break;
    case TomlType::kString: {
      const std::string& v = std::get<std::string>(value);
      if (!k.choices.empty() &&
          std::find(k.choices.begin(), k.choices.end(), v) == k.choices.end()) {
        return absl::InvalidArgumentError(
            absl::StrCat("is not one of: ", absl::StrJoin(k.choices, ", ")));
      }
      if (k.check) {
        if (absl::Status s = k.check(v); !s.ok()) {
          return absl::InvalidArgumentError(absl::StrCat("is not valid: ", s.message()));
        }
      }
      break;
    }
  }
  return absl::OkStatus();
}

std::string ShownInMessage(std::string_view text, Utf8 utf8) {
  constexpr std::size_t kShownBytes = 64;
  std::size_t end = std::min(text.size(), kShownBytes);
  if (utf8 == Utf8::kEscape) {
    std::string out = absl::CHexEscape(absl::string_view(text.data(), end));
    if (end < text.size()) absl::StrAppend(&out, "... (", text.size(), " bytes)");
    return out;
  }
  while (end < text.size() && end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) {
    --end;  // not inside a character
  }
  std::string out = EscapedControls(text.substr(0, end));
  if (end < text.size()) absl::StrAppend(&out, "... (", text.size(), " bytes)");
  return out;
}

std::string EscapedControls(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto u = static_cast<unsigned char>(text[i]);
    const bool c1 = u == 0xC2 && i + 1 < text.size() &&
                    static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                    static_cast<unsigned char>(text[i + 1]) <= 0x9F;
    if (u < 0x20 || u == 0x7F) {
      absl::StrAppend(&out, absl::StrFormat("\\x%02x", u));
    } else if (c1) {
      absl::StrAppend(&out, absl::StrFormat("\\xc2\\x%02x",
                                            static_cast<unsigned char>(text[i + 1])));
      ++i;
    } else {
      out += text[i];
    }
  }
  return out;
}

absl::Status ReadToml(std::string_view text, std::string_view file,
                      const std::vector<TomlKey>& keys, void* target,
                      std::vector<std::string>* present) {
  absl::StatusOr<AsciiToml> ascii = MakeAsciiToml(text, file);
  if (!ascii.ok()) return ascii.status();
  toml::table root;
  try {
    root = toml::parse(ascii->text, file);
  } catch (const toml::parse_error& e) {
    // Lines are the user's; columns move where a character was written as an escape.
    const int line = static_cast<int>(e.source().begin.line);
    const int column = ascii->OriginalColumn(line, static_cast<int>(e.source().begin.column));
    return absl::InvalidArgumentError(absl::StrCat(S(file), ":", line, ":", column,
                                                   ": parse error: ", S(e.description())));
  }
  std::set<std::string> leaves;
  std::set<std::string> tables;
  for (const TomlKey& k : keys) {
    leaves.insert(k.path);
    std::string_view p = k.path;
    for (std::size_t dot = p.find('.'); dot != std::string_view::npos; dot = p.find('.', dot + 1)) {
      tables.insert(S(p.substr(0, dot)));
    }
  }
  absl::Status s = CheckUnknown(root, "", file, leaves, tables);
  if (!s.ok()) return s;

  for (const TomlKey& k : keys) {
    const toml::node* node = root.at_path(k.path).node();
    if (node == nullptr) continue;  // keep the default
    const std::string where = Where(file, node->source());
    auto wrong_type = [&]() {
      return absl::InvalidArgumentError(absl::StrCat(where, ": key '", k.path, "' must be ",
                                                     TomlTypeName(k.type), ", got ",
                                                     NodeTypeName(*node), " ", Render(*node)));
    };
    TomlValue v;
    switch (k.type) {
      case TomlType::kDouble:
        if (const auto* f = node->as_floating_point()) {
          v = f->get();
        } else if (const auto* i = node->as_integer()) {
          v = static_cast<double>(i->get());
        } else {
          return wrong_type();
        }
        break;
      case TomlType::kInt:
        if (const auto* i = node->as_integer()) {
          v = i->get();
        } else {
          return wrong_type();
        }
        break;
      case TomlType::kBool:
        if (const auto* b = node->as_boolean()) {
          v = b->get();
        } else {
          return wrong_type();
        }
        break;
      case TomlType::kString:
        if (const auto* str = node->as_string()) {
          v = std::string(str->get());
        } else {
          return wrong_type();
        }
        break;
    }
    if (absl::Status c = CheckValue(k, v); !c.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": key '", k.path, "' = ", Render(*node), " ", c.message()));
    }
    k.set(target, v);
    if (present != nullptr) present->push_back(k.path);
  }
  return absl::OkStatus();
}

std::string WriteToml(const std::vector<TomlKey>& keys, const void* target, bool with_help,
                      TomlNumbers numbers) {
  // Group keys by table, in schema order of first appearance.
  std::vector<std::string> order;
  std::map<std::string, std::vector<const TomlKey*>> by_table;
  for (const TomlKey& k : keys) {
    const std::size_t dot = k.path.rfind('.');
    const std::string table = dot == std::string::npos ? "" : k.path.substr(0, dot);
    if (!by_table.count(table)) order.push_back(table);
    by_table[table].push_back(&k);
  }
  std::string out;
  for (const std::string& table : order) {
    if (!table.empty()) absl::StrAppend(&out, out.empty() ? "" : "\n", "[", table, "]\n");
    for (const TomlKey* k : by_table[table]) {
      if (with_help && !k->help.empty()) absl::StrAppend(&out, "# ", k->help, "\n");
      const std::size_t dot = k->path.rfind('.');
      const std::string name = dot == std::string::npos ? k->path : k->path.substr(dot + 1);
      const TomlValue v = k->get(target);
      std::string value;
      if (const double* d = std::get_if<double>(&v)) value = FormatNumber(*d, numbers);
      if (const std::int64_t* i = std::get_if<std::int64_t>(&v)) value = absl::StrCat(*i);
      if (const bool* b = std::get_if<bool>(&v)) value = *b ? "true" : "false";
      if (const std::string* s = std::get_if<std::string>(&v)) value = Quote(*s);
      absl::StrAppend(&out, name, " = ", value, "\n");
    }
  }
  return out;
}

std::string MarkdownTable(const std::vector<TomlKey>& keys, const void* defaults) {
  std::string out = "| key | type | default | allowed | meaning |\n|---|---|---|---|---|\n";
  for (const TomlKey& k : keys) {
    const TomlValue v = k.get(defaults);
    std::string def;
    std::string allowed;
    switch (k.type) {
      case TomlType::kDouble:
        def = ShortestDouble(std::get<double>(v));
        allowed = absl::StrCat(ShortestDouble(k.min), " to ", ShortestDouble(k.max));
        break;
      case TomlType::kInt:
        def = absl::StrCat(std::get<std::int64_t>(v));
        allowed = absl::StrCat(static_cast<std::int64_t>(k.min), " to ",
                               static_cast<std::int64_t>(k.max));
        break;
      case TomlType::kBool:
        def = std::get<bool>(v) ? "true" : "false";
        allowed = "true, false";
        break;
      case TomlType::kString:
        def = "\"" + std::get<std::string>(v) + "\"";
        allowed = k.allowed.empty() ? absl::StrJoin(k.choices, ", ") : k.allowed;
        if (allowed.empty()) allowed = "any";
        break;
    }
    static const char* const kTypes[] = {"float", "integer", "boolean", "string"};
    absl::StrAppend(&out, "| `", k.path, "` | ", kTypes[static_cast<int>(k.type)], " | `", def,
                    "` | ", allowed, " | ", k.help, " |\n");
  }
  return out;
}

}  // namespace detail
}  // namespace streampipe
