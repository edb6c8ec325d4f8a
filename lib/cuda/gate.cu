#include <cuda_runtime.h>

#include "gate.hpp"

namespace streampipe::detail {
namespace {

__device__ std::uint64_t GlobalTimerNs() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void GateKernel(GateWords* words, std::uint64_t timeout_ns) {
  const volatile std::uint32_t* open = &words->open;
  const std::uint64_t t0 = GlobalTimerNs();
  while (*open == 0) {
    if (GlobalTimerNs() - t0 > timeout_ns) {
      words->timed_out = 1;
      __threadfence_system();
      return;
    }
    __nanosleep(256);
  }
}

}  // namespace

cudaError_t LaunchGate(GateWords* words, std::uint64_t timeout_ns, cudaStream_t stream) {
  GateKernel<<<1, 1, 0, stream>>>(words, timeout_ns);
  return cudaGetLastError();
}

}  // namespace streampipe::detail
