#include "streampipe/core/toml_schema.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <toml++/toml.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

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

std::string Render(const toml::node& n) {
  std::ostringstream os;
  if (const auto* s = n.as_string()) {
    os << '"' << s->get() << '"';
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

std::string FormatNumber(double v) {
  std::ostringstream os;
  os.precision(17);
  os << v;
  std::string s = os.str();
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";  // keep it a TOML float
  return s;
}

std::string Quote(std::string_view s) {
  std::string r = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') r.push_back('\\');
    if (c == '\n') {
      r += "\\n";
      continue;
    }
    r.push_back(c);
  }
  r.push_back('"');
  return r;
}

// Walks every leaf (and sub-table) of `table`, reporting keys the schema does not know.
absl::Status CheckUnknown(const toml::table& table, const std::string& prefix,
                          std::string_view file, const std::set<std::string>& leaves,
                          const std::set<std::string>& tables) {
  for (auto&& [key, node] : table) {
    const std::string path = prefix.empty() ? S(key.str()) : absl::StrCat(prefix, ".", S(key.str()));
    if (node.is_table()) {
      if (!tables.count(path)) {
        return absl::InvalidArgumentError(
            absl::StrCat(Where(file, key.source()), ": unknown table [", path, "]"));
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
      std::string msg = absl::StrCat(Where(file, key.source()), ": unknown key '", path, "'");
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

// toml++ 3.3.0 (Debian 12's) reaches __builtin_unreachable when it asks whether a non-ASCII
// character is whitespace (upstream issues #190 and #295, fixed by PR #305): undefined
// behaviour on a user's file. Non-ASCII characters are only legal TOML inside strings and
// comments, so refuse them elsewhere before toml++ sees the text (a fixed toml++ refuses them
// too), and refuse the one legal case the bug also hits: a non-ASCII character first after a
// line-ending backslash in a multi-line basic string. Found by test/fuzz/config_fuzz.
absl::Status GuardToml(std::string_view text, std::string_view file) {
  enum class State { kNormal, kComment, kBasic, kLiteral, kMlBasic, kMlLiteral };
  State st = State::kNormal;
  int line = 1;
  int col = 0;
  bool after_line_backslash = false;  // kMlBasic: skipping whitespace after "\\\n"
  auto starts = [&](std::size_t i, std::string_view w) { return text.substr(i, w.size()) == w; };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char ch = static_cast<unsigned char>(text[i]);
    ++col;
    if (ch >= 0x80) {
      const bool allowed = st == State::kComment || st == State::kBasic || st == State::kLiteral ||
                           st == State::kMlLiteral || (st == State::kMlBasic && !after_line_backslash);
      if (!allowed) {
        const char* why = st == State::kMlBasic
                              ? "first after a line-ending backslash in a multi-line string "
                                "(not supported: toml++ 3.3.0 bug #190)"
                              : "outside a string or comment";
        return absl::InvalidArgumentError(absl::StrCat(
            S(file), ":", line, ":", col, ": parse error: non-ASCII byte 0x",
            absl::Hex(ch, absl::kZeroPad2), " ", why));
      }
      after_line_backslash = false;
      continue;
    }
    if (ch == '\n') {
      ++line;
      col = 0;
      if (st == State::kComment) st = State::kNormal;
      continue;
    }
    if (after_line_backslash && ch != ' ' && ch != '\t' && ch != '\r') after_line_backslash = false;
    switch (st) {
      case State::kNormal:
        if (ch == '#') {
          st = State::kComment;
        } else if (starts(i, "\"\"\"")) {
          st = State::kMlBasic;
          i += 2;
          col += 2;
        } else if (starts(i, "'''")) {
          st = State::kMlLiteral;
          i += 2;
          col += 2;
        } else if (ch == '"') {
          st = State::kBasic;
        } else if (ch == '\'') {
          st = State::kLiteral;
        }
        break;
      case State::kComment:
        break;
      case State::kBasic:
        if (ch == '\\' && i + 1 < text.size() && text[i + 1] != '\n') {
          ++i;  // an escape: the next character does not close the string
          ++col;
        } else if (ch == '"') {
          st = State::kNormal;
        }
        break;
      case State::kLiteral:
        if (ch == '\'') st = State::kNormal;
        break;
      case State::kMlBasic:
        if (ch == '\\') {
          // A line-ending backslash: "\\" then optional whitespace then a newline.
          std::size_t j = i + 1;
          while (j < text.size() && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r')) ++j;
          if (j < text.size() && text[j] == '\n') {
            after_line_backslash = true;
          } else if (i + 1 < text.size()) {
            ++i;
            ++col;
          }
        } else if (starts(i, "\"\"\"")) {
          st = State::kNormal;
          i += 2;
          col += 2;
        }
        break;
      case State::kMlLiteral:
        if (starts(i, "'''")) {
          st = State::kNormal;
          i += 2;
          col += 2;
        }
        break;
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ReadTextFile(const std::string& path, std::string* out) {
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
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    return absl::PermissionDeniedError(absl::StrCat(path, ": read error"));
  }
  *out = ss.str();
  return absl::OkStatus();
}

absl::Status ReadToml(std::string_view text, std::string_view file,
                      const std::vector<TomlKey>& keys, void* target) {
  absl::Status guard = GuardToml(text, file);
  if (!guard.ok()) return guard;
  toml::table root;
  try {
    root = toml::parse(text, file);
  } catch (const toml::parse_error& e) {
    return absl::InvalidArgumentError(absl::StrCat(S(file), ":", e.source().begin.line, ":",
                                                   e.source().begin.column, ": parse error: ",
                                                   S(e.description())));
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
    switch (k.type) {
      case TomlType::kDouble: {
        double v = 0.0;
        if (const auto* f = node->as_floating_point()) {
          v = f->get();
        } else if (const auto* i = node->as_integer()) {
          v = static_cast<double>(i->get());
        } else {
          return wrong_type();
        }
        if (!std::isfinite(v) || v < k.min || v > k.max) {
          return absl::InvalidArgumentError(absl::StrCat(where, ": key '", k.path, "' = ",
                                                         Render(*node), " is out of range [",
                                                         k.min, ", ", k.max, "]"));
        }
        k.set(target, TomlValue(v));
        break;
      }
      case TomlType::kInt: {
        const auto* i = node->as_integer();
        if (i == nullptr) return wrong_type();
        const std::int64_t v = i->get();
        if (static_cast<double>(v) < k.min || static_cast<double>(v) > k.max) {
          return absl::InvalidArgumentError(absl::StrCat(where, ": key '", k.path, "' = ", v,
                                                         " is out of range [",
                                                         static_cast<std::int64_t>(k.min), ", ",
                                                         static_cast<std::int64_t>(k.max), "]"));
        }
        k.set(target, TomlValue(v));
        break;
      }
      case TomlType::kBool: {
        const auto* b = node->as_boolean();
        if (b == nullptr) return wrong_type();
        k.set(target, TomlValue(b->get()));
        break;
      }
      case TomlType::kString: {
        const auto* str = node->as_string();
        if (str == nullptr) return wrong_type();
        const std::string v = str->get();
        if (!k.choices.empty() &&
            std::find(k.choices.begin(), k.choices.end(), v) == k.choices.end()) {
          return absl::InvalidArgumentError(absl::StrCat(where, ": key '", k.path, "' = \"", v,
                                                         "\" is not one of: ",
                                                         absl::StrJoin(k.choices, ", ")));
        }
        k.set(target, TomlValue(v));
        break;
      }
    }
  }
  return absl::OkStatus();
}

std::string WriteToml(const std::vector<TomlKey>& keys, const void* target, bool with_help) {
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
      if (const double* d = std::get_if<double>(&v)) value = FormatNumber(*d);
      if (const std::int64_t* i = std::get_if<std::int64_t>(&v)) value = absl::StrCat(*i);
      if (const bool* b = std::get_if<bool>(&v)) value = *b ? "true" : "false";
      if (const std::string* s = std::get_if<std::string>(&v)) value = Quote(*s);
      absl::StrAppend(&out, name, " = ", value, "\n");
    }
  }
  return out;
}

}  // namespace detail
}  // namespace streampipe
