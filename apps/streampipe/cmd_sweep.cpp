// streampipe sweep: the 2012 paper's experiments on this card (seed 000, sections 3.1.1, 3.1.2,
// 4.1, 4.2): measured time at every n of a grid, each model's prediction and choice, and the
// adaptive pipeline's choice; a CSV row per point and a summary (docs/results.md).
//
//   streampipe sweep --grid=quick
//   streampipe sweep --grid=all --output=sweep.csv --summary=summary.md --trace-dir=traces
//   streampipe sweep --config=bench/sweeps/paper.toml --profile=h100.toml   (SweepPlan: the
//       file's [sweep] keys, a flag beside it winning)
#include <cuda_runtime_api.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "cli.hpp"
#include "commands.hpp"
#include "matmul_kernel.hpp"
#include "staged_file.hpp"
#include "streampipe/core/model.hpp"
#include "streampipe/core/stream_controller.hpp"
#include "streampipe/core/sweep.hpp"
#include "streampipe/core/sweep_plan.hpp"
#include "streampipe/core/toml_schema.hpp"
#include "streampipe/core/timeline.hpp"
#include "streampipe/core/veneva.hpp"
#include "streampipe/cuda/buffer.hpp"
#include "streampipe/cuda/calibrate.hpp"
#include "streampipe/cuda/device.hpp"
#include "streampipe/cuda/error.hpp"
#include "streampipe/cuda/histogram.hpp"
#include "streampipe/cuda/pipeline.hpp"
#include "streampipe/cuda/workloads.hpp"
#include "streampipe/status_macros.hpp"
#include "streampipe/video/frame_source.hpp"
#include "streampipe/video/histogram_writer.hpp"

