// Replays the adaptive controller against the H100's measured times: every configuration of a
// sweep CSV (`streampipe sweep --output=`) becomes a simulated card whose batch at n takes the
// sweep's median at n (and reports its median issue time), times log-normal noise. The
// controller (StreamController, with the traits of a device profile) runs `--batches` batches
// one at a time from the first measurement, as the sweep's adaptive run does, over `--seeds`
// seeds; the tool prints, per issue mode, the mean over configurations of the mean best /
// chosen ratio over seeds, the worst single run, the configurations whose mean is below 0.95
// and 0.98, the three worst configurations, and the share of streamed batches explored; and
// the error of the controller's calibrated prediction at every n after the run against the
// sweep's medians (as `streampipe sweep` scores it), with the `--worst` worst points of seed 0;
// `--show=TEXT`: for each configuration whose name contains TEXT, what seed 0's controller
// measured at each n and predicts there at the end of its run; `--probe-ratio=R` sets the
// controller's exploration.probe_ratio (default: the option's default),
// `--second-visit-batches=S` its exploration.second_visit_batches (default: the option's),
// `--revisit-batches=R` its exploration.revisit_batches and `--samples-per-candidate=K` its
// exploration.samples_per_candidate (a visit then runs K + 1 batches; defaults: the options'),
// `--breadth-first-issue-share=F` its adaptive.breadth_first_issue_share in the breadth-first
// configurations (as the pipeline applies it; default: the option's, 0). The
// controller's halves
// batch reports the sweep's kernel_half_ms (none where the sweep has none), or
// `--kernel-half-share=S` times its kernel_ms for every configuration; `--no-kernel-halves`
// runs the controller without that batch (the model of a sub-chunk's kernel as 1/n).
// CPU only: an A/B of a controller change against real measurements in seconds, not on the GPU.
//
//   controller_replay SWEEP.csv PROFILE.toml [--batches=150] [--max-batches=B] [--seeds=20]
//                    [--noise=0.02]
//                    [--slow=SHARE:EXCESS] [--slow-run=L] [--slow-issue] [--worst=0]
//                    [--probe-ratio=R] [--second-visit-batches=S] [--revisit-batches=R]
//                    [--samples-per-candidate=K] [--kernel-half-share=S]
//                    [--breadth-first-issue-share=F]
//                    [--no-kernel-halves]
//                    [--burst=FROM:TO:EXCESS] [--show=TEXT]
// `--slow=0.25:0.17`: a quarter of the batches at an n take 1.17x on top of the noise (the
// right tail that run 97 measured for tiny batches; default none). `--slow-run=L`: the slowed
// batches come in runs of L on average (a two-state Markov chain with the same share; runs 97-98
// traced tiny batches in the slower of two speeds for several batches in a row; default 1, each
// batch drawn alone). The non-streamed measurement is never slowed. `--slow-issue`: a slowed
// batch's issue time is slowed as much (a burst on the host, which the issue time measures).
// `--max-batches=B`: after --batches, run on while the controller's calibration owes visits
// (StreamController::CalibrationComplete), up to B batches in all, as `streampipe sweep
// --adaptive-max-batches` does (default 0: --batches, no more; B below --batches is an error).
// `--burst=90:97:0.25`: the streamed and explored batches 90 to 97 (counted from 0 in each
// replay) take 1.25x, their issue times as they were: a burst of the lease mid-run that the
// drift detector sees; the re-measurement after it is not slowed, so the controller re-derives
// the same workload and keeps n (runs 141-145: 6-59 of 124 adaptive runs per sweep did so).
//
// Limits: the card is stationary (no drift, no bursts but --burst's), the noise is the same at
// every n, the first batch at an n after another is unsettled (as in the pipeline) but otherwise
// as fast as any; the sweep's medians are taken as the truth, which they are only to their
// repeatability (docs/results.md). Exit 0, 64 for bad flags, 66 for an unreadable or invalid
// input, 65 for a profile other than the one the sweep's rows name (their `profile=` setting).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "streampipe/core/device_profile.hpp"
#include "streampipe/core/model.hpp"
#include "streampipe/core/statistics.hpp"
#include "streampipe/core/stream_controller.hpp"
#include "streampipe/core/sweep.hpp"
#include "bench_help.hpp"
#include "bench_profile.hpp"

