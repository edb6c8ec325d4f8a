// Video histograms on the GPU (issue 5 evidence).
//   sizes  - 176x144, 352x288, 704x576, 1920x1080 gray frames, batches of 64: frames/s of a
//            non-streamed loop, of the best fixed n, and of the adaptive pipeline (one batch at a
//            time, and continuously with batches in flight), against the copy-bound rate
//            (frame bytes over the H2D bandwidth of the calibration at start).
//   s44    - the 2012 paper's section 4.4: 4096 frames in chunks of 32, uniform luminance then
//            degenerate frames, with the content-dependent global-atomics kernel (and the shared
//            kernel): frames/s per half, non-streamed against adaptive, re-derivations.
// Frames/s are from device time (CUDA events), so the host's frame generation is not counted.
//   contdiag - not in "all": diagnostics of the continuous runs of `sizes`.
//   histogram_bench [sizes|s44|all|contdiag] [--frames=2048] [--cont-batches=1000]
//                   [--kernel=shared|shared-atomic]
// --kernel picks the privatized kernel of `sizes` (and of s44's shared rows): shared merges in
// thread-block clusters where the device can, shared-atomic with global atomics after a memset.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "bench_args.hpp"
#include "event_label.hpp"
#include "streampipe/core/statistics.hpp"
#include "streampipe/cuda/buffer.hpp"
#include "streampipe/cuda/calibrate.hpp"
#include "streampipe/cuda/device.hpp"
#include "streampipe/cuda/histogram.hpp"
#include "streampipe/cuda/pipeline.hpp"
#include "streampipe/video/frame_source.hpp"
#include "streampipe/video/histogram_cpu.hpp"
#include "bench_help.hpp"

namespace streampipe {
namespace {

using video::FrameFormat;
using video::PixelFormat;

DeviceTraits g_traits;
std::int64_t g_frames = 2048;
std::int64_t g_cont_batches = 1000;  // continuous runs: long enough to amortize start-up
HistogramKernel g_shared = HistogramKernel::kShared;

// Where a call fails, "histogram_bench: <what>: <error>" and exit 70 (bench_args.hpp, which
// builds the message only then: SyncRun's loop is timed).
void OkOrExit(const absl::Status& st, const char* what) {
  bench::OkOrExit(st, "histogram_bench: ", what);
}
template <typename T>
T ValueOrExit(absl::StatusOr<T> result, const char* what) {
  return bench::ValueOrExit(std::move(result), "histogram_bench: ", what);
}

PipelineOptions Options(const FrameFormat& f, std::int64_t batch, HistogramKernel k) {
  PipelineOptions o;
  o.in_bytes_per_item = static_cast<std::int64_t>(f.item_bytes());
  o.out_bytes_per_item = static_cast<std::int64_t>(kHistogramBytes);
  o.max_items_per_batch = batch;
  o.launch = ValueOrExit(HistogramLauncher(f, k), "the histogram's launcher");
  o.max_streams = 64;
  o.traits = g_traits;
  o.adaptive.candidates.max_streams = 64;
  o.adaptive.candidates.powers_of_two = true;
  return o;
}

// Runs `batches` synchronous batches; returns their device ms in total.
double SyncRun(StreamPipeline& p, const HostBatch& b, std::int64_t batches, std::optional<int> n) {
  double total = 0.0;
  for (std::int64_t i = 0; i < batches; ++i) {
    total += ValueOrExit(n ? p.Run(b, *n) : p.Run(b), "a batch").elapsed_ms;
  }
  return total;
}

class ReplayFrames : public BatchSource {
 public:
  ReplayFrames(const FrameFormat& f, std::int64_t batches, std::int64_t per)
      : f_(f), left_(batches), per_(per) {}
  absl::StatusOr<std::int64_t> Fill(std::span<std::byte> in, std::int64_t max_items) override {
    if (left_-- <= 0) return 0;
    static std::map<std::pair<std::byte*, std::size_t>, bool> filled;
    if (!filled[{in.data(), f_.item_bytes()}]) {
      video::SyntheticOptions so;
      so.width = f_.width;
      so.height = f_.height;
      for (std::int64_t i = 0; i < per_; ++i) {
        video::GenerateSyntheticFrame(so, i, f_,
                                      in.subspan(static_cast<std::size_t>(i) * f_.item_bytes(),
                                                 f_.item_bytes()));
      }
      filled[{in.data(), f_.item_bytes()}] = true;
    }
    return std::min(per_, max_items);
  }

