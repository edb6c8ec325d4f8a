// streampipe config: validate a configuration file and print it with every key (defaults and flag
// overrides included).
#include <iostream>

#include "absl/strings/str_cat.h"
#include "cli.hpp"
#include "commands.hpp"
#include "config_flags.hpp"
#include "streampipe/core/config.hpp"

namespace streampipe::cli {

int RunConfig(const std::vector<std::string>& args) {
  constexpr char kCommand[] = "config";
  std::string path;
  bool no_comments = false;
  bool markdown = false;
  FlagSet fs(kCommand, "[--config=FILE] [--table.key=value ...]");
  fs.Add("config", &path, "configuration file to validate (default: built-in defaults)");
  fs.Add("no-comments", &no_comments, "print keys and values only");
  fs.Add("markdown", &markdown, "print the reference table of every key (docs/config.md)");
  fs.AcceptConfigOverrides();
  if (std::optional<int> done =
          fs.ParseCommandLine(args, false, "(give the file as --config=FILE)")) {
    return *done;
  }
  if (markdown) {
    // The reference of every key, not of a file: a file or a key beside it would not be checked.
    if (fs.WasSet("config") || !fs.overrides().empty()) {
      return Fail(kCommand, kExitUsage,
                  "--markdown prints the reference of every key; it checks no --config file and "
                  "takes no key flags (run them without --markdown)");
    }
    std::cout << PipelineConfigMarkdown();
    return kExitOk;
  }
  ConfigResult r = LoadConfig(kCommand, path, fs);  // an empty --config= refused there
  if (r.exit_code != kExitOk) return r.exit_code;
  std::cout << PipelineConfigToml(r.config, !no_comments);
  return kExitOk;
}

}  // namespace streampipe::cli
