// What the CUDA runtime says about a device, as the models' DeviceTraits.
//
//   if (streampipe::CudaDeviceCount() == 0) { ... no GPU: CPU path ... }
//   absl::StatusOr<streampipe::DeviceInfo> d = streampipe::ReadDevice(0);
//   d->traits.copy_engines;   // asyncEngineCount
#ifndef STREAMPIPE_CUDA_DEVICE_HPP_
#define STREAMPIPE_CUDA_DEVICE_HPP_

#include <cstddef>
#include <string>

#include "absl/status/statusor.h"
#include "streampipe/core/model_types.hpp"

namespace streampipe {

struct DeviceInfo {
  int device = 0;
  DeviceTraits traits;  // name, cc, SMs, copy engines, concurrency; no calibration yet
  int driver_version = 0;   // cudaDriverGetVersion, e.g. 13000
  int runtime_version = 0;  // cudaRuntimeGetVersion
  std::size_t total_memory = 0;
  int l2_bytes = 0;
  int pci_bus_id = 0;
};

// The number of CUDA devices; 0 (not an error) when there is no device or no usable driver.
int CudaDeviceCount();
// Why CudaDeviceCount() is 0 (the runtime's error string), or "" if devices exist.
std::string NoDeviceReason();

// Reads device properties. hardware_queues honours CUDA_DEVICE_MAX_CONNECTIONS (default 8);
// implicit_sync is true on compute capability 2.x and 3.0 (seeds 000 and 003).
// Unavailable without a device, InvalidArgument for a bad index.
absl::StatusOr<DeviceInfo> ReadDevice(int device);

}  // namespace streampipe

#endif  // STREAMPIPE_CUDA_DEVICE_HPP_