 private:
  FrameFormat f_;
  std::int64_t left_, per_;
};
class NullSink : public BatchSink {
 public:
  absl::Status Consume(std::span<const std::byte>, const BatchStats&) override {
    return absl::OkStatus();
  }
};

void Sizes() {
  constexpr std::int64_t kBatch = 64;
  std::printf("\n== frame sizes: gray frames, batches of %lld, %lld frames per measurement "
              "(frames/s from device time), kernel %s\n",
              static_cast<long long>(kBatch), static_cast<long long>(g_frames),
              HistogramKernelName(g_shared));
  std::printf("%-10s %9s %10s %10s %6s %10s %10s %12s %12s %8s\n", "size", "bound", "nonstream",
              "best_fixed", "n", "adaptive", "adapt_n", "cont_adapt", "cont_n=1", "cont/bnd");
  for (auto [w, h] : {std::pair{176, 144}, {352, 288}, {704, 576}, {1920, 1080}}) {
    const FrameFormat f{.width = w, .height = h, .format = PixelFormat::kGray8};
    // The copy-bound rate: frame bytes over the H2D bandwidth (the calibrated G of large copies).
    const double gbps = 1e-6 / g_traits.h2d.ms_per_byte;
    const double bound = gbps * 1e9 / static_cast<double>(f.item_bytes());
    PinnedBuffer<std::byte> in =
        ValueOrExit(PinnedBuffer<std::byte>::Create(kBatch * f.item_bytes()), "pinned frames");
    PinnedBuffer<std::byte> out = ValueOrExit(
        PinnedBuffer<std::byte>::Create(kBatch * kHistogramBytes), "pinned histograms");
    video::SyntheticOptions so;
    so.width = w;
    so.height = h;
    for (std::int64_t i = 0; i < kBatch; ++i) {
      video::GenerateSyntheticFrame(so, i, f, in.span().subspan(i * f.item_bytes(), f.item_bytes()));
    }
    const HostBatch b{in.data(), out.data(), kBatch};
    const std::int64_t batches = g_frames / kBatch;
    StreamPipeline fixed =
        ValueOrExit(StreamPipeline::Create(Options(f, kBatch, g_shared)), "a pipeline");
    (void)SyncRun(fixed, b, 5, 1);
    const double nonstream = SyncRun(fixed, b, batches, 1);
    double best = 1e30;
    int best_n = 1;
    for (int n : {1, 2, 4, 8, 16, 32, 64}) {
      (void)SyncRun(fixed, b, 3, n);
      const double t = SyncRun(fixed, b, batches, n);
      if (t < best) {
        best = t;
        best_n = n;
      }
    }
    StreamPipeline adaptive =
        ValueOrExit(StreamPipeline::Create(Options(f, kBatch, g_shared)), "a pipeline");
    const double adapt = SyncRun(adaptive, b, batches, std::nullopt);
    // Continuous: 3 batches in flight.
    double cont[2] = {0, 0};
    int cont_n = 0;
    for (int mode = 0; mode < 2; ++mode) {
      PipelineOptions o = Options(f, kBatch, g_shared);
      o.max_in_flight = 3;
      o.adaptive.steady_state = true;
      StreamPipeline p = ValueOrExit(StreamPipeline::Create(o), "a pipeline");
      ContinuousOptions co;
      if (mode == 1) co.streams = 1;
      NullSink sink;
      ReplayFrames warm(f, 8, kBatch);
      OkOrExit(p.RunContinuous(warm, sink, co).status(), "a continuous run");
      ReplayFrames src(f, g_cont_batches, kBatch);
      absl::StatusOr<ContinuousSummary> s = p.RunContinuous(src, sink, co);
      OkOrExit(s.status(), "a continuous run");
      cont[mode] = s->device_ms * static_cast<double>(batches) / static_cast<double>(s->batches);
      if (mode == 0) {
        cont_n = s->streams_changes.empty() ? 0 : s->streams_changes.back().second;
        std::string ev;
        for (const RederivationEvent& e : s->events) {
          ev += absl::StrFormat(" %s:%d->%d", bench::EventLabel(e), e.old_streams, e.new_streams);
        }
        std::printf("           continuous adaptive: %lld batches, %lld explored, %lld "
                    "non-streamed, events:%s\n",
                    static_cast<long long>(s->batches), static_cast<long long>(s->explored_batches),
                    static_cast<long long>(s->measured_batches), ev.c_str());
      }
    }
    const double fr = static_cast<double>(batches * kBatch);
    auto fps = [&](double ms) { return fr / (ms / 1e3); };
    std::printf("%-10s %9.0f %10.0f %10.0f %6d %10.0f %10d %12.0f %12.0f %8.3f\n",
                absl::StrFormat("%dx%d", w, h).c_str(), bound, fps(nonstream), fps(best), best_n,
                fps(adapt), adaptive.chosen_streams(), fps(cont[0]), fps(cont[1]),
                fps(cont[0]) / bound);
    std::printf("           (continuous adaptive settled on n=%d; H2D %.1f GB/s)\n", cont_n, gbps);
  }
}

// Every batch of a continuous adaptive run: kind, n, period, prediction, events.
void ContinuousDiagnostics() {
  constexpr std::int64_t kBatch = 64;
  const FrameFormat f{.width = 704, .height = 576, .format = PixelFormat::kGray8};
  PipelineOptions o = Options(f, kBatch, g_shared);
  o.max_in_flight = 3;
  o.adaptive.steady_state = true;
  StreamPipeline p = ValueOrExit(StreamPipeline::Create(o), "a pipeline");
  class LogSink : public BatchSink {
   public:
    absl::Status Consume(std::span<const std::byte>, const BatchStats& st) override {
      std::printf("batch %4lld %-8s n=%-3d period %.4f observed %.4f%s elapsed %.4f predicted %.4f",
                  static_cast<long long>(st.index), PlanKindName(st.kind), st.streams,
                  st.period_ms, st.observed_ms, st.settled ? "" : " (unsettled)", st.elapsed_ms,
                  st.predicted_ms);
      for (const RederivationEvent& e : st.events) {
        std::printf("  EVENT %s %d->%d %s", EventKindName(e.kind), e.old_streams, e.new_streams,
                    e.reason.c_str());
      }
      std::printf("\n");
      return absl::OkStatus();
    }
  } sink;
  ReplayFrames src(f, 400, kBatch);
  absl::StatusOr<ContinuousSummary> s = p.RunContinuous(src, sink);
  OkOrExit(s.status(), "a continuous run");
  std::printf("diag: %lld batches, device %.2f ms, %lld explored, %lld measured, %zu events\n",
              static_cast<long long>(s->batches), s->device_ms,
              static_cast<long long>(s->explored_batches),
              static_cast<long long>(s->measured_batches), s->events.size());
}

void Section44() {
  constexpr std::int64_t kChunk = 32;
  const std::int64_t frames = 4096;
  std::printf("\n== section 4.4: %lld frames in chunks of %lld, first half uniform, second half "
              "degenerate; frames/s per half from device time\n",
              static_cast<long long>(frames), static_cast<long long>(kChunk));
  std::printf("%-9s %-8s %-11s %12s %12s %8s  %s\n", "size", "kernel", "mode", "first_half",
              "second_half", "events", "n over time");
  for (auto [w, h] : {std::pair{352, 288}, {704, 576}}) {
    const FrameFormat f{.width = w, .height = h, .format = PixelFormat::kGray8};
    video::SyntheticOptions so;
    so.width = w;
    so.height = h;
    so.frames = frames;
    so.pattern = video::SyntheticPattern::kSection44;
    // The whole sequence, generated once (pinned).
    PinnedBuffer<std::byte> all =
        ValueOrExit(PinnedBuffer<std::byte>::Create(frames * f.item_bytes()), "pinned frames");
    for (std::int64_t i = 0; i < frames; ++i) {
      video::GenerateSyntheticFrame(so, i, f, all.span().subspan(i * f.item_bytes(), f.item_bytes()));
    }
    PinnedBuffer<std::byte> out = ValueOrExit(
        PinnedBuffer<std::byte>::Create(kChunk * kHistogramBytes), "pinned histograms");
    for (HistogramKernel k : {HistogramKernel::kGlobal, g_shared}) {
      for (int mode = 0; mode < 2; ++mode) {
        StreamPipeline p = ValueOrExit(StreamPipeline::Create(Options(f, kChunk, k)), "a pipeline");
        double half[2] = {0, 0};
        std::string path;
        int last = -1;
        // Warm-up on the first chunk (not counted).
        for (int i = 0; i < 3; ++i) OkOrExit(p.Run({all.data(), out.data(), kChunk}, 1).status(), "a batch");
        for (std::int64_t c = 0; c < frames / kChunk; ++c) {
          const HostBatch b{all.data() + c * kChunk * f.item_bytes(), out.data(), kChunk};
          const BatchStats st = ValueOrExit(mode == 0 ? p.Run(b, 1) : p.Run(b), "a batch");
          half[c * kChunk < frames / 2 ? 0 : 1] += st.elapsed_ms;
          if (st.streams != last) {
            path += absl::StrFormat("%d ", st.streams);
            last = st.streams;
          }
        }
        const double hf = static_cast<double>(frames / 2);
        std::printf("%-9s %-8s %-11s %12.0f %12.0f %8zu  %s\n",
                    absl::StrFormat("%dx%d", w, h).c_str(), HistogramKernelName(k),
                    mode == 0 ? "nonstreamed" : "adaptive", hf / (half[0] / 1e3),
                    hf / (half[1] / 1e3), mode == 0 ? 0 : p.controller().events().size(),
                    mode == 0 ? "1" : path.c_str());
      }
    }
  }
}

}  // namespace
}  // namespace streampipe

