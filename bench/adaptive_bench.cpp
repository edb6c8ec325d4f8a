// Adaptive re-derivation on the GPU (issue 4 evidence):
//   stationary  - each add-scalar row (64 MiB each way): the adaptive pipeline over many batches
//                 against the best fixed n found by exhaustive search (goal >= 0.98): "ratio"
//                 against the search's median, "paired" against the mean of the fixed n run
//                 in blocks alternating with the adaptive run's (the same seconds);
//   two-phase   - 6.5 MiB in, 26 KB out, a kernel whose cost switches mid-run: adaptive against
//                 the per-phase best (goal >= 0.97, re-derivations included) and against the
//                 best single fixed n (goal: >= 5 % faster);
//   continuous  - symmetric 64 MiB batches streamed back to back: throughput against the duplex
//                 copy bound (goal >= 0.95).
//   ramp        - how fast the first batches of a run are: after a block of batches, the GPU
//                 idles for a gap (0, 20, 200, 2000 ms) or a fresh pipeline is created (as the
//                 sweep does before its adaptive run), then 24 batches at a fixed n; prints the
//                 median over --ramp-repeats of each batch's time over the run's last 8.
//                 Not in "all".
//   switch      - batches right after a switch of n (2 -> 1, 1 -> 2, 2 -> 4, 2 -> 2), with the
//                 host spinning 0-300 us before each: each over the settled time at the new n.
//                 Not in "all".
// Times are device times from CUDA events (sums of the batches' times), after warm-up.
//   adaptive_bench [stationary|two-phase|continuous|all|ramp|switch] [--batches=N]
//                  [--two-phase-mib=6.5]
//                  [--heavy-ratio=2] [--measure-batches=1] [--probe-ratio=3] [--drift-threshold=0.1]
//                  [--second-visit-batches=0]
//                  [--check-anchor=1]
//                  [--issue=streams|graph] [--ramp-repeats=7]
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "bench_args.hpp"
#include "bench_check.hpp"
#include "bench_kernels.hpp"
#include "event_label.hpp"
#include "streampipe/core/statistics.hpp"
#include "streampipe/cuda/buffer.hpp"
#include "streampipe/cuda/calibrate.hpp"
#include "streampipe/cuda/device.hpp"
#include "streampipe/cuda/error.hpp"
#include "streampipe/cuda/pipeline.hpp"
#include "streampipe/cuda/workloads.hpp"
#include "bench_help.hpp"

