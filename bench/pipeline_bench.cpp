// The add-scalar sweep of docs/evidence/anchors/probe.cu (64 MiB in, 64 MiB out, kernel loop trips
// 1..3000, n 1..128, depth-first) run through StreamPipeline and through a hand-written loop,
// both timed with CUDA events from the same start to the same join; plus automatic mode's
// choice of n per row against the best n of the sweep.
//
//   pipeline_bench [--benchmark_filter=...] [--csv=FILE] [--hand-join=after|interleaved]
//
// Each benchmark runs warm-up batches first, then times every batch; the reported counter
// median_ms is the median of the batches (Google Benchmark's own time column is their mean).
#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bench_check.hpp"
#include "streampipe/core/statistics.hpp"
#include "streampipe/status_macros.hpp"
#include "streampipe/cuda/buffer.hpp"
#include "streampipe/cuda/calibrate.hpp"
#include "streampipe/cuda/device.hpp"
#include "streampipe/cuda/error.hpp"
#include "streampipe/cuda/event.hpp"
#include "streampipe/cuda/pipeline.hpp"
#include "streampipe/cuda/stream.hpp"
#include "streampipe/cuda/workloads.hpp"

namespace streampipe {
namespace {

constexpr std::int64_t kItems = 16 << 20;  // 64 MiB of floats each way
const int kIters[] = {1, 50, 200, 500, 1000, 3000};
const int kStreams[] = {1, 2, 4, 8, 16, 32, 64, 128};
constexpr int kWarmup = 3;
constexpr int kBatches = 61;

struct Shared {
  bool ok = false;
  bool failed = false;  // Init or a benchmark failed; main exits 70
  std::string failure;  // the first failure's message
  bool no_device = false;  // Init found none: every benchmark skips, main exits 0
  DeviceTraits traits;
  PinnedBuffer<float> in, out;
  std::vector<float> ref;
  // (impl, iters, n) -> median ms
  std::map<std::tuple<std::string, int, int>, double> medians;
  std::map<int, int> auto_choice;
  std::map<int, double> auto_ms;
};

Shared& S() {
  static Shared* s = new Shared();
  return *s;
}

// A benchmark that failed (a pipeline that could not be created or whose batch failed): skipped
// with the message, and the first such failure kept for main to exit 70 with.
void Fail(benchmark::State& state, const absl::Status& st) {
  if (!S().failed) S().failure = st.ToString();
  S().failed = true;
  state.SkipWithError(st.ToString().c_str());
}

// Once: the calibration and the pinned buffers. A failure is kept, every benchmark skips with
// it, and main prints it and exits 70. Without a device, said once; main exits 0.
bool Init() {
  Shared& s = S();
  if (s.ok) return true;
  if (s.failed || s.no_device) return false;
  if (CudaDeviceCount() == 0) {
    std::cerr << "pipeline_bench: no CUDA device (" << NoDeviceReason() << "); nothing to run\n";
    s.no_device = true;
    return false;
  }
  absl::StatusOr<Calibration> cal = Calibrate({});
  absl::StatusOr<PinnedBuffer<float>> in = PinnedBuffer<float>::Create(kItems);
  absl::StatusOr<PinnedBuffer<float>> out = PinnedBuffer<float>::Create(kItems);
  const absl::Status st = !cal.ok() ? cal.status() : !in.ok() ? in.status() : out.status();
  if (!st.ok()) {
    s.failure = absl::StrCat(!cal.ok() ? "calibration failed: " : "", st.ToString());
    s.failed = true;
    return false;
  }
  s.traits = cal->profile.traits;
  s.in = *std::move(in);
  s.out = *std::move(out);
  for (std::int64_t i = 0; i < kItems; ++i) s.in.data()[i] = static_cast<float>(i % 1000);
  s.ok = true;
  return true;
}

// --hand-join=interleaved: the hand loop joins each stream right after issuing its work
// (the form used up to run 23); default: after the whole batch, as probe.cu does.
bool g_join_after = true;

// The hand-written loop a careful engineer would write: streams and events created once,
// depth-first issue, a join on an origin stream, events around the batch.
struct HandLoop {
  std::vector<Stream> streams;
  std::vector<Event> done;
  Stream origin;
  TimedEvent start, end;
  DeviceBuffer<float> d_in, d_out;

