// What one call costs the host to issue, by call and size: cudaMemsetAsync on device memory,
// cudaMemcpyAsync device to pinned host, and pinned host to device, at 1-256 KiB, spread over 8
// streams as the pipeline's sub-chunks are. Why the histogram's issue time per sub-chunk falls
// from 12-14 us at n <= 8 to 9-10 us at n >= 16 call by call at every frame size (run 121 a1):
// its sub-chunks memset and copy out 1 KiB per frame, 8 KiB at n = 8 of 64 frames and 4 KiB at
// n = 16, whatever the frame's size.
//   issue_cost [--rounds=31] [--calls=64]
// Prints, per call and size, the median over rounds of the host's microseconds per call (each
// round: `calls` calls back to back, then a device synchronize outside the timing).
// Exit 0 (without a GPU too: a message and 0); 64 for bad flags; 70 where CUDA fails (an
// allocation, a stream or a call).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "streampipe/cuda/buffer.hpp"
#include "streampipe/cuda/device.hpp"
#include "streampipe/cuda/error.hpp"
#include "streampipe/cuda/stream.hpp"
#include "bench_help.hpp"

namespace streampipe {
namespace {

constexpr int kStreams = 8;
constexpr std::size_t kSizesKiB[] = {1, 2, 3, 4, 5, 6, 8, 12, 16, 24, 32, 64, 128, 256};

enum class Call { kMemset, kCopyOut, kCopyIn };
const char* Name(Call c) {
  switch (c) {
    case Call::kMemset: return "memset";
    case Call::kCopyOut: return "d2h";
    case Call::kCopyIn: return "h2d";
  }
  return "?";
}

absl::Status Run(int rounds, int calls) {
  const std::size_t max_bytes = 256 * 1024;
  const std::size_t span = max_bytes * static_cast<std::size_t>(calls);
  absl::StatusOr<DeviceBuffer<unsigned char>> dev = DeviceBuffer<unsigned char>::Create(span);
  if (!dev.ok()) return dev.status();
  absl::StatusOr<PinnedBuffer<unsigned char>> host = PinnedBuffer<unsigned char>::Create(span);
  if (!host.ok()) return host.status();
  std::memset(host->data(), 1, span);
  std::vector<Stream> streams;
  for (int i = 0; i < kStreams; ++i) {
    absl::StatusOr<Stream> s = Stream::Create();
    if (!s.ok()) return s.status();
    streams.push_back(std::move(*s));
  }
  unsigned char* d = dev->data();
  unsigned char* h = host->data();
  std::printf("%-7s", "KiB");
  for (std::size_t k : kSizesKiB) std::printf(" %6zu", k);
  std::printf("   (us per call, median of %d rounds of %d calls)\n", rounds, calls);
  for (Call call : {Call::kMemset, Call::kCopyOut, Call::kCopyIn}) {
    std::printf("%-7s", Name(call));
    for (std::size_t kib : kSizesKiB) {
      const std::size_t bytes = kib * 1024;
      std::vector<double> per_call;
      for (int r = -3; r < rounds; ++r) {  // three rounds of warm-up
        const auto begin = std::chrono::steady_clock::now();
        for (int i = 0; i < calls; ++i) {
          const std::size_t at = static_cast<std::size_t>(i) * max_bytes;
          const cudaStream_t s = streams[static_cast<std::size_t>(i % kStreams)].get();
          switch (call) {
            case Call::kMemset:
              STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d + at, 0, bytes, s));
              break;
            case Call::kCopyOut:
              STREAMPIPE_CUDA_RETURN_IF_ERROR(
                  cudaMemcpyAsync(h + at, d + at, bytes, cudaMemcpyDeviceToHost, s));
              break;
            case Call::kCopyIn:
              STREAMPIPE_CUDA_RETURN_IF_ERROR(
                  cudaMemcpyAsync(d + at, h + at, bytes, cudaMemcpyHostToDevice, s));
              break;
          }
        }
        const auto end = std::chrono::steady_clock::now();
        STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaDeviceSynchronize());
        if (r >= 0) {
          per_call.push_back(std::chrono::duration<double, std::micro>(end - begin).count() /
                             calls);
        }
      }
      std::nth_element(per_call.begin(), per_call.begin() + per_call.size() / 2, per_call.end());
      std::printf(" %6.2f", per_call[per_call.size() / 2]);
      std::fflush(stdout);
    }
    std::printf("\n");
  }
  return absl::OkStatus();
}

}  // namespace
}  // namespace streampipe

int main(int argc, char** argv) {
  if (streampipe::bench::PrintedHelp(
          argc, argv, "issue_cost",
          "[--rounds=31] [--calls=64]")) {
    return 0;
  }
  int rounds = 31, calls = 64;
  for (int i = 1; i < argc; ++i) {
    const bool is_rounds = std::strncmp(argv[i], "--rounds=", 9) == 0;
    const bool is_calls = std::strncmp(argv[i], "--calls=", 8) == 0;
    char* end = nullptr;
    const long v =
        is_rounds || is_calls ? std::strtol(argv[i] + (is_rounds ? 9 : 8), &end, 10) : 0;
    const bool in_range = v >= 1 && v <= (is_rounds ? 10000 : 1024);  // before it narrows
    if (end == nullptr || *end != '\0' || !in_range) {
      std::fprintf(stderr,
                   "issue_cost: bad flag %s (--rounds: 1 to 10000, --calls: 1 to 1024)\n"
                   "usage: issue_cost [--rounds=31] [--calls=64]\n",
                   argv[i]);
      return 64;
    }
    (is_rounds ? rounds : calls) = static_cast<int>(v);
  }
  if (streampipe::CudaDeviceCount() == 0) {
    std::fprintf(stderr, "issue_cost: no CUDA device (%s)\n", streampipe::NoDeviceReason().c_str());
    return 0;
  }
  const absl::Status st = streampipe::Run(rounds, calls);
  if (!st.ok()) {
    std::fprintf(stderr, "issue_cost: %s\n", std::string(st.message()).c_str());
    return 70;
  }
  return 0;
}
