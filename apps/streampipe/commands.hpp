// The streampipe subcommands. Each takes the arguments after its name and returns the
// process exit code (cli.hpp).
#ifndef STREAMPIPE_APPS_COMMANDS_HPP_
#define STREAMPIPE_APPS_COMMANDS_HPP_

#include <string>
#include <vector>

namespace streampipe::cli {

int RunAdvise(const std::vector<std::string>& args);
int RunCalibrate(const std::vector<std::string>& args);
int RunConfig(const std::vector<std::string>& args);
int RunHistogram(const std::vector<std::string>& args);
int RunDevices(const std::vector<std::string>& args);
int RunSweep(const std::vector<std::string>& args);

}  // namespace streampipe::cli

#endif  // STREAMPIPE_APPS_COMMANDS_HPP_