  static absl::StatusOr<HandLoop> Make() {
    HandLoop h;
    for (int i = 0; i < 128; ++i) {
      STREAMPIPE_ASSIGN_OR_RETURN(Stream stream, Stream::Create());
      STREAMPIPE_ASSIGN_OR_RETURN(Event done, Event::Create());
      h.streams.push_back(std::move(stream));
      h.done.push_back(std::move(done));
    }
    STREAMPIPE_ASSIGN_OR_RETURN(h.origin, Stream::Create());
    STREAMPIPE_ASSIGN_OR_RETURN(h.start, TimedEvent::Create());
    STREAMPIPE_ASSIGN_OR_RETURN(h.end, TimedEvent::Create());
    STREAMPIPE_ASSIGN_OR_RETURN(h.d_in, DeviceBuffer<float>::Create(kItems));
    STREAMPIPE_ASSIGN_OR_RETURN(h.d_out, DeviceBuffer<float>::Create(kItems));
    return h;
  }

  // Issues one batch, waits for it; returns its event time (ms) and sets *issue_us to the host
  // time the issue took. With g_join_after every stream joins the origin after the whole batch
  // is issued, as probe.cu does; otherwise each stream joins right after its own work. A failed
  // copy or launch exits 70 at once (STREAMPIPE_BENCH_CHECK); a failed event or wait is returned.
  absl::StatusOr<double> Batch(const float* in, float* out, int iters, int n, double* issue_us) {
    const auto t0 = std::chrono::steady_clock::now();
    STREAMPIPE_RETURN_IF_ERROR(start.Record(origin));
    const std::int64_t base = kItems / n;
    const std::int64_t rem = kItems % n;
    for (int k = 0; k < n; ++k) {
      const std::int64_t first = k * base + std::min<std::int64_t>(k, rem);
      const std::int64_t count = base + (k < rem ? 1 : 0);
      cudaStream_t s = streams[k].get();
      STREAMPIPE_BENCH_CHECK(cudaMemcpyAsync(d_in.data() + first, in + first,
                                             count * sizeof(float), cudaMemcpyHostToDevice, s));
      LaunchAddScalar(d_in.data() + first, d_out.data() + first, count, iters, s);
      STREAMPIPE_BENCH_CHECK(cudaGetLastError());
      STREAMPIPE_BENCH_CHECK(cudaMemcpyAsync(out + first, d_out.data() + first,
                                             count * sizeof(float), cudaMemcpyDeviceToHost, s));
      if (!g_join_after) Join(k);
    }
    if (g_join_after) {
      for (int k = 0; k < n; ++k) Join(k);
    }
    STREAMPIPE_RETURN_IF_ERROR(end.Record(origin));
    *issue_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0)
                    .count();
    STREAMPIPE_RETURN_IF_ERROR(end.Wait(std::chrono::milliseconds(60000)));
    STREAMPIPE_ASSIGN_OR_RETURN(float ms, ElapsedMs(start, end));
    return ms;
  }

