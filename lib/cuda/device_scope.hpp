// Internal: the device guard the pipeline and the calibration share (not installed).
#ifndef STREAMPIPE_LIB_CUDA_DEVICE_SCOPE_HPP_
#define STREAMPIPE_LIB_CUDA_DEVICE_SCOPE_HPP_

#include <cuda_runtime.h>

#include "absl/status/status.h"
#include "streampipe/cuda/error.hpp"

namespace streampipe::detail {

// Makes `device` current for the scope and restores the caller's device after it: a pipeline
// runs on its own device whatever device the calling thread has current, and leaves that as it
// was. Setting the device only in Init ran later batches' launchers on whatever device was
// current. Where the caller's device is the pipeline's (a thread per GPU that set its own),
// nothing is switched: one cudaGetDevice a call. As the device guards of RMM, RAFT and nvbench,
// the restore is a cudaSetDevice, which (CUDA 12 and later) creates the caller's device's
// primary context if it had none: a thread that never chose a device gets device 0's.
class DeviceScope {
 public:
  DeviceScope() = default;
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;
  ~DeviceScope() {
    // A restore that fails must not leave its error for the next cudaGetLastError (a launch
    // check) to report as the launch's.
    if (previous_ >= 0 && cudaSetDevice(previous_) != cudaSuccess) (void)cudaGetLastError();
  }
  absl::Status Enter(int device) {
    int current = 0;
    cudaError_t e = cudaGetDevice(&current);
    if (e == cudaSuccess && current == device) return absl::OkStatus();
    if (e == cudaSuccess) e = cudaSetDevice(device);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      return CudaErrorStatus(e, "cudaSetDevice (making the device current)", __FILE__, __LINE__);
    }
    previous_ = current;
    return absl::OkStatus();
  }

 private:
  int previous_ = -1;  // the device to restore; -1: none was changed
};

}  // namespace streampipe::detail

#endif  // STREAMPIPE_LIB_CUDA_DEVICE_SCOPE_HPP_
