// Soak (issue 7): continuous histograms of at least a million frames on the GPU, with forced
// re-derivations, checking that host memory (RSS), device memory (free), live resource counts
// and throughput stay flat and that every histogram is exact.
//
//   soak [--frames=1000000 (at least 12288)] [--width=704] [--height=576]
//        [--remeasure-every=20000]
//
// Frames come from the pipeline's pinned ring, each ring buffer filled once with synthetic
// frames and their histograms precomputed; at every fill the source rewrites one marker row of
// every frame to one of two variants, so an output the GPU did not write (a stale ring buffer)
// would not match. Prints one line per window and a verdict; exits 1 on any mismatch or growth,
// 64 for bad flags, 70 where CUDA fails (the calibration, the pipeline, a batch), 0 without a GPU.
#include <cuda_runtime_api.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "bench_args.hpp"
#include "bench_check.hpp"
#include "event_label.hpp"
#include "streampipe/cuda/calibrate.hpp"
#include "streampipe/cuda/device.hpp"
#include "streampipe/cuda/histogram.hpp"
#include "streampipe/cuda/pipeline.hpp"
#include "streampipe/cuda/resource_counts.hpp"
#include "streampipe/video/frame_source.hpp"
#include "streampipe/video/histogram_cpu.hpp"
#include "bench_help.hpp"