  void Join(int k) {
    STREAMPIPE_BENCH_CHECK(cudaEventRecord(done[k].get(), streams[k].get()));
    STREAMPIPE_BENCH_CHECK(cudaStreamWaitEvent(origin.get(), done[k].get(), 0));
  }
};

void Report(benchmark::State& state, const std::string& impl, int iters, int n,
            const std::vector<double>& ms) {
  const double med = Median(ms);
  S().medians[{impl, iters, n}] = med;
  state.counters["median_ms"] = med;
  state.counters["GBps"] = 2.0 * kItems * sizeof(float) / (med * 1e6);
}

// A pipeline of `items` floats each way through the add-scalar kernel (`iters` trips), up to
// 128 streams, with the calibrated traits: what every benchmark here varies from.
PipelineOptions AddScalarPipeline(std::int64_t items, int iters) {
  PipelineOptions o;
  o.in_bytes_per_item = o.out_bytes_per_item = sizeof(float);
  o.max_items_per_batch = items;
  o.launch = AddScalarLauncher(iters);
  o.max_streams = 128;
  o.traits = S().traits;
  return o;
}

// The hand loop and one StreamPipeline (its launcher reads the intensity from g_iters), batch
// for batch in alternating order, so that both see the same machine state: a comparison of
// separate runs measures drift of the machine as much as the code (seen: +-5-10 % at single
// points between runs).
int g_iters = 1;

// Created once; a failure is kept and fails every benchmark that uses it.
absl::StatusOr<StreamPipeline>& SharedPipeline() {
  static absl::StatusOr<StreamPipeline>* p = [] {
    PipelineOptions o = AddScalarPipeline(kItems, 1);
    o.launch = [](const LaunchArgs& a) -> absl::Status {
      STREAMPIPE_CUDA_RETURN_IF_ERROR(LaunchAddScalar(static_cast<const float*>(a.in),
                                                      static_cast<float*>(a.out), a.num_items,
                                                      g_iters, a.stream));
      return absl::OkStatus();
    };
    return new absl::StatusOr<StreamPipeline>(StreamPipeline::Create(o));
  }();
  return *p;
}

void BM_Paired(benchmark::State& state) {
  if (!Init()) {
    state.SkipWithError(S().no_device ? "no CUDA device" : S().failure.c_str());
    return;
  }
  g_iters = static_cast<int>(state.range(0));
  const int n = static_cast<int>(state.range(1));
  static absl::StatusOr<HandLoop>* hand_loop = new absl::StatusOr<HandLoop>(HandLoop::Make());
  if (!hand_loop->ok()) {
    Fail(state, hand_loop->status());
    return;
  }
  if (!SharedPipeline().ok()) {
    Fail(state, SharedPipeline().status());
    return;
  }
  HandLoop* h = &**hand_loop;
  StreamPipeline& p = *SharedPipeline();
  const HostBatch batch{S().in.data(), S().out.data(), kItems};
  double issue_us = 0.0;
  // The pipeline's host issue time: Submit returns once the batch is enqueued.
  auto run_pipeline = [&](double* ms, double* us) -> absl::Status {
    const auto t0 = std::chrono::steady_clock::now();
    STREAMPIPE_RETURN_IF_ERROR(p.Submit(batch, n));
    *us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    STREAMPIPE_ASSIGN_OR_RETURN(BatchStats st, p.Collect());
    *ms = st.elapsed_ms;
    return absl::OkStatus();
  };
  for (int w = 0; w < kWarmup; ++w) {
    if (absl::StatusOr<double> t = h->Batch(S().in.data(), S().out.data(), g_iters, n, &issue_us);
        !t.ok()) {
      Fail(state, t.status());
      return;
    }
    double ms = 0.0;
    if (absl::Status st = run_pipeline(&ms, &issue_us); !st.ok()) {
      Fail(state, st);
      return;
    }
  }
  std::vector<double> hand, pipe, hand_issue, pipe_issue, pair_ratio;
  bool hand_first = true;
  for (auto _ : state) {
    double th = 0.0;
    double tp = 0.0;
    double ih = 0.0;
    double ip = 0.0;
    for (int order = 0; order < 2; ++order) {
      if ((order == 0) == hand_first) {
        absl::StatusOr<double> t = h->Batch(S().in.data(), S().out.data(), g_iters, n, &ih);
        if (!t.ok()) {
          Fail(state, t.status());
          return;
        }
        th = *t;
      } else if (absl::Status st = run_pipeline(&tp, &ip); !st.ok()) {
        Fail(state, st);
        return;
      }
    }
    hand_first = !hand_first;
    state.SetIterationTime(tp / 1e3);
    hand.push_back(th);
    pipe.push_back(tp);
    hand_issue.push_back(ih);
    pipe_issue.push_back(ip);
    pair_ratio.push_back(tp / th);
  }
  const double mh = Median(hand);
  const double mp = Median(pipe);
  S().medians[{"hand", g_iters, n}] = mh;
  S().medians[{"pipeline", g_iters, n}] = mp;
  S().medians[{"hand-issue", g_iters, n}] = Median(hand_issue) / 1e3;
  S().medians[{"pipeline-issue", g_iters, n}] = Median(pipe_issue) / 1e3;
  // The two run batch for batch; the median of the per-pair ratios cancels what the machine
  // does to both (a burst of PCIe traffic from elsewhere lasts several batches), where the
  // ratio of the two medians does not.
  S().medians[{"paired-ratio", g_iters, n}] = Median(pair_ratio);
  state.counters["hand_ms"] = mh;
  state.counters["pipe_ms"] = mp;
  state.counters["ratio"] = Median(pair_ratio);
  // Host time to enqueue one batch (median, us): where it nears the batch's GPU time, the host
  // is the bound.
  state.counters["hand_issue_us"] = Median(hand_issue);
  state.counters["pipe_issue_us"] = Median(pipe_issue);
}

// Automatic mode: a fresh pipeline measures one batch, chooses n; then batches are timed.
void BM_Automatic(benchmark::State& state) {
  if (!Init()) {
    state.SkipWithError(S().no_device ? "no CUDA device" : S().failure.c_str());
    return;
  }
  const int iters = static_cast<int>(state.range(0));
  PipelineOptions o = AddScalarPipeline(kItems, iters);
  o.adaptive.candidates.max_streams = 128;
  o.adaptive.candidates.powers_of_two = true;
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  if (!p.ok()) {
    Fail(state, p.status());
    return;
  }
  const HostBatch batch{S().in.data(), S().out.data(), kItems};
  for (int w = 0; w < kWarmup; ++w) {
    if (absl::StatusOr<BatchStats> st = p->Run(batch); !st.ok()) {
      Fail(state, st.status());
      return;
    }
  }
  std::vector<double> ms;
  for (auto _ : state) {
    absl::StatusOr<BatchStats> st = p->Run(batch);
    if (!st.ok()) {
      Fail(state, st.status());
      return;
    }
    state.SetIterationTime(st->elapsed_ms / 1e3);
    ms.push_back(st->elapsed_ms);
  }
  S().auto_choice[iters] = p->chosen_streams();
  S().auto_ms[iters] = Median(ms);
  state.counters["median_ms"] = Median(ms);
  state.counters["chosen_n"] = p->chosen_streams();
}

// Pageable host memory (std::vector): the pipeline stages it through pinned buffers, chunk by
// chunk, overlapping the host copies with the DMA of earlier chunks.
void BM_PipelinePageable(benchmark::State& state) {
  if (!Init()) {
    state.SkipWithError(S().no_device ? "no CUDA device" : S().failure.c_str());
    return;
  }
  const int n = static_cast<int>(state.range(0));
  static std::vector<float>* in = new std::vector<float>(S().in.data(), S().in.data() + kItems);
  static std::vector<float>* out = new std::vector<float>(kItems);
  const PipelineOptions o = AddScalarPipeline(kItems, 1);
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  if (!p.ok()) {
    Fail(state, p.status());
    return;
  }
  const HostBatch batch{in->data(), out->data(), kItems};
  for (int w = 0; w < kWarmup; ++w) {
    if (absl::StatusOr<BatchStats> st = p->Run(batch, n); !st.ok()) {
      Fail(state, st.status());
      return;
    }
  }
  std::vector<double> ms;
  for (auto _ : state) {
    // Wall time: the host-side staging copies are part of the cost.
    const auto t0 = std::chrono::steady_clock::now();
    absl::StatusOr<BatchStats> st = p->Run(batch, n);
    const double t = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (!st.ok()) {
      Fail(state, st.status());
      return;
    }
    state.SetIterationTime(t / 1e3);
    ms.push_back(t);
  }
  Report(state, "pageable-pipeline", 1, n, ms);
}
BENCHMARK(BM_PipelinePageable)->Arg(1)->Arg(4)->Arg(16)->Arg(64)->UseManualTime()
    ->Iterations(kBatches)->Unit(benchmark::kMillisecond);

// The host's issue time of a batch of tiny sub-chunks (16 KiB each way, 4096 floats), call by
// call (mode 0) against one graph launch (mode 1): median BatchStats::issue_ms over the timed
// batches, after the warm-up (lazy loading, the capture). Run 34: 0.41 ms against 0.19 ms at
// n = 32. Issue times are host wall time: on a shared host they swing (run 39: 0.36 / 0.37).
void BM_IssueMode(benchmark::State& state) {
  if (!Init()) {
    state.SkipWithError(S().no_device ? "no CUDA device" : S().failure.c_str());
    return;
  }
  const IssueMode mode = state.range(0) == 0 ? IssueMode::kStreams : IssueMode::kGraph;
  const int n = static_cast<int>(state.range(1));
  constexpr std::int64_t kTiny = 1 << 12;
  PipelineOptions o = AddScalarPipeline(kTiny, 1);
  o.issue = mode;
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  if (!p.ok()) {
    Fail(state, p.status());
    return;
  }
  const HostBatch batch{S().in.data(), S().out.data(), kTiny};
  for (int w = 0; w < kWarmup; ++w) {
    if (absl::StatusOr<BatchStats> st = p->Run(batch, n); !st.ok()) {
      Fail(state, st.status());
      return;
    }
  }
  std::vector<double> issue, ms;
  for (auto _ : state) {
    absl::StatusOr<BatchStats> st = p->Run(batch, n);
    if (!st.ok()) {
      Fail(state, st.status());
      return;
    }
    state.SetIterationTime(st->elapsed_ms / 1e3);
    issue.push_back(st->issue_ms);
    ms.push_back(st->elapsed_ms);
  }
  state.SetLabel(std::string(IssueModeName(mode)));
  state.counters["issue_us"] = 1e3 * Median(issue);
  state.counters["issue_us_per_sub_chunk"] = 1e3 * Median(issue) / n;
  state.counters["batch_us"] = 1e3 * Median(ms);
}
BENCHMARK(BM_IssueMode)
    ->ArgsProduct({{0, 1}, {1, 8, 32, 128}})
    ->UseManualTime()
    ->Iterations(kBatches)
    ->Unit(benchmark::kMicrosecond);

// What a user gets without the pipeline: cudaMemcpyAsync straight from pageable memory.
void BM_DirectPageable(benchmark::State& state) {
  if (!Init()) {
    state.SkipWithError(S().no_device ? "no CUDA device" : S().failure.c_str());
    return;
  }
  static std::vector<float>* in = new std::vector<float>(S().in.data(), S().in.data() + kItems);
  static std::vector<float>* out = new std::vector<float>(kItems);
  static auto* d_in = new absl::StatusOr<DeviceBuffer<float>>(DeviceBuffer<float>::Create(kItems));
  static auto* d_out = new absl::StatusOr<DeviceBuffer<float>>(DeviceBuffer<float>::Create(kItems));
  absl::StatusOr<Stream> stream = Stream::Create();
  for (const absl::Status& st : {d_in->status(), d_out->status(), stream.status()}) {
    if (!st.ok()) {
      Fail(state, st);
      return;
    }
  }
  const Stream& s = *stream;
  auto once = [&] {
    const auto t0 = std::chrono::steady_clock::now();
    STREAMPIPE_BENCH_CHECK(cudaMemcpyAsync((*d_in)->data(), in->data(), kItems * sizeof(float),
                                           cudaMemcpyHostToDevice, s.get()));
    LaunchAddScalar((*d_in)->data(), (*d_out)->data(), kItems, 1, s.get());
    STREAMPIPE_BENCH_CHECK(cudaGetLastError());
    STREAMPIPE_BENCH_CHECK(cudaMemcpyAsync(out->data(), (*d_out)->data(), kItems * sizeof(float),
                                           cudaMemcpyDeviceToHost, s.get()));
    STREAMPIPE_BENCH_CHECK(cudaStreamSynchronize(s.get()));
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  for (int w = 0; w < kWarmup; ++w) once();
  std::vector<double> ms;
  for (auto _ : state) {
    const double t = once();
    state.SetIterationTime(t / 1e3);
    ms.push_back(t);
  }
  Report(state, "pageable-direct", 1, 1, ms);
}
BENCHMARK(BM_DirectPageable)->UseManualTime()->Iterations(kBatches)->Unit(benchmark::kMillisecond);

void SweepArgs(benchmark::internal::Benchmark* b) {
  for (int it : kIters) {
    for (int n : kStreams) b->Args({it, n});
  }
  b->UseManualTime()->Iterations(kBatches)->Unit(benchmark::kMillisecond);
}
BENCHMARK(BM_Paired)->Apply(SweepArgs);
BENCHMARK(BM_Automatic)
    ->ArgsProduct({{1, 50, 200, 500, 1000, 3000}})
    ->UseManualTime()
    ->Iterations(kBatches)
    ->Unit(benchmark::kMillisecond);

// `text` into `path`; false, said on stderr, where it cannot be written.
bool WriteCsv(const std::string& path, const std::string& text) {
  std::ofstream f(path);
  f << text;
  f.close();
  if (!f) {
    std::cerr << "pipeline_bench: --csv: writing '" << path << "' failed\n";
    return false;
  }
  return true;
}

// The tables on stdout, and the CSV at `csv_path` where given; false where it cannot be written.
bool PrintSummary(const std::string& csv_path) {
  Shared& s = S();
  const std::string header =
      "iters,streams,hand_ms,pipeline_ms,ratio,ratio_of_medians,hand_issue_ms,pipeline_issue_ms\n";
  if (s.medians.empty()) {  // no paired point ran (another filter): the CSV is its header
    return csv_path.empty() || WriteCsv(csv_path, header);
  }
  auto get = [&](const char* impl, int it, int n) {
    auto f = s.medians.find({impl, it, n});
    return f == s.medians.end() ? 0.0 : f->second;
  };
  std::string table =
      absl::StrFormat("\nhand loop joins %s; pipe/hand = median of the %d per-pair ratios, "
                      "medians/ = ratio of the medians\n%-6s %-4s %10s %10s %9s %9s %14s %14s\n",
                      g_join_after ? "after the batch (probe.cu)" : "per stream (interleaved)",
                      kBatches, "iters", "n", "hand_ms", "pipe_ms", "pipe/hand", "medians/",
                      "hand_issue_ms", "pipe_issue_ms");
  std::string csv = header;
  double worst_medians = 0.0;
  double worst = 0.0;
  std::vector<double> ratios;
  for (int it : kIters) {
    for (int n : kStreams) {
      const double h = get("hand", it, n);
      const double p = get("pipeline", it, n);
      const double r = get("paired-ratio", it, n);
      if (h == 0.0 || p == 0.0 || r == 0.0) continue;
      worst = std::max(worst, std::abs(r - 1.0));
      worst_medians = std::max(worst_medians, std::abs(p / h - 1.0));
      ratios.push_back(r);
      const double hi = get("hand-issue", it, n);
      const double pi = get("pipeline-issue", it, n);
      table += absl::StrFormat("%-6d %-4d %10.3f %10.3f %9.3f %9.3f %14.3f %14.3f\n", it, n, h,
                               p, r, p / h, hi, pi);
      csv += absl::StrFormat("%d,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f\n", it, n, h, p, r, p / h, hi,
                             pi);
    }
  }
  if (!ratios.empty()) {
    table += absl::StrFormat(
        "pipeline/hand: median %.4f, worst |ratio - 1| = %.2f %% over %d points (ratio of the "
        "medians: worst %.2f %%)\n",
        Median(ratios), 100.0 * worst, static_cast<int>(ratios.size()), 100.0 * worst_medians);
  }
  // Pageable memory, wall time per batch (64 MiB each way, iters = 1).
  for (const auto& [key, ms] : s.medians) {
    const auto& [impl, it, n] = key;
    if (impl.rfind("pageable", 0) != 0) continue;
    table += absl::StrFormat("%-18s n=%-3d %8.3f ms  %6.2f GB/s each way\n", impl, n, ms,
                             kItems * sizeof(float) / (ms * 1e6));
  }
  // Automatic mode against the best n of the sweep (pipeline medians).
  table += absl::StrFormat("\n%-6s %8s %10s %8s %10s %10s\n", "iters", "auto_n", "auto_ms",
                           "best_n", "best_ms", "best/auto");
  for (int it : kIters) {
    if (!s.auto_choice.count(it)) continue;
    int best_n = 0;
    double best = 1e30;
    for (int n : kStreams) {
      auto p = s.medians.find({"pipeline", it, n});
      if (p != s.medians.end() && p->second < best) {
        best = p->second;
        best_n = n;
      }
    }
    if (best_n == 0) continue;
    table += absl::StrFormat("%-6d %8d %10.3f %8d %10.3f %10.3f\n", it, s.auto_choice[it],
                             s.auto_ms[it], best_n, best, best / s.auto_ms[it]);
  }
  std::cout << table;
  return csv_path.empty() || WriteCsv(csv_path, csv);
}

}  // namespace
}  // namespace streampipe

