// The streampipe subcommands. Each takes the arguments after its name and returns the
// process exit code (cli.hpp).
#ifndef STREAMPIPE_APPS_COMMANDS_HPP_
#define STREAMPIPE_APPS_COMMANDS_HPP_

#include <string>
#include <string_view>
#include <vector>

#include "streampipe/core/device_profile.hpp"

namespace streampipe::cli {

// The run's device profile from `path` (named `flag` in messages), calibrated on `device` and
// written there where the file is missing or this card's from another driver (`*why` says so,
// as LoadOrCalibrate's). On failure the message is said and the exit code returned in
// `*exit_code`: 66 for a profile that cannot be read (a directory, no permission), 78 for a
// broken one or another card's, 70 for the device or the calibration (one whose profile its
// own checks refuse included), 74 for a profile that cannot be written (before session 51
// every one of them was 78).
absl::StatusOr<DeviceProfile> ProfileForRun(std::string_view command, const std::string& flag,
                                            const std::string& path, int device,
                                            std::string* why, int* exit_code);

int RunAdvise(const std::vector<std::string>& args);
int RunCalibrate(const std::vector<std::string>& args);
int RunConfig(const std::vector<std::string>& args);
int RunHistogram(const std::vector<std::string>& args);
int RunDevices(const std::vector<std::string>& args);
int RunSweep(const std::vector<std::string>& args);

}  // namespace streampipe::cli

#endif  // STREAMPIPE_APPS_COMMANDS_HPP_
