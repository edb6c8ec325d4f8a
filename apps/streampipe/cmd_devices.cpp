// streampipe devices: list the CUDA devices (exit 69, EX_UNAVAILABLE, when there is none).
#include <iostream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cli.hpp"
#include "commands.hpp"
#include "streampipe/cuda/device.hpp"

namespace streampipe::cli {

int RunDevices(const std::vector<std::string>& args) {
  FlagSet fs("devices", "");
  if (std::optional<int> done = fs.ParseCommandLine(args)) return *done;
  const int n = CudaDeviceCount();
  if (n == 0) {
    // An error like every command's: one line to stderr, `streampipe devices: ...` (docs/errors.md).
    return Fail("devices", kExitUnavailable, absl::StrCat("no CUDA device (", NoDeviceReason(), ")"));
  }
  for (int d = 0; d < n; ++d) {
    absl::StatusOr<DeviceInfo> info = ReadDevice(d);
    if (!info.ok()) return Fail("devices", kExitSoftware, info.status());
    const DeviceTraits& t = info->traits;
    std::cout << absl::StrFormat(
        "%d: %s, cc %d.%d, %d SMs, %d copy engines, %.1f GiB, driver %d, runtime %d\n", d, t.name,
        t.cc_major, t.cc_minor, t.sm_count, t.copy_engines,
        static_cast<double>(info->total_memory) / (1 << 30), info->driver_version,
        info->runtime_version);
  }
  return kExitOk;
}

}  // namespace streampipe::cli