int main(int argc, char** argv) {
  std::string csv;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--csv=", 6) == 0) {
      csv = argv[i] + 6;
    } else if (std::strcmp(argv[i], "--hand-join=interleaved") == 0) {
      streampipe::g_join_after = false;
    } else if (std::strcmp(argv[i], "--hand-join=after") == 0) {
      streampipe::g_join_after = true;
    } else if (std::strncmp(argv[i], "--hand-join=", 12) == 0) {
      std::cerr << "pipeline_bench: --hand-join takes after or interleaved, not '" << argv[i] + 12
                << "'\n";
      return 64;  // EX_USAGE, as every tool
    } else {
      args.push_back(argv[i]);
    }
  }
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  // What Benchmark did not take is a flag nobody reads: refuse it (the library prints it).
  if (benchmark::ReportUnrecognizedArguments(n, args.data())) return 64;
  const std::size_t ran = benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (streampipe::S().no_device) return 0;  // said once, by Init
  if (ran == 0) {  // Benchmark has said which filter matched nothing: a wrong command line
    std::cerr << "pipeline_bench: no benchmark ran\n";
    return 64;
  }
  if (streampipe::S().failed) {  // EX_SOFTWARE, as the CLI
    std::cerr << "pipeline_bench: " << streampipe::S().failure << "\n";
    return 70;
  }
  return streampipe::PrintSummary(csv) ? 0 : 74;    // EX_IOERR
}