namespace streampipe::cli {
namespace {

constexpr char kCommand[] = "sweep";
constexpr const char* kTraceOrders[] = {"depth-first", "breadth-first", "engine-per-stream"};

struct Settings {
  // What the sweep measures and how (the flags over --config over the defaults); its lists are
  // parsed into the fields below.
  SweepPlan plan;
  std::vector<int> streams;
  std::vector<std::string> orders;  // empty: per-grid defaults
  // The most batches an adaptive run takes (then on while the run's calibration owes visits,
  // StreamController::CalibrationComplete): plan.adaptive_max_batches, its 0 made 4 x
  // plan.adaptive_batches.
  int adaptive_max_batches = 0;
  DeviceTraits traits;
  // What every row records of how it was measured (SweepPoint::settings; MeasuringSettings).
  std::string settings;
  // --adaptive-trace: one row per batch of each kept adaptive run (null: none).
  std::ostream* adaptive_trace = nullptr;
};

// One configuration of a grid: a workload at one size and intensity, one issue order.
struct Config {
  std::string workload;
  std::string grid;
  std::int64_t items = 0;
  std::int64_t in_per_item = 0;
  std::int64_t out_per_item = 0;
  double intensity = 0.0;
  KernelLauncher launch;
  std::string order;
  std::string issue = "streams";  // IssueMode name
};

// The configuration's key: what its rows say of it (Measure writes them from it, and --resume
// matches a stopped sweep's rows by it).
SweepConfigKey KeyOf(const Config& c) {
  return {c.workload,
          c.grid,
          static_cast<double>(c.items * c.in_per_item),
          static_cast<double>(c.items * c.out_per_item),
          c.intensity,
          c.order,
          c.issue};
}

// The n a configuration is measured at: those of --streams with a sub-chunk for each (ascending).
std::vector<int> StreamsFor(const Config& c, const Settings& s) {
  std::vector<int> ns;
  for (int n : s.streams) {
    if (n <= c.items) ns.push_back(n);
  }
  return ns;
}

// The flags that change what a row measures and that the row does not otherwise say (its
// configuration and n are its key; --repetitions has its own column), the hardware queues, and
// the profile's fingerprint (`profile=calibrated` where the sweep calibrated itself: a resumed
// one calibrates again): --resume keeps only rows of the same settings.
absl::StatusOr<std::string> MeasuringSettings(const Settings& s, bool histogram,
                                              const std::string& histogram_kernel,
                                              int hardware_queues,
                                              const std::string& profile_fingerprint) {
  std::vector<std::pair<std::string, std::string>> v = {
      {"per-visit", absl::StrCat(std::min(s.plan.per_visit, s.plan.repetitions))},
      {"held", absl::StrCat(s.plan.held)},
      {"warmup", absl::StrCat(s.plan.warmup)},
      {"adaptive-batches", absl::StrCat(s.plan.adaptive_batches)},
      {"adaptive-max-batches", absl::StrCat(s.adaptive_max_batches)},
      {"adaptive-retries", absl::StrCat(s.plan.adaptive_retries)},
      {"judge-anchor", s.plan.judge_anchor ? "true" : "false"}};
  // The adaptive pipeline's controller keys (sweep_plan.hpp), as bench/trace_replay reads them.
  for (auto& pair : SweepAdaptiveSettings(SweepAdaptiveOptions(s.plan))) {
    v.push_back(std::move(pair));
  }
  if (histogram) v.emplace_back("histogram-kernel", histogram_kernel);
  // The streams' hardware queues (CUDA_DEVICE_MAX_CONNECTIONS): the runtime's, not the profile's.
  v.emplace_back("hardware-queues", absl::StrCat(hardware_queues));
  v.emplace_back("profile", profile_fingerprint.empty() ? "calibrated" : profile_fingerprint);
  return FormatSweepSettings(v);
}

// One batch of an adaptive run, for --adaptive-trace: its stats and when the host ran it.
struct TracedBatch {
  BatchStats stats;
  double host_start_ms = 0.0;  // steady clock, from the run's first Run call
  double host_wall_ms = 0.0;   // the Run call's wall time
  double epoch_s = 0.0;        // system clock at the Run call, seconds since 1970 (to line the
                               // batch up with logs of other tools, e.g. nvidia-smi's)
  // The kernel at half the batch of the controller's reference after the batch (0: none). After
  // the last batch of a (re-)measurement (adaptive.measure_batches of them, each its own Run
  // call) it is what that measurement's halves batch measured, per the reference's items (or
  // the share carried from the last halves that measured): the halves batch runs inside Run and
  // is not traced itself, and bench/trace_replay feeds this back for it.
  double kernel_half_ms = 0.0;
};

double Percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  if (v.empty()) return 0.0;
  const double pos = q * static_cast<double>(v.size() - 1);
  const std::size_t lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(v.size() - 1, lo + 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

PipelineOptions OptionsFor(const Config& c, const Settings& s, int max_n) {
  PipelineOptions o;
  o.in_bytes_per_item = c.in_per_item;
  o.out_bytes_per_item = c.out_per_item;
  o.max_items_per_batch = c.items;
  o.launch = c.launch;
  o.max_streams = std::max(3, max_n);
  o.order = *ParseIssueOrder(c.order);
  o.issue = *ParseIssueMode(c.issue);
  o.traits = s.traits;
  return o;
}

// Relative errors of the calibrated prediction and of the single-factor one it replaced (run
// 38), per issue mode, over the same points: the comparison holds on a noisy lease too.
struct PredictorErrors {
  std::vector<double> calibrated, single_factor;
  std::vector<double> halves;  // |after / before - 1| of the measurement itself
  std::vector<double> device;  // the calibrated device part against the held batches
  int gate_timeouts = 0;       // held batches whose gate opened itself (not samples)
};

// Measures one configuration and appends its points.
absl::Status Measure(const Config& c, const Settings& s, std::vector<SweepPoint>* points,
                     std::map<std::string, PredictorErrors>* errors) {
  const std::vector<int> ns = StreamsFor(c, s);
  if (ns.empty()) return absl::OkStatus();
  const int max_n = *std::max_element(ns.begin(), ns.end());
  STREAMPIPE_ASSIGN_OR_RETURN(StreamPipeline p, StreamPipeline::Create(OptionsFor(c, s, max_n)));
  STREAMPIPE_ASSIGN_OR_RETURN(auto in, PinnedBuffer<float>::Create(static_cast<std::size_t>(
                                           c.items * c.in_per_item / 4 + 1)));
  STREAMPIPE_ASSIGN_OR_RETURN(auto out, PinnedBuffer<std::byte>::Create(static_cast<std::size_t>(
                                            c.items * c.out_per_item + 1)));
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (float& x : in.span()) x = u(rng);
  const HostBatch batch{in.data(), out.data(), c.items};

  // Components, non-streamed: their medians are every published model's input. Measured in
  // the rounds below (at least two per round, as the n are), not back to back before them: a burst of a
  // few milliseconds on the shared machine then moves a few of them, not all (run 75: measured
  // at the start, one burst put a whole configuration's predictions 100-120 % over at every n).
  std::vector<double> th, tk, td, tk_half;
  const auto components = [&](int count) -> absl::Status {
    for (int r = 0; r < count; ++r) {
      STREAMPIPE_ASSIGN_OR_RETURN(BatchStats st, p.MeasureComponents(batch));
      th.push_back(st.components.h2d_ms);
      tk.push_back(st.components.kernel_ms);
      td.push_back(st.components.d2h_ms);
      if (s.plan.kernel_halves) {
        STREAMPIPE_ASSIGN_OR_RETURN(BatchStats half, p.MeasureKernelHalves(batch));
        if (half.components.kernel_half_ms > 0.0) tk_half.push_back(half.components.kernel_half_ms);
      }
    }
    return absl::OkStatus();
  };
  for (int r = 0; r < s.plan.warmup; ++r) {
    STREAMPIPE_RETURN_IF_ERROR(p.MeasureComponents(batch).status());
  }

  // Every n, in rounds that visit each n in turn (ascending, then descending), with the
  // adaptive pipeline's run between the first and the second half of the rounds. On a shared
  // machine whose speed drifts, the drift then moves every n and the adaptive pipeline's
  // batches alike; measured n by n, one after the other and before the adaptive run, a drift
  // offset whole configurations against their predictions (run 42: most points over 10 % were
  // configurations off by 12-18 % at every n). Each visit first runs one untimed batch: the
  // first batch at an n after another runs cold (the pipeline does not sample it either), and
  // rounds of single batches measured every point cold (run 47: graph issue times at the
  // chosen n 17 % over the adaptive pipeline's own).
  for (int n : ns) {
    for (int r = 0; r < s.plan.warmup; ++r) STREAMPIPE_RETURN_IF_ERROR(p.Run(batch, n).status());
  }
  // Timed batches per visit (--per-visit): 3 by default; as many as --repetitions measures each
  // n in one run (rounds of one), the regime the adaptive pipeline's chosen n runs in.
  const int per_visit = std::min(s.plan.per_visit, s.plan.repetitions);
  const int total_rounds = (s.plan.repetitions + per_visit - 1) / per_visit;
  // At least seven components in all (two per round in the usual five rounds; all seven in the
  // one round of --per-visit=--repetitions).
  const int components_per_round = std::max(2, (7 + total_rounds - 1) / total_rounds);
  std::vector<std::vector<double>> ms(ns.size()), issue(ns.size()), held(ns.size());
  PredictorErrors& errs = (*errors)[c.issue];
  const auto rounds = [&](int from, int to) -> absl::Status {
    for (int r = from; r < to; ++r) {
      STREAMPIPE_RETURN_IF_ERROR(components(components_per_round));
      for (std::size_t k = 0; k < ns.size(); ++k) {
        const std::size_t i = r % 2 == 0 ? k : ns.size() - 1 - k;
        STREAMPIPE_RETURN_IF_ERROR(p.Run(batch, ns[i]).status());  // cold, untimed
        for (int b = 0; b < per_visit && static_cast<int>(ms[i].size()) < s.plan.repetitions; ++b) {
          STREAMPIPE_ASSIGN_OR_RETURN(BatchStats st, p.Run(batch, ns[i]));
          ms[i].push_back(st.elapsed_ms);
          issue[i].push_back(st.issue_ms);
        }
        // The same n with the host's issue hidden: the device's time alone. A gate that opened
        // itself before the host had issued the batch timed the host too: not a sample.
        for (int b = 0; b < s.plan.held; ++b) {
          STREAMPIPE_ASSIGN_OR_RETURN(BatchStats st, p.RunHeld(batch, ns[i]));
          if (st.held) {
            held[i].push_back(st.elapsed_ms);
          } else {
            ++errs.gate_timeouts;
          }
        }
      }
    }
    return absl::OkStatus();
  };
  const int first_half = (total_rounds + 1) / 2;
  STREAMPIPE_RETURN_IF_ERROR(rounds(0, first_half));

  // The adaptive pipeline: measures, chooses, explores and calibrates over its batches.
  PipelineOptions ao = OptionsFor(c, s, max_n);
  ao.adaptive = SweepAdaptiveOptions(s.plan);  // what each row's settings record
  ao.adaptive.candidates.min_streams = ns.front();
  ao.adaptive.candidates.max_streams = max_n;
  bool pow2 = true;
  for (int n : ns) pow2 = pow2 && (n & (n - 1)) == 0;
  ao.adaptive.candidates.powers_of_two = pow2;
  // Checked against the first half of the rounds (the second half comes after the run kept):
  // a run whose own batches disagree with them (by more than kAdaptiveAgreementWithin over all
  // its n, or kAdaptiveSampleWithin at one; or that sampled nothing; or, with --judge-anchor,
  // whose non-streamed measurement is slower than n = 1's rounds beyond its tolerance) sat in a
  // burst the rounds did not see, and runs again, up to --adaptive-retries times; the run
  // agreeing best is kept (CompareAdaptiveRun, sweep.hpp).
  std::map<int, double> first_rounds;
  for (std::size_t i = 0; i < ns.size(); ++i) {
    if (!ms[i].empty()) first_rounds[ns[i]] = Percentile(ms[i], 0.5);
  }
  // Every run of this configuration, in order; those kept by neither rule below are released.
  std::vector<std::optional<StreamPipeline>> runs;
  int kept_i = -1;
  std::vector<TracedBatch> kept_trace;
  int kept_run = 0;
  int kept_batches = 0;
  bool kept_calibrated = false;
  AdaptiveAgreement agreement;
  int adaptive_runs = 0;
  // With --judge-anchor, the run the check would keep without judging the anchor, as before
  // session 35: the best by the other tolerances among the runs up to the first that agrees by
  // them (which the judged check ran too: its deviation is never smaller). Its predictions and
  // choice are logged beside the kept run's where the two differ, an exact pair on the same
  // rounds.
  int unjudged_i = -1;
  double unjudged_deviation = std::numeric_limits<double>::infinity();
  bool unjudged_done = false;
  for (int run = 0; run <= s.plan.adaptive_retries; ++run) {
    STREAMPIPE_ASSIGN_OR_RETURN(StreamPipeline candidate, StreamPipeline::Create(ao));
    std::vector<TracedBatch> traced;
    const auto run_begin = std::chrono::steady_clock::now();
    // The predictions are taken after on-line calibration: a run whose last derivation (a
    // drift late in it) still owes visits, the probe far from n* above all, runs on until they
    // are made. Cut at --adaptive-batches, such runs predicted the n above every visit from
    // the neighbours' residual (runs 147-156: 28 % of those points over 10 %, 3.4 % of the
    // others; docs/results.md, session 27).
    int batches_run = 0;
    for (int b = 0; b < s.adaptive_max_batches &&
                    (b < s.plan.adaptive_batches || !candidate.controller().CalibrationComplete());
         ++b) {
      ++batches_run;
      const auto wall = std::chrono::system_clock::now();
      const auto begin = std::chrono::steady_clock::now();
      STREAMPIPE_ASSIGN_OR_RETURN(BatchStats st, candidate.Run(batch));
      const auto end = std::chrono::steady_clock::now();
      if (s.adaptive_trace != nullptr) {
        const std::optional<BatchObservation>& ref = candidate.controller().reference();
        traced.push_back({std::move(st),
                          std::chrono::duration<double, std::milli>(begin - run_begin).count(),
                          std::chrono::duration<double, std::milli>(end - begin).count(),
                          std::chrono::duration<double>(wall.time_since_epoch()).count(),
                          ref ? ref->components.kernel_half_ms : 0.0});
      }
    }
    ++adaptive_runs;
    const std::optional<BatchObservation>& ref = candidate.controller().reference();
    const AdaptiveAgreement a = CompareAdaptiveRun(
        candidate.controller().Measured(),
        ref && ref->items == c.items ? ref->measured_ms : 0.0, first_rounds, s.plan.judge_anchor);
    const bool better = kept_i < 0 || a.deviation < agreement.deviation;
    const bool calibrated = candidate.controller().CalibrationComplete();
    std::cerr << absl::StrFormat(
        "    adaptive run %d: %d batches, calibration %s; own batches / rounds %.3f over %d n, "
        "farthest %.3f at n=%d (deviation %.2f of the tolerances%s), non-streamed / rounds at "
        "n=1 %.3f (%.2f of its tolerance, %s)\n",
        run + 1, batches_run, calibrated ? "complete" : "incomplete", a.samples_ratio,
        a.compared, a.worst_ratio, a.worst_n, a.deviation, better ? ", kept" : "",
        a.reference_ratio, a.reference_deviation, s.plan.judge_anchor ? "judged" : "not judged");
    runs.emplace_back(std::move(candidate));
    if (better) {
      kept_i = run;
      agreement = a;
      kept_trace = std::move(traced);
      kept_run = run + 1;
      kept_batches = batches_run;
      kept_calibrated = calibrated;
    }
    if (!unjudged_done) {
      if (unjudged_i < 0 || a.samples_deviation < unjudged_deviation) {
        unjudged_i = run;
        unjudged_deviation = a.samples_deviation;
      }
      unjudged_done = unjudged_deviation <= 1.0;
    }
    for (int j = 0; j <= run; ++j) {
      if (j != kept_i && j != unjudged_i) runs[static_cast<std::size_t>(j)].reset();
    }
    if (agreement.agrees()) break;
  }
  StreamPipeline& ap = *runs[static_cast<std::size_t>(kept_i)];
  if (unjudged_i != kept_i) {
    const StreamPipeline& other = *runs[static_cast<std::size_t>(unjudged_i)];
    std::string pred;
    for (int n : ns) {
      absl::StrAppendFormat(&pred, " n=%d:%.4f", n, other.controller().PredictMs(n, c.items));
    }
    std::cerr << absl::StrFormat(
        "    adaptive anchor not judged: run %d kept instead, adaptive n=%d; predictions "
        "(n:ms):%s\n",
        unjudged_i + 1, other.chosen_streams(), pred);
  }
  if (s.adaptive_trace != nullptr) {
    // Which batches the controller took as samples, and how long the host held each Run call
    // (host_wall_ms - elapsed_ms: the GPU's idle time around the batch, at most).
    for (const TracedBatch& t : kept_trace) {
      *s.adaptive_trace << absl::StrFormat(
          // The intensity to the last bit, as the sweep's CSV has it (%g kept six digits: a
          // frame of 1366x768 pixels, 1049088, was 1.04909e+06 and matched no row).
          "%s,%s,%d,%d,%.17g,%s,%s,%d,%d,%s,%d,%d,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.3f,%.6f\n",
          c.workload, c.grid, c.items * c.in_per_item, c.items * c.out_per_item, c.intensity,
          c.order, c.issue, kept_run, t.stats.index, PlanKindName(t.stats.kind), t.stats.streams,
          t.stats.settled ? 1 : 0, t.stats.elapsed_ms, t.stats.issue_ms, t.host_start_ms,
          t.host_wall_ms, t.stats.components.h2d_ms, t.stats.components.kernel_ms,
          t.stats.components.d2h_ms, t.epoch_s, t.kernel_half_ms);
    }
    s.adaptive_trace->flush();
  }

  STREAMPIPE_RETURN_IF_ERROR(rounds(first_half, total_rounds));
  Workload w;
  w.times = {Percentile(th, 0.5), Percentile(tk, 0.5), Percentile(td, 0.5),
             tk_half.empty() ? 0.0 : Percentile(tk_half, 0.5)};
  w.bytes = {static_cast<double>(c.items * c.in_per_item),
             static_cast<double>(c.items * c.out_per_item)};
  w.problem_size = static_cast<double>(c.items);
  // How far the machine drifted across the adaptive run: the median over n of each n's
  // second-half median over its first-half one (logged; 0 where there is no second half).
  // Each n's halves also say how well its point repeats (SweepPoint::halves_ratio).
  std::vector<double> drift;
  std::vector<double> halves(ms.size(), std::numeric_limits<double>::quiet_NaN());
  for (std::size_t i = 0; i < ms.size(); ++i) {
    const std::vector<double>& v = ms[i];
    const auto half = v.begin() + std::min<std::ptrdiff_t>(
                                      static_cast<std::ptrdiff_t>(v.size()),
                                      static_cast<std::ptrdiff_t>(first_half) * per_visit);
    if (half == v.begin() || half == v.end()) continue;
    halves[i] = Percentile(std::vector<double>(half, v.end()), 0.5) /
                Percentile(std::vector<double>(v.begin(), half), 0.5);
    drift.push_back(halves[i] - 1.0);
  }
  std::vector<SweepPoint> cfg;
  const SweepConfigKey key = KeyOf(c);
  for (std::size_t i = 0; i < ns.size(); ++i) {
    SweepPoint pt;
    pt.workload = key.workload;
    pt.grid = key.grid;
    pt.in_bytes = key.in_bytes;
    pt.out_bytes = key.out_bytes;
    pt.intensity = key.intensity;
    pt.order = key.order;
    pt.issue = key.issue;
    pt.streams = ns[i];
    pt.median_ms = Percentile(ms[i], 0.5);
    pt.p10_ms = Percentile(ms[i], 0.1);
    pt.p90_ms = Percentile(ms[i], 0.9);
    pt.repetitions = s.plan.repetitions;
    pt.settings = s.settings;
    pt.issue_ms = Percentile(issue[i], 0.5);
    pt.h2d_ms = w.times.h2d_ms;
    pt.kernel_ms = w.times.kernel_ms;
    pt.d2h_ms = w.times.d2h_ms;
    if (!tk_half.empty()) pt.kernel_half_ms = w.times.kernel_half_ms;
    pt.halves_ratio = halves[i];
    if (!held[i].empty()) pt.held_ms = Percentile(held[i], 0.5);
    cfg.push_back(std::move(pt));
  }

  // Each model with the calibrated parameters (tsc = the calibrated per-stream overhead c).
  // Veneva's regression keeps its published eq. 7 (a tridiagonal solver on an RTX 2080 Ti)
  // with this batch's measured overlapped sum: how a fit from another code and card transfers.
  STREAMPIPE_ASSIGN_OR_RETURN(ModelTerms terms, ComputeModelTerms(s.traits, w));
  VenevaCoefficients veneva = VenevaCoefficients::Published();
  veneva.sum_from_regression = false;
  for (std::size_t m = 0; m < std::size(kAllModelKinds); ++m) {
    const std::unique_ptr<StreamModel> model = MakeModel(kAllModelKinds[m], &veneva);
    const LinearizedModel lin(*model, terms);
    int best = ns.front();
    for (std::size_t i = 0; i < ns.size(); ++i) {
      cfg[i].predicted_ms[m] = lin.TotalMs(ns[i]);
      if (lin.TotalMs(ns[i]) < lin.TotalMs(best) * (1.0 - 1e-12)) best = ns[i];
    }
    for (SweepPoint& pt : cfg) pt.chosen[m] = best;
  }
  {
    // The current model's device paths alone (no issue cost s): what a held batch takes.
    DeviceTraits device = s.traits;
    device.sub_chunk_cost_ms = 0.0;
    STREAMPIPE_ASSIGN_OR_RETURN(ModelTerms device_terms, ComputeModelTerms(device, w));
    const LinearizedModel lin(*MakeModel(ModelKind::kCurrent), device_terms);
    for (SweepPoint& pt : cfg) pt.current_device_ms = lin.TotalMs(pt.streams);
  }

  for (SweepPoint& pt : cfg) {
    pt.adaptive_n = ap.chosen_streams();
    pt.adaptive_runs = adaptive_runs;
    pt.adaptive_deviation = agreement.deviation;
    pt.adaptive_batches = kept_batches;
    pt.adaptive_calibrated = kept_calibrated ? 1 : 0;
    pt.calibrated_ms = ap.controller().PredictMs(pt.streams, c.items);
    const double device = ap.controller().DevicePredictMs(pt.streams, c.items);
    if (device > 0.0) pt.calibrated_device_ms = device;  // 0: nothing measured, not computed
    if (std::isfinite(pt.held_ms) && std::isfinite(pt.calibrated_device_ms)) {
      errs.device.push_back(std::abs(pt.calibrated_device_ms / pt.held_ms - 1.0));
    }
    errs.calibrated.push_back(std::abs(pt.calibrated_ms / pt.median_ms - 1.0));
    errs.single_factor.push_back(
        std::abs(ap.controller().SingleFactorPredictMs(pt.streams, c.items) / pt.median_ms - 1.0));
    if (std::isfinite(pt.halves_ratio)) errs.halves.push_back(std::abs(pt.halves_ratio - 1.0));
  }
  int best_i = 0;
  for (std::size_t i = 0; i < cfg.size(); ++i) {
    if (cfg[i].median_ms < cfg[best_i].median_ms) best_i = static_cast<int>(i);
  }
  std::cerr << absl::StrFormat(
      "  %-10s %-10s in %6.1f MiB out %6.1f MiB intensity %-8g %-17s %-7s best n=%-3d %.3f ms, "
      "adaptive n=%-3d (c %.2f us, s %.2f us), current n=%d, drift %s\n",
      c.workload, c.grid, w.bytes.h2d / (1 << 20), w.bytes.d2h / (1 << 20), c.intensity, c.order,
      c.issue,
      cfg[best_i].streams, cfg[best_i].median_ms, ap.chosen_streams(),
      1e3 * ap.controller().stream_overhead_ms(), 1e3 * ap.controller().sub_chunk_cost_ms(),
      cfg.front().chosen[std::size(kAllModelKinds) - 1],
      drift.empty() ? std::string("n/a (no rounds after the adaptive run)")
                    : absl::StrFormat("%+.1f %%", 100.0 * Percentile(drift, 0.5)));
  // The kernel's fixed part the adaptive pipeline's model used (its measurement's halves).
  if (const auto& ref = ap.controller().reference(); ref && ref->components.kernel_half_ms > 0.0) {
    std::cerr << absl::StrFormat(
        "    adaptive kernel %.1f us, at half the batch %.1f us: fixed part %.1f us\n",
        1e3 * ref->components.kernel_ms, 1e3 * ref->components.kernel_half_ms,
        1e3 * KernelFixedMs(ref->components));
  }
  // The last non-streamed measurement, the calibrated prediction's anchor at n = 1: its time and
  // its parts, and against the rounds at n = 1 (its parts' sum tells a slow part from time
  // between the parts).
  if (const auto& ref = ap.controller().reference(); ref && ref->items == c.items) {
    const ComponentTimes& parts = ref->components;
    std::cerr << absl::StrFormat(
        "    adaptive reference: %.4f ms (parts h2d %.4f kernel %.4f d2h %.4f, sum %.4f; issue "
        "%.4f), rounds at n=1 %.4f ms\n",
        ref->measured_ms, parts.h2d_ms, parts.kernel_ms, parts.d2h_ms, parts.total_ms(),
        ref->issue_ms, cfg.front().streams == 1 ? cfg.front().median_ms : 0.0);
  }
  // The anchor check's batch, and every n's prediction with the first anchor alone (the CSV's
  // pred_calibrated takes the faster of the two): both on the same batches.
  if (const double check = ap.controller().anchor_check_ms(); check > 0.0) {
    std::string first;
    for (const SweepPoint& pt : cfg) {
      absl::StrAppendFormat(&first, " n=%d:%.4f", pt.streams,
                            ap.controller().FirstAnchorPredictMs(pt.streams, c.items));
    }
    std::cerr << absl::StrFormat(
        "    adaptive anchor check: %.4f ms; first anchor alone (n:ms):%s\n", check, first);
  }
  // What the adaptive pipeline measured itself (its calibration's inputs): n, settled samples,
  // median time, median issue time; and the calibrated model at the n with samples, where the
  // prediction takes the measurement instead.
  std::string seen, model_at;
  for (const MeasuredN& m : ap.controller().Measured()) {
    absl::StrAppendFormat(&seen, " n=%d:%dx%.4f/%.4f", m.streams, m.samples, m.median_ms,
                          m.issue_median_ms);
    if (m.samples > 0) {
      absl::StrAppendFormat(&model_at, " n=%d:%.4f", m.streams,
                            ap.controller().ModelPredictMs(m.streams, c.items));
    }
  }
  std::cerr << "    adaptive measured (n:samples x ms/issue ms):" << seen << "\n";
  std::cerr << "    adaptive model at the measured n (n:ms):" << model_at << "\n";
  // Its derivations and switches (at which of its Observe calls): a drift re-derivation that
  // found the workload's shape unchanged keeps n and says so.
  std::string events;
  for (const RederivationEvent& e : ap.controller().events()) {
    absl::StrAppendFormat(&events, " %s:%d->%d@%d%s", EventKindName(e.kind), e.old_streams,
                          e.new_streams, e.observation, e.n_kept ? "(kept)" : "");
  }
  std::cerr << "    adaptive events (kind:old->new n@batch):" << events << "\n";
  // How well a non-streamed measurement repeats its parts here: their spread over the rounds'
  // measurements, and how many pairs of them pass the drift rule's shape test at the adaptive
  // run's threshold (SameWorkloadShape; a pair that fails would re-derive from the model after a
  // drift of this unchanged workload).
  {
    std::vector<BatchObservation> parts(th.size());
    for (std::size_t i = 0; i < th.size(); ++i) {
      parts[i].items = c.items;
      parts[i].h2d_bytes = static_cast<double>(c.items * c.in_per_item);
      parts[i].d2h_bytes = static_cast<double>(c.items * c.out_per_item);
      parts[i].components = {th[i], tk[i], td[i]};
      parts[i].measured_ms = parts[i].components.total_ms();
    }
    int same = 0, pairs = 0;
    const double threshold = ao.adaptive.detector.threshold;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      for (std::size_t j = i + 1; j < parts.size(); ++j) {
        ++pairs;
        same += SameWorkloadShape(parts[i], parts[j], threshold) ? 1 : 0;
      }
    }
    const auto spread = [](const std::vector<double>& v) {
      return absl::StrFormat("%.4f (%.2f-%.2f)", Percentile(v, 0.5),
                             Percentile(v, 0.1) / Percentile(v, 0.5),
                             Percentile(v, 0.9) / Percentile(v, 0.5));
    };
    std::cerr << absl::StrFormat(
        "    non-streamed parts, ms (p10-p90 over median): h2d %s kernel %s d2h %s; same shape "
        "within %g %% in %d of %d pairs\n",
        spread(th), spread(tk), spread(td), 100.0 * threshold, same, pairs);
  }
  points->insert(points->end(), cfg.begin(), cfg.end());
  return absl::OkStatus();
}

std::vector<std::string> OrdersFor(const Settings& s, bool all_by_default) {
  if (!s.orders.empty()) return s.orders;
  if (all_by_default) return {"depth-first", "breadth-first", "engine-per-stream"};
  return {"depth-first"};
}

// The directories Make created (the path and its missing ancestors), removed again at
// destruction, deepest first, where they are still empty: a sweep refused after its outputs are
// checked (no GPU, a bad profile) leaves no --trace-dir behind; one that wrote its traces keeps
// them. Declared before the files it holds, so that their staged files go first.
class MadeDirectories {
 public:
  MadeDirectories() = default;
  MadeDirectories(const MadeDirectories&) = delete;
  MadeDirectories& operator=(const MadeDirectories&) = delete;
  ~MadeDirectories() {
    std::error_code ec;  // a directory that holds a file stays: remove() does not empty one
    for (auto it = made_.rbegin(); it != made_.rend(); ++it) std::filesystem::remove(*it, ec);
  }

