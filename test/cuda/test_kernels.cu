#include <cuda_runtime.h>

#include "streampipe/cuda/error.hpp"
#include "test_kernels.hpp"

namespace streampipe::testing {
namespace {

__global__ void MulAdd(const Triple* in, unsigned long long* out, std::int64_t n) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    const Triple t = in[i];
    out[i] = static_cast<unsigned long long>(t.a) * t.b + t.c;
  }
}

__global__ void Spin(const float* in, float* out, std::int64_t n, const int* spin) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = in[i];
    const int k = *spin;
    for (int j = 0; j < k; ++j) v = __fadd_rn(__fmul_rn(v, 1.0f), 0.0f);  // v unchanged
    out[i] = v + 1.0f;
  }
}

__global__ void TrapAt(const float* in, float* out, std::int64_t first, std::int64_t n,
                       std::int64_t fault) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    if (first + i == fault) __trap();
    out[i] = in[i] + 1.0f;
  }
}

__global__ void Nothing() {}

unsigned Blocks(std::int64_t n) { return static_cast<unsigned>((n + 255) / 256); }

}  // namespace

KernelLauncher MulAddLauncher() {
  return [](const LaunchArgs& a) -> absl::Status {
    MulAdd<<<Blocks(a.num_items), 256, 0, a.stream>>>(
        static_cast<const Triple*>(a.in), static_cast<unsigned long long*>(a.out), a.num_items);
    STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaGetLastError());
    return absl::OkStatus();
  };
}

KernelLauncher SpinLauncher(const int* d_spin) {
  return [d_spin](const LaunchArgs& a) -> absl::Status {
    Spin<<<Blocks(a.num_items), 256, 0, a.stream>>>(static_cast<const float*>(a.in),
                                                     static_cast<float*>(a.out), a.num_items,
                                                     d_spin);
    STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaGetLastError());
    return absl::OkStatus();
  };
}

KernelLauncher TrapAtItemLauncher(std::int64_t fault_item) {
  return [fault_item](const LaunchArgs& a) -> absl::Status {
    TrapAt<<<Blocks(a.num_items), 256, 0, a.stream>>>(static_cast<const float*>(a.in),
                                                       static_cast<float*>(a.out), a.first_item,
                                                       a.num_items, fault_item);
    STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaGetLastError());
    return absl::OkStatus();
  };
}

KernelLauncher WrongStreamLauncher() {
  return [](const LaunchArgs&) -> absl::Status {
    Nothing<<<1, 32, 0, cudaStreamLegacy>>>();
    STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaGetLastError());
    return absl::OkStatus();
  };
}

}  // namespace streampipe::testing
