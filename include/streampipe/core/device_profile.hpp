// A device profile: the calibrated DeviceTraits of one card, saved as TOML by
// `streampipe calibrate` and loaded by the pipeline and `streampipe advise` so that start-up
// need not re-measure. Keyed by device name and driver version.
//
//   absl::StatusOr<streampipe::DeviceProfile> p = streampipe::ReadDeviceProfile("h100.toml");
//   STREAMPIPE_RETURN_IF_ERROR(streampipe::CheckProfileMatches(*p, name, driver_version));
#ifndef STREAMPIPE_CORE_DEVICE_PROFILE_HPP_
#define STREAMPIPE_CORE_DEVICE_PROFILE_HPP_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "streampipe/core/model_types.hpp"
#include "streampipe/core/toml_schema.hpp"

namespace streampipe {

struct DeviceProfile {
  DeviceTraits traits;
  int driver_version = 0;
  int runtime_version = 0;
  double duplex_gbps = 0.0;        // both directions at once, aggregate
  std::string created;             // UTC date and time of the calibration
};

const TomlSchema<DeviceProfile>& DeviceProfileSchema();

// Errors name the file, line and key (InvalidArgument); NotFound / PermissionDenied for a
// missing or unreadable file.
absl::StatusOr<DeviceProfile> ReadDeviceProfile(const std::string& path);
absl::StatusOr<DeviceProfile> ParseDeviceProfile(std::string_view text, std::string_view name);
std::string DeviceProfileToml(const DeviceProfile& profile);
// Whether ReadDeviceProfile would take `profile` back: InvalidArgument naming the key and value
// that it would reject (a calibration that measured nonsense), OK otherwise.
absl::Status ValidateDeviceProfile(const DeviceProfile& profile);
// Writes atomically (a temporary file renamed); a profile ValidateDeviceProfile rejects is not
// written (its error).
absl::Status WriteDeviceProfile(const std::string& path, const DeviceProfile& profile);

// A short name of what the profile gives, "fnv1a64:" and 16 hex digits, over every value
// DeviceProfileToml writes but `created` and `hardware_queues` (which the loader takes from the
// runtime, CUDA_DEVICE_MAX_CONNECTIONS, not from the file), and not over its help comments:
// equal for a profile and the same profile written and read back, by this build or another,
// different where a value differs. `streampipe sweep` records it in its rows' settings, so that
// --resume refuses rows measured with another profile.
std::string DeviceProfileFingerprint(const DeviceProfile& profile);

// FailedPrecondition naming both when the profile was made on another device or driver.
absl::Status CheckProfileMatches(const DeviceProfile& profile, const std::string& device_name,
                                 int driver_version);

}  // namespace streampipe

#endif  // STREAMPIPE_CORE_DEVICE_PROFILE_HPP_