namespace streampipe {
namespace {

using video::FrameFormat;
using video::Histogram;

long RssKib() {
  std::ifstream f("/proc/self/statm");
  long pages = 0, resident = 0;
  f >> pages >> resident;
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

std::size_t DeviceFreeMib() {
  std::size_t free = 0, total = 0;
  STREAMPIPE_BENCH_CHECK(cudaMemGetInfo(&free, &total));
  return free >> 20;
}

constexpr std::int64_t kBatch = 64;
constexpr std::int64_t kMinWindow = 64 * kBatch;  // --frames: three of them at least

// Fills each ring buffer once; then flips a marker row per frame between two variants.
class MarkedFrames : public BatchSource {
 public:
  MarkedFrames(const FrameFormat& f, std::int64_t batches, StreamPipeline* p, std::int64_t every)
      : f_(f), left_(batches), p_(p), every_(every) {}
  absl::StatusOr<std::int64_t> Fill(std::span<std::byte> in, std::int64_t) override {
    if (left_-- <= 0) return 0;
    Slot& s = slots_[in.data()];
    if (s.expected[0].empty()) {
      video::SyntheticOptions so;
      so.width = f_.width;
      so.height = f_.height;
      so.pattern = video::SyntheticPattern::kSceneCuts;
      so.seed = slots_.size();
      for (std::int64_t i = 0; i < kBatch; ++i) {
        video::GenerateSyntheticFrame(so, i, f_, in.subspan(i * f_.item_bytes(), f_.item_bytes()));
      }
      for (int v = 0; v < 2; ++v) {
        SetMarker(in, v);
        s.expected[v].resize(kBatch);
        video::HistogramsOfItems(f_, in, kBatch, s.expected[v]);
      }
    }
    s.variant ^= 1;
    SetMarker(in, s.variant);
    order_.push_back(&s.expected[s.variant]);
    if (every_ > 0 && ++filled_ % every_ == 0) p_->RequestRemeasure("soak: forced");
    return kBatch;
  }
  std::deque<const std::vector<Histogram>*> order_;  // expected output per batch in flight

 private:
  struct Slot {
    std::vector<Histogram> expected[2];
    int variant = 0;
  };
  void SetMarker(std::span<std::byte> in, int variant) {
    for (std::int64_t i = 0; i < kBatch; ++i) {
      std::memset(in.data() + i * f_.item_bytes(), variant ? 0xEE : 0x11,
                  static_cast<std::size_t>(f_.width));
    }
  }
  FrameFormat f_;
  std::int64_t left_;
  StreamPipeline* p_;
  std::int64_t every_;
  std::int64_t filled_ = 0;
  std::map<std::byte*, Slot> slots_;
};

class CheckingSink : public BatchSink {
 public:
  CheckingSink(MarkedFrames& src, std::int64_t window) : src_(src), window_(window) {}
  absl::Status Consume(std::span<const std::byte> out, const BatchStats& st) override {
    const std::vector<Histogram>& want = *src_.order_.front();
    src_.order_.pop_front();
    if (std::memcmp(out.data(), want.data(), want.size() * sizeof(Histogram)) != 0) ++mismatches;
    frames += st.items;
    window_ms_ += st.period_ms;
    rederivations += st.events.size();
    for (const RederivationEvent& e : st.events) ++by_kind[bench::EventLabel(e)];
    if (frames % window_ == 0) {
      const ResourceCounts r = LiveResources();
      std::printf("%10lld frames  %9.0f frames/s  rss %7ld KiB  device free %6zu MiB  streams %lld "
                  "events %lld pinned %lld MiB device %lld MiB  n=%d  re-derivations %lld\n",
                  static_cast<long long>(frames), window_ / (window_ms_ / 1e3), RssKib(),
                  DeviceFreeMib(), static_cast<long long>(r.streams),
                  static_cast<long long>(r.events), static_cast<long long>(r.pinned_bytes >> 20),
                  static_cast<long long>(r.device_bytes >> 20), st.streams,
                  static_cast<long long>(rederivations));
      std::fflush(stdout);
      fps.push_back(window_ / (window_ms_ / 1e3));
      rss.push_back(RssKib());
      free_mib.push_back(DeviceFreeMib());
      counts.push_back(r);
      window_ms_ = 0.0;
    }
    return absl::OkStatus();
  }
  std::int64_t frames = 0;
  std::int64_t mismatches = 0;
  std::int64_t rederivations = 0;
  std::map<std::string, int> by_kind;
  std::vector<double> fps;
  std::vector<long> rss;
  std::vector<std::size_t> free_mib;
  std::vector<ResourceCounts> counts;

 private:
  MarkedFrames& src_;
  std::int64_t window_;
  double window_ms_ = 0.0;
};

}  // namespace
}  // namespace streampipe

int main(int argc, char** argv) {
  if (streampipe::bench::PrintedHelp(
          argc, argv, "soak",
          "[--frames=1000000 (at least 12288)] [--width=704] [--height=576] "
          "[--remeasure-every=20000]")) {
    return 0;
  }
  using namespace streampipe;
  std::int64_t frames = 1'000'000;
  int width = 704, height = 576;
  std::int64_t every = 20'000;
  for (int i = 1; i < argc; ++i) {
    const absl::string_view arg = argv[i];
    absl::Status st;
    if (auto v = bench::FlagValue(arg, "--frames=")) {  // three windows at least
      st = bench::ParseIntFlag<std::int64_t>("--frames", *v, 3 * kMinWindow, std::int64_t{1} << 40,
                                             &frames);
    } else if (auto v = bench::FlagValue(arg, "--width=")) {
      st = bench::ParseIntFlag("--width", *v, 1, 16384, &width);
    } else if (auto v = bench::FlagValue(arg, "--height=")) {
      st = bench::ParseIntFlag("--height", *v, 1, 16384, &height);
    } else if (auto v = bench::FlagValue(arg, "--remeasure-every=")) {  // 0: never forced
      st = bench::ParseIntFlag<std::int64_t>("--remeasure-every", *v, 0,
                                             std::int64_t{1} << 40, &every);
    } else {
      st = absl::InvalidArgumentError(absl::StrCat(
          "unknown argument '", arg,
          "' (usage: soak [--frames=1000000 (at least 12288)] [--width=704] [--height=576] "
          "[--remeasure-every=20000])"));
    }
    if (!st.ok()) {
      std::fprintf(stderr, "soak: %s\n", std::string(st.message()).c_str());
      return bench::kUsageExit;
    }
  }
  if (CudaDeviceCount() == 0) {
    std::fprintf(stderr, "soak: no CUDA device (%s)\n", NoDeviceReason().c_str());
    return 0;
  }
  absl::StatusOr<Calibration> cal = Calibrate({.quick = true, .inline_copies = false});
  if (!cal.ok()) {
    std::fprintf(stderr, "soak: calibration failed: %s\n",
                 std::string(cal.status().message()).c_str());
    return bench::kSoftwareExit;
  }
  const FrameFormat f{.width = width, .height = height, .format = video::PixelFormat::kGray8};
  PipelineOptions o;
  o.in_bytes_per_item = static_cast<std::int64_t>(f.item_bytes());
  o.out_bytes_per_item = static_cast<std::int64_t>(kHistogramBytes);
  o.max_items_per_batch = kBatch;
  o.launch = bench::ValueOrExit(HistogramLauncher(f, HistogramKernel::kShared),
                                "soak: the histogram's launcher");
  o.max_in_flight = 3;
  o.traits = cal->profile.traits;
  o.adaptive.steady_state = true;
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  if (!p.ok()) {
    std::fprintf(stderr, "soak: %s\n", std::string(p.status().message()).c_str());
    return bench::kSoftwareExit;
  }
  const std::int64_t batches = frames / kBatch;
  MarkedFrames src(f, batches, &*p, every / kBatch);
  // Windows of 100,032 frames (a multiple of the batch), or of a third of a shorter run, so that
  // there are three at least: the first holds the start-up, the last is compared with the
  // second (before, a run shorter than two windows was reported as CHANGED, exit 1). A window
  // is kMinWindow frames at least, so that the second starts after the start-up's batches.
  const std::int64_t window = std::min<std::int64_t>(
      100'032, std::max<std::int64_t>(kMinWindow, frames / 3 / kBatch * kBatch));
  CheckingSink sink(src, window);
  const auto t0 = std::chrono::steady_clock::now();
  absl::StatusOr<ContinuousSummary> s = p->RunContinuous(src, sink);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!s.ok()) {
    std::fprintf(stderr, "soak: %s\n", std::string(s.status().message()).c_str());
    return bench::kSoftwareExit;
  }
  // Flat: compare the last window with the second (the first includes start-up).
  bool flat = sink.counts.size() >= 2;
  long rss_growth = 0;
  long free_drop = 0;
  double fps_min = 1e30, fps_max = 0;
  if (flat) {
    rss_growth = sink.rss.back() - sink.rss[1];
    free_drop = static_cast<long>(sink.free_mib[1]) - static_cast<long>(sink.free_mib.back());
    flat = sink.counts.back() == sink.counts[1] && rss_growth < 4096 && free_drop <= 2;
    for (std::size_t i = 1; i < sink.fps.size(); ++i) {
      fps_min = std::min(fps_min, sink.fps[i]);
      fps_max = std::max(fps_max, sink.fps[i]);
    }
  }
  std::printf("soak: %lld frames %dx%d in %.1f s wall (%.0f frames/s), GPU %.0f frames/s; "
              "%lld histograms wrong; %lld re-derivations; rss growth %ld KiB, device free drop "
              "%ld MiB, live counts %s; window throughput %.0f..%.0f frames/s (%.1f %% spread)\n",
              static_cast<long long>(sink.frames), width, height, wall, sink.frames / wall,
              sink.frames / (s->device_ms / 1e3), static_cast<long long>(sink.mismatches),
              static_cast<long long>(sink.rederivations), rss_growth, free_drop,
              sink.counts.size() >= 2 && sink.counts.back() == sink.counts[1] ? "flat" : "CHANGED",
              fps_min, fps_max, 100.0 * (fps_max - fps_min) / std::max(fps_max, 1.0));
  for (const auto& [kind, count] : sink.by_kind) std::printf("  %s events: %d\n", kind.c_str(), count);
  return sink.mismatches == 0 && flat ? 0 : 1;
}
