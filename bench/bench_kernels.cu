#include <cuda_runtime.h>

#include "bench_kernels.hpp"
#include "streampipe/cuda/error.hpp"

namespace streampipe::bench {
namespace {

__global__ void ReduceSpin(const float* in, float* out, std::int64_t items, const int* spin) {
  __shared__ float partial[kReduceWidth];
  const std::int64_t item = blockIdx.x;
  if (item >= items) return;
  float v = in[item * kReduceWidth + threadIdx.x];
  const int k = *spin;
  for (int j = 0; j < k; ++j) v = v * 0.9999f + 0.0001f;
  partial[threadIdx.x] = v;
  __syncthreads();
  for (int s = kReduceWidth / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[item] = partial[0];
}

}  // namespace

KernelLauncher ReduceSpinLauncher(const int* d_spin) {
  return [d_spin](const LaunchArgs& a) -> absl::Status {
    ReduceSpin<<<static_cast<unsigned>(a.num_items), kReduceWidth, 0, a.stream>>>(
        static_cast<const float*>(a.in), static_cast<float*>(a.out), a.num_items, d_spin);
    STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaGetLastError());
    return absl::OkStatus();
  };
}

}  // namespace streampipe::bench