namespace streampipe {
namespace {

DeviceTraits g_traits;
double g_duplex_gbps = 0.0;
std::int64_t g_batches = 400;
double g_two_phase_mib = 6.5;   // batch size of the two-phase workload
double g_heavy_ratio = 2.0;     // phase B's kernel time / copy-in time
int g_measure_batches = 1;      // adaptive.measure_batches of every adaptive run
int g_check_anchor = AdaptiveOptions{}.check_anchor ? 1 : 0;  // adaptive.check_anchor (0 / 1)
double g_probe_ratio = AdaptiveOptions{}.exploration.probe_ratio;  // 0: no calibration probe
int g_second_visit_batches = AdaptiveOptions{}.exploration.second_visit_batches;  // 0: none
// adaptive.detector.threshold of every adaptive run (--drift-threshold)
double g_drift_threshold = AdaptiveOptions{}.detector.threshold;
IssueMode g_issue = IssueMode::kStreams;
int g_ramp_repeats = 7;
const int kCandidates[] = {1, 2, 4, 8, 16, 32, 64, 128};

PipelineOptions Base(std::int64_t items, std::int64_t in_b, std::int64_t out_b, KernelLauncher l) {
  PipelineOptions o;
  o.in_bytes_per_item = in_b;
  o.out_bytes_per_item = out_b;
  o.max_items_per_batch = items;
  o.launch = std::move(l);
  o.max_streams = 128;
  o.traits = g_traits;
  o.adaptive.candidates.max_streams = 128;
  o.adaptive.candidates.powers_of_two = true;
  o.adaptive.measure_batches = g_measure_batches;
  o.adaptive.check_anchor = g_check_anchor != 0;
  o.adaptive.exploration.probe_ratio = g_probe_ratio;
  o.adaptive.exploration.second_visit_batches = g_second_visit_batches;
  o.adaptive.detector.threshold = g_drift_threshold;
  o.issue = g_issue;
  return o;
}

// ---------------------------------------------------------------------------------------------
int g_iters = 1;
KernelLauncher VariableAddScalar() {
  return [](const LaunchArgs& a) -> absl::Status {
    STREAMPIPE_CUDA_RETURN_IF_ERROR(LaunchAddScalar(static_cast<const float*>(a.in),
                                                    static_cast<float*>(a.out), a.num_items,
                                                    g_iters, a.stream));
    return absl::OkStatus();
  };
}

// ---------------------------------------------------------------------------------------------
// A mode's own resources and batches: a failure exits 70 with "adaptive_bench <mode>: " and the
// error (the modes measure; they do not recover, and a figure after a failed call means nothing).
// (bench::OkOrExit builds the message only on failure: these sit in timed loops.)
void ExitOnError(const absl::Status& st, const char* mode) {
  bench::OkOrExit(st, "adaptive_bench ", mode);
}
template <typename T>
T ValueOrExit(absl::StatusOr<T> result, const char* mode) {
  return bench::ValueOrExit(std::move(result), "adaptive_bench ", mode);
}

void Stationary() {
  const auto check = [](const absl::Status& st) { ExitOnError(st, "stationary"); };
  constexpr std::int64_t kItems = 16 << 20;
  PinnedBuffer<float> in = ValueOrExit(PinnedBuffer<float>::Create(kItems), "stationary");
  PinnedBuffer<float> out = ValueOrExit(PinnedBuffer<float>::Create(kItems), "stationary");
  for (std::int64_t i = 0; i < kItems; ++i) in.data()[i] = static_cast<float>(i % 1000);
  const HostBatch batch{in.data(), out.data(), kItems};
  std::printf("\n== stationary: add-scalar, 64 MiB each way, %lld adaptive batches\n",
              static_cast<long long>(g_batches));
  std::printf("%-6s %7s %9s %8s %10s %9s %9s %9s %6s  %s\n", "iters", "best_n", "best_ms",
              "adapt_n", "adapt_ms", "ratio", "paired_ms", "paired", "expl",
              "events (kind: old->new n)");
  auto fixed = StreamPipeline::Create(Base(kItems, 4, 4, VariableAddScalar()));
  check(fixed.status());
  for (int iters : {1, 50, 200, 500, 1000, 3000}) {
    g_iters = iters;
    // A graph replays the trip count of its capture: a fresh pipeline per intensity.
    if (g_issue == IssueMode::kGraph) {
      fixed = StreamPipeline::Create(Base(kItems, 4, 4, VariableAddScalar()));
      check(fixed.status());
    }
    // Exhaustive search over fixed n (medians of 41 batches).
    int best_n = 1;
    double best = 1e30;
    for (int n : kCandidates) {
      for (int w = 0; w < 3; ++w) check(fixed->Run(batch, n).status());
      std::vector<double> ms;
      for (int r = 0; r < 41; ++r) {
        ms.push_back(ValueOrExit(fixed->Run(batch, n), "stationary").elapsed_ms);
      }
      const double m = Median(ms);
      if (m < best) {
        best = m;
        best_n = n;
      }
    }
    // Adaptive: a fresh pipeline, every batch counted (the measurement and explorations too),
    // in blocks of kBlock batches that alternate with blocks of the fixed pipeline at best_n:
    // "paired" compares the two over the same seconds, so a shared machine whose speed drifts
    // between the search above and the adaptive run does not count against either.
    constexpr std::int64_t kBlock = 25;
    auto p = StreamPipeline::Create(Base(kItems, 4, 4, VariableAddScalar()));
    check(p.status());
    double total = 0.0, fixed_total = 0.0;
    std::int64_t expl = 0, fixed_batches = 0;
    for (std::int64_t b = 0; b < g_batches; ++b) {
      const BatchStats st = ValueOrExit(p->Run(batch), "stationary");
      total += st.elapsed_ms;
      expl += st.kind == PlanKind::kExplore;
      if ((b + 1) % kBlock == 0 || b + 1 == g_batches) {
        for (std::int64_t f = 0; f < kBlock; ++f, ++fixed_batches) {
          fixed_total += ValueOrExit(fixed->Run(batch, best_n), "stationary").elapsed_ms;
        }
      }
    }
    const double mean = total / static_cast<double>(g_batches);
    const double fixed_mean = fixed_total / static_cast<double>(fixed_batches);
    std::string events;
    for (const RederivationEvent& e : p->controller().events()) {
      events += absl::StrFormat("%s:%d->%d ", bench::EventLabel(e), e.old_streams, e.new_streams);
    }
    std::printf("%-6d %7d %9.4f %8d %10.4f %9.4f %9.4f %9.4f %6lld  %s\n", iters, best_n, best,
                p->chosen_streams(), mean, best / mean, fixed_mean, fixed_mean / mean,
                static_cast<long long>(expl), events.c_str());
  }
}

// ---------------------------------------------------------------------------------------------
void TwoPhase() {
  // Items of 256 floats (1 KiB) in, one float out.
  const std::int64_t kItems = static_cast<std::int64_t>(g_two_phase_mib * 1024);
  const std::int64_t in_b = bench::kReduceWidth * sizeof(float);
  const auto check = [](const absl::Status& st) { ExitOnError(st, "two-phase"); };
  DeviceBuffer<int> spin = ValueOrExit(DeviceBuffer<int>::Create(1), "two-phase");
  PinnedBuffer<float> in =
      ValueOrExit(PinnedBuffer<float>::Create(kItems * bench::kReduceWidth), "two-phase");
  PinnedBuffer<float> out = ValueOrExit(PinnedBuffer<float>::Create(kItems), "two-phase");
  for (std::int64_t i = 0; i < kItems * bench::kReduceWidth; ++i) in.data()[i] = (i % 97) * 0.01f;
  const HostBatch batch{in.data(), out.data(), kItems};
  auto set_spin = [&](int v) {
    STREAMPIPE_BENCH_CHECK(cudaMemcpy(spin.data(), &v, sizeof(int), cudaMemcpyHostToDevice));
  };
  // Phase B's kernel: g_heavy_ratio times the copy-in time.
  auto probe = StreamPipeline::Create(Base(kItems, in_b, 4, bench::ReduceSpinLauncher(spin.data())));
  check(probe.status());
  set_spin(1000);
  for (int w = 0; w < 3; ++w) check(probe->MeasureComponents(batch).status());
  BatchStats m = ValueOrExit(probe->MeasureComponents(batch), "two-phase");
  const int heavy = std::max(1, static_cast<int>(1000.0 * g_heavy_ratio * m.components.h2d_ms /
                                                 m.components.kernel_ms));
  set_spin(0);
  m = ValueOrExit(probe->MeasureComponents(batch), "two-phase");
  std::printf("\n== two-phase: %.2f MiB in, %.0f KB out; phase A spin 0 (kernel %.3f ms, copy-in "
              "%.3f ms), phase B spin %d (kernel ~%.1fx copy-in); %lld batches per phase\n",
              g_two_phase_mib, g_two_phase_mib * 4, m.components.kernel_ms, m.components.h2d_ms,
              heavy, g_heavy_ratio, static_cast<long long>(g_batches));
  auto run = [&](std::optional<int> n, double* a, double* b, std::vector<int>* seen,
                 std::string* rederiv) {
    auto p = StreamPipeline::Create(Base(kItems, in_b, 4, bench::ReduceSpinLauncher(spin.data())));
    check(p.status());
    set_spin(0);
    for (int w = 0; w < 3; ++w) check((n ? p->Run(batch, *n) : p->Run(batch)).status());
    *a = *b = 0.0;
    for (int phase = 0; phase < 2; ++phase) {
      set_spin(phase == 0 ? 0 : heavy);
      for (std::int64_t i = 0; i < g_batches; ++i) {
        const BatchStats st = ValueOrExit(n ? p->Run(batch, *n) : p->Run(batch), "two-phase");
        (phase == 0 ? *a : *b) += st.elapsed_ms;
        if (seen && (seen->empty() || seen->back() != st.streams)) seen->push_back(st.streams);
      }
    }
    if (rederiv) {
      for (const RederivationEvent& e : p->controller().events()) {
        *rederiv += absl::StrFormat(" %s:%d->%d", bench::EventLabel(e), e.old_streams,
                                    e.new_streams);
      }
    }
  };
  std::printf("%-8s %12s %12s %12s\n", "n", "phaseA_ms", "phaseB_ms", "total_ms");
  double best_a = 1e30, best_b = 1e30, best_total = 1e30;
  int best_a_n = 0, best_b_n = 0, best_total_n = 0;
  std::map<int, std::pair<double, double>> per_n;
  for (int n : kCandidates) {
    double a = 0, b = 0;
    run(n, &a, &b, nullptr, nullptr);
    per_n[n] = {a, b};
    std::printf("%-8d %12.2f %12.2f %12.2f\n", n, a, b, a + b);
    if (a < best_a) best_a = a, best_a_n = n;
    if (b < best_b) best_b = b, best_b_n = n;
    if (a + b < best_total) best_total = a + b, best_total_n = n;
  }
  double a = 0, b = 0;
  std::vector<int> seen;
  std::string rederiv;  // the events, labelled
  run(std::nullopt, &a, &b, &seen, &rederiv);
  std::string path;
  for (int n : seen) path += absl::StrFormat("%d ", n);
  std::printf("%-8s %12.2f %12.2f %12.2f   n over time: %s(events:%s)\n", "adaptive", a, b,
              a + b, path.c_str(), rederiv.c_str());
  std::printf("per-phase best: A n=%d %.2f ms, B n=%d %.2f ms; adaptive / per-phase best = %.4f\n",
              best_a_n, best_a, best_b_n, best_b, (best_a + best_b) / (a + b));
  std::printf("best single fixed n=%d %.2f ms; adaptive is %.1f %% faster; that fixed n loses "
              "%.1f %% in phase A and %.1f %% in phase B against the phase's best\n",
              best_total_n, best_total, 100.0 * (best_total / (a + b) - 1.0),
              100.0 * (per_n[best_total_n].first / best_a - 1.0),
              100.0 * (per_n[best_total_n].second / best_b - 1.0));
}

// ---------------------------------------------------------------------------------------------
// A source that fills each ring buffer once and then replays it (the host cannot generate
// 55 GB/s of fresh data; the pipeline's copies are what is measured).
class ReplaySource : public BatchSource {
 public:
  ReplaySource(std::int64_t batches, std::int64_t items) : left_(batches), items_(items) {}
  // Buffers already filled, across runs (the pipeline's ring is reused between them).
  absl::StatusOr<std::int64_t> Fill(std::span<std::byte> in, std::int64_t max_items) override {
    if (left_-- <= 0) return 0;
    static std::vector<std::byte*> seen;
    if (std::find(seen.begin(), seen.end(), in.data()) == seen.end()) {
      float* f = reinterpret_cast<float*>(in.data());
      for (std::int64_t i = 0; i < items_; ++i) f[i] = static_cast<float>(i % 1000);
      seen.push_back(in.data());
    }
    return std::min(items_, max_items);
  }

