// The histogram kernel's device time by merge and shape (the cluster merge's shape, kShared's
// default): gray frames of 176x144 .. 1920x1080, 64, 8 and 1 frames a launch (a batch of 64 at
// n = 1, 8 and 64). Rows: shared-atomic (the memset and the global-atomic merge), the default
// cluster shape, then one block a frame (a plain launch) of 256-1024 threads, and clusters of
// 2, 4, 8 and 16 blocks of 256, 512 and 1024 threads, those the device launches.
//   histogram_shapes [--launches=41]
// Prints, per row, the median device microseconds per launch (CUDA events around each launch,
// behind a gate so the host's issue is not counted; after 5 untimed ones) and the median host
// microseconds to issue it. Each shape's output for all 64 frames is then compared with
// shared-atomic's (the reference row's last 64-frame launch).
// Exit 0 (no device: a message and 0); 1 where an output differs; 64 bad flags; 70 CUDA fails.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "gate.hpp"
#include "histogram_internal.hpp"
#include "streampipe/core/statistics.hpp"
#include "streampipe/cuda/buffer.hpp"
#include "streampipe/cuda/device.hpp"
#include "streampipe/cuda/error.hpp"
#include "streampipe/cuda/event.hpp"
#include "streampipe/cuda/histogram.hpp"
#include "streampipe/cuda/stream.hpp"
#include "bench_help.hpp"

namespace streampipe {
namespace {

namespace hi = histogram_internal;
using video::FrameFormat;

struct Timing {
  double device_us = 0;
  double host_us = 0;
};

// Each launch is enqueued behind a gate (lib/cuda/gate.hpp), with the start event after it, so
// the device time is the launch's own, not the gap in which the GPU waits for the host to issue
// it (the memset and kernel of shared-atomic take the host twice as long as one cluster launch).
absl::StatusOr<Timing> Time(const KernelLauncher& launch, const LaunchArgs& args, int launches,
                            const TimedEvent& start, const TimedEvent& end,
                            detail::GateWords* gate) {
  std::vector<double> device;
  std::vector<double> host;
  for (int i = -5; i < launches; ++i) {
    gate->open = 0;
    gate->timed_out = 0;
    STREAMPIPE_CUDA_RETURN_IF_ERROR(detail::LaunchGate(gate, detail::kGateTimeoutNs, args.stream));
    STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaEventRecord(start.get(), args.stream));
    const auto t0 = std::chrono::steady_clock::now();
    absl::Status st = launch(args);
    const auto t1 = std::chrono::steady_clock::now();
    if (!st.ok()) {
      detail::OpenGate(gate);
      return st;
    }
    STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaEventRecord(end.get(), args.stream));
    detail::OpenGate(gate);
    STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaEventSynchronize(end.get()));
    if (gate->timed_out != 0) return absl::InternalError("the gate opened itself (timed out)");
    absl::StatusOr<float> ms = ElapsedMs(start, end);
    if (!ms.ok()) return ms.status();
    if (i < 0) continue;
    device.push_back(1e3 * *ms);
    host.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
  }
  return Timing{Median(device), Median(host)};
}

