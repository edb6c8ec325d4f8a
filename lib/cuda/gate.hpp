// A gate: one kernel that holds a stream until the host opens it, so that work enqueued behind
// it starts only once the host has enqueued all of it. Timing a batch behind a gate measures the
// device alone, without the gaps in which the GPU waits for the host to issue the next copy or
// launch (nvbench times its "cold" measurements behind such a kernel for the same reason).
//
// Internal to the CUDA layer (StreamPipeline::RunHeld).
#ifndef STREAMPIPE_LIB_CUDA_GATE_HPP_
#define STREAMPIPE_LIB_CUDA_GATE_HPP_

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdint>

namespace streampipe::detail {

// The two words a gate polls and reports in; they must live in pinned host memory (the device
// reads and writes them over the bus; cudaMallocHost memory is mapped under unified addressing).
struct GateWords {
  std::uint32_t open = 0;       // the host writes 1: the gate opens
  std::uint32_t timed_out = 0;  // the gate writes 1 when it opened itself after its timeout
};

// Enqueues the gate on `stream`: one thread that spins (with short sleeps) until `words->open`
// is non-zero or `timeout_ns` of the device's global timer have passed, writing 1 to
// `words->timed_out` in the second case. The caller sets both words to 0 before and `open` to 1
// after enqueueing the held work; a gate that times out keeps a blocked enqueue (a launch queue
// full behind the held stream) from deadlocking the process.
cudaError_t LaunchGate(GateWords* words, std::uint64_t timeout_ns, cudaStream_t stream);

// How long a held batch's gate waits for the host before it opens itself.
inline constexpr std::uint64_t kGateTimeoutNs = 1000000000;

// Opens the gate (the host's side): the work behind it may run.
inline void OpenGate(GateWords* words) { std::atomic_ref<std::uint32_t>(words->open).store(1); }

}  // namespace streampipe::detail

#endif  // STREAMPIPE_LIB_CUDA_GATE_HPP_
