// Ready-made kernels for the pipeline, with CPU references: the add-scalar kernel of the
// papers' methodology (CUDA SDK simpleStreams; seed 000 section 3.1) with a tunable intensity,
// used by calibration, the benchmarks, the sweep and the tests.
//
//   o.in_bytes_per_item = o.out_bytes_per_item = sizeof(float);
//   o.launch = streampipe::AddScalarLauncher(/*iters=*/500);
#ifndef STREAMPIPE_CUDA_WORKLOADS_HPP_
#define STREAMPIPE_CUDA_WORKLOADS_HPP_

#include <cuda_runtime_api.h>

#include <cstdint>
#include <span>

#include "streampipe/cuda/pipeline_types.hpp"

namespace streampipe {

// out[i] = in[i] after `iters` rounds of v = v * 0.999f + 1.0f (float items, 256 threads).
KernelLauncher AddScalarLauncher(int iters);
// The same on the CPU, bit-exact (the kernel is compiled without fused multiply-add).
void AddScalarReference(std::span<const float> in, std::span<float> out, int iters);

// Asymmetric transfers (seed 000 section 3.1.2): an item is `in_floats` floats in and
// `out_floats` out; the kernel sums the inputs, runs the add-scalar loop `iters` times on the
// sum and writes out_floats values (v + j). Used by streampipe sweep's asymmetric grid.
KernelLauncher AsymmetricLauncher(int in_floats, int out_floats, int iters);
void AsymmetricReference(std::span<const float> in, std::span<float> out, int in_floats,
                         int out_floats, int iters);

// Direct launches for calibration and benchmarks (no Status wrapping): the kernel above, and
// an empty kernel of one block.
cudaError_t LaunchAddScalar(const float* in, float* out, std::int64_t n, int iters,
                            cudaStream_t stream);
cudaError_t LaunchEmptyKernel(cudaStream_t stream);

}  // namespace streampipe

#endif  // STREAMPIPE_CUDA_WORKLOADS_HPP_
