// The configuration of a pipeline from --config=FILE and --table.key=value flags, shared by
// the subcommands that run a pipeline. Exit codes: 66 for a missing or unreadable file, 78 for
// a bad file, 64 for a bad flag.
#ifndef STREAMPIPE_APPS_CONFIG_FLAGS_HPP_
#define STREAMPIPE_APPS_CONFIG_FLAGS_HPP_

#include <string>

#include "cli.hpp"
#include "streampipe/core/config.hpp"

namespace streampipe::cli {

struct ConfigResult {
  PipelineConfig config;
  int exit_code = kExitOk;  // non-zero: the error was printed
};

// Loads `path` ("" = defaults) and applies `flags.overrides()`; prints errors for `command`.
ConfigResult LoadConfig(const std::string& command, const std::string& path, const FlagSet& flags);

}  // namespace streampipe::cli

#endif  // STREAMPIPE_APPS_CONFIG_FLAGS_HPP_
