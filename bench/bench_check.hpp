// Error checks for the benchmarks' own CUDA calls (the hand-written loops, the bandwidth
// probes): a benchmark that measured a failed call would print a meaningless figure, so a
// failure ends the program with the call, the error and exit code 70 (EX_SOFTWARE).
#ifndef STREAMPIPE_BENCH_BENCH_CHECK_HPP_
#define STREAMPIPE_BENCH_BENCH_CHECK_HPP_

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>

namespace streampipe::bench {

inline void CheckCuda(cudaError_t error, const char* call, const char* file, int line) {
  if (error == cudaSuccess) return;
  std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", file, line, call, cudaGetErrorName(error),
               cudaGetErrorString(error));
  std::exit(70);
}

}  // namespace streampipe::bench

#define STREAMPIPE_BENCH_CHECK(call) \
  ::streampipe::bench::CheckCuda((call), #call, __FILE__, __LINE__)

#endif  // STREAMPIPE_BENCH_BENCH_CHECK_HPP_
