// Replays the batches an adaptive run measured on the GPU through the controller again, on the
// CPU: `streampipe sweep --adaptive-trace=TRACE.csv` records every batch of each configuration's
// kept adaptive run (its kind, n, time, issue time, components); fed to a fresh
// StreamController in the same order, with the options the sweep ran (its CSV's settings
// column), the controller plans the same batches and ends in the run's state, so that its
// calibrated prediction is the sweep's `pred_calibrated` again. One input is not in traces
// written before session 41: the halves batch of each (re-)measurement runs inside
// StreamPipeline::Run, untraced, and its kernel at half the batch is then the sweep's rounds'
// (SweepPoint::kernel_half_ms), scaled by the nearest factor (1 % steps, up to 30 %) under
// which the controller plans every traced batch; newer traces carry the run's own
// (`kernel_half_ms`, the controller's reference after each batch).
//
// What it is for: a change that moves predictions only, not the plans, scored on the very
// batches the H100 ran, the lease out of the comparison, over every committed trace, on the
// CPU. Per issue mode it prints how closely the replay reproduced the sweep (the largest
// |replayed / sweep's prediction - 1|), and the calibrated prediction's error against the
// sweep's medians (median, max, points over 10 %) as the sweep wrote it, as replayed with the
// options now (the defaults, then --set), and as replayed without cap_slow_visits
// (StreamController::UncappedPredictMs).
//
//   trace_replay SWEEP.csv TRACE.csv PROFILE.toml [--set=KEY=VALUE]... [--list=THRESHOLD]
//
// SWEEP.csv and TRACE.csv uncompressed (zcat them first); PROFILE.toml the profile the sweep ran
// with (its rows' settings name its fingerprint, and another profile is refused).
// `--set=adaptive.cap_slow_visits=false`: a config key (docs/config.md) for the replayed
// controller, applied over the sweep's settings; a sweep whose settings name no
// carry-far-visits (before session 42) is replayed without it, so that
// `--set=adaptive.carry_far_visits=true` and `=false` score that option as a pair.
// `--list=0.10`: print every point whose error, replayed either way, exceeds it. A configuration
// traced more than once (a sweep stopped after its trace and resumed) is replayed from its last
// run; one the sweep's CSV lacks, or one of the CSV's (with adaptive_runs > 0) the trace lacks,
// is reported and left out. Exit 0; 64 for bad flags; 66 for an input that cannot be read (a
// directory included, or no such profile); 65 for a malformed one (a trace without its columns,
// or empty), for a profile other than the one the rows name, or where some configuration was
// left out (not in the CSV or not in the trace; its
// settings name a controller key at a value the key does not allow, said once per
// configuration; or its traced batches were not the ones the controller planned: a trace of
// another controller).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "streampipe/core/config.hpp"
#include "streampipe/core/device_profile.hpp"
#include "streampipe/core/model.hpp"
#include "streampipe/core/statistics.hpp"
#include "streampipe/core/stream_controller.hpp"
#include "streampipe/core/sweep.hpp"
#include "streampipe/core/sweep_plan.hpp"
#include "bench_help.hpp"
#include "bench_profile.hpp"

