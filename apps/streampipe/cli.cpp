#include "cli.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "absl/algorithm/container.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "streampipe/core/toml_schema.hpp"
#include "streampipe/video/histogram_writer.hpp"

namespace streampipe::cli {

FlagSet::FlagSet(std::string command, std::string synopsis)
    : command_(std::move(command)), synopsis_(std::move(synopsis)) {}

void FlagSet::Add(std::string name, std::string* target, std::string help) {
  flags_.push_back({std::move(name), target, std::move(help), *target});
}
void FlagSet::Add(std::string name, double* target, std::string help) {
  flags_.push_back({std::move(name), target, std::move(help), absl::StrCat(*target)});
}
void FlagSet::Add(std::string name, std::int64_t* target, std::string help) {
  flags_.push_back({std::move(name), target, std::move(help), absl::StrCat(*target)});
}
void FlagSet::Add(std::string name, int* target, std::string help) {
  flags_.push_back({std::move(name), target, std::move(help), absl::StrCat(*target)});
}
void FlagSet::Add(std::string name, bool* target, std::string help) {
  flags_.push_back({std::move(name), target, std::move(help), *target ? "true" : "false"});
}

FlagSet::Flag* FlagSet::Find(std::string_view name) {
  for (Flag& f : flags_) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

bool FlagSet::WasSet(std::string_view name) const {
  for (const Flag& f : flags_) {
    if (f.name == name) return f.set;
  }
  // A configuration key given as a flag (`--pipeline.max_streams=16`).
  return absl::c_any_of(overrides_, [&](const auto& o) { return o.first == name; });
}

std::vector<std::string> FlagSet::SetFlags() const {
  std::vector<std::string> names;
  for (const Flag& f : flags_) {
    if (f.set) names.push_back(f.name);
  }
  return names;
}

namespace {
// Why an integer flag's value did not parse: digits too many for its type, or no integer.
const char* IntegerProblem(const std::string& v) {
  const std::size_t first = !v.empty() && (v[0] == '+' || v[0] == '-') ? 1 : 0;
  const bool all_digits =
      first < v.size() && v.find_first_not_of("0123456789", first) == std::string::npos;
  return all_digits ? "out of the range of an integer flag" : "not an integer";
}
}  // namespace

absl::Status FlagSet::Assign(Flag& flag, std::string_view value) {
  const std::string v(value);
  auto bad = [&](const char* what) {
    return absl::InvalidArgumentError(absl::StrCat("--", flag.name, "=", v, ": ", what));
  };
  if (auto** s = std::get_if<std::string*>(&flag.target)) {
    **s = v;
  } else if (auto** d = std::get_if<double*>(&flag.target)) {
    // Decimal only (SimpleAtod took 0x10 as 16), and a value too large for a double is said to
    // be (1e309 was read as inf, and then named "--kernel-ms=inf"); before session 49.
    if (v.find_first_of("xX") != std::string::npos || !absl::SimpleAtod(v, *d)) {
      return bad("not a number");
    }
    const std::string lower = absl::AsciiStrToLower(v);
    const bool spelled = absl::StrContains(lower, "inf") || absl::StrContains(lower, "nan");
    if (!std::isfinite(**d) && !spelled) return bad("out of the range of a double");
  } else if (auto** i = std::get_if<std::int64_t*>(&flag.target)) {
    if (!absl::SimpleAtoi(v, *i)) return bad(IntegerProblem(v));
  } else if (auto** n = std::get_if<int*>(&flag.target)) {
    if (!absl::SimpleAtoi(v, *n)) return bad(IntegerProblem(v));
  } else if (auto** b = std::get_if<bool*>(&flag.target)) {
    if (v == "true" || v == "1" || v == "yes") {
      **b = true;
    } else if (v == "false" || v == "0" || v == "no") {
      **b = false;
    } else {
      return bad("not a boolean (true or false)");
    }
  }
  flag.set = true;
  return absl::OkStatus();
}

namespace {

// `--name VALUE`: the argument after args[i] is its value, unless there is none or it is a flag
// (`--output --quiet` would write a file named --quiet and lose the flag).
absl::Status NextIsValue(const std::vector<std::string>& args, std::size_t i,
                         const std::string& name) {
  if (i + 1 >= args.size()) {
    return absl::InvalidArgumentError(absl::StrCat("--", name, " needs a value"));
  }
  const std::string& next = args[i + 1];
  if (next.size() > 2 && next.rfind("--", 0) == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", name, " needs a value, and the next argument '", next,
                     "' is a flag (for a value that starts with '--', write --", name,
                     "=VALUE)"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status FlagSet::Parse(const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      positional_.insert(positional_.end(), args.begin() + static_cast<long>(i) + 1, args.end());
      break;
    }
    if (a.size() < 2 || a[0] != '-' || a == "-") {
      positional_.push_back(a);
      continue;
    }
    if (a == "--help" || a == "-h") {
      help_ = true;
      continue;
    }
    if (a.rfind("--", 0) != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown option '", a, "' for 'streampipe ", command_,
                       "' (flags are --name=value); see --help"));
    }
    std::string name = a.substr(2);
    std::string value;
    bool has_value = false;
    if (std::size_t eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    Flag* f = Find(name);
    if (f == nullptr && !has_value && name.rfind("no-", 0) == 0) {
      Flag* neg = Find(name.substr(3));
      if (neg != nullptr && std::holds_alternative<bool*>(neg->target)) {
        *std::get<bool*>(neg->target) = false;
        neg->set = true;
        continue;
      }
    }
    if (f == nullptr && accept_overrides_ && name.find('.') != std::string::npos) {
      if (!has_value) {
        if (absl::Status next = NextIsValue(args, i, name); !next.ok()) return next;
        value = args[++i];
      }
      // Given twice, the last value is the key's (docs/errors.md), and only it is checked:
      // `--detector.window=1 --detector.window=5` was refused for the 1 before session 51.
      std::erase_if(overrides_, [&](const auto& o) { return o.first == name; });
      overrides_.emplace_back(name, value);
      continue;
    }
    if (f == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("unknown flag --", name, " for 'streampipe ",
                                                     command_, "'; see --help"));
    }
    if (!has_value) {
      if (std::holds_alternative<bool*>(f->target)) {
        value = "true";
      } else {
        if (absl::Status next = NextIsValue(args, i, name); !next.ok()) return next;
        value = args[++i];
      }
    }
    absl::Status s = Assign(*f, value);
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

std::string FlagSet::Usage() const {
  std::string u = absl::StrCat("usage: streampipe ", command_, " ", synopsis_, "\n\nflags:\n");
  for (const Flag& f : flags_) {
    std::string kind = std::holds_alternative<bool*>(f.target) ? "" : "=VALUE";
    absl::StrAppend(&u, "  --", f.name, kind, "\n      ", f.help);
    if (!f.default_text.empty()) absl::StrAppend(&u, " (default: ", f.default_text, ")");
    u += "\n";
  }
  if (accept_overrides_) {
    u += "  --table.key=VALUE\n      override one configuration key (docs/config.md)\n";
  }
  return u;
}

std::optional<int> FlagSet::ParseCommandLine(const std::vector<std::string>& args,
                                             bool positionals_allowed,
                                             std::string_view positional_hint) {
  const absl::Status s = Parse(args);
  if (!s.ok()) return Fail(command_, kExitUsage, s);
  if (help_) {
    std::cout << Usage();
    return kExitOk;
  }
  if (!positionals_allowed && !positional_.empty()) {
    return Fail(command_, kExitUsage,
                absl::StrCat("unexpected argument '", positional_[0], "'",
                              positional_hint.empty() ? "" : " ",
                              std::string(positional_hint)));
  }
  return std::nullopt;
}

int Fail(std::string_view command, int code, std::string_view message) {
  // One line, and nothing that acts on the terminal: a file name a message quotes may hold a
  // line break or an escape sequence (before session 49 `--config="$(printf 'x\n\033[31m')"`
  // printed two lines, the second red). Control characters, C1 included, are written \xNN.
  const std::string shown = detail::EscapedControls(message);
  std::cerr << "streampipe " << command << ": " << shown << "\n";
  return code;
}

}  // namespace streampipe::cli

namespace streampipe::cli {

int Fail(std::string_view command, int code, const absl::Status& status) {
  return Fail(command, code, std::string_view(status.message().data(), status.message().size()));
}

absl::StatusOr<std::string> FollowLinks(const std::string& path) {
  std::filesystem::path p = path;
  for (int hops = 0; hops < 40; ++hops) {
    std::error_code ec;
    if (!std::filesystem::is_symlink(std::filesystem::symlink_status(p, ec))) return p.string();
    const std::filesystem::path to = std::filesystem::read_symlink(p, ec);
    if (ec) {
      return absl::PermissionDeniedError(
          absl::StrCat("cannot read the link '", p.string(), "': ", ec.message()));
    }
    p = to.is_absolute() ? to : p.parent_path() / to;
  }
  return absl::FailedPreconditionError(
      absl::StrCat("'", path, "': too many levels of symbolic links (a loop)"));
}

bool SameFile(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (std::filesystem::exists(a, ec) && std::filesystem::exists(b, ec)) {
    // (libstdc++'s equivalent() answers "not supported" for devices, FIFOs and sockets: a
    // terminal or /dev/null named twice is no clash.)
    return std::filesystem::equivalent(a, b, ec) && !ec;
  }
  // Absolute first: libstdc++'s weakly_canonical leaves a relative path none of whose parts
  // exists as it is ("o.csv"), where it resolves "./o.csv" to "/dir/o.csv". A link whose target
  // does not exist yet is followed by hand (weakly_canonical stops at it): writing through it
  // creates the target.
  const auto canonical = [&ec](const std::string& p) {
    std::filesystem::path abs = std::filesystem::absolute(p, ec);
    if (ec) return std::filesystem::path();
    // (A loop, or a link that cannot be read: compared as it is.)
    const absl::StatusOr<std::string> linked = FollowLinks(abs.string());
    return std::filesystem::weakly_canonical(linked.ok() ? *linked : abs.string(), ec);
  };
  const std::filesystem::path ca = canonical(a);
  if (ec) return a == b;
  const std::filesystem::path cb = canonical(b);
  return ec ? a == b : ca == cb;
}

std::optional<std::pair<std::size_t, std::size_t>> FirstSameFile(
    const std::vector<std::string>& paths, std::size_t first_output) {
  // "-" is the file the standard descriptor has open: stdin for a path only read, stdout for
  // an output (`--output=- --summary=/dev/stdout > f` wrote both into f, before session 51).
  const auto file = [&](std::size_t k) {
    return paths[k] != "-" ? paths[k] : k < first_output ? "/dev/stdin" : "/dev/stdout";
  };
  for (std::size_t i = 0; i < paths.size(); ++i) {
    for (std::size_t j = std::max(i + 1, first_output); j < paths.size(); ++j) {
      if (!paths[i].empty() && !paths[j].empty() && SameFile(file(i), file(j))) {
        return std::make_pair(i, j);
      }
    }
  }
  return std::nullopt;
}

// Why `path` could not be written, or "" where it could: an existing file (through its links)
// writable by this process, or a directory to create it in that is. Nothing is opened or made.
std::string CannotWrite(const std::string& path) {
  if (video::DescriptorNamedBy(path)) return "";  // opened, and checked, when written
  const absl::StatusOr<std::string> target = FollowLinks(path);
  if (!target.ok()) return std::string(target.status().message());
  std::error_code ec;
  const std::filesystem::file_status st = std::filesystem::status(*target, ec);
  if (std::filesystem::is_directory(st)) return "a directory";
  if (std::filesystem::exists(st)) {
    return ::access(target->c_str(), W_OK) == 0 ? "" : std::strerror(errno);
  }
  std::filesystem::path dir = std::filesystem::path(*target).parent_path();
  if (dir.empty()) dir = ".";
  if (!std::filesystem::is_directory(dir, ec)) return "no directory '" + dir.string() + "'";
  return ::access(dir.c_str(), W_OK | X_OK) == 0
             ? ""
             : absl::StrCat("the directory '", dir.string(), "': ", std::strerror(errno));
}

}  // namespace streampipe::cli
