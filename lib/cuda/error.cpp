#include "streampipe/cuda/error.hpp"

#include <cstdio>
#include <string>

#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace streampipe {
namespace {

constexpr char kPayloadUrl[] = "streampipe/cuda_error";

}  // namespace

bool IsStickyCudaError(cudaError_t error) {
  switch (error) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchTimeout:
    case cudaErrorAssert:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorLaunchFailure:
    case cudaErrorECCUncorrectable:
    case cudaErrorContained:
    case cudaErrorTensorMemoryLeak:
    // driver_types.h (CUDA 13.0): "the process must be terminated and relaunched" (not
    // listed here before session 50).
    case cudaErrorMpsClientTerminated:
    case cudaErrorExternalDevice:
      return true;
    default:
      return false;
  }
}

absl::Status CudaErrorStatus(cudaError_t error, const char* call, const char* file, int line) {
  if (error == cudaSuccess) return absl::OkStatus();
  const bool sticky = IsStickyCudaError(error);
  std::string msg = absl::StrCat(call, " failed at ", file, ":", line, ": ",
                                 cudaGetErrorName(error), " (", cudaGetErrorString(error), ")");
  if (sticky) {
    absl::StrAppend(&msg,
                    "; this CUDA error is sticky: the context is unusable and the process must "
                    "restart to use the GPU again");
  }
  absl::StatusCode code = absl::StatusCode::kInternal;
  if (!sticky) {
    switch (error) {
      case cudaErrorMemoryAllocation:
        code = absl::StatusCode::kResourceExhausted;
        break;
      case cudaErrorInvalidValue:
      case cudaErrorInvalidConfiguration:
      case cudaErrorInvalidDevicePointer:
      case cudaErrorInvalidMemcpyDirection:
      case cudaErrorInvalidResourceHandle:
      case cudaErrorLaunchOutOfResources:
        code = absl::StatusCode::kInvalidArgument;
        break;
      case cudaErrorNoDevice:
      case cudaErrorInsufficientDriver:
      case cudaErrorDevicesUnavailable:
        code = absl::StatusCode::kUnavailable;
        break;
      default:
        code = absl::StatusCode::kInternal;
    }
  }
  absl::Status status(code, msg);
  status.SetPayload(kPayloadUrl,
                    absl::Cord(absl::StrCat(static_cast<int>(error), sticky ? ",sticky" : "")));
  return status;
}

namespace {
constexpr char kGpuTimeoutUrl[] = "streampipe/gpu_wait_timeout";
}  // namespace

absl::Status GpuWaitTimeoutStatus(std::string_view message) {
  absl::Status s =
      absl::DeadlineExceededError(absl::string_view(message.data(), message.size()));
  s.SetPayload(kGpuTimeoutUrl, absl::Cord("1"));
  return s;
}

bool IsGpuWaitTimeout(const absl::Status& status) {
  return status.code() == absl::StatusCode::kDeadlineExceeded &&
         status.GetPayload(kGpuTimeoutUrl).has_value();
}

bool IsStickyCudaError(const absl::Status& status) {
  auto payload = status.GetPayload(kPayloadUrl);
  return payload.has_value() && std::string(*payload).find(",sticky") != std::string::npos;
}

cudaError_t CudaErrorOf(const absl::Status& status) {
  auto payload = status.GetPayload(kPayloadUrl);
  if (!payload.has_value()) return cudaSuccess;
  std::string s(*payload);
  int code = 0;
  if (!absl::SimpleAtoi(s.substr(0, s.find(',')), &code)) return cudaSuccess;
  return static_cast<cudaError_t>(code);
}

namespace detail {

void ReportCudaErrorNoThrow(cudaError_t error, const char* call, const char* file,
                            int line) noexcept {
  if (error == cudaSuccess || error == cudaErrorCudartUnloading) return;
  std::fprintf(stderr, "streampipe: CUDA error in %s at %s:%d: %s (%s)\n", call, file, line,
               cudaGetErrorName(error), cudaGetErrorString(error));
}

}  // namespace detail
}  // namespace streampipe
