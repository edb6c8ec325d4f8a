#include "streampipe/cuda/device.hpp"

#include <cuda_runtime_api.h>

#include <cstdlib>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "streampipe/cuda/error.hpp"

namespace streampipe {

int CudaDeviceCount() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return n;
}

std::string NoDeviceReason() {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    return absl::StrCat(cudaGetErrorName(e), ": ", cudaGetErrorString(e));
  }
  return n == 0 ? "no CUDA device" : "";
}

absl::StatusOr<DeviceInfo> ReadDevice(int device) {
  const int count = CudaDeviceCount();
  if (count == 0) {
    return absl::UnavailableError(absl::StrCat("no CUDA device: ", NoDeviceReason()));
  }
  if (device < 0 || device >= count) {
    return absl::InvalidArgumentError(
        absl::StrCat("device ", device, " does not exist (", count, " devices)"));
  }
  cudaDeviceProp p{};
  STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaGetDeviceProperties(&p, device));
  DeviceInfo info;
  info.device = device;
  DeviceTraits& t = info.traits;
  t.name = p.name;
  t.cc_major = p.major;
  t.cc_minor = p.minor;
  t.sm_count = p.multiProcessorCount;
  t.copy_engines = p.asyncEngineCount;
  t.concurrent_kernels = p.concurrentKernels != 0;
  t.implicit_sync = p.major == 2 || (p.major == 3 && p.minor == 0);
  t.hardware_queues = 8;
  if (const char* env = std::getenv("CUDA_DEVICE_MAX_CONNECTIONS")) {
    int q = 0;
    if (absl::SimpleAtoi(env, &q) && q > 0) t.hardware_queues = q;
  }
  STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaDriverGetVersion(&info.driver_version));
  STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaRuntimeGetVersion(&info.runtime_version));
  info.total_memory = p.totalGlobalMem;
  info.l2_bytes = p.l2CacheSize;
  info.pci_bus_id = p.pciBusID;
  return info;
}

}  // namespace streampipe
