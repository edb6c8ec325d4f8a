// CUDA errors as absl::Status: one header, three verbs (after RAFT's cuda_rt_essentials and
// RMM's detail/error.hpp).
//
//   STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(...));   // in Status-returning code
//   STREAMPIPE_CUDA_CHECK_NOTHROW(cudaStreamDestroy(s));      // in destructors: report, go on
//   STREAMPIPE_CUDA_DEBUG_SYNC();                             // tests: synchronize and check
//
// A Status made from a CUDA error names the call, file:line, the error's name and string, and
// whether the error is sticky: after a sticky error (a kernel that trapped or touched a bad
// address) every later CUDA call in this process fails; the process must restart to use the
// GPU again. Out-of-memory and bad launch configurations are not sticky.
#ifndef STREAMPIPE_CUDA_ERROR_HPP_
#define STREAMPIPE_CUDA_ERROR_HPP_

#include <cuda_runtime_api.h>

#include <string_view>

#include "absl/status/status.h"

namespace streampipe {

// Errors after which the CUDA context is unusable (CUDA Runtime API, "Error Handling").
bool IsStickyCudaError(cudaError_t error);

// The Status for `error` raised by `call` at file:line (OK for cudaSuccess). Codes:
// ResourceExhausted for out-of-memory, InvalidArgument for invalid values and launch
// configurations, Unavailable for no device or an old driver, Internal otherwise and for every
// sticky error (a launch timeout included: it is sticky). A wait that runs past its bound is
// DeadlineExceeded (WaitForEvent), not a CUDA error.
absl::Status CudaErrorStatus(cudaError_t error, const char* call, const char* file, int line);

// Whether `status` came from a sticky CUDA error (the payload CudaErrorStatus attaches).
bool IsStickyCudaError(const absl::Status& status);
// DeadlineExceeded from a bounded wait on GPU work (WaitForEvent, which marks it): the GPU did
// not finish. A DeadlineExceeded of another origin (a launcher's own) is not this.
absl::Status GpuWaitTimeoutStatus(std::string_view message);
bool IsGpuWaitTimeout(const absl::Status& status);
// The cudaError_t behind `status`, or cudaSuccess if it carries none.
cudaError_t CudaErrorOf(const absl::Status& status);

namespace detail {
// Prints "streampipe: CUDA error ..." to stderr unless the error is cudaSuccess or
// cudaErrorCudartUnloading (the runtime is shutting down at process exit).
void ReportCudaErrorNoThrow(cudaError_t error, const char* call, const char* file,
                            int line) noexcept;
}  // namespace detail

}  // namespace streampipe

#define STREAMPIPE_CUDA_RETURN_IF_ERROR(call)                                          \
  do {                                                                                \
    const cudaError_t streampipe_cuda_err_ = (call);                                  \
    if (streampipe_cuda_err_ != cudaSuccess) {                                        \
      return ::streampipe::CudaErrorStatus(streampipe_cuda_err_, #call, __FILE__,     \
                                           __LINE__);                                 \
    }                                                                                 \
  } while (false)

#define STREAMPIPE_CUDA_CHECK_NOTHROW(call)                                            \
  ::streampipe::detail::ReportCudaErrorNoThrow((call), #call, __FILE__, __LINE__)

#define STREAMPIPE_CUDA_DEBUG_SYNC()                                                   \
  STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaDeviceSynchronize())

#endif  // STREAMPIPE_CUDA_ERROR_HPP_