 private:
  std::int64_t left_, items_;
};
// Keeps each batch's period, to report the second half of a run (after the choice settled).
class PeriodSink : public BatchSink {
 public:
  absl::Status Consume(std::span<const std::byte>, const BatchStats& stats) override {
    periods.push_back(stats.period_ms);
    issue.push_back(stats.issue_ms);
    builds += stats.graph_build_ms > 0.0 ? 1 : 0;
    return absl::OkStatus();
  }
  double MedianIssueMs() const { return issue.empty() ? 0.0 : Median(issue); }
  double SecondHalfMean() const {
    if (periods.size() < 2) return 0.0;
    double sum = 0.0;
    for (std::size_t i = periods.size() / 2; i < periods.size(); ++i) sum += periods[i];
    return sum / static_cast<double>(periods.size() - periods.size() / 2);
  }
  std::vector<double> periods;
  std::vector<double> issue;  // host issue time per batch
  int builds = 0;             // batches that captured a graph
};

void Continuous() {
  const auto check = [](const absl::Status& st) { ExitOnError(st, "continuous"); };
  constexpr std::int64_t kItems = 16 << 20;
  const double bytes = 2.0 * kItems * sizeof(float);
  const double bound_ms = bytes / (98.7e6);  // the anchors' duplex bound, 98.7 GB/s
  const double bound_cal_ms = g_duplex_gbps > 0 ? bytes / (g_duplex_gbps * 1e6) : 0.0;
  std::printf("\n== continuous: 64 MiB each way, add-scalar iters 1, %lld batches; duplex bound "
              "%.4f ms/batch at 98.7 GB/s (anchors)\n",
              static_cast<long long>(g_batches), bound_ms);
  std::printf("%s issue\n", std::string(IssueModeName(g_issue)).c_str());
  std::printf("%-10s %-9s %10s %10s %10s %9s %9s %11s %9s %6s  %s\n", "in_flight", "n",
              "period_ms", "wall_ms", "GB/s", "vs_bound", "explored", "2nd_half/bd", "issue_ms",
              "graphs", "n over time (first batch:n)");
  for (int in_flight : {1, 2, 3}) {
    for (std::optional<int> n : std::vector<std::optional<int>>{std::nullopt, 1, 2, 4, 16}) {
      g_iters = 1;
      PipelineOptions o = Base(kItems, 4, 4, VariableAddScalar());
      o.max_in_flight = in_flight;
      o.adaptive.steady_state = in_flight > 1;
      auto p = StreamPipeline::Create(o);
      check(p.status());
      ReplaySource warm(8, kItems);
      PeriodSink warm_sink;
      ContinuousOptions co;
      co.streams = n;
      check(p->RunContinuous(warm, warm_sink, co).status());
      ReplaySource src(g_batches, kItems);
      PeriodSink sink;
      absl::StatusOr<ContinuousSummary> s = p->RunContinuous(src, sink, co);
      check(s.status());
      const double period = s->device_ms / static_cast<double>(s->batches);
      const int final_n = s->streams_changes.empty() ? 0 : s->streams_changes.back().second;
      std::string path;
      if (!n) {
        std::size_t shown = 0;
        for (const auto& [first, streams] : s->streams_changes) {
          if (++shown > 40) {
            path += "...";
            break;
          }
          path += absl::StrFormat("%lld:%d ", static_cast<long long>(first), streams);
        }
      }
      for (const RederivationEvent& e : s->events) {
        path += absl::StrFormat("[%s %d->%d] ", bench::EventLabel(e), e.old_streams,
                                e.new_streams);
      }
      // Non-streamed batches (measurements, the learned level's checks) each drain the GPU.
      if (!n) {
        path += absl::StrFormat("non-streamed %lld", static_cast<long long>(s->measured_batches));
      }
      const double half = sink.SecondHalfMean();
      std::printf("%-10d %-9s %10.4f %10.4f %10.2f %9.4f %9lld %11.4f %9.4f %6d  %s\n", in_flight,
                  n ? absl::StrFormat("%d", *n).c_str() : absl::StrFormat("auto(%d)", final_n).c_str(),
                  period, s->wall_ms / static_cast<double>(s->batches), bytes / (period * 1e6),
                  bound_ms / period, static_cast<long long>(s->explored_batches),
                  half > 0.0 ? bound_ms / half : 0.0, sink.MedianIssueMs(), sink.builds,
                  path.c_str());
    }
  }
  if (bound_cal_ms > 0) {
    std::printf("(with this card's calibrated two-stream duplex %.1f GB/s the bound is %.4f ms)\n",
                g_duplex_gbps, bound_cal_ms);
  }
}


// `count` batches at n on `p`, the host spinning `spin_us` before each: their device times.
std::vector<double> TimedRun(StreamPipeline& p, const HostBatch& batch, int n, int count,
                             int spin_us, const char* mode) {
  std::vector<double> ms;
  for (int b = 0; b < count; ++b) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(spin_us);
    while (std::chrono::steady_clock::now() < until) {
    }
    absl::StatusOr<BatchStats> st = p.Run(batch, n);
    ExitOnError(st.status(), mode);
    ms.push_back(st->elapsed_ms);
  }
  return ms;
}

// ---------------------------------------------------------------------------------------------
// The first batches of a run against its settled ones: the adaptive pipeline takes its
// non-streamed measurement and its level at n* from a run's first ten batches.
void Ramp() {
  const auto check = [](const absl::Status& st) { ExitOnError(st, "ramp"); };
  constexpr int kRun = 24;
  constexpr int kSettled = 8;  // the last 8 batches of a run are its settled time
  struct Workload {
    const char* name;
    std::int64_t items;
    int iters;
  };
  const Workload workloads[] = {{"add-scalar 64 MiB, intensity 200", 16 << 20, 200},
                                {"add-scalar 0.5 MiB, intensity 200", 128 << 10, 200}};
  for (const Workload& w : workloads) {
    PinnedBuffer<float> in = ValueOrExit(PinnedBuffer<float>::Create(w.items), "ramp");
    PinnedBuffer<float> out = ValueOrExit(PinnedBuffer<float>::Create(w.items), "ramp");
    for (std::int64_t i = 0; i < w.items; ++i) in.data()[i] = static_cast<float>(i % 1000);
    const HostBatch batch{in.data(), out.data(), w.items};
    g_iters = w.iters;
    std::printf("\n== ramp: %s; batch k / median of batches %d-%d, median over %d repeats\n",
                w.name, kRun - kSettled, kRun - 1, g_ramp_repeats);
    std::printf("%-22s %3s %9s  %s\n", "before the run", "n", "settled", "batch 0 1 2 ... 11");
    for (int n : {1, 16}) {
      // gap < 0: a fresh pipeline created right after the block (the sweep's adaptive run).
      for (int gap_ms : {-1, 0, 20, 200, 2000}) {
        std::vector<std::vector<double>> ratio(kRun);
        std::vector<double> settled;
        auto p = StreamPipeline::Create(Base(w.items, 4, 4, VariableAddScalar()));
        check(p.status());
        for (int r = 0; r < g_ramp_repeats; ++r) {
          for (int b = 0; b < 16; ++b) check(p->Run(batch, n).status());
          if (gap_ms < 0) {
            p = StreamPipeline::Create(Base(w.items, 4, 4, VariableAddScalar()));
            check(p.status());
          } else {
            std::this_thread::sleep_for(std::chrono::milliseconds(gap_ms));
          }
          const std::vector<double> ms = TimedRun(*p, batch, n, kRun, 0, "ramp");
          const double ref = Median(std::vector<double>(ms.end() - kSettled, ms.end()));
          settled.push_back(ref);
          for (int b = 0; b < kRun; ++b) ratio[b].push_back(ms[b] / ref);
        }
        std::string row;
        for (int b = 0; b < 12; ++b) row += absl::StrFormat(" %.3f", Median(ratio[b]));
        std::printf("%-22s %3d %9.4f %s\n",
                    gap_ms < 0 ? "a fresh pipeline" : absl::StrFormat("idle %d ms", gap_ms).c_str(),
                    n, Median(settled), row.c_str());
      }
    }
  }
}

// Whether the batches right after a switch of n are slower than the same n settled, and
// whether a host gap between batches slows them (the sweep's adaptive runs measured their
// visits to n = 1 of tiny batches 3-4 % slow on median, up to 18 %, against the rounds).
// One pipeline; per repeat, 12 batches at n = from, then 16 at n = to with the host spinning
// gap_us before each; each of the first 8 at n = to over the median of the last 8, median
// over --ramp-repeats x 3 repeats.
void Switch() {
  const auto check = [](const absl::Status& st) { ExitOnError(st, "switch"); };
  constexpr int kBefore = 12;  // batches at n = from
  constexpr int kAfter = 16;   // batches at n = to
  constexpr int kSettled = 8;  // the last of them: the settled time
  const std::int64_t items = 128 << 10;  // 0.5 MiB of floats each way
  PinnedBuffer<float> in = ValueOrExit(PinnedBuffer<float>::Create(items), "switch");
  PinnedBuffer<float> out = ValueOrExit(PinnedBuffer<float>::Create(items), "switch");
  for (std::int64_t i = 0; i < items; ++i) in.data()[i] = static_cast<float>(i % 1000);
  const HostBatch batch{in.data(), out.data(), items};
  g_iters = 200;
  auto p = StreamPipeline::Create(Base(items, 4, 4, VariableAddScalar()));
  check(p.status());
  for (int b = 0; b < 50; ++b) check(p->Run(batch, 2).status());
  std::printf("\n== switch: add-scalar 0.5 MiB, intensity 200, %s issue; batch k at n = to after "
              "%d at n = from, over the median of batches %d-%d, median over %d repeats\n",
              std::string(IssueModeName(g_issue)).c_str(), kBefore, kAfter - kSettled,
              kAfter - 1, 3 * g_ramp_repeats);
  std::printf("%4s %3s %7s %9s  %s\n", "from", "to", "gap us", "settled", "batch 0 1 ... 7");
  const std::pair<int, int> switches[] = {{2, 1}, {1, 2}, {2, 4}, {2, 2}};
  for (const auto& [from, to] : switches) {
    for (int gap_us : {0, 30, 100, 300}) {
      std::vector<std::vector<double>> ratio(kSettled);
      std::vector<double> settled;
      for (int r = 0; r < 3 * g_ramp_repeats; ++r) {
        for (int b = 0; b < kBefore; ++b) check(p->Run(batch, from).status());
        const std::vector<double> ms = TimedRun(*p, batch, to, kAfter, gap_us, "switch");
        const double ref = Median(std::vector<double>(ms.end() - kSettled, ms.end()));
        settled.push_back(ref);
        for (int b = 0; b < kSettled; ++b) ratio[b].push_back(ms[b] / ref);
      }
      std::string row;
      for (int b = 0; b < kSettled; ++b) row += absl::StrFormat(" %.3f", Median(ratio[b]));
      std::printf("%4d %3d %7d %9.4f %s\n", from, to, gap_us, Median(settled), row.c_str());
    }
  }
}

// The flags into the globals above, and the section to run; an error names the flag and value.
absl::StatusOr<std::string> ParseArgs(int argc, char** argv) {
  using bench::FlagValue;
  std::string what = "all";
  for (int i = 1; i < argc; ++i) {
    const absl::string_view arg = argv[i];
    absl::Status st;
    if (auto v = FlagValue(arg, "--batches=")) {
      st = bench::ParseIntFlag<std::int64_t>("--batches", *v, 1, 10'000'000, &g_batches);
    } else if (auto v = FlagValue(arg, "--two-phase-mib=")) {
      st = bench::ParseDoubleFlag("--two-phase-mib", *v, 0.01, 4096.0, &g_two_phase_mib);
    } else if (auto v = FlagValue(arg, "--heavy-ratio=")) {
      st = bench::ParseDoubleFlag("--heavy-ratio", *v, 0.01, 100.0, &g_heavy_ratio);
    } else if (auto v = FlagValue(arg, "--measure-batches=")) {  // the library's own range
      st = bench::ParseIntFlag("--measure-batches", *v, 1, 15, &g_measure_batches);
    } else if (auto v = FlagValue(arg, "--check-anchor=")) {
      st = bench::ParseIntFlag("--check-anchor", *v, 0, 1, &g_check_anchor);
    } else if (auto v = FlagValue(arg, "--probe-ratio=")) {
      st = bench::ParseDoubleFlag("--probe-ratio", *v, 0.0, 100.0, &g_probe_ratio);
    } else if (auto v = FlagValue(arg, "--second-visit-batches=")) {  // the library's range
      st = bench::ParseIntFlag("--second-visit-batches", *v, 0, 1'000'000'000,
                               &g_second_visit_batches);
    } else if (auto v = FlagValue(arg, "--drift-threshold=")) {
      st = bench::ParseDoubleFlag("--drift-threshold", *v, 0.0, 10.0, &g_drift_threshold);
      if (!st.ok() || !(g_drift_threshold > 0.0)) {  // 0 would declare drift at every batch
        st = absl::InvalidArgumentError(
            absl::StrCat("--drift-threshold: '", *v, "' is not a number in (0, 10]"));
      }
    } else if (auto v = FlagValue(arg, "--ramp-repeats=")) {
      st = bench::ParseIntFlag("--ramp-repeats", *v, 1, 1000, &g_ramp_repeats);
    } else if (auto v = FlagValue(arg, "--issue=")) {
      absl::StatusOr<IssueMode> m = ParseIssueMode(std::string_view(v->data(), v->size()));
      if (!m.ok()) return absl::InvalidArgumentError(absl::StrCat("--issue: ", m.status().message()));
      g_issue = *m;
    } else if (arg == "all" || arg == "stationary" || arg == "two-phase" ||
               arg == "continuous" || arg == "ramp" || arg == "switch") {
      what = std::string(arg);
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          "unknown argument '", arg,
          "' (sections: all stationary two-phase continuous ramp switch; flags: see the file's "
          "header)"));
    }
    if (!st.ok()) return st;
  }
  return what;
}

}  // namespace
}  // namespace streampipe