  // create_directories(dir), remembering which of the directories it made.
  std::error_code Make(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> missing;  // deepest first
    std::error_code ec;
    // The path as given, as create_directories walks it ("a/../b" makes a, then b); a "." or
    // ".." step names no directory of its own, and an empty one is a trailing slash. A step is
    // recorded only where it does not exist once the steps before it do: "x/../old", with x
    // missing, names old, which was there (the directories made are real ones, so a ".." after
    // them is resolved as written, as weakly_canonical does).
    for (std::filesystem::path p = dir; !p.empty() && !std::filesystem::exists(p, ec);
         p = p.parent_path()) {
      const std::filesystem::path name = p.filename();
      std::error_code canonical_ec;
      const std::filesystem::path resolved = std::filesystem::weakly_canonical(p, canonical_ec);
      if (!name.empty() && name != "." && name != ".." && !canonical_ec &&
          !std::filesystem::exists(resolved, canonical_ec)) {
        missing.push_back(p);
      }
      if (p == p.parent_path()) break;
    }
    std::filesystem::create_directories(dir, ec);
    for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
      std::error_code is_dir_ec;
      if (std::filesystem::is_directory(*it, is_dir_ec)) made_.push_back(*it);
    }
    return ec;
  }

 private:
  std::vector<std::filesystem::path> made_;  // shallowest first
};

// --summary's file, opened before the work so that a bad path fails at once; none where the
// flag is not given. `name` is what messages call it (the flag, or --config's key).
absl::StatusOr<std::optional<StagedFile>> OpenSummary(const std::string& summary_path,
                                                      std::string_view name = "--summary") {
  if (summary_path.empty() || summary_path == "-") return std::nullopt;  // none, or stdout
  absl::StatusOr<StagedFile> f = StagedFile::Open(summary_path);
  if (!f.ok()) return AnnotateStatus(f.status(), name);
  return std::optional<StagedFile>(std::move(*f));
}

// The summary's tables as text on stderr, and as Markdown into `summary_file` where one is open,
// or on stdout where `summary_path` is "-".
int ReportSummary(const SweepSummary& summary, std::optional<StagedFile>& summary_file,
                  const std::string& summary_path, std::string_view name = "--summary") {
  std::cerr << SummaryText(summary);
  if (summary_path == "-") std::cout << SummaryMarkdown(summary) << std::flush;
  if (summary_file) {
    if (absl::Status w = summary_file->Finish(SummaryMarkdown(summary)); !w.ok()) {
      return Fail(kCommand, kExitIoErr, AnnotateStatus(w, name));
    }
  }
  return kExitOk;
}

// The summary of a sweep measured before: `streampipe sweep --from=CSV [--summary=MD]`; CSV "-"
// is stdin (`zcat sweep.csv.gz | streampipe sweep --from=-`).
int SummarizeCsv(const std::string& csv_path, const std::string& summary_path) {
  const bool from_stdin = csv_path == "-";
  // The summary would replace the sweep it summarizes: the --from file, or the file on stdin
  // (`--from=- --summary=v.csv < v.csv` replaced the CSV by its summary, exit 0, before session
  // 50), or be staged in it (`<summary>.partial`).
  const std::string read_path = from_stdin ? "/dev/stdin" : csv_path;
  // (A --summary of "-" is stdout, which FirstSameFile compares with stdin's file too.)
  if (const auto same = FirstSameFile(
          {csv_path, summary_path, StagedFile::PartialPathFor(summary_path)}, 1)) {
    return Fail(kCommand, kExitUsage,
                absl::StrCat("--summary=", summary_path, same->second == 1 ? " is" : " is staged in",
                             from_stdin ? " the file on stdin (--from=-)" : " the --from file",
                             " itself; name another file for the summary"));
  }
  absl::StatusOr<std::optional<StagedFile>> summary_file = OpenSummary(summary_path);
  if (!summary_file.ok()) return Fail(kCommand, kExitIoErr, summary_file.status());
  const std::string shown = from_stdin ? "stdin" : csv_path;  // in the messages
  const std::string unreadable =
      from_stdin ? "--from: cannot read stdin" : absl::StrCat("--from: cannot read '", csv_path, "'");
  std::error_code ec;
  if (!from_stdin && std::filesystem::is_directory(csv_path, ec)) {
    return Fail(kCommand, kExitNoInput, absl::StrCat(unreadable, ": a directory"));
  }
  // Bounded (a whole grid's CSV is about a MiB): /dev/zero is not read until memory runs out.
  std::string csv;
  if (absl::Status r = detail::ReadTextFile(read_path, &csv, std::size_t{1} << 30); !r.ok()) {
    if (absl::IsOutOfRange(r)) {
      return Fail(kCommand, kExitDataErr,
                  absl::StrCat("--from: '", shown, "' is over 1 GiB; not a sweep CSV"));
    }
    // With the reason (a missing file and one not readable read alike before session 50).
    absl::string_view why = r.message();
    absl::ConsumePrefix(&why, read_path + ": ");
    absl::ConsumePrefix(&why, "cannot read: ");  // said once, by `unreadable`
    return Fail(kCommand, kExitNoInput, absl::StrCat(unreadable, ": ", why));
  }
  if (csv.rfind("\x1f\x8b", 0) == 0) {  // gzip's magic bytes
    return Fail(kCommand, kExitDataErr,
                absl::StrCat("--from: '", shown,
                             "' is gzip-compressed; zcat it first (zcat FILE | streampipe sweep "
                             "--from=-)"));
  }
  // The sweep writes whole lines: a last one without its newline was cut short (a copy or a
  // write stopped part way), and could still parse, its settings column cut (before session 48:
  // summarized, exit 0), as --resume refuses it.
  if (!csv.empty() && csv.back() != '\n') {
    return Fail(kCommand, kExitDataErr,
                absl::StrCat("--from: '", shown, "': line ",
                             std::count(csv.begin(), csv.end(), '\n') + 1,
                             " ends without a newline: a line cut short (a copy or a run stopped "
                             "in the middle of a write); remove it, or end it if it is whole"));
  }
  std::vector<int> lines;  // each point's line, for Summarize's messages
  absl::StatusOr<std::vector<SweepPoint>> points = ParseSweepCsv(csv, &lines);
  if (!points.ok()) {
    return Fail(kCommand, kExitDataErr, AnnotateStatus(points.status(), shown));
  }
  absl::StatusOr<SweepSummary> sum = Summarize(*points, &lines);
  if (!sum.ok()) return Fail(kCommand, kExitDataErr, AnnotateStatus(sum.status(), shown));
  return ReportSummary(*sum, *summary_file, summary_path);
}

// --trace-dir: the file of one batch per issue order, for each issue mode (`dir` exists).
std::vector<std::string> TracePaths(const std::vector<std::string>& issues,
                                    const std::string& dir) {
  std::vector<std::string> paths;
  for (const std::string& issue : issues) {
    for (const char* order : kTraceOrders) {
      paths.push_back(
          absl::StrCat(dir, "/trace_", order, issue == "streams" ? "" : "_" + issue, ".json"));
    }
  }
  return paths;
}

// A timeline of one batch per issue order and issue mode (add-scalar, 16 MiB, 200 trips,
// n = 8), as a Chrome trace into `files`: TracePaths(issues, ...) opened (StagedFile), in that
// order; each committed when written.
absl::Status WriteTraces(const Settings& s, const std::vector<std::string>& issues,
                         std::vector<StagedFile>* files) {
  std::size_t next = 0;
  for (const std::string& issue : issues) {
    for (const char* order : kTraceOrders) {
      Config c{"add-scalar", "trace", 4 << 20, 4, 4, 200, AddScalarLauncher(200), order, issue};
      PipelineOptions o = OptionsFor(c, s, 8);
      o.record_timeline = true;
      STREAMPIPE_ASSIGN_OR_RETURN(StreamPipeline p, StreamPipeline::Create(o));
      STREAMPIPE_ASSIGN_OR_RETURN(PinnedBuffer<float> in,
                                  PinnedBuffer<float>::Create(static_cast<std::size_t>(c.items)));
      STREAMPIPE_ASSIGN_OR_RETURN(PinnedBuffer<float> out,
                                  PinnedBuffer<float>::Create(static_cast<std::size_t>(c.items)));
      for (int i = 0; i < 4; ++i) {  // warm-up
        STREAMPIPE_RETURN_IF_ERROR(p.Run({in.data(), out.data(), c.items}, 8).status());
      }
      STREAMPIPE_ASSIGN_OR_RETURN(BatchStats bs, p.Run({in.data(), out.data(), c.items}, 8));
      if (!bs.timeline) return absl::InternalError("the traced batch recorded no timeline");
      // Staged as the CSV is: an earlier trace of that name stays until this one is whole.
      absl::Status w =
          files->at(next++).Finish(ChromeTraceJson(std::span<const BatchTimeline>(&*bs.timeline, 1)));
      if (!w.ok()) return absl::DataLossError(w.message());
    }
  }
  return absl::OkStatus();
}

// Binds the flag of one key of the sweep's plan to its field in `plan`.
void BindFlag(FlagSet& fs, const TomlKey& key, SweepPlan* plan) {
  void* field = key.address(plan);
  const std::string flag = SweepPlanFlag(key);
  switch (key.type) {
    case TomlType::kDouble:
      fs.Add(flag, static_cast<double*>(field), key.help);
      break;
    case TomlType::kInt:
      if (key.int_bytes == sizeof(int)) {
        fs.Add(flag, static_cast<int*>(field), key.help);
      } else {
        fs.Add(flag, static_cast<std::int64_t*>(field), key.help);
      }
      break;
    case TomlType::kBool:
      fs.Add(flag, static_cast<bool*>(field), key.help);
      break;
    case TomlType::kString:
      fs.Add(flag, static_cast<std::string*>(field), key.help);
      break;
  }
}

std::string ValueText(const TomlValue& v) {
  // The shortest text that reads back as the value (not rounded to 6 digits), as the file's.
  if (const double* d = std::get_if<double>(&v)) return detail::ShortestDouble(*d);
  if (const std::int64_t* i = std::get_if<std::int64_t>(&v)) return absl::StrCat(*i);
  if (const bool* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  return std::get<std::string>(v);
}

}  // namespace

int RunSweep(const std::vector<std::string>& args) {
  // The plan: the flags' values over --config's over the defaults (SweepPlan).
  SweepPlan flagged;
  std::string config_path;
  bool print_config = false;
  bool config_markdown = false;
  FlagSet fs(kCommand, "[flags]");
  fs.Add("config", &config_path,
         "read the sweep's keys from this TOML file ([sweep] table, a key per flag below: "
         "--size-mib is sweep.size_mib; docs/config.md); a flag given too wins over the file");
  fs.Add("print-config", &print_config,
         "print the plan as TOML (every key: the flags over --config over the defaults) and exit "
         "without measuring");
  fs.Add("config-markdown", &config_markdown,
         "print the reference table of the sweep's keys (docs/config.md) and exit");
  for (const TomlKey& key : SweepPlanSchema().keys()) BindFlag(fs, key, &flagged);
  bool resume = false;
  fs.Add("resume", &resume,
         "continue the sweep that stopped part way with the same flags: the configurations whose "
         "rows <output>.partial holds whole are kept, not measured again, and the rest appended "
         "(rows of other flags or another --profile, which each row records in its settings "
         "column, are refused)");
  std::string from;
  fs.Add("from", &from,
         "summarize this sweep CSV (written by --output before; - for stdin) instead of "
         "measuring: no GPU; the summary goes to stderr and --summary");
  if (std::optional<int> done = fs.ParseCommandLine(args)) return *done;
  if (fs.WasSet("from") && from.empty()) {
    // (An unset variable in `--from=$CSV` would otherwise start measuring a sweep.)
    return Fail(kCommand, kExitUsage, "--from is empty; give the sweep CSV to summarize");
  }
  if (!from.empty()) {
    for (const std::string& name : fs.SetFlags()) {
      if (name != "from" && name != "summary") {
        return Fail(kCommand, kExitUsage,
                    absl::StrCat("--", name, " is for measuring a sweep; with --from only "
                                 "--summary applies"));
      }
    }
    return SummarizeCsv(from, flagged.summary);
  }
  if (config_markdown) {
    // The reference of every key, as `config --markdown`: a plan file or a flag beside it would
    // be checked by nothing (both exited 0 before session 51).
    for (const std::string& name : fs.SetFlags()) {
      if (name != "config-markdown") {
        return Fail(kCommand, kExitUsage,
                    absl::StrCat("--config-markdown prints the reference of every key; it checks "
                                 "no plan and takes no other flag (--",
                                 name, "; run it without --config-markdown)"));
      }
    }
    std::cout << SweepPlanMarkdown();
    return kExitOk;
  }
  if (fs.WasSet("config") && config_path.empty()) {
    // (An unset variable in `--config=$PLAN` measured the default plan.)
    return Fail(kCommand, kExitUsage, "--config is empty; give the sweep's plan file");
  }
  SweepPlan plan = flagged;
  std::vector<std::string> in_file;  // the keys --config sets
  if (!config_path.empty()) {
    absl::StatusOr<SweepPlan> file = LoadSweepPlan(config_path, &in_file);
    if (!file.ok()) {
      const bool missing = absl::IsNotFound(file.status()) || absl::IsPermissionDenied(file.status());
      return Fail(kCommand, missing ? kExitNoInput : kExitConfig,
                  AnnotateStatus(file.status(), "--config"));
    }
    plan = *std::move(file);
    for (const TomlKey& key : SweepPlanSchema().keys()) {
      if (fs.WasSet(SweepPlanFlag(key))) key.set(&plan, key.get(&flagged));
    }
  }
  // The keys this function's messages name, each looked up once: a path the schema lacks is this
  // program's error, said as such (a test runs each path's message).
  const TomlKey* output_key = SweepPlanSchema().Find("sweep.output");
  const TomlKey* summary_key = SweepPlanSchema().Find("sweep.summary");
  const TomlKey* trace_dir_key = SweepPlanSchema().Find("sweep.trace_dir");
  const TomlKey* adaptive_trace_key = SweepPlanSchema().Find("sweep.adaptive_trace");
  const TomlKey* profile_key = SweepPlanSchema().Find("sweep.profile");
  const TomlKey* cap_key = SweepPlanSchema().Find("sweep.adaptive_max_batches");
  const TomlKey* batches_key = SweepPlanSchema().Find("sweep.adaptive_batches");
  for (const TomlKey* key : {output_key, summary_key, trace_dir_key, adaptive_trace_key,
                             profile_key, cap_key, batches_key}) {
    if (key == nullptr) {
      return Fail(kCommand, kExitSoftware,
                  "internal error: the sweep's schema lacks a key its messages name");
    }
  }
  // Where a key's value came from, for the messages: its flag, the file's key or the default.
  auto from_file = [&](const TomlKey& key) {
    return !fs.WasSet(SweepPlanFlag(key)) &&
           std::find(in_file.begin(), in_file.end(), key.path) != in_file.end();
  };
  auto named = [&](const TomlKey& key) {
    const std::string value = ValueText(key.get(&plan));
    if (from_file(key)) return absl::StrCat(config_path, ": key '", key.path, "' = ", value);
    if (fs.WasSet(SweepPlanFlag(key))) return absl::StrCat("--", SweepPlanFlag(key), "=", value);
    return absl::StrCat("the default --", SweepPlanFlag(key), "=", value);
  };
  // What the messages about an output call it: its flag, or the file's key where the file gave it.
  auto source = [&](const TomlKey& key) {
    return from_file(key) ? absl::StrCat(config_path, ": key '", key.path, "'")
                          : absl::StrCat("--", SweepPlanFlag(key));
  };
  const std::string output_flag = source(*output_key);
  const std::string summary_flag = source(*summary_key);
  const std::string trace_dir_flag = source(*trace_dir_key);
  const std::string adaptive_trace_flag = source(*adaptive_trace_key);
  const std::string profile_flag = source(*profile_key);
  // Each value on its own (the file's were checked as it was read, with their lines).
  for (const TomlKey& key : SweepPlanSchema().keys()) {
    if (absl::Status c = detail::CheckValue(key, key.get(&plan)); !c.ok()) {
      return Fail(kCommand, from_file(key) ? kExitConfig : kExitUsage,
                  absl::StrCat(named(key), " ", c.message()));
    }
  }
  // Between keys: an adaptive run's cap is at least its batches.
  if (plan.adaptive_max_batches != 0 && plan.adaptive_max_batches < plan.adaptive_batches) {
    const TomlKey& cap = *cap_key;
    const TomlKey& batches = *batches_key;
    const bool flag = fs.WasSet(SweepPlanFlag(cap)) || fs.WasSet(SweepPlanFlag(batches));
    return Fail(kCommand, flag || config_path.empty() ? kExitUsage : kExitConfig,
                absl::StrCat(named(cap), ": must be 0 (4 x adaptive batches) or at least ",
                             from_file(cap) && from_file(batches)
                                 ? absl::StrCat("key '", batches.path, "' = ",
                                                plan.adaptive_batches, " beside it")
                                 : named(batches)));
  }
  Settings s;
  s.plan = plan;
  s.adaptive_max_batches = plan.adaptive_max_batches;
  if (s.adaptive_max_batches == 0) {
    s.adaptive_max_batches = s.plan.adaptive_batches > std::numeric_limits<int>::max() / 4
                                 ? std::numeric_limits<int>::max()
                                 : 4 * s.plan.adaptive_batches;
  }
  const std::string& output = plan.output;
  const std::string& summary_path = plan.summary;
  const std::string& trace_dir = plan.trace_dir;
  const std::string& adaptive_trace = plan.adaptive_trace;
  const std::string& profile = plan.profile;
  if (output.empty()) {
    return Fail(kCommand, from_file(*output_key) ? kExitConfig : kExitUsage,
                absl::StrCat(output_flag, " is empty; name a file, or - for stdout"));
  }
  // Two outputs of one file would write over each other (the second staged file found the
  // first's .partial, and said an earlier run had left it); so would the CSV and the summary on
  // stdout.
  // Where the file alone names both, it is the file's error (78), as for its other values.
  const auto clash_code = [&](const TomlKey& a, const TomlKey& b) {
    return from_file(a) && from_file(b) ? kExitConfig : kExitUsage;
  };
  if (output == "-" && summary_path == "-") {
    return Fail(kCommand, clash_code(*output_key, *summary_key),
                absl::StrCat(output_flag, " and ", summary_flag,
                             " are both - (stdout); one of them needs a file"));
  }
  std::vector<std::string> issues;
  // A mode named twice is one mode (its configurations would be measured once anyway, and its
  // traces are one set of files).
  const std::vector<std::string> issues_named = *ParseNameList(plan.issue, SweepIssueNames());
  for (const std::string& issue : issues_named) {
    if (std::find(issues.begin(), issues.end(), issue) == issues.end()) {
      issues.push_back(issue);
    }
  }
  // The plan file and the profile too (the profile is written where the sweep calibrates): an
  // output over either replaced it (before session 48 these passed every check).
  // And the files the outputs are written in until they are whole (`<output>.partial`,
  // `<summary>.partial`, `<profile>.tmp`) and the --trace-dir files: `--adaptive-trace=
  // x.csv.partial` wrote its rows into the CSV's staging file, `--output=x.csv.partial
  // --summary=x.csv` lost the summary, an adaptive trace inside --trace-dir was replaced at
  // the end (before session 51 each passed every check).
  {
    const std::string config_flag = "--config";
    std::vector<std::string> names = {config_flag, profile_flag, output_flag, summary_flag,
                                      adaptive_trace_flag};
    std::vector<const TomlKey*> keys = {nullptr, profile_key, output_key, summary_key,
                                        adaptive_trace_key};
    std::vector<std::string> paths = {config_path, profile, output, summary_path,
                                      adaptive_trace};
    const auto add = [&](std::string name, const TomlKey* key, std::string path) {
      names.push_back(std::move(name));
      keys.push_back(key);
      paths.push_back(std::move(path));
    };
    add(absl::StrCat(output_flag, "'s staging file"), output_key,
        StagedFile::PartialPathFor(output));
    add(absl::StrCat(summary_flag, "'s staging file"), summary_key,
        StagedFile::PartialPathFor(summary_path));
    add(absl::StrCat(profile_flag, "'s staging file"), profile_key,
        profile.empty() ? "" : profile + ".tmp");
    if (!trace_dir.empty()) {
      for (const std::string& path : TracePaths(issues, trace_dir)) {
        add(absl::StrCat(trace_dir_flag, "'s file"), trace_dir_key, path);
        add(absl::StrCat(trace_dir_flag, "'s staging file"), trace_dir_key,
            StagedFile::PartialPathFor(path));
      }
    }
    if (const auto same = FirstSameFile(paths, /*first_output=*/1)) {
      const auto [i, j] = *same;
      // The plan file against an output it names itself is the file's error (78); against a
      // flag's, the command line's (64).
      if (i == 0 && keys[j] != nullptr && from_file(*keys[j])) {
        return Fail(kCommand, kExitConfig,
                    absl::StrCat(names[j], " names the plan file itself, '", paths[j],
                                 "'; writing it would replace the plan file"));
      }
      return Fail(kCommand, i == 0 ? kExitUsage : clash_code(*keys[i], *keys[j]),
                  absl::StrCat(names[i], " and ", names[j], " name one file, '", paths[i],
                               "'; ",
                               i == 0 ? "writing it would replace the plan file"
                                      : "each output needs its own"));
    }
  }
  // A grid's flag given where that grid does not run would change nothing: said (before
  // session 51 `--size-mib=128` beside the default quick grid measured its 16 MiB, exit 0). A
  // plan file may hold every grid's keys; its flags only are checked.
  {
    const std::vector<std::string> grid_names = *ParseNameList(plan.grid, SweepGridNames());
    const std::set<std::string> runs(grid_names.begin(), grid_names.end());
    static const std::pair<const char*, const char*> kGridOf[] = {
        {"sweep.size_mib", "symmetric"},     {"sweep.iters", "symmetric"},
        {"sweep.total_mib", "asymmetric"},   {"sweep.in_24ths", "asymmetric"},
        {"sweep.asym_iters", "asymmetric"},  {"sweep.matmul_p", "matmul"},
        {"sweep.frames", "histogram"},       {"sweep.batch_frames", "histogram"},
        {"sweep.histogram_kernel", "histogram"}};
    for (const auto& [path, grid] : kGridOf) {
      const TomlKey* key = SweepPlanSchema().Find(path);
      if (key != nullptr && fs.WasSet(SweepPlanFlag(*key)) && runs.count("all") == 0 &&
          runs.count(grid) == 0) {
        return Fail(kCommand, kExitUsage,
                    absl::StrCat("--", SweepPlanFlag(*key), " is for the ", grid,
                                 " grid, which --grid=", plan.grid, " does not run"));
      }
    }
  }
  // The plan is printed once it is one the sweep would run: its outputs checked too (before
  // session 47 an empty --output or two outputs of one file printed, exit 0, a file that
  // --config then refused).
  if (print_config) {
    std::cout << SweepPlanToml(plan);
    return kExitOk;
  }
  const std::int64_t batch_frames = plan.batch_frames;
  const double size_mib = plan.size_mib;
  const double total_mib = plan.total_mib;
  // The lists, whose syntax and ranges the checks above have seen.
  auto ints = [](const std::string& spec) { return *ParseIntList(spec); };
  const std::vector<std::string> grids = *ParseNameList(plan.grid, SweepGridNames());
  const std::vector<int> streams = ints(plan.streams);
  std::set<int> uniq(streams.begin(), streams.end());
  s.streams.assign(uniq.begin(), uniq.end());
  if (!plan.orders.empty()) s.orders = *ParseNameList(plan.orders, SweepOrderNames());
  const std::vector<int> iters = ints(plan.iters);
  const std::vector<int> in24 = ints(plan.in_24ths);
  const std::vector<int> asym_iters = ints(plan.asym_iters);
  const std::vector<int> matmul_p = ints(plan.matmul_p);
  absl::StatusOr<HistogramKernel> histogram_kernel = ParseHistogramKernel(plan.histogram_kernel);
  if (!histogram_kernel.ok()) {
    return Fail(kCommand, kExitSoftware,
                AnnotateStatus(histogram_kernel.status(), "histogram kernel"));
  }
  std::vector<video::FrameFormat> frame_sizes;
  const std::vector<std::pair<int, int>> frames = *ParseFrameSizes(plan.frames);
  for (const auto& [w, h] : frames) {
    frame_sizes.push_back({.width = w, .height = h, .format = video::PixelFormat::kGray8});
  }
  // The outputs are opened before anything is measured: a path that cannot be written fails
  // now, not after the sweep; the rows go to disk configuration by configuration (`<output>.
  // partial` until the sweep is whole), so a sweep that stops part way keeps what it measured.
  std::optional<StagedFile> csv_file;
  // Nor a descriptor's (/dev/stdout: the resume renamed `<its file>.partial` onto the shell's
  // file, before session 51's review).
  if (resume && (output == "-" || video::DescriptorNamedBy(output))) {
    return Fail(kCommand, kExitUsage,
                absl::StrCat("--resume continues an output file's .partial, not stdout or a "
                             "descriptor (",
                             output_flag, " is ", output, ")"));
  }
  if (resume) {
    absl::StatusOr<StagedFile> f = StagedFile::Resume(output, SweepCsvHeader());
    if (!f.ok()) {
      std::string message(AnnotateStatus(f.status(), "--resume").message());
      if (message.find("cut short") != std::string::npos) {
        absl::StrAppend(&message, ", and the other rows of its configuration");
      }
      return Fail(kCommand,
                  absl::IsNotFound(f.status())             ? kExitNoInput
                  : absl::IsFailedPrecondition(f.status()) ? kExitDataErr
                                                           : kExitIoErr,
                  message);
    }
    csv_file = std::move(*f);
  } else if (output != "-") {
    absl::StatusOr<StagedFile> f = StagedFile::Open(output, SweepCsvHeader());
    if (!f.ok()) {
      absl::Status a = AnnotateStatus(f.status(), output_flag);
      if (absl::IsAlreadyExists(a)) {
        a = absl::AlreadyExistsError(
            absl::StrCat(a.message(), ", or continue that sweep: the same command with --resume"));
      }
      return Fail(kCommand, kExitIoErr, a);
    }
    csv_file = std::move(*f);
  }
  absl::StatusOr<std::optional<StagedFile>> summary_file = OpenSummary(summary_path, summary_flag);
  if (!summary_file.ok()) return Fail(kCommand, kExitIoErr, summary_file.status());
  MadeDirectories made_dirs;  // before trace_files: removed after them where left empty
  std::vector<StagedFile> trace_files;
  if (!trace_dir.empty()) {
    std::error_code ec = made_dirs.Make(trace_dir);
    if (ec || !std::filesystem::is_directory(trace_dir, ec)) {
      return Fail(kCommand, kExitIoErr,
                  absl::StrCat(trace_dir_flag, ": cannot create the directory '", trace_dir, "'",
                               ec ? absl::StrCat(": ", ec.message()) : ""));
    }
    for (const std::string& path : TracePaths(issues, trace_dir)) {
      absl::StatusOr<StagedFile> f = StagedFile::Open(path);
      if (!f.ok()) return Fail(kCommand, kExitIoErr, AnnotateStatus(f.status(), trace_dir_flag));
      trace_files.push_back(*std::move(f));
    }
  }
  // --adaptive-trace: checked now, written from the first measured configuration on (so that a
  // sweep refused before it leaves an earlier trace as it was).
  // Asked of the file system, not by opening it: a FIFO's open waited for a reader (a sweep
  // without a GPU hung instead of exiting 69), and a link that named no file yet was removed
  // with the file its open had made (before session 51).
  if (!adaptive_trace.empty()) {
    if (const std::string why = CannotWrite(adaptive_trace); !why.empty()) {
      return Fail(kCommand, kExitIoErr,
                  absl::StrCat(adaptive_trace_flag, ": cannot write '", adaptive_trace, "': ",
                               why));
    }
  }
  if (CudaDeviceCount() == 0) {
    return Fail(kCommand, kExitUnavailable, absl::StrCat("no CUDA device (", NoDeviceReason(), ")"));
  }
  std::set<std::string> want(grids.begin(), grids.end());
  const bool all = want.count("all") > 0;

  std::vector<Config> configs;
  auto add_scalar = [&](const std::string& grid_name, double mib, const std::vector<int>& its,
                        bool all_orders) {
    const std::int64_t items = static_cast<std::int64_t>(mib * (1 << 20) / 4);
    for (const std::string& order : OrdersFor(s, all_orders)) {
      for (int it : its) {
        configs.push_back({"add-scalar", grid_name, items, 4, 4, static_cast<double>(it),
                           AddScalarLauncher(it), order});
      }
    }
  };
  if (want.count("quick")) add_scalar("quick", 16, {1, 500}, false);
  if (all || want.count("symmetric")) add_scalar("symmetric", size_mib, iters, true);
  if (all || want.count("asymmetric")) {
    // 24 floats per item split a/24 in, (24 - a)/24 out: the same total bytes ever more toward
    // one direction (section 3.1.2).
    const std::int64_t items = static_cast<std::int64_t>(total_mib * (1 << 20) / (24 * 4));
    for (const std::string& order : OrdersFor(s, false)) {
      for (int it : asym_iters) {
        for (int a : in24) {
          Config c{"asymmetric", "asymmetric", items, 4LL * a, 4LL * (24 - a),
                   static_cast<double>(it), AsymmetricLauncher(a, 24 - a, it), order};
          configs.push_back(std::move(c));
        }
      }
    }
  }
  std::vector<DeviceBuffer<float>> matmul_b;  // B of each size, resident
  if (all || want.count("matmul")) {
    for (int p : matmul_p) {
      auto b = DeviceBuffer<float>::Create(static_cast<std::size_t>(p) * p);
      if (!b.ok()) return Fail(kCommand, kExitSoftware, b.status());
      std::vector<float> host(static_cast<std::size_t>(p) * p, 0.5f);
      if (const cudaError_t e = cudaMemcpy(b->data(), host.data(), host.size() * sizeof(float),
                                           cudaMemcpyHostToDevice);
          e != cudaSuccess) {
        return Fail(kCommand, kExitSoftware,
                    CudaErrorStatus(e, "cudaMemcpy (matmul B)", __FILE__, __LINE__));
      }
      const float* d = b->data();
      matmul_b.push_back(std::move(*b));
      for (const std::string& order : OrdersFor(s, false)) {
        configs.push_back({"matmul", "matmul", 2LL * p, 4LL * p, 4LL * p, static_cast<double>(p),
                           examples::MatmulRowsLauncher(d, p, p), order});
      }
    }
  }
  if (all || want.count("histogram")) {
    for (const video::FrameFormat& f : frame_sizes) {
      absl::StatusOr<KernelLauncher> l = HistogramLauncher(f, *histogram_kernel);
      if (!l.ok()) return Fail(kCommand, kExitUsage, l.status());
      std::cerr << "streampipe sweep: histogram " << video::FrameFormatToString(f) << ": kernel "
                << HistogramKernelName(*histogram_kernel)
                << (*histogram_kernel == HistogramKernel::kShared
                        ? (HistogramMergesInClusters(f) ? ", merged in clusters"
                                                        : ", merged with global atomics")
                        : "")
                << "\n";
      for (const std::string& order : OrdersFor(s, false)) {
        configs.push_back({"histogram", "histogram", batch_frames,
                           static_cast<std::int64_t>(f.item_bytes()),
                           static_cast<std::int64_t>(kHistogramBytes),
                           static_cast<double>(f.pixels()), *l, order});
      }
    }
  }
  {
    // Each configuration in each issue mode, the modes of one configuration back to back.
    std::vector<Config> by_issue;
    for (const Config& c : configs) {
      for (const std::string& issue : issues) {
        by_issue.push_back(c);
        by_issue.back().issue = issue;
      }
    }
    configs = std::move(by_issue);
  }
  {
    // A configuration listed twice (--iters=1,1; two frame sizes of one pixel count) writes the
    // same rows: measured once, so that its rows say which configuration they are.
    std::set<SweepConfigKey> seen;
    std::vector<Config> unique;
    for (Config& c : configs) {
      if (seen.insert(KeyOf(c)).second) unique.push_back(std::move(c));
    }
    if (unique.size() < configs.size()) {
      std::cerr << "streampipe sweep: " << configs.size() - unique.size()
                << " configurations listed twice, measured once\n";
    }
    configs = std::move(unique);
  }
  std::cerr << "streampipe sweep: " << configs.size() << " configurations x " << s.streams.size()
            << " values of n\n";
  // The profile, before a stopped sweep's rows are read: its fingerprint is part of every
  // row's settings. Without one the sweep calibrates, after the resume's checks.
  absl::StatusOr<DeviceInfo> device_info = ReadDevice(0);
  if (!device_info.ok()) return Fail(kCommand, kExitSoftware, device_info.status());
  std::string profile_fingerprint;
  if (!profile.empty()) {
    // A resumed sweep measures with the profile the stopped one used, as it is: where it is
    // missing or this card's from another driver, calibrating (and writing it) would only end
    // in a refusal; another card's is refused by either path.
    std::string why;  // a fresh sweep that calibrated says so, and where it wrote the profile
    int code = kExitOk;
    absl::StatusOr<DeviceProfile> p =
        resume ? LoadDeviceProfile(profile, *device_info)
               : ProfileForRun(kCommand, profile_flag, profile, 0, &why, &code);
    if (!p.ok() && !resume) return code;
    if (!p.ok() && resume) {
      return Fail(kCommand, absl::IsNotFound(p.status()) ? kExitNoInput : kExitConfig,
                  absl::StrCat("--resume: ", profile_flag, ": ", p.status().message(),
                               "; but a resumed sweep reads its profile as it is and does not "
                               "calibrate one, since its rows must be measured with the stopped "
                               "sweep's: to measure with a new profile, start the sweep again "
                               "without --resume (with this card's profile, or a path where "
                               "none is yet)"));
    }
    if (!p.ok()) return Fail(kCommand, kExitConfig, p.status());
    if (!why.empty()) {
      std::cerr << "streampipe sweep: " << profile_flag << ": " << why << "\n";
    }
    s.traits = p->traits;
    profile_fingerprint = DeviceProfileFingerprint(*p);
  }
  {
    const bool histogram = std::any_of(configs.begin(), configs.end(), [](const Config& c) {
      return c.workload == "histogram";
    });
    absl::StatusOr<std::string> settings = MeasuringSettings(
        s, histogram, std::string(HistogramKernelName(*histogram_kernel)),
        device_info->traits.hardware_queues, profile_fingerprint);
    if (!settings.ok()) return Fail(kCommand, kExitSoftware, settings.status());
    s.settings = *std::move(settings);
  }
  std::vector<SweepPoint> points;
  std::map<std::string, PredictorErrors> errors;
  if (output == "-") std::cout << SweepCsvHeader() << std::flush;
  // --resume: the configurations the stopped sweep measured whole are kept, not measured again.
  std::set<SweepConfigKey> resumed;
  if (resume) {
    SweepResume expected;
    expected.repetitions = s.plan.repetitions;
    expected.settings = s.settings;
    for (const Config& c : configs) expected.streams[KeyOf(c)] = StreamsFor(c, s);
    const std::string where = absl::StrCat("--resume: '", csv_file->partial_path(), "'");
    absl::StatusOr<std::vector<SweepPoint>> rows =
        ParseSweepCsv(SweepCsvHeader() + csv_file->resumed_data());
    if (!rows.ok()) return Fail(kCommand, kExitDataErr, AnnotateStatus(rows.status(), where));
    absl::StatusOr<std::set<SweepConfigKey>> kept_configs = KeptConfigurations(*rows, expected);
    if (!kept_configs.ok()) {
      return Fail(kCommand, kExitDataErr, AnnotateStatus(kept_configs.status(), where));
    }
    resumed = *std::move(kept_configs);
    points = std::move(*rows);
    std::cerr << "streampipe sweep: resuming '" << csv_file->partial_path() << "': " << resumed.size()
              << " of " << configs.size() << " configurations kept (" << points.size()
              << " rows), the rest measured now"
              << (profile.empty() && !resumed.empty()
                      ? " (with this run's own calibration: the kept rows had another; "
                        "--profile gives both parts one)"
                      : "")
              << "\n";
  }
  if (profile.empty()) {
    absl::StatusOr<Calibration> c = Calibrate({});
    if (!c.ok()) return Fail(kCommand, kExitSoftware, c.status());
    s.traits = c->profile.traits;
  }
  // Where the sweep stops part way, what it measured: the rows of the configurations done.
  auto kept = [&](std::size_t measured) -> std::string {
    if (!csv_file || !csv_file->staged() || !csv_file->has_data()) return "";
    return absl::StrCat("; the rows of the ", resumed.size() + measured, " of ", configs.size(),
                        " configurations measured are in '", csv_file->partial_path(),
                        "' (streampipe sweep --from=", csv_file->partial_path(),
                        " summarizes them; the same command with --resume continues)");
  };
  std::cerr << absl::StrFormat(
      "streampipe sweep: c = %.2f us, s = %.2f us, G = %.2f/%.2f GB/s, "
      "duplex %.2f GB/s each\n",
      s.traits.stream_overhead_ms * 1e3, s.traits.sub_chunk_cost_ms * 1e3,
      1e-6 / s.traits.h2d.ms_per_byte, 1e-6 / s.traits.d2h.ms_per_byte,
      1e-6 / s.traits.h2d.duplex_ms_per_byte);

  // A resumed sweep appends to the stopped one's adaptive trace, if it has this version's
  // columns (a trace of another version is refused, not mixed).
  std::ofstream trace_file;
  if (!adaptive_trace.empty()) {
    constexpr std::string_view kTraceHeader =
        "workload,grid,in_bytes,out_bytes,intensity,order,issue,adaptive_run,batch,kind,streams,"
        "settled,elapsed_ms,issue_ms,host_start_ms,host_wall_ms,h2d_ms,kernel_ms,d2h_ms,epoch_s,"
        "kernel_half_ms";
    std::error_code ec;
    const bool append = resume && std::filesystem::file_size(adaptive_trace, ec) > 0 && !ec;
    if (append) {
      std::ifstream existing(adaptive_trace);
      std::string header;
      std::getline(existing, header);
      if (header != kTraceHeader) {
        return Fail(kCommand, kExitDataErr,
                    absl::StrCat(adaptive_trace_flag, ": '", adaptive_trace,
                                 "' holds a trace whose columns are not this version's (its first "
                                 "line differs); move it away to resume"));
      }
    }
    // A path naming one of this process's descriptors (/dev/stdout) is not emptied: it is the
    // file the shell opened (`>> log`), whose data is not this sweep's.
    const bool descriptor = video::DescriptorNamedBy(adaptive_trace).has_value();
    trace_file.open(adaptive_trace, append || descriptor ? std::ios::app : std::ios::trunc);
    if (!trace_file) {
      return Fail(kCommand, kExitIoErr,
                  absl::StrCat(adaptive_trace_flag, ": cannot write '", adaptive_trace, "'"));
    }
    if (!append) trace_file << kTraceHeader << "\n";
    s.adaptive_trace = &trace_file;
  }
  std::size_t done = 0;  // configurations measured by this run
  for (std::size_t i = 0; i < configs.size(); ++i) {
    const Config& c = configs[i];
    if (resumed.count(KeyOf(c)) > 0) continue;
    const std::size_t first = points.size();
    absl::Status m = Measure(c, s, &points, &errors);
    if (!m.ok()) {
      const absl::Status a = AnnotateStatus(m, absl::StrCat(c.workload, " intensity ", c.intensity));
      return Fail(kCommand, kExitSoftware, absl::StrCat(a.message(), kept(done)));
    }
    std::string rows;
    for (std::size_t k = first; k < points.size(); ++k) rows += SweepCsvRow(points[k]);
    if (csv_file) {
      if (absl::Status w = csv_file->Append(rows); !w.ok()) {
        return Fail(kCommand, kExitIoErr,
                    absl::StrCat(AnnotateStatus(w, output_flag).message(), kept(done)));
      }
    } else {
      std::cout << rows << std::flush;
    }
    ++done;
  }
  if (trace_file.is_open() && !(trace_file.flush() && trace_file)) {
    return Fail(kCommand, kExitIoErr,
                absl::StrCat(adaptive_trace_flag, ": writing '", adaptive_trace, "' failed"));
  }
  for (const auto& [issue, e] : errors) {
    auto line = [](const std::vector<double>& v) {
      const auto over = std::count_if(v.begin(), v.end(), [](double x) { return x > 0.1; });
      return absl::StrFormat("median %.1f %% / max %.1f %%, %d over 10 %%",
                             100 * Percentile(v, 0.5), 100 * Percentile(v, 1.0), over);
    };
    std::cerr << "streampipe sweep: " << issue
              << (resumed.empty() ? "" : " (the configurations this run measured)")
              << ": calibrated " << line(e.calibrated) << "; single factor (up to run 37) "
              << line(e.single_factor) << " (" << e.calibrated.size() << " points)\n";
    if (!e.device.empty() || e.gate_timeouts > 0) {
      std::cerr << "streampipe sweep: " << issue
                << ": device time (batches held until issued): calibrated device part "
                << line(e.device) << " (" << e.device.size() << " points; " << e.gate_timeouts
                << " held batches timed out)\n";
    }
    if (!e.halves.empty()) {
      std::cerr << "streampipe sweep: " << issue
                << ": the measurement itself, rounds after / before the adaptive run: "
                << line(e.halves) << " (" << e.halves.size() << " points)\n";
    }
  }

  // The CSV is whole: it replaces any earlier file of that name.
  if (csv_file) {
    if (absl::Status w = csv_file->Commit(); !w.ok()) {
      return Fail(kCommand, kExitIoErr, AnnotateStatus(w, output_flag));
    }
  }

  absl::StatusOr<SweepSummary> sum = Summarize(points);
  if (!sum.ok()) return Fail(kCommand, kExitSoftware, sum.status());
  if (const int rc = ReportSummary(*sum, *summary_file, summary_path, summary_flag);
      rc != kExitOk) {
    return rc;
  }
  if (!trace_dir.empty()) {
    if (absl::Status t = WriteTraces(s, issues, &trace_files); !t.ok()) {
      return Fail(kCommand, absl::IsDataLoss(t) ? kExitIoErr : kExitSoftware,
                  AnnotateStatus(t, trace_dir_flag));
    }
  }
  return kExitOk;
}

}  // namespace streampipe::cli