namespace {

using streampipe::BatchObservation;
using streampipe::BatchPlan;
using streampipe::PlanKind;
using streampipe::SweepConfigKey;
using streampipe::SweepPoint;

struct TraceRow {
  int run = 0;
  long batch = 0;
  std::string kind;
  int streams = 0;
  bool settled = false;
  double elapsed_ms = 0, issue_ms = 0, h2d_ms = 0, kernel_ms = 0, d2h_ms = 0;
  double kernel_half_ms = 0;  // the controller's reference's after the batch (0: not traced)
};

using Overrides = std::vector<std::pair<std::string, std::string>>;

// The options the sweep's adaptive pipeline ran with: the library's defaults, the sweep's
// settings over them (the keys cmd_sweep.cpp records, streampipe::SweepAdaptiveSettings), then
// the keys --set named (checked in main). A sweep whose settings name no carry-far-visits
// (before session 42) ran without it; a key the settings do not name otherwise keeps the
// library's default (so a sweep before session 41 is replayed with the cap, and
// UncappedPredictMs gives it as it ran).
absl::StatusOr<streampipe::AdaptiveOptions> OptionsFor(
    const std::map<int, const SweepPoint*>& at, const Overrides& overrides) {
  streampipe::AdaptiveOptions ao;
  ao.carry_far_visits = false;
  const SweepPoint& first = *at.begin()->second;
  if (absl::Status st = streampipe::ApplySweepAdaptiveSettings(first.settings, &ao); !st.ok()) {
    return st;
  }
  ao.candidates.min_streams = at.begin()->first;
  ao.candidates.max_streams = at.rbegin()->first;
  bool pow2 = true;
  for (const auto& [n, p] : at) pow2 = pow2 && (n & (n - 1)) == 0;
  ao.candidates.powers_of_two = pow2;
  ao.exploration.run = ao.exploration.samples_per_candidate + 1;  // one batch at a time
  streampipe::PipelineConfig config;
  config.adaptive = ao;
  for (const auto& [key, value] : overrides) {
    // Valid: main applied each to a config before.
    (void)streampipe::ApplyConfigOverride(&config, key, value);
  }
  return streampipe::ForIssueOrder(config.adaptive, first.order == "breadth-first");
}

struct Replayed {
  std::string name;
  std::string error;    // why the replay stopped; empty if it reproduced every batch
  // The largest |replayed / sweep's calibrated prediction - 1|, with the options now and without
  // cap_slow_visits (the sweeps before session 41 ran without it).
  double worst_match = 0.0, worst_match_uncapped = 0.0;
  double half_scale = 1.0;   // the rounds' kernel at half the batch scaled by this
  // Per n the sweep measured: its median, the sweep's calibrated prediction, the replayed one
  // with the options now and without cap_slow_visits.
  struct Point {
    int streams = 0;
    double median_ms = 0, sweep_ms = 0, replay_ms = 0, uncapped_ms = 0;
    bool visited = false, star = false;
  };
  std::vector<Point> points;
};

// `at`: the configuration's rows by n.
Replayed Replay(const std::map<int, const SweepPoint*>& at, const std::vector<TraceRow>& rows,
                const streampipe::DeviceTraits& traits,
                const streampipe::AdaptiveOptions& options, double half_scale) {
  const SweepPoint& first = *at.begin()->second;
  Replayed r;
  r.name = absl::StrFormat("%s %s in %.1f MiB out %.1f MiB intensity %g %s %s", first.workload,
                           first.grid, first.in_bytes / (1 << 20), first.out_bytes / (1 << 20),
                           first.intensity, first.order, first.issue);
  absl::StatusOr<std::unique_ptr<streampipe::StreamModel>> model =
      streampipe::MakeModel("auto", traits);
  if (!model.ok()) {
    r.error = std::string(model.status().message());
    return r;
  }
  streampipe::StreamController c(std::move(*model), traits, options);
  constexpr std::int64_t kItems = 1'000'000;  // batches are compared per item anyway
  int last = 0;  // the n of the batch before (0: non-streamed)
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const TraceRow& row = rows[i];
    BatchPlan plan = c.Plan(kItems);
    int untraced = 0;  // warm-up and halves batches the controller plans before this row
    // The warm-up and the halves batch run inside StreamPipeline::Run, untraced: fed from the
    // measurement they precede. Its kernel half: the one the trace recorded after the
    // measurement's last batch (its measure_batches rows), or the rounds' (scaled) in traces
    // without it.
    while (plan.kind == PlanKind::kWarmup || plan.kind == PlanKind::kMeasureHalves) {
      const TraceRow* m = row.kind == "measure" ? &row : nullptr;
      const TraceRow* end = m;
      for (std::size_t j = i + 1;
           m != nullptr && j < rows.size() && j < i + static_cast<std::size_t>(options.measure_batches) &&
           rows[j].kind == "measure";
           ++j) {
        end = &rows[j];
      }
      if (m == nullptr) {
        r.error = absl::StrFormat("batch %zu: the controller planned a %s batch before a %s one",
                                  i, streampipe::PlanKindName(plan.kind), row.kind);
        return r;
      }
      BatchObservation o;
      o.items = kItems;
      o.h2d_bytes = first.in_bytes;
      o.d2h_bytes = first.out_bytes;
      o.components = {m->h2d_ms, m->kernel_ms, m->d2h_ms};
      if (plan.kind == PlanKind::kMeasureHalves) {
        if (end->kernel_half_ms > 0.0) {
          o.components.kernel_half_ms = end->kernel_half_ms;  // the run's own
        } else if (std::isfinite(first.kernel_half_ms)) {
          o.components.kernel_half_ms = first.kernel_half_ms * half_scale;
        }
      }
      o.measured_ms = o.components.total_ms();
      if (absl::Status st = c.Observe(plan, o); !st.ok()) {
        r.error = std::string(st.message());
        return r;
      }
      ++untraced;
      plan = c.Plan(kItems);
    }
    // The row's batch number follows the one before and the untraced batches between: the
    // file's own check lets a gap of one pass before any measure row, and only the plans tell
    // a halves batch's gap from a row missing before a level or anchor check (session 51).
    if (i > 0 && row.batch != rows[i - 1].batch + 1 + untraced) {
      r.error = absl::StrFormat("batch %ld follows batch %ld, with %d untraced batch%s planned "
                                "between: a row is missing",
                                row.batch, rows[i - 1].batch, untraced, untraced == 1 ? "" : "es");
      return r;
    }
    if (row.kind != streampipe::PlanKindName(plan.kind) ||
        (row.kind != "measure" && row.streams != plan.streams)) {
      r.error = absl::StrFormat("batch %zu: traced %s at n = %d, the controller planned %s at "
                                "n = %d",
                                i, row.kind, row.streams, streampipe::PlanKindName(plan.kind),
                                plan.streams);
      return r;
    }
    BatchObservation o;
    o.items = kItems;
    o.h2d_bytes = first.in_bytes;
    o.d2h_bytes = first.out_bytes;
    o.measured_ms = row.elapsed_ms;
    o.settled = row.settled;
    if (row.kind == "measure") {
      o.components = {row.h2d_ms, row.kernel_ms, row.d2h_ms};
      last = 0;
    } else {
      // As StreamPipeline: the first batch at an n after another reports no issue time.
      o.issue_ms = row.streams != last ? 0.0 : row.issue_ms;
      last = row.streams;
    }
    if (absl::Status st = c.Observe(plan, o); !st.ok()) {
      r.error = absl::StrFormat("batch %zu: %s", i, st.message());
      return r;
    }
  }
  std::map<int, int> seen;
  for (const streampipe::MeasuredN& m : c.Measured()) {
    if (m.samples > 0) seen[m.streams] = m.samples;
  }
  for (const auto& [n, p] : at) {
    Replayed::Point q;
    q.streams = n;
    q.median_ms = p->median_ms;
    q.sweep_ms = p->calibrated_ms;
    q.replay_ms = c.PredictMs(n, kItems);
    q.uncapped_ms = c.UncappedPredictMs(n, kItems);
    q.visited = seen.count(n) > 0 && n != c.streams();
    q.star = n == c.streams();
    if (std::isfinite(q.sweep_ms) && q.sweep_ms > 0.0) {
      r.worst_match = std::max(r.worst_match, std::abs(q.replay_ms / q.sweep_ms - 1.0));
      r.worst_match_uncapped =
          std::max(r.worst_match_uncapped, std::abs(q.uncapped_ms / q.sweep_ms - 1.0));
    }
    r.points.push_back(q);
  }
  return r;
}

