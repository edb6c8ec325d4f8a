// Command-line plumbing shared by the streampipe subcommands: a small typed flag parser (one
// per subcommand, so each has its own --help) and the sysexits.h exit codes of docs/errors.md.
//
// We do not use absl::ParseCommandLine: it exits the process with status 1 on a bad flag,
// where we need 64 (EX_USAGE) and a message that names the flag and the value.
#ifndef STREAMPIPE_APPS_CLI_HPP_
#define STREAMPIPE_APPS_CLI_HPP_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace streampipe::cli {

// sysexits.h
enum ExitCode : int {
  kExitOk = 0,
  kExitUsage = 64,     // EX_USAGE: unknown flag, bad flag value, wrong arguments
  kExitDataErr = 65,   // EX_DATAERR: corrupt or truncated input data
  kExitNoInput = 66,   // EX_NOINPUT: input file missing or unreadable
  kExitUnavailable = 69,  // EX_UNAVAILABLE: no CUDA device where one is required
  kExitSoftware = 70,  // EX_SOFTWARE: internal error, including a sticky CUDA error
  kExitIoErr = 74,     // EX_IOERR: writing output failed
  kExitConfig = 78,    // EX_CONFIG: bad configuration file
};

class FlagSet {
 public:
  FlagSet(std::string command, std::string synopsis);

  void Add(std::string name, std::string* target, std::string help);
  void Add(std::string name, double* target, std::string help);
  void Add(std::string name, std::int64_t* target, std::string help);
  void Add(std::string name, int* target, std::string help);
  void Add(std::string name, bool* target, std::string help);

  // Parses args (flags and positionals, in any order). Accepts --name=value, --name value,
  // --bool, --no-bool, and "--" to end flags; "-" is a positional (stdin). In `--name value` the
  // value is never a flag (`--output --quiet` is refused: --output=--quiet gives that name). A
  // flag given twice takes its last value, as in GNU tools. InvalidArgument naming the flag and
  // value on any error.
  absl::Status Parse(const std::vector<std::string>& args);

  // What every command does with its arguments: Parse, then either std::nullopt (go on) or the
  // exit code to return at once: kExitUsage after printing the error, kExitOk after printing
  // the usage for --help. A positional argument is an error unless `positionals_allowed`; the
  // message then ends with `positional_hint` when given.
  std::optional<int> ParseCommandLine(const std::vector<std::string>& args,
                                      bool positionals_allowed = false,
                                      std::string_view positional_hint = "");

  // Accept --table.key=value flags (keys of the configuration file) and collect them in order
  // instead of rejecting them as unknown.
  void AcceptConfigOverrides() { accept_overrides_ = true; }
  const std::vector<std::pair<std::string, std::string>>& overrides() const { return overrides_; }

  const std::vector<std::string>& positional() const { return positional_; }
  // Whether flag `name` was given; a configuration key given as a flag counts too.
  bool WasSet(std::string_view name) const;
  // The names of the flags given on the command line, in the order they were added.
  std::vector<std::string> SetFlags() const;
  bool help_requested() const { return help_; }
  std::string Usage() const;

 private:
  struct Flag {
    std::string name;
    std::variant<std::string*, double*, std::int64_t*, int*, bool*> target;
    std::string help;
    std::string default_text;
    bool set = false;
  };
  Flag* Find(std::string_view name);
  absl::Status Assign(Flag& flag, std::string_view value);

  std::string command_;
  std::string synopsis_;
  std::vector<Flag> flags_;
  std::vector<std::string> positional_;
  std::vector<std::pair<std::string, std::string>> overrides_;
  bool accept_overrides_ = false;
  bool help_ = false;
};

// Prints "streampipe <command>: <message>" to stderr and returns `code`.
int Fail(std::string_view command, int code, std::string_view message);
// The same with the message of a Status.
int Fail(std::string_view command, int code, const absl::Status& status);

// The file a chain of symbolic links ends at, whether or not that file exists yet (a dangling
// link names the file to create); `path` itself where it is no link. Relative links are read
// against their own directory. FailedPrecondition for a loop (40 links), PermissionDenied where
// a link cannot be read.
absl::StatusOr<std::string> FollowLinks(const std::string& path);

// Why `path` could not be written, or "" where it could: an existing file (through its links)
// writable by this process, or a directory to create it in that is. Nothing is opened or made
// (a FIFO's open would wait for a reader; a link to no file yet is left as it is).
std::string CannotWrite(const std::string& path);

// Do two paths name one file: the same path, or two names of one existing file (a link, "./",
// "a/../")? An output opened over its own input would empty it before it is read. A device, a
// FIFO or a socket is no one file here (libstdc++'s equivalent() does not compare them):
// /dev/null or a terminal named twice loses nothing.
bool SameFile(const std::string& a, const std::string& b);

// The first two of `paths` (in order: i < j) that name one file, by SameFile; empty paths name
// none, and "-" is the file stdin (a path only read) or stdout (an output) has open. nullopt
// where no two do. The paths before `first_output` are only read: two of them naming one file
// is no clash (j >= first_output in every answer).
std::optional<std::pair<std::size_t, std::size_t>> FirstSameFile(
    const std::vector<std::string>& paths, std::size_t first_output = 0);

}  // namespace streampipe::cli

#endif  // STREAMPIPE_APPS_CLI_HPP_
