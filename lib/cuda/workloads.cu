#include <cuda_runtime.h>

#include "absl/strings/str_cat.h"
#include "streampipe/cuda/error.hpp"
#include "streampipe/cuda/workloads.hpp"

namespace streampipe {
namespace {

__global__ void AddScalarKernel(const float* __restrict__ in, float* __restrict__ out,
                                std::int64_t n, int iters) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = in[i];
    // __fmul_rn/__fadd_rn: no contraction to FMA, so the CPU reference is bit-exact.
    for (int k = 0; k < iters; ++k) v = __fadd_rn(__fmul_rn(v, 0.999f), 1.0f);
    out[i] = v;
  }
}

__global__ void EmptyKernel() {}

__global__ void AsymmetricKernel(const float* __restrict__ in, float* __restrict__ out,
                                 std::int64_t n, int in_floats, int out_floats, int iters) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = 0.0f;
  for (int k = 0; k < in_floats; ++k) v = __fadd_rn(v, in[i * in_floats + k]);
  for (int k = 0; k < iters; ++k) v = __fadd_rn(__fmul_rn(v, 0.999f), 1.0f);
  for (int j = 0; j < out_floats; ++j) out[i * out_floats + j] = __fadd_rn(v, static_cast<float>(j));
}

}  // namespace

cudaError_t LaunchAddScalar(const float* in, float* out, std::int64_t n, int iters,
                            cudaStream_t stream) {
  if (n <= 0) return cudaSuccess;
  const std::int64_t blocks = (n + 255) / 256;
  AddScalarKernel<<<static_cast<unsigned>(blocks), 256, 0, stream>>>(in, out, n, iters);
  return cudaGetLastError();
}

cudaError_t LaunchEmptyKernel(cudaStream_t stream) {
  EmptyKernel<<<1, 32, 0, stream>>>();
  return cudaGetLastError();
}

KernelLauncher AsymmetricLauncher(int in_floats, int out_floats, int iters) {
  return [=](const LaunchArgs& a) -> absl::Status {
    if (a.num_items <= 0) return absl::OkStatus();
    const std::int64_t blocks = (a.num_items + 255) / 256;
    AsymmetricKernel<<<static_cast<unsigned>(blocks), 256, 0, a.stream>>>(
        static_cast<const float*>(a.in), static_cast<float*>(a.out), a.num_items, in_floats,
        out_floats, iters);
    STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaGetLastError());
    return absl::OkStatus();
  };
}

KernelLauncher AddScalarLauncher(int iters) {
  return [iters](const LaunchArgs& a) -> absl::Status {
    STREAMPIPE_CUDA_RETURN_IF_ERROR(LaunchAddScalar(static_cast<const float*>(a.in),
                                                    static_cast<float*>(a.out), a.num_items,
                                                    iters, a.stream));
    return absl::OkStatus();
  };
}

}  // namespace streampipe