namespace {

using streampipe::BatchObservation;
using streampipe::BatchPlan;
using streampipe::PlanKind;
using streampipe::SweepPoint;

struct Settings {
  int batches = 150;
  int max_batches = 0;  // 0: batches
  int seeds = 20;
  double noise = 0.02;
  // A share of the batches (every streamed or explored one, cold or not) slowed by a fixed excess
  // on top of the noise (run 97: a quarter of the tiny batches at n = 1 as graphs took 1.17x,
  // the rest were within 2 %): --slow=SHARE:EXCESS, e.g. 0.25:0.17.
  double slow_share = 0.0;
  double slow_by = 0.0;
  double slow_run = 1.0;    // mean run length of slowed batches (1: independent draws)
  bool slow_issue = false;  // a slowed batch's issue time is slowed too (a burst on the host)
  int worst = 0;  // the worst predicted points to list (of seed 0)
  double probe_ratio = -1.0;  // exploration.probe_ratio; < 0: the default
  int second_visit = -1;      // exploration.second_visit_batches; < 0: the default
  int revisit = -1;           // exploration.revisit_batches; < 0: the default
  int samples_per_candidate = -1;  // exploration.samples_per_candidate; < 0: the default
  double breadth_first_issue_share = 0.0;  // adaptive.breadth_first_issue_share (breadth-first)
  // The kernel at half the batch, as a share of the whole kernel, for every configuration;
  // < 0: the sweep's kernel_half_ms where it has one (none otherwise).
  double kernel_half_share = -1.0;
  bool no_kernel_halves = false;  // the controller without its halves batch (the model before)
  // --burst=FROM:TO:EXCESS: the streamed (and explored) batches FROM..TO, counted from 0, take
  // 1 + EXCESS times as long (a burst of the lease mid-run, which the drift detector sees; their
  // issue times are not slowed). Default none (TO = -1).
  int burst_from = 0, burst_to = -1;
  double burst_by = 0.0;
  std::string show;  // configurations whose name contains this: seed 0's end state, printed
};

// One point's calibrated prediction at the end of one replay, against the sweep's median.
struct PointError {
  int streams = 0;
  double measured_ms = 0.0, predicted_ms = 0.0, issue_ms = 0.0;
  double c_us = 0.0;  // the controller's fitted per-stream overhead
  double error() const { return std::abs(predicted_ms / measured_ms - 1.0); }
};

struct Result {
  std::string name;
  std::string error;  // why the replay stopped; empty if it ran
  double mean = 0.0, worst = 1.0;
  std::map<int, int> chosen;  // n -> runs
  std::vector<std::vector<PointError>> predictions;  // per seed, per n
  int drifts = 0;        // drift re-derivations over its seeds
  int level_steps = 0;   // of them, asked for by the learned level's check
  int level_checks = 0;  // that check's non-streamed batches over its seeds
};

// One configuration's replays; `points` are its rows (one per n).
Result Replay(const std::vector<SweepPoint>& points, const streampipe::DeviceTraits& traits,
              const Settings& s, long* explored, long* total) {
  std::map<int, const SweepPoint*> at;
  for (const SweepPoint& p : points) at[p.streams] = &p;
  const SweepPoint& first = points.front();
  double best = at.begin()->second->median_ms;
  for (const auto& [n, p] : at) best = std::min(best, p->median_ms);
  Result r;
  r.name = absl::StrFormat("%s %s in %.1f MiB out %.1f MiB intensity %g %s %s", first.workload,
                           first.grid, first.in_bytes / (1 << 20), first.out_bytes / (1 << 20),
                           first.intensity, first.order, first.issue);
  constexpr std::int64_t kItems = 1'000'000;  // batches are compared per item anyway
  for (int seed = 0; seed < s.seeds; ++seed) {
    streampipe::AdaptiveOptions ao;
    ao.candidates.min_streams = at.begin()->first;
    ao.candidates.max_streams = at.rbegin()->first;
    ao.candidates.powers_of_two = true;
    if (s.samples_per_candidate >= 1) {
      ao.exploration.samples_per_candidate = s.samples_per_candidate;
    }
    ao.exploration.run = ao.exploration.samples_per_candidate + 1;  // as the pipeline, 1 in flight
    if (s.probe_ratio >= 0.0) ao.exploration.probe_ratio = s.probe_ratio;
    if (s.second_visit >= 0) ao.exploration.second_visit_batches = s.second_visit;
    if (s.revisit >= 0) ao.exploration.revisit_batches = s.revisit;
    ao.measure_kernel_halves = !s.no_kernel_halves;
    ao.breadth_first_issue_share = s.breadth_first_issue_share;
    ao = streampipe::ForIssueOrder(ao, first.order == "breadth-first");
    absl::StatusOr<std::unique_ptr<streampipe::StreamModel>> model =
        streampipe::MakeModel("auto", traits);
    if (!model.ok()) {
      r.error = std::string(model.status().message());
      return r;
    }
    streampipe::StreamController c(std::move(*model), traits, ao);
    std::mt19937_64 rng(static_cast<std::uint64_t>(seed) * 7919 + 17);
    std::normal_distribution<double> noise(0.0, s.noise);
    // Slowed or not: a two-state chain whose slowed runs last slow_run batches on average and
    // whose stationary share is slow_share (slow_run = 1 and share p: independent draws).
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const double leave = 1.0 / s.slow_run;
    const double enter =  // <= 1: main() refuses a share over L / (L + 1)
        s.slow_share < 1.0 ? std::min(1.0, leave * s.slow_share / (1.0 - s.slow_share)) : 1.0;
    // (No draw where nothing is slowed, and none up front for independent draws: the replays
    // of earlier sessions keep their random sequences.)
    bool in_slow = s.slow_share > 0.0 && s.slow_run > 1.0 && unit(rng) < s.slow_share;
    int last = -1;
    // Seed 0's plans of a configuration --show names: "n*k" runs of streamed (or explored: e) n.
    const bool shown = seed == 0 && !s.show.empty() && r.name.find(s.show) != std::string::npos;
    std::string visits;
    int run_n = 0, run_len = 0;
    bool run_explore = false;
    const auto flush = [&] {
      if (run_len > 0) {
        absl::StrAppendFormat(&visits, " %s%d*%d", run_explore ? "e" : "", run_n, run_len);
      }
    };
    const long total_before = *total;  // streamed and explored batches of earlier replays
    // + the warm-up, the measurement and its halves batch
    const int setup = ao.measure_kernel_halves ? 3 : 2;
    const int most = std::max(s.batches, s.max_batches) + setup;
    for (int b = 0; b < most && (b < s.batches + setup || !c.CalibrationComplete()); ++b) {
      const BatchPlan plan = c.Plan(kItems);
      if (shown && (plan.kind == PlanKind::kStreamed || plan.kind == PlanKind::kExplore)) {
        const bool explore = plan.kind == PlanKind::kExplore;
        if (plan.streams != run_n || explore != run_explore) {
          flush();
          run_n = plan.streams;
          run_explore = explore;
          run_len = 0;
        }
        ++run_len;
      }
      BatchObservation o;
      o.items = kItems;
      o.h2d_bytes = first.in_bytes;
      o.d2h_bytes = first.out_bytes;
      r.level_checks += plan.level_check;
      if (streampipe::RunsNonStreamed(plan.kind)) {
        o.components = {first.h2d_ms * std::exp(noise(rng)), first.kernel_ms * std::exp(noise(rng)),
                        first.d2h_ms * std::exp(noise(rng))};
        o.measured_ms = o.components.total_ms();
        if (plan.kind == PlanKind::kMeasureHalves) {
          // The sweep's half (or --kernel-half-share of its kernel); none: not measured.
          const double half = s.kernel_half_share >= 0.0 ? s.kernel_half_share * first.kernel_ms
                                                         : first.kernel_half_ms;
          o.components.kernel_half_ms =
              std::isfinite(half) && half > 0.0 ? half * std::exp(noise(rng)) : 0.0;
        }
        last = 0;
      } else {
        const auto it = at.find(plan.streams);
        if (it == at.end()) {
          r.error = absl::StrFormat("the controller planned n = %d, which the sweep did not "
                                    "measure", plan.streams);
          return r;
        }
        const double jitter = std::exp(noise(rng));
        if (!(s.slow_share > 0.0)) {
          in_slow = false;
        } else if (s.slow_run <= 1.0) {
          in_slow = unit(rng) < s.slow_share;
        } else {
          in_slow = in_slow ? unit(rng) >= leave : unit(rng) < enter;
        }
        const bool in_burst = *total - total_before >= s.burst_from &&
                              *total - total_before <= s.burst_to;
        const double slow = in_slow ? 1.0 + s.slow_by : 1.0;
        o.measured_ms =
            it->second->median_ms * jitter * slow * (in_burst ? 1.0 + s.burst_by : 1.0);
        const bool cold = last != plan.streams;
        o.settled = !cold;
        const double issue = it->second->issue_ms;
        o.issue_ms = cold || !std::isfinite(issue)
                         ? 0.0
                         : issue * std::exp(noise(rng)) * (s.slow_issue ? slow : 1.0);
        last = plan.streams;
        *explored += plan.kind == PlanKind::kExplore;
        ++*total;
      }
      if (absl::Status st = c.Observe(plan, o); !st.ok()) {
        r.error = std::string(st.message());
        return r;
      }
    }
    const auto it = at.find(c.streams());
    if (it == at.end()) {
      r.error = absl::StrFormat("the controller chose n = %d, which the sweep did not measure",
                                c.streams());
      return r;
    }
    // The prediction of every n the sweep measured, as the sweep scores the pipeline's own
    // (PredictMs after the run) against its medians.
    std::vector<PointError>& pe = r.predictions.emplace_back();
    for (const auto& [n, p] : at) {
      pe.push_back({n, p->median_ms, c.PredictMs(n, kItems), p->issue_ms,
                    1e3 * c.stream_overhead_ms()});
    }
    if (shown) {
      // What the controller measured and predicts at the end of seed 0's run.
      std::printf("%s: n* %d, c %.2f us, s %.2f us\n", r.name.c_str(), c.streams(),
                  1e3 * c.stream_overhead_ms(), 1e3 * c.sub_chunk_cost_ms());
      std::map<int, streampipe::MeasuredN> seen;
      for (const streampipe::MeasuredN& m : c.Measured()) seen[m.streams] = m;
      for (const PointError& e : pe) {
        const streampipe::MeasuredN& m = seen[e.streams];
        std::printf("  n %3d: sweep %.4f ms (issue %.4f); controller %2d samples %.4f ms, "
                    "%2d issue %.4f ms; predicted %.4f ms (%+.1f %%)\n",
                    e.streams, e.measured_ms, e.issue_ms, m.samples, m.median_ms,
                    m.issue_samples, m.issue_median_ms, e.predicted_ms,
                    100.0 * (e.predicted_ms / e.measured_ms - 1.0));
      }
      flush();
      std::printf("  batches (n*count, e: explored):%s\n", visits.c_str());
      for (const streampipe::RederivationEvent& e : c.events()) {
        std::printf("  event at observation %lld: %s, n %d -> %d: %s\n",
                    static_cast<long long>(e.observation), streampipe::EventKindName(e.kind),
                    e.old_streams, e.new_streams, e.reason.c_str());
      }
    }
    for (const streampipe::RederivationEvent& e : c.events()) {
      if (e.kind != streampipe::EventKind::kDrift) continue;
      ++r.drifts;
      r.level_steps += e.reason.find("the level learned") != std::string::npos;
    }
    const double ratio = best / it->second->median_ms;
    r.mean += ratio / s.seeds;
    r.worst = std::min(r.worst, ratio);
    ++r.chosen[c.streams()];
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  if (streampipe::bench::PrintedHelp(
          argc, argv, "controller_replay",
          "SWEEP.csv PROFILE.toml [--batches=N>=1] [--max-batches=B] [--seeds=N>=1] "
          "[--noise=SD>=0] [--slow=SHARE:EXCESS] [--slow-run=L] [--slow-issue] [--worst=N>=0] "
          "[--probe-ratio=R] [--second-visit-batches=S] [--revisit-batches=R] "
          "[--samples-per-candidate=K] [--kernel-half-share=S] [--breadth-first-issue-share=F] "
          "[--no-kernel-halves] [--burst=FROM:TO:EXCESS] [--show=TEXT]")) {
    return 0;
  }
  Settings s;
  std::vector<std::string> files;
  // A whole flag value as a number, or false.
  const auto number = [](const char* text, double* out) {
    char* end = nullptr;
    *out = std::strtod(text, &end);
    return end != text && *end == '\0' && std::isfinite(*out);
  };
  for (int i = 1; i < argc; ++i) {
    double v = 0.0;
    bool ok = true;
    if (std::strncmp(argv[i], "--batches=", 10) == 0) {
      ok = number(argv[i] + 10, &v) && v == std::floor(v) && v >= 1 && v <= 1e7;
      s.batches = static_cast<int>(v);
    } else if (std::strncmp(argv[i], "--max-batches=", 14) == 0) {
      ok = number(argv[i] + 14, &v) && v == std::floor(v) && v >= 0 && v <= 1e7;
      s.max_batches = static_cast<int>(v);
    } else if (std::strncmp(argv[i], "--seeds=", 8) == 0) {
      ok = number(argv[i] + 8, &v) && v == std::floor(v) && v >= 1 && v <= 1e6;
      s.seeds = static_cast<int>(v);
    } else if (std::strncmp(argv[i], "--noise=", 8) == 0) {
      ok = number(argv[i] + 8, &v) && v >= 0.0 && v <= 1.0;
      s.noise = v;
    } else if (std::strncmp(argv[i], "--slow=", 7) == 0) {
      char* end = nullptr;
      s.slow_share = std::strtod(argv[i] + 7, &end);
      ok = end != argv[i] + 7 && *end == ':' && number(end + 1, &s.slow_by) &&
           s.slow_share >= 0.0 && s.slow_share <= 1.0 && s.slow_by >= 0.0 && s.slow_by <= 10.0;
    } else if (std::strncmp(argv[i], "--slow-run=", 11) == 0) {
      ok = number(argv[i] + 11, &v) && v >= 1.0 && v <= 1e6;
      s.slow_run = v;
    } else if (std::strcmp(argv[i], "--slow-issue") == 0) {
      s.slow_issue = true;
    } else if (std::strncmp(argv[i], "--worst=", 8) == 0) {
      ok = number(argv[i] + 8, &v) && v == std::floor(v) && v >= 0 && v <= 1e6;
      s.worst = static_cast<int>(v);
    } else if (std::strncmp(argv[i], "--probe-ratio=", 14) == 0) {
      ok = number(argv[i] + 14, &v) && v >= 0.0 && v <= 100.0;
      s.probe_ratio = v;
    } else if (std::strncmp(argv[i], "--second-visit-batches=", 23) == 0) {
      ok = number(argv[i] + 23, &v) && v == std::floor(v) && v >= 0 && v <= 1e6;
      s.second_visit = static_cast<int>(v);
    } else if (std::strncmp(argv[i], "--revisit-batches=", 18) == 0) {
      ok = number(argv[i] + 18, &v) && v == std::floor(v) && v >= 1 && v <= 1e6;
      s.revisit = static_cast<int>(v);
    } else if (std::strncmp(argv[i], "--samples-per-candidate=", 24) == 0) {
      ok = number(argv[i] + 24, &v) && v == std::floor(v) && v >= 1 && v <= 32;
      s.samples_per_candidate = static_cast<int>(v);
    } else if (std::strncmp(argv[i], "--kernel-half-share=", 20) == 0) {
      ok = number(argv[i] + 20, &v) && v >= 0.0 && v <= 10.0;
      s.kernel_half_share = v;
    } else if (std::strncmp(argv[i], "--breadth-first-issue-share=", 28) == 0) {
      ok = number(argv[i] + 28, &v) && v >= 0.0 && v <= 1.0;
      s.breadth_first_issue_share = v;
    } else if (std::strcmp(argv[i], "--no-kernel-halves") == 0) {
      s.no_kernel_halves = true;
    } else if (std::strncmp(argv[i], "--burst=", 8) == 0) {
      const std::vector<std::string> f = absl::StrSplit(argv[i] + 8, ':');
      double from = 0, to = 0;
      ok = f.size() == 3 && number(f[0].c_str(), &from) && number(f[1].c_str(), &to) &&
           number(f[2].c_str(), &v) && from == std::floor(from) && to == std::floor(to) &&
           from >= 0 && to >= from && to <= 1e6 && v >= 0.0 && v <= 10.0;
      if (ok) {  // in range: the casts are defined
        s.burst_from = static_cast<int>(from);
        s.burst_to = static_cast<int>(to);
        s.burst_by = v;
      }
    } else if (std::strncmp(argv[i], "--show=", 7) == 0) {
      s.show = argv[i] + 7;
      ok = !s.show.empty();
    } else if (argv[i][0] == '-') {
      std::cerr << "controller_replay: unknown flag " << argv[i] << "\n";
      return 64;
    } else {
      files.push_back(argv[i]);
    }
    if (!ok) {
      std::cerr << "controller_replay: bad value in " << argv[i]
                << " (--batches and --seeds: whole numbers >= 1, --noise: 0 to 1, "
                   "--slow: SHARE:EXCESS, a share 0 to 1 and an excess 0 to 10, --slow-run: 1 "
                   "to 1e6, --worst: a "
                   "whole number >= 0, --probe-ratio: 0 to 100, --second-visit-batches: a "
                   "whole number 0 to 1e6, --revisit-batches: a whole number 1 to 1e6, "
                   "--samples-per-candidate: 1 to 32, --kernel-half-share: 0 to 10, "
                   "--breadth-first-issue-share: 0 to 1, "
                   "--burst: FROM:TO:EXCESS, whole numbers 0 <= FROM <= TO <= 1e6 and an "
                   "excess 0 to 10, "
                   "--show: some text)\n";
      return 64;
    }
  }
  // The chain enters the slowed state with probability share / ((1 - share) L) a batch: it keeps
  // the share only while that is at most 1, share <= L / (L + 1).
  if (s.slow_run > 1.0 && s.slow_share > s.slow_run / (s.slow_run + 1.0)) {
    std::cerr << "controller_replay: --slow-run=" << s.slow_run << " cannot keep a share of "
              << s.slow_share << " slowed (at most L / (L + 1) = "
              << s.slow_run / (s.slow_run + 1.0) << "); lower the share or lengthen the runs\n";
    return 64;
  }
  if (s.max_batches != 0 && s.max_batches < s.batches) {
    std::cerr << "controller_replay: --max-batches=" << s.max_batches
              << " is below --batches=" << s.batches << " (0: no batches past --batches)\n";
    return 64;
  }
  if (files.size() != 2 || s.batches < 1 || s.seeds < 1 || !(s.noise >= 0.0)) {
    std::cerr << "usage: controller_replay SWEEP.csv PROFILE.toml [--batches=N>=1] [--max-batches=B] "
                 "[--seeds=N>=1] [--noise=SD>=0] [--slow=SHARE:EXCESS] [--slow-run=L] [--slow-issue] "
                 "[--worst=N>=0] [--probe-ratio=R] [--second-visit-batches=S] "
                 "[--revisit-batches=R] [--samples-per-candidate=K] "
                 "[--kernel-half-share=S] [--breadth-first-issue-share=F] [--no-kernel-halves] "
                 "[--burst=FROM:TO:EXCESS] "
                 "[--show=TEXT]\n";
    return 64;
  }
  std::error_code dir_error;
  std::ifstream in(files[0]);
  if (!in || std::filesystem::is_directory(files[0], dir_error)) {
    std::cerr << "controller_replay: cannot read " << files[0]
              << (std::filesystem::is_directory(files[0], dir_error) ? ": a directory" : "")
              << "\n";
    return 66;
  }
  std::stringstream text;
  text << in.rdbuf();
  absl::StatusOr<std::vector<SweepPoint>> points = streampipe::ParseSweepCsv(text.str());
  if (!points.ok()) {
    std::cerr << "controller_replay: " << files[0] << ": " << points.status().message() << "\n";
    return 66;
  }
  absl::StatusOr<streampipe::DeviceProfile> profile = streampipe::ReadDeviceProfile(files[1]);
  if (!profile.ok()) {
    std::cerr << "controller_replay: " << profile.status().message() << "\n";
    return 66;
  }
  // The profile the rows name (bench_profile.hpp), as trace_replay checks it: another card's
  // profile replayed the controller from another start, quietly, before session 50.
  if (const std::string why =
          streampipe::bench::ProfileMismatch(*points, *profile, files[0], files[1]);
      !why.empty()) {
    std::cerr << "controller_replay: " << why << "\n";
    return 65;
  }
  std::map<std::tuple<std::string, std::string, double, double, double, std::string, std::string>,
           std::vector<SweepPoint>>
      configs;
  for (const SweepPoint& p : *points) {
    configs[{p.issue, p.workload, p.in_bytes, p.out_bytes, p.intensity, p.order, p.grid}]
        .push_back(p);
  }
  std::map<std::string, std::vector<Result>> by_mode;
  long explored = 0, total = 0;
  for (const auto& [key, cfg] : configs) {
    Result r = Replay(cfg, profile->traits, s, &explored, &total);
    if (!r.error.empty()) {
      std::cerr << "controller_replay: " << r.name << ": " << r.error << "\n";
      return 66;
    }
    by_mode[std::get<0>(key)].push_back(std::move(r));
  }
  std::printf("controller_replay: %d batches, %d seeds, noise %.3f, slowed %.2f of the batches "
              "by %.2f in runs of %.1f%s, %zu configurations\n",
              s.batches, s.seeds, s.noise, s.slow_share, s.slow_by, s.slow_run,
              s.slow_issue ? " (their issue times too)" : "", configs.size());
  for (auto& [mode, results] : by_mode) {
    double mean = 0.0, worst = 1.0, below95 = 0.0, below98 = 0.0;
    int drifts = 0, level_steps = 0, runs_with_step = 0, level_checks = 0;
    for (const Result& r : results) {
      mean += r.mean / results.size();
      worst = std::min(worst, r.worst);
      drifts += r.drifts;
      level_steps += r.level_steps;
      runs_with_step += r.level_steps > 0;
      level_checks += r.level_checks;
    }
    std::sort(results.begin(), results.end(),
              [](const Result& a, const Result& b) { return a.mean < b.mean; });
    for (const Result& r : results) {
      below95 += r.mean < 0.95;
      below98 += r.mean < 0.98;
    }
    std::printf("%-7s mean %.4f, worst run %.3f; configurations whose mean is below 0.95: %.0f, "
                "below 0.98: %.0f\n",
                mode.c_str(), mean, worst, below95, below98);
    // On a stationary card every drift is noise (or --burst's): each costs a re-measurement.
    std::printf("        drift re-derivations: %d in %zu runs, %d of them asked for by the "
                "learned level's check (in %d configurations); that check's batches: %d\n",
                drifts, results.size() * static_cast<std::size_t>(s.seeds), level_steps,
                runs_with_step, level_checks);
    // The calibrated prediction's error over every point and seed: the median, the median over
    // seeds of the largest, and the points over 10 % per seed.
    std::vector<double> errors, largest;
    struct Worst {
      double error;
      const Result* r;
      PointError p;
    };
    std::vector<Worst> worst_points;
    double over = 0.0;
    for (int seed = 0; seed < s.seeds; ++seed) {
      double m = 0.0;
      for (const Result& r : results) {
        for (const PointError& p : r.predictions[static_cast<std::size_t>(seed)]) {
          errors.push_back(p.error());
          m = std::max(m, p.error());
          over += p.error() > 0.10;
          if (seed == 0) worst_points.push_back({p.error(), &r, p});
        }
      }
      largest.push_back(m);
    }
    std::printf("        prediction error: median %.1f %%, largest %.1f %% (median over seeds), "
                "points over 10 %%: %.1f per seed\n",
                100.0 * streampipe::Median(errors), 100.0 * streampipe::Median(largest),
                over / s.seeds);
    std::sort(worst_points.begin(), worst_points.end(),
              [](const Worst& a, const Worst& b) { return a.error > b.error; });
    for (std::size_t i = 0; i < std::min<std::size_t>(s.worst, worst_points.size()); ++i) {
      const Worst& w = worst_points[i];
      std::printf("    %+.1f %% at n = %d (measured %.3f ms, issue %.3f ms, predicted %.3f ms, "
                  "c %.2f us) %s\n",
                  100.0 * (w.p.predicted_ms / w.p.measured_ms - 1.0), w.p.streams,
                  w.p.measured_ms, w.p.issue_ms, w.p.predicted_ms, w.p.c_us, w.r->name.c_str());
    }
    for (std::size_t i = 0; i < std::min<std::size_t>(3, results.size()); ++i) {
      std::string chosen;
      for (const auto& [n, k] : results[i].chosen) chosen += absl::StrFormat(" %d:%d", n, k);
      std::printf("    %.3f (worst %.3f) %s; chosen n:runs%s\n", results[i].mean,
                  results[i].worst, results[i].name.c_str(), chosen.c_str());
    }
  }
  std::printf("explored: %.4f of the streamed batches\n",
              total > 0 ? static_cast<double>(explored) / static_cast<double>(total) : 0.0);
  return 0;
}
