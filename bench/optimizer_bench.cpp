// How long choosing n takes: 64 candidates with the current model (the pipeline re-derives n
// on the hot path after a drift). Goal: well under a microsecond.
#include <benchmark/benchmark.h>

#include <cstdio>

#include <vector>

#include "streampipe/core/model.hpp"
#include "streampipe/core/optimizer.hpp"
#include "streampipe/core/stream_controller.hpp"

namespace streampipe {
namespace {

ModelTerms AnchorTerms() {
  Workload w;
  w.times = {.h2d_ms = 1.23, .kernel_ms = 0.064, .d2h_ms = 1.222};
  return *ComputeModelTerms(DeviceTraits::H100Anchors(), w);
}

// What the pipeline does when it re-derives n: linearize the model for the new measurement
// (once), then pick the best of 64 candidates.
void BM_ChooseBest64(benchmark::State& state, ModelKind kind) {
  const ModelTerms terms = AnchorTerms();
  auto model = MakeModel(kind);
  std::vector<int> candidates(64);
  for (int i = 0; i < 64; ++i) candidates[i] = i + 1;
  for (auto _ : state) {
    const LinearizedModel linear(*model, terms);
    benchmark::DoNotOptimize(ChooseBest(linear, candidates));
  }
  state.SetItemsProcessed(state.iterations() * 64);
}
BENCHMARK_CAPTURE(BM_ChooseBest64, current, ModelKind::kCurrent);
BENCHMARK_CAPTURE(BM_ChooseBest64, werkhoven_2ce, ModelKind::kWerkhoven2ce);
BENCHMARK_CAPTURE(BM_ChooseBest64, gomez_luna_cc2, ModelKind::kGomezLunaCc2);
BENCHMARK_CAPTURE(BM_ChooseBest64, veneva_regression, ModelKind::kVenevaRegression);

// The convenience API (streampipe advise): candidate generation with item constraints, a
// breakdown for every candidate, and the closed form.
void BM_ChooseNumStreams64(benchmark::State& state) {
  const ModelTerms terms = AnchorTerms();
  auto model = MakeModel(ModelKind::kCurrent);
  const CandidateOptions opt{.max_streams = 64, .num_items = 1 << 24, .min_items_per_stream = 1};
  for (auto _ : state) {
    auto choice = ChooseNumStreams(*model, terms, opt);
    benchmark::DoNotOptimize(choice);
  }
}
BENCHMARK(BM_ChooseNumStreams64);

// What the controller adds to every batch: its calibrated prediction (Plan() attaches one to
// each plan), after 300 batches that measured n*, its neighbours and the probe, with host issue
// times, so the prediction interpolates residuals and fits the issue line.
void BM_CalibratedPrediction(benchmark::State& state) {
  AdaptiveOptions o;
  o.candidates.max_streams = 128;
  o.candidates.powers_of_two = true;
  StreamController c(MakeModel(ModelKind::kCurrent), DeviceTraits::H100Anchors(), o);
  constexpr std::int64_t kItems = 1'000'000;
  for (int b = 0; b < 300; ++b) {
    const BatchPlan p = c.Plan(kItems);
    BatchObservation obs;
    obs.items = kItems;
    obs.issue_ms = 0.012 + 0.009 * p.streams;
    obs.components = {0.045, 0.08, 0.044, 0.045};
    obs.measured_ms = RunsNonStreamed(p.kind)
                          ? obs.components.total_ms()
                          : 0.06 + 0.1 / p.streams + 0.002 * p.streams;
    if (!c.Observe(p, obs).ok()) {
      state.SkipWithError("observation refused");
      return;
    }
  }
  const int n = c.streams();
  for (auto _ : state) benchmark::DoNotOptimize(c.PredictMs(n, kItems));
  state.counters["measured_n"] = static_cast<double>(c.Measured().size());
}
BENCHMARK(BM_CalibratedPrediction);

}  // namespace
}  // namespace streampipe

// BENCHMARK_MAIN, with the exits of every bench tool: 64 for a flag Benchmark does not take or
// a filter that matches nothing (its own main exits 1 and 0).
int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
    benchmark::Shutdown();
    return 64;
  }
  const std::size_t ran = benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (ran == 0) {
    std::fprintf(stderr, "optimizer_bench: no benchmark ran\n");
    return 64;
  }
  return 0;
}