int main(int argc, char** argv) {
  if (streampipe::bench::PrintedHelp(
          argc, argv, "histogram_bench",
          "[sizes|s44|all|contdiag] [--frames=N] [--cont-batches=N] "
          "[--kernel=shared|shared-atomic]")) {
    return 0;
  }
  using namespace streampipe;
  std::string what = "all";
  for (int i = 1; i < argc; ++i) {
    const absl::string_view arg = argv[i];
    absl::Status st;
    if (auto v = bench::FlagValue(arg, "--frames=")) {  // at least one batch of 64
      st = bench::ParseIntFlag<std::int64_t>("--frames", *v, 64, std::int64_t{1} << 40,
                                             &g_frames);
    } else if (auto v = bench::FlagValue(arg, "--kernel=")) {
      absl::StatusOr<HistogramKernel> k =
          ParseHistogramKernel(std::string_view(v->data(), v->size()));
      if (!k.ok() || *k == HistogramKernel::kGlobal) {
        st = absl::InvalidArgumentError(
            absl::StrCat("--kernel: shared or shared-atomic, not '", *v, "'"));
      } else {
        g_shared = *k;
      }
    } else if (auto v = bench::FlagValue(arg, "--cont-batches=")) {
      st = bench::ParseIntFlag<std::int64_t>("--cont-batches", *v, 1, std::int64_t{1} << 40,
                                             &g_cont_batches);
    } else if (arg == "all" || arg == "sizes" || arg == "s44" || arg == "contdiag") {
      what = std::string(arg);
    } else {
      st = absl::InvalidArgumentError(
          absl::StrCat("unknown argument '", arg,
                       "' (usage: histogram_bench [sizes|s44|all|contdiag] [--frames=N] "
                       "[--cont-batches=N] [--kernel=shared|shared-atomic])"));
    }
    if (!st.ok()) {
      std::cerr << "histogram_bench: " << st.message() << "\n";
      return bench::kUsageExit;
    }
  }
  if (CudaDeviceCount() == 0) {
    std::cerr << "histogram_bench: no CUDA device (" << NoDeviceReason() << ")\n";
    return 0;
  }
  absl::StatusOr<Calibration> cal = Calibrate({});
  if (!cal.ok()) {
    std::cerr << "histogram_bench: calibration failed: " << cal.status() << "\n";
    return bench::kSoftwareExit;
  }
  g_traits = cal->profile.traits;
  if (what == "all" || what == "sizes") Sizes();
  if (what == "all" || what == "s44") Section44();
  if (what == "contdiag") ContinuousDiagnostics();
  return 0;
}