int Run(int launches) {
  std::vector<hi::ClusterShape> shapes;
  for (unsigned threads : {256u, 512u, 768u, 1024u}) shapes.push_back({1, threads});
  for (unsigned blocks : {2u, 4u, 8u, 16u}) {
    for (unsigned threads : {256u, 512u, 1024u}) shapes.push_back({blocks, threads});
  }
  absl::StatusOr<Stream> stream = Stream::Create();
  absl::StatusOr<TimedEvent> start = TimedEvent::Create();
  absl::StatusOr<TimedEvent> end = TimedEvent::Create();
  if (!stream.ok() || !start.ok() || !end.ok()) {
    std::fprintf(stderr, "histogram_shapes: cannot create a stream or events\n");
    return 70;
  }
  absl::StatusOr<PinnedBuffer<detail::GateWords>> gate = PinnedBuffer<detail::GateWords>::Create(1);
  if (!gate.ok()) {
    std::fprintf(stderr, "histogram_shapes: cannot allocate the gate's words\n");
    return 70;
  }
  std::mt19937_64 rng(20261124);
  int mismatches = 0;
  for (auto [w, h] : {std::pair{176, 144}, {352, 288}, {704, 576}, {1920, 1080}}) {
    const FrameFormat f{.width = w, .height = h};
    const std::size_t frame_bytes = f.item_bytes();
    std::vector<unsigned char> frames(64 * frame_bytes);
    for (unsigned char& b : frames) b = static_cast<unsigned char>(rng());
    absl::StatusOr<DeviceBuffer<unsigned char>> in =
        DeviceBuffer<unsigned char>::Create(frames.size());
    absl::StatusOr<DeviceBuffer<unsigned>> out = DeviceBuffer<unsigned>::Create(64 * 256);
    absl::StatusOr<DeviceBuffer<unsigned>> ref = DeviceBuffer<unsigned>::Create(64 * 256);
    if (!in.ok() || !out.ok() || !ref.ok()) {
      std::fprintf(stderr, "histogram_shapes: cannot allocate\n");
      return 70;
    }
    if (cudaMemcpy(in->data(), frames.data(), frames.size(), cudaMemcpyHostToDevice) !=
        cudaSuccess) {
      std::fprintf(stderr, "histogram_shapes: cudaMemcpy failed\n");
      return 70;
    }
    const hi::ClusterShape def = hi::DefaultClusterShape(static_cast<long long>(f.pixels()));
    std::printf("\n== %dx%d gray, default cluster shape %u x %u threads\n", w, h, def.blocks,
                def.threads);
    std::printf("%-26s %10s %10s %10s %8s %8s %8s\n", "merge", "us@64", "us@8", "us@1", "host@64",
                "host@8", "host@1");
    struct Row {
      std::string name;
      absl::StatusOr<KernelLauncher> launch;
    };
    std::vector<Row> rows;
    rows.push_back({"shared-atomic", HistogramLauncher(f, HistogramKernel::kSharedAtomic)});
    rows.push_back({"shared (default)", HistogramLauncher(f, HistogramKernel::kShared)});
    for (const hi::ClusterShape& c : shapes) {
      if (!hi::ClusterShapeRuns(f, c)) continue;
      rows.push_back({"cluster " + std::to_string(c.blocks) + "x" + std::to_string(c.threads),
                      hi::ClusterLauncher(f, c)});
    }
    for (std::size_t r = 0; r < rows.size(); ++r) {
      if (!rows[r].launch.ok()) {
        std::fprintf(stderr, "%s: %s\n", rows[r].name.c_str(),
                     std::string(rows[r].launch.status().message()).c_str());
        return 70;
      }
      Timing t[3];
      int k = 0;
      for (std::int64_t items : {64, 8, 1}) {
        LaunchArgs a{.in = in->data(), .out = (r == 0 ? ref : out)->data(), .first_item = 0,
                     .num_items = items, .stream = stream->get()};
        absl::StatusOr<Timing> tt = Time(*rows[r].launch, a, launches, *start, *end, gate->data());
        if (!tt.ok()) {
          std::fprintf(stderr, "%s: %s\n", rows[r].name.c_str(),
                       std::string(tt.status().message()).c_str());
          return 70;
        }
        t[k++] = *tt;
      }
      if (r > 0) {
        // The last launches covered frame 0 only: poison the output, run all 64 once more, then
        // compare. Everything on the pipeline's stream, synchronized before the host reads.
        LaunchArgs a{.in = in->data(), .out = out->data(), .first_item = 0, .num_items = 64,
                     .stream = stream->get()};
        std::vector<unsigned> got(64 * 256), want(64 * 256);
        const std::size_t bytes = got.size() * sizeof(unsigned);
        if (cudaMemsetAsync(out->data(), 0xab, bytes, a.stream) != cudaSuccess ||
            !(*rows[r].launch)(a).ok() ||
            cudaMemcpyAsync(got.data(), out->data(), bytes, cudaMemcpyDeviceToHost, a.stream) !=
                cudaSuccess ||
            cudaMemcpyAsync(want.data(), ref->data(), bytes, cudaMemcpyDeviceToHost, a.stream) !=
                cudaSuccess ||
            cudaStreamSynchronize(a.stream) != cudaSuccess) {
          std::fprintf(stderr, "%s: the check's launch or copy failed\n", rows[r].name.c_str());
          return 70;
        }
        if (got != want) {
          ++mismatches;
          std::printf("%s: OUTPUT DIFFERS from shared-atomic\n", rows[r].name.c_str());
        }
      }
      std::printf("%-26s %10.2f %10.2f %10.2f %8.2f %8.2f %8.2f\n", rows[r].name.c_str(),
                  t[0].device_us, t[1].device_us, t[2].device_us, t[0].host_us, t[1].host_us,
                  t[2].host_us);
    }
  }
  return mismatches == 0 ? 0 : 1;
}

}  // namespace
}  // namespace streampipe

int main(int argc, char** argv) {
  if (streampipe::bench::PrintedHelp(
          argc, argv, "histogram_shapes",
          "[--launches=41]")) {
    return 0;
  }
  int launches = 41;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--launches=", 11) == 0) {
      char* e = nullptr;
      const long v = std::strtol(argv[i] + 11, &e, 10);
      if (*e != '\0' || v < 1 || v > 100000) {
        std::fprintf(stderr, "histogram_shapes: --launches: an integer in [1, 100000]\n");
        return 64;
      }
      launches = static_cast<int>(v);
    } else {
      std::fprintf(stderr, "usage: histogram_shapes [--launches=41]\n");
      return 64;
    }
  }
  if (streampipe::CudaDeviceCount() == 0) {
    std::fprintf(stderr, "histogram_shapes: no CUDA device (%s)\n",
                 streampipe::NoDeviceReason().c_str());
    return 0;
  }
  return streampipe::Run(launches);
}