int main(int argc, char** argv) {
  if (streampipe::bench::PrintedHelp(
          argc, argv, "adaptive_bench",
          "[stationary|two-phase|continuous|all|ramp|switch] [--batches=N] "
          "[--two-phase-mib=6.5] [--heavy-ratio=2] [--measure-batches=1] [--probe-ratio=3] "
          "[--drift-threshold=0.1] [--second-visit-batches=0] [--check-anchor=1] "
          "[--issue=streams|graph] [--ramp-repeats=7]")) {
    return 0;
  }
  using namespace streampipe;
  absl::StatusOr<std::string> parsed = ParseArgs(argc, argv);
  if (!parsed.ok()) {
    std::cerr << "adaptive_bench: " << parsed.status().message() << "\n";
    return bench::kUsageExit;
  }
  const std::string what = *parsed;
  if (CudaDeviceCount() == 0) {
    std::cerr << "adaptive_bench: no CUDA device (" << NoDeviceReason() << ")\n";
    return 0;
  }
  absl::StatusOr<Calibration> cal = Calibrate({});
  if (!cal.ok()) {
    std::cerr << "adaptive_bench: calibration failed: " << cal.status() << "\n";
    return bench::kSoftwareExit;
  }
  g_traits = cal->profile.traits;
  g_duplex_gbps = cal->profile.duplex_gbps;
  std::printf("calibrated: c %.2f us, duplex fit %.1f GB/s each way\n",
              g_traits.stream_overhead_ms * 1e3, 1.0 / g_traits.h2d.duplex_ms_per_byte / 1e6);
  if (what == "all" || what == "stationary") Stationary();
  if ((what == "all" || what == "two-phase") && g_issue == IssueMode::kGraph) {
    // Its launcher reads the kernel's trip count at each launch; a graph replays the count
    // of its capture, so phase B would not be heavier.
    std::printf("\n== two-phase: not run with --issue=graph (the launcher's argument changes)\n");
  } else if (what == "all" || what == "two-phase") {
    TwoPhase();
  }
  if (what == "all" || what == "continuous") Continuous();
  if (what == "ramp") Ramp();
  if (what == "switch") Switch();
  return 0;
}