bool ReadFile(const std::string& path, std::string* out) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return false;  // opens, and reads as empty
  std::ifstream in(path);
  if (!in) return false;
  std::stringstream text;
  text << in.rdbuf();
  *out = text.str();
  return true;
}

// Error statistics of one predictor over a mode's points.
struct Errors {
  std::vector<double> all;
  int over = 0;
  double max = 0.0;
  void Add(double predicted, double measured) {
    const double e = std::abs(predicted / measured - 1.0);
    all.push_back(e);
    over += e > 0.10;
    max = std::max(max, e);
  }
  std::string Line() const {
    return absl::StrFormat("median %.2f %%, max %.1f %%, over 10 %%: %d",
                           100.0 * (all.empty() ? 0.0 : streampipe::Median(all)), 100.0 * max,
                           over);
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (streampipe::bench::PrintedHelp(
          argc, argv, "trace_replay",
          "SWEEP.csv TRACE.csv PROFILE.toml [--set=KEY=VALUE]... [--list=THRESHOLD]")) {
    return 0;
  }
  std::vector<std::string> files;
  double list = -1.0;
  Overrides overrides;  // --set, in order
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--list=", 7) == 0) {
      if (!absl::SimpleAtod(argv[i] + 7, &list) || !(list >= 0.0)) {
        std::cerr << "trace_replay: bad value in " << argv[i] << " (a number >= 0)\n";
        return 64;
      }
    } else if (std::strncmp(argv[i], "--set=", 6) == 0) {
      const std::string kv = argv[i] + 6;
      const std::size_t eq = kv.find('=');
      streampipe::PipelineConfig check;
      absl::Status st = eq == std::string::npos
                            ? absl::InvalidArgumentError("not KEY=VALUE")
                            : streampipe::ApplyConfigOverride(&check, kv.substr(0, eq),
                                                              kv.substr(eq + 1));
      if (!st.ok()) {
        std::cerr << "trace_replay: bad value in " << argv[i] << ": " << st.message() << "\n";
        return 64;
      }
      overrides.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    } else if (std::strncmp(argv[i], "--", 2) == 0) {
      std::cerr << "trace_replay: unknown flag " << argv[i] << "\n";
      return 64;
    } else {
      files.push_back(argv[i]);
    }
  }
  if (files.size() != 3) {
    std::cerr << "usage: trace_replay SWEEP.csv TRACE.csv PROFILE.toml [--set=KEY=VALUE]... "
                 "[--list=THRESHOLD]\n";
    return 64;
  }
  std::string sweep_text, trace_text;
  for (const auto& [path, text] : {std::pair{&files[0], &sweep_text}, {&files[1], &trace_text}}) {
    if (!ReadFile(*path, text)) {
      std::cerr << "trace_replay: cannot read " << *path << "\n";
      return 66;
    }
  }
  absl::StatusOr<std::vector<SweepPoint>> points = streampipe::ParseSweepCsv(sweep_text);
  if (!points.ok()) {
    std::cerr << "trace_replay: " << files[0] << ": " << points.status().message() << "\n";
    return 65;
  }
  absl::StatusOr<streampipe::DeviceProfile> profile = streampipe::ReadDeviceProfile(files[2]);
  if (!profile.ok()) {
    std::cerr << "trace_replay: " << profile.status().message() << "\n";
    return absl::IsNotFound(profile.status()) || absl::IsPermissionDenied(profile.status()) ? 66
                                                                                              : 65;
  }
  // The profile the rows name (bench_profile.hpp).
  if (const std::string why =
          streampipe::bench::ProfileMismatch(*points, *profile, files[0], files[2]);
      !why.empty()) {
    std::cerr << "trace_replay: " << why << "\n";
    return 65;
  }
  std::map<SweepConfigKey, std::vector<SweepPoint>> configs;
  for (const SweepPoint& p : *points) configs[streampipe::ConfigKeyOf(p)].push_back(p);
  // The trace: a header, then one row per batch (cmd_sweep.cpp writes it).
  std::map<SweepConfigKey, std::vector<TraceRow>> traces;
  std::vector<std::string> header;
  int line_no = 0;
  // The columns read below: a trace without them (an empty file, another CSV) was replayed as
  // no configuration at all, exit 0, before session 50.
  static const char* const kTraceColumns[] = {
      "workload", "grid",    "in_bytes", "out_bytes",  "intensity", "order",   "issue",
      "adaptive_run", "batch", "kind", "streams", "settled", "elapsed_ms", "issue_ms",
      "h2d_ms", "kernel_ms", "d2h_ms"};
  for (absl::string_view line : absl::StrSplit(trace_text, '\n', absl::SkipEmpty())) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::vector<std::string> f = absl::StrSplit(line, ',');
    if (line_no == 1) {
      header = f;
      for (const char* column : kTraceColumns) {
        if (std::find(header.begin(), header.end(), column) == header.end()) {
          std::cerr << "trace_replay: " << files[1] << ":1: no column '" << column
                    << "': not an adaptive trace (streampipe sweep --adaptive-trace)\n";
          return 65;
        }
      }
      continue;
    }
    std::map<std::string, std::string> v;
    for (std::size_t k = 0; k < f.size() && k < header.size(); ++k) v[header[k]] = f[k];
    TraceRow t;
    double in = 0, out = 0, intensity = 0, run = 0, n = 0, settled = 0, batch = 0;
    const bool ok =
        f.size() == header.size() && absl::SimpleAtod(v["in_bytes"], &in) &&
        absl::SimpleAtod(v["out_bytes"], &out) && absl::SimpleAtod(v["intensity"], &intensity) &&
        absl::SimpleAtod(v["adaptive_run"], &run) && absl::SimpleAtod(v["batch"], &batch) &&
        absl::SimpleAtod(v["streams"], &n) &&
        absl::SimpleAtod(v["settled"], &settled) &&
        absl::SimpleAtod(v["elapsed_ms"], &t.elapsed_ms) &&
        absl::SimpleAtod(v["issue_ms"], &t.issue_ms) && absl::SimpleAtod(v["h2d_ms"], &t.h2d_ms) &&
        absl::SimpleAtod(v["kernel_ms"], &t.kernel_ms) && absl::SimpleAtod(v["d2h_ms"], &t.d2h_ms) &&
        (v.count("kernel_half_ms") == 0 || absl::SimpleAtod(v["kernel_half_ms"], &t.kernel_half_ms));
    if (!ok) {
      std::cerr << "trace_replay: " << files[1] << ":" << line_no << ": not a trace row\n";
      return 65;
    }
    t.run = static_cast<int>(run);
    t.batch = static_cast<long>(batch);
    t.kind = v["kind"];
    t.streams = static_cast<int>(n);
    t.settled = settled != 0.0;
    std::vector<TraceRow>& rows = traces[{v["workload"], v["grid"], in, out, intensity,
                                          v["order"], v["issue"]}];
    // A configuration traced again (a sweep stopped after writing its trace, then resumed):
    // its last run is the one the CSV's rows come from.
    if (!rows.empty() && (t.run != rows.back().run || t.batch <= rows.back().batch)) rows.clear();
    // Within a run the batches follow one another; the one untraced batch is the kernel-halves
    // batch before a measurement. A row missing between (a trace edited or merged by hand)
    // replayed on from the wrong batch before session 51.
    if (!rows.empty() && t.batch != rows.back().batch + 1 &&
        !(t.batch == rows.back().batch + 2 && t.kind == "measure")) {
      std::cerr << "trace_replay: " << files[1] << ":" << line_no << ": batch " << t.batch
                << " (" << t.kind << ") follows batch " << rows.back().batch
                << " of its run: a row is missing\n";
      return 65;
    }
    rows.push_back(t);
  }
  if (line_no == 0) {
    std::cerr << "trace_replay: " << files[1] << ": empty: not an adaptive trace\n";
    return 65;
  }
  int failed = 0, fitted = 0;
  // A configuration of the sweep whose adaptive run records its runs (adaptive_runs > 0) and
  // that the trace lacks: a trace cut short, or another sweep's. Left out, and said (a trace cut
  // at a line's end replayed 8 of 18 configurations, exit 0, before session 50).
  for (const auto& [key, rows] : configs) {
    const bool traced_run = std::any_of(rows.begin(), rows.end(),
                                        [](const SweepPoint& p) { return p.adaptive_runs > 0; });
    if (traced_run && traces.count(key) == 0) {
      std::cerr << "trace_replay: " << files[1] << " lacks a configuration " << files[0]
                << " holds (" << streampipe::ConfigKeyName(key) << "): left out\n";
      ++failed;
    }
  }
  std::map<std::string, std::vector<Replayed>> by_mode;
  for (const auto& [key, rows] : traces) {
    auto cfg = configs.find(key);
    if (cfg == configs.end()) {
      std::cerr << "trace_replay: " << files[1] << " traces a configuration " << files[0]
                << " does not hold (" << streampipe::ConfigKeyName(key) << "): left out\n";
      ++failed;
      continue;
    }
    std::map<int, const SweepPoint*> at;
    for (const SweepPoint& p : cfg->second) at[p.streams] = &p;
    absl::StatusOr<streampipe::AdaptiveOptions> options = OptionsFor(at, overrides);
    if (!options.ok()) {
      std::cerr << "trace_replay: " << files[0] << ": " << streampipe::ConfigKeyName(key)
                << ": its settings cannot be replayed: " << options.status().message() << "\n";
      ++failed;
      continue;
    }
    Replayed r = Replay(at, rows, profile->traits, *options, 1.0);
    for (int k = 1; k <= 30 && !r.error.empty(); ++k) {
      for (double scale : {1.0 + 0.01 * k, 1.0 - 0.01 * k}) {
        Replayed t = Replay(at, rows, profile->traits, *options, scale);
        if (t.error.empty()) {
          r = std::move(t);
          r.half_scale = scale;
          ++fitted;
          break;
        }
      }
    }
    if (!r.error.empty()) {
      std::cerr << "trace_replay: " << r.name << ": not reproduced: " << r.error << "\n";
      ++failed;
      continue;
    }
    by_mode[key.issue].push_back(std::move(r));
  }
  std::printf("%d configurations replayed with the rounds' kernel half scaled to reproduce their "
              "plans; %d not reproduced (or not in the CSV)\n",
              fitted, failed);
  for (const auto& [mode, results] : by_mode) {
    double match = 0.0, match_uncapped = 0.0;
    Errors sweep, replay, uncapped;
    int points = 0, capped = 0;
    for (const Replayed& r : results) {
      match = std::max(match, r.worst_match);
      match_uncapped = std::max(match_uncapped, r.worst_match_uncapped);
      for (const Replayed::Point& p : r.points) {
        ++points;
        sweep.Add(p.sweep_ms, p.median_ms);
        replay.Add(p.replay_ms, p.median_ms);
        uncapped.Add(p.uncapped_ms, p.median_ms);
        capped += p.replay_ms != p.uncapped_ms;
        const double e = std::abs(p.replay_ms / p.median_ms - 1.0);
        const double eu = std::abs(p.uncapped_ms / p.median_ms - 1.0);
        if (list >= 0.0 && (e > list || eu > list)) {
          std::printf("  %s n=%d: median %.4f ms, sweep %+.1f %%, replayed %+.1f %%, uncapped "
                      "%+.1f %%%s\n",
                      r.name.c_str(), p.streams, p.median_ms,
                      100.0 * (p.sweep_ms / p.median_ms - 1.0),
                      100.0 * (p.replay_ms / p.median_ms - 1.0),
                      100.0 * (p.uncapped_ms / p.median_ms - 1.0),
                      p.visited ? " (visited)" : (p.star ? " (n*)" : ""));
        }
      }
    }
    std::printf("%s: %zu configurations, %d points; the sweep's prediction replayed within "
                "%.2f %% (options now) / %.2f %% (uncapped)\n",
                mode.c_str(), results.size(), points, 100.0 * match, 100.0 * match_uncapped);
    std::printf("  as the sweep wrote it: %s\n", sweep.Line().c_str());
    std::printf("  replayed:              %s (%d points capped)\n", replay.Line().c_str(), capped);
    std::printf("  replayed, uncapped:    %s\n", uncapped.Line().c_str());
  }
  return failed > 0 ? 65 : 0;
}
