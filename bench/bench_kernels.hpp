// Kernels for the benchmarks.
#ifndef STREAMPIPE_BENCH_BENCH_KERNELS_HPP_
#define STREAMPIPE_BENCH_BENCH_KERNELS_HPP_

#include <cstdint>

#include "streampipe/cuda/pipeline_types.hpp"

namespace streampipe::bench {

// Items of 256 floats in, one float out (their sum), after `*spin` dependent multiply-adds per
// input value: large input, small output, and a cost that can change mid-stream.
inline constexpr int kReduceWidth = 256;
KernelLauncher ReduceSpinLauncher(const int* d_spin);

}  // namespace streampipe::bench

#endif  // STREAMPIPE_BENCH_BENCH_KERNELS_HPP_
