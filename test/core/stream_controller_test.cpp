// The adaptive controller against a simulated card: the current model with "true" parameters,
// an overhead past 16 streams that no model knows (as on our H100, docs/evidence/anchors), and
// log-normal noise. The controller starts with traits whose per-stream overhead is wrong.
#include "streampipe/core/stream_controller.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <deque>
#include <iostream>
#include <random>
#include <set>

#include <gtest/gtest.h>

#include "absl/strings/str_format.h"
#include "run117_traits.hpp"

namespace streampipe {
namespace {

struct Workload2 {
  double h2d_ms, kernel_ms, d2h_ms;
};

class SimulatedCard {
 public:
  explicit SimulatedCard(std::uint64_t seed, double noise = 0.02, double sub_chunk_ms = 0.0)
      : rng_(seed), noise_(0.0, noise) {
    truth_ = DeviceTraits::H100Anchors();
    truth_.stream_overhead_ms = 0.004;  // the controller is told 0.5 us below
    truth_.sub_chunk_cost_ms = sub_chunk_ms;  // the issue bound (T4), off by default
  }
  // Noise-free time of a batch of `items` (reference 1e6) at n streams: the device's paths
  // (times device_scale) or the host's issue time, whichever is longer.
  double Exact(const Workload2& w, int n, std::int64_t items) const {
    return std::max(DevicePathsMs(w, n, items), IssueMs(n, items)) + UnknownMs(n);
  }
  // The device's time alone, as a batch held until issued measures it (RunHeld): without the
  // host's issue bound.
  double DeviceExact(const Workload2& w, int n, std::int64_t items) const {
    return DevicePathsMs(w, n, items) + UnknownMs(n);
  }
  void SetUnknownEffect(double ms_per_stream) { unknown_ms_ = ms_per_stream; }
  // The device paths take `scale` times what the model says (a shape no c explains).
  void ScaleDevice(double scale) { device_scale_ = scale; }
  // Streamed batches of n >= 2 take `scale` times what the model says; n = 1 (and the
  // non-streamed measurement) as the model says.
  void ScaleStreamed(double scale) { streamed_scale_ = scale; }
  // Streamed batches say their time is a period of batches in flight together.
  void ReportPeriods() { periods_ = true; }
  // The next `count` kMeasure batches copy `scale` times slower (a burst on the host's link).
  void SlowNextMeasurements(int count, double scale) {
    slow_measures_ = count;
    slow_scale_ = scale;
  }
  double Time(const Workload2& w, int n, std::int64_t items) {
    return Exact(w, n, items) * std::exp(noise_(rng_));
  }
  // Batches report a host issue time of fixed_ms + s n (noisy), s the true issue cost.
  void ReportIssueTimes(double fixed_ms) { issue_fixed_ms_ = fixed_ms; }
  // Batches of 1e6 items copy `h2d_bytes` in (and say so); the host issues copies in of at most
  // max_bytes inline at ms_per_byte (DeviceTraits::inline_h2d_*), which adds to its issue time.
  void InlineCopies(double h2d_bytes, double max_bytes, double ms_per_byte) {
    h2d_bytes_ = h2d_bytes;
    truth_.inline_h2d_max_bytes = max_bytes;
    truth_.inline_h2d_ms_per_byte = ms_per_byte;
  }
  BatchObservation Run(const BatchPlan& p, const Workload2& w, std::int64_t items) {
    BatchObservation o;
    o.items = items;
    o.measured_ms = Time(w, p.streams, items);
    if (issue_fixed_ms_ > 0.0) o.issue_ms = IssueMs(p.streams, items) * std::exp(noise_(rng_));
    o.h2d_bytes = h2d_bytes_ * static_cast<double>(items) / 1e6;
    const bool measured = RunsNonStreamed(p.kind);
    o.overlapped = periods_ && !measured;
    if (measured) {
      const double s = static_cast<double>(items) / 1e6;
      o.components = {w.h2d_ms * s * std::exp(noise_(rng_)), w.kernel_ms * s,
                      w.d2h_ms * s * std::exp(noise_(rng_))};
      if (p.kind == PlanKind::kMeasure && slow_measures_ > 0) {
        --slow_measures_;
        o.components.h2d_ms *= slow_scale_;
        o.components.d2h_ms *= slow_scale_;
      }
      o.measured_ms = o.components.total_ms();
      // The card's kernel has no fixed part (its device paths are the current model's with
      // t_e / n): half the batch takes half the time.
      if (p.kind == PlanKind::kMeasureHalves) o.components.kernel_half_ms = 0.5 * w.kernel_ms * s;
    }
    return o;
  }
  int BestN(const Workload2& w, const std::vector<int>& candidates, std::int64_t items) const {
    int best = candidates[0];
    for (int n : candidates) {
      if (Exact(w, n, items) < Exact(w, best, items)) best = n;
    }
    return best;
  }

 private:
  // The device's paths: the current model with the true traits and no issue cost, times
  // device_scale.
  double DevicePathsMs(const Workload2& w, int n, std::int64_t items) const {
    const double s = static_cast<double>(items) / 1e6;
    Workload wl;
    wl.times = {w.h2d_ms * s, w.kernel_ms * s, w.d2h_ms * s};
    DeviceTraits device = truth_;
    device.sub_chunk_cost_ms = 0.0;
    auto terms = ComputeModelTerms(device, wl);
    return device_scale_ * (n >= 2 ? streamed_scale_ : 1.0) *
           MakeModel(ModelKind::kCurrent)->Predict(*terms, n).total_ms;
  }
  // The unknown hardware-queue effect past 16 streams.
  double UnknownMs(int n) const { return n > 16 ? unknown_ms_ * (n - 16) : 0.0; }
  // The host's issue time: fixed + s n where batches report it, else the model's T4 (s + s n).
  // Plus the inline copies' part where the card has them.
  double IssueMs(int n, std::int64_t items) const {
    const double fixed = issue_fixed_ms_ > 0.0 ? issue_fixed_ms_ : truth_.sub_chunk_cost_ms;
    if (!(truth_.sub_chunk_cost_ms > 0.0)) return 0.0;
    return fixed + truth_.sub_chunk_cost_ms * n +
           InlineCopyIssueMs(truth_, h2d_bytes_ * static_cast<double>(items) / 1e6, items, n);
  }
  DeviceTraits truth_;
  double issue_fixed_ms_ = 0.0;  // 0: batches report no issue time
  double h2d_bytes_ = 0.0;       // bytes in per 1e6 items (0: batches report none)
  double device_scale_ = 1.0;
  double streamed_scale_ = 1.0;
  bool periods_ = false;
  int slow_measures_ = 0;
  double slow_scale_ = 1.0;
  double unknown_ms_ = 0.004;
  std::mt19937_64 rng_;
  std::normal_distribution<double> noise_;
};

DeviceTraits Believed() {
  DeviceTraits t = DeviceTraits::H100Anchors();
  t.stream_overhead_ms = 0.0005;  // wrong by 8x
  return t;
}

AdaptiveOptions Options() {
  AdaptiveOptions o;
  o.candidates.max_streams = 128;
  o.candidates.powers_of_two = true;
  return o;
}

StreamController Make(AdaptiveOptions o = Options()) {
  return StreamController(MakeModel(ModelKind::kCurrent), Believed(), o);
}

constexpr Workload2 kTransferBound{1.23, 0.064, 1.22};   // the anchors' iters = 1 row
constexpr Workload2 kKernelHeavy{1.23, 1.82, 1.22};      // iters = 3000
constexpr std::int64_t kItems = 1'000'000;

TEST(StreamControllerTest, WarmsUpMeasuresThenStreams) {
  StreamController c = Make();
  SimulatedCard card(1);
  BatchPlan p = c.Plan(kItems);
  EXPECT_EQ(p.kind, PlanKind::kWarmup);
  ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kItems)).ok());
  // The kernel's halves first, then the measurement, which derives.
  p = c.Plan(kItems);
  EXPECT_EQ(p.kind, PlanKind::kMeasureHalves);
  EXPECT_EQ(p.streams, 1);
  ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kItems)).ok());
  EXPECT_EQ(c.events().size(), 0u);
  p = c.Plan(kItems);
  EXPECT_EQ(p.kind, PlanKind::kMeasure);
  EXPECT_EQ(p.streams, 1);
  ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kItems)).ok());
  ASSERT_EQ(c.events().size(), 1u);
  EXPECT_EQ(c.events()[0].kind, EventKind::kInitial);
  p = c.Plan(kItems);
  EXPECT_EQ(p.kind, PlanKind::kStreamed);
  EXPECT_GT(p.streams, 1);
  EXPECT_GT(p.predicted_ms, 0.0);
}

// Runs `batches` batches of a fixed workload; returns total simulated time.
double Drive(StreamController& c, SimulatedCard& card, const Workload2& w, int batches,
             int* drift_events = nullptr) {
  double total = 0.0;
  for (int i = 0; i < batches; ++i) {
    const BatchPlan p = c.Plan(kItems);
    const BatchObservation o = card.Run(p, w, kItems);
    total += o.measured_ms;
    EXPECT_TRUE(c.Observe(p, o).ok());
  }
  if (drift_events) {
    *drift_events = 0;
    for (const RederivationEvent& e : c.events()) *drift_events += e.kind == EventKind::kDrift;
  }
  return total;
}

TEST(StreamControllerTest, StationaryNoiseNoRederivationIn10000BatchesAndNearBestThroughput) {
  for (const Workload2& w : {kTransferBound, kKernelHeavy}) {
    StreamController c = Make();
    SimulatedCard card(3);
    int drifts = 0;
    const double total = Drive(c, card, w, 10000, &drifts);
    EXPECT_EQ(drifts, 0);
    // Exploration stays within its budget (5 %, plus the initial burst).
    EXPECT_LE(c.explorations(), 0.05 * 10000 + Options().exploration.burst + 1);
    // Converged to an n whose true time is within the switch margin (1 %) of the best fixed n
    // (with 2 % noise, closer neighbours are indistinguishable), and throughput near it.
    const std::vector<int> cands = {1, 2, 4, 8, 16, 32, 64, 128};
    const int best = card.BestN(w, cands, kItems);
    EXPECT_LE(card.Exact(w, c.streams(), kItems) / card.Exact(w, best, kItems), 1.01)
        << "kernel " << w.kernel_ms << ": chose " << c.streams() << ", best " << best;
    const double ideal = 10000 * card.Exact(w, best, kItems);
    EXPECT_GT(ideal / total, 0.98) << "kernel " << w.kernel_ms;
  }
}

TEST(StreamControllerTest, OnlineCalibrationMovesTheOverheadTowardTheTruth) {
  StreamController c = Make();
  SimulatedCard card(5);
  Drive(c, card, kTransferBound, 600);
  // Believed 0.5 us; the truth is 4 us plus the unknown effect past 16 streams: the fit lands
  // well above the prior.
  EXPECT_GT(c.stream_overhead_ms(), 0.002);
  EXPECT_LT(c.stream_overhead_ms(), 0.02);
}

// Drives `c` on kTransferBound with a burst: the streamed batches at n >= 2 (not the
// exploration visits) of batches [from, to) take 3x as long (a shared machine; run 24's sweep).
// `after(i, events_before)` runs after each observation.
template <typename After>
void DriveThroughABurst(StreamController& c, SimulatedCard& card, int batches, int from, int to,
                        After after) {
  for (int i = 0; i < batches; ++i) {
    const BatchPlan p = c.Plan(kItems);
    BatchObservation o = card.Run(p, kTransferBound, kItems);
    if (i >= from && i < to && p.kind == PlanKind::kStreamed && p.streams >= 2) {
      o.measured_ms *= 3.0;
    }
    const std::size_t events_before = c.events().size();
    ASSERT_TRUE(c.Observe(p, o).ok());
    after(i, events_before);
  }
}

// A burst makes every batch at the chosen n (not the exploration visits) 3x slower for 300
// batches (a shared machine; run 24's sweep), so n* looks slow against its neighbours; with the
// old bound (10x the last fit) c reached 242 ms here. The re-fits push c up, but only to a
// fixed bound, not 10x further on each fit, and once the burst is over the controller returns
// to streaming.
TEST(StreamControllerTest, TheFittedOverheadStaysBoundedThroughABurst) {
  StreamController c = Make();
  SimulatedCard card(11);
  double c_max = 0.0;
  DriveThroughABurst(c, card, 2300, 200, 500, [&](int, std::size_t) {
    c_max = std::max(c_max, c.stream_overhead_ms());
  });
  EXPECT_LE(c_max, 0.05 + 1e-12);  // max(10 x the believed 0.5 us, 50 us)
  EXPECT_GT(c_max, 0.004);         // the burst did move it
  const std::vector<int> cands = {1, 2, 4, 8, 16, 32, 64, 128};
  const int best = card.BestN(kTransferBound, cands, kItems);
  EXPECT_LE(card.Exact(kTransferBound, c.streams(), kItems) /
                card.Exact(kTransferBound, best, kItems),
            1.02)
      << "chose " << c.streams() << ", best " << best;
}

// A burst that only the batches at n* see makes ratios no c explains: the best fit lands at the
// bound. Such a fit is rejected (the one before it stands), so c never sits at the bound, and
// the prediction far from n* after a drift derivation does not carry the burst (run 44: a c at
// the bound carried into a late re-derivation, +423 % at n = 128; run 49: one slow visit put c
// at the bound within a derivation, 7x at n = 128). Without the rule c reaches the bound here
// and keeps it after the burst. (Since neighbours that win are confirmed within a few batches,
// n* walks away from the burst, one neighbour at a time, rather than waiting for the drift
// detector; the residuals of the samples taken in the burst still bias P(128) after it, which
// this test does not judge.)
TEST(StreamControllerTest, AFitAtItsBoundIsRejected) {
  StreamController c = Make();
  SimulatedCard card(11);
  double c_max = 0.0;
  int drift_derivations = 0;
  DriveThroughABurst(c, card, 3000, 200, 1200, [&](int i, std::size_t events_before) {
    c_max = std::max(c_max, c.stream_overhead_ms());
    if (c.events().size() == events_before || c.events().back().kind != EventKind::kDrift) return;
    ++drift_derivations;
    const double far = c.PredictMs(128, kItems) / card.Exact(kTransferBound, 128, kItems);
    EXPECT_LT(far, 2.0) << "batch " << i << ": P(128) / truth, c " << c.stream_overhead_ms();
  });
  EXPECT_GE(drift_derivations, 1) << "the burst must cause a drift derivation, whose "
                                     "prediction far from n* is checked";
  EXPECT_LT(c_max, 0.05 * (1.0 - 1e-6)) << "c reached the bound";
  EXPECT_GT(c_max, 0.004);  // the burst still moved it
  // After the burst: back near the truth (4 us, and the unknown effect past 16 streams).
  EXPECT_GT(c.stream_overhead_ms(), 0.002);
  EXPECT_LT(c.stream_overhead_ms(), 0.02);
}

// adaptive.breadth_first_issue_share: the first choice for a kernel-bound batch issued
// breadth-first (the model's T5) is 16-32, where the model without it takes 128, the n whose
// three-batch visits a slow stretch then held (run 264, docs/evidence/session47/).
TEST(StreamControllerTest, TheBreadthFirstIssueShareMovesTheFirstChoice) {
  DeviceTraits traits = Believed();
  traits.sub_chunk_cost_ms = 0.0081;
  constexpr Workload2 kKernelBound{1.22, 3.33, 1.22};
  auto first_choice = [&](double share) {
    AdaptiveOptions o = Options();
    o.breadth_first_issue_share = share;
    StreamController c(MakeModel(ModelKind::kCurrent), traits, o);
    SimulatedCard card(5);
    for (int i = 0; i < 10 && c.events().empty(); ++i) {
      const BatchPlan p = c.Plan(kItems);
      EXPECT_TRUE(c.Observe(p, card.Run(p, kKernelBound, kItems)).ok());
    }
    return c.events().empty() ? 0 : c.events()[0].new_streams;
  };
  EXPECT_EQ(first_choice(0.0), 128);
  const int delayed = first_choice(1.0 / 3);
  EXPECT_GE(delayed, 16);
  EXPECT_LE(delayed, 32);
  AdaptiveOptions bad = Options();
  bad.breadth_first_issue_share = 1.5;
  absl::Status v = ValidateAdaptiveOptions(bad);
  EXPECT_FALSE(v.ok());
  EXPECT_NE(v.message().find("breadth_first_issue_share"), std::string::npos) << v;
}

// ForIssueOrder: the share is breadth-first order's alone; a bad value is kept, for
// ValidateAdaptiveOptions to refuse in any order (the pipeline and the replay tools apply it).
TEST(StreamControllerTest, TheBreadthFirstIssueShareIsBreadthFirstOrdersAlone) {
  AdaptiveOptions o = Options();
  o.breadth_first_issue_share = 0.25;
  EXPECT_EQ(ForIssueOrder(o, /*breadth_first=*/true).breadth_first_issue_share, 0.25);
  EXPECT_EQ(ForIssueOrder(o, /*breadth_first=*/false).breadth_first_issue_share, 0.0);
  for (double bad : {1.5, -0.1}) {
    o.breadth_first_issue_share = bad;
    EXPECT_EQ(ForIssueOrder(o, false).breadth_first_issue_share, bad);
    EXPECT_FALSE(ValidateAdaptiveOptions(ForIssueOrder(o, false)).ok()) << bad;
  }
  o.breadth_first_issue_share = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(ValidateAdaptiveOptions(ForIssueOrder(o, false)).ok());
}

TEST(StreamControllerTest, StepChangeIsFollowed) {
  StreamController c = Make();
  SimulatedCard card(9);
  Drive(c, card, kTransferBound, 300);
  const int before = c.streams();
  const std::size_t events_before = c.events().size();
  // The kernel becomes 28x heavier (scene cut, content change): the controller plans a
  // re-measurement within 3 slower batches.
  int detected_after = -1;
  for (int i = 1; i <= 20 && detected_after < 0; ++i) {
    const BatchPlan p = c.Plan(kItems);
    // The re-measurement's first batch (its kernel halves); slower batches seen before it.
    if (p.kind == PlanKind::kMeasureHalves) detected_after = i - 1;
    ASSERT_TRUE(c.Observe(p, card.Run(p, kKernelHeavy, kItems)).ok());
  }
  ASSERT_GT(detected_after, 0);
  EXPECT_LE(detected_after, 3);
  Drive(c, card, kKernelHeavy, 300);
  ASSERT_GT(c.events().size(), events_before);
  EXPECT_EQ(c.events()[events_before].kind, EventKind::kDrift);
  EXPECT_NE(c.events()[events_before].reason.find("slower"), std::string::npos);
  EXPECT_EQ(c.events()[events_before].old_streams, before);
  const std::vector<int> cands = {1, 2, 4, 8, 16, 32, 64, 128};
  const int best = card.BestN(kKernelHeavy, cands, kItems);
  EXPECT_LE(card.Exact(kKernelHeavy, c.streams(), kItems) / card.Exact(kKernelHeavy, best, kItems),
            1.01)
      << "chose " << c.streams() << ", best " << best;
}

TEST(StreamControllerTest, ShortBatchesDoNotLookLikeDrift) {
  StreamController c = Make();
  SimulatedCard card(13);
  Drive(c, card, kTransferBound, 100);
  const std::size_t events = c.events().size();
  for (int i = 0; i < 200; ++i) {
    const std::int64_t items = i % 7 == 6 ? kItems / 3 : kItems;  // a short batch now and then
    const BatchPlan p = c.Plan(items);
    ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, items)).ok());
  }
  for (std::size_t i = events; i < c.events().size(); ++i) {
    EXPECT_NE(c.events()[i].kind, EventKind::kDrift) << c.events()[i].reason;
  }
}

TEST(StreamControllerTest, NoExplorationWithoutBudget) {
  AdaptiveOptions o = Options();
  o.exploration.enabled = false;
  StreamController c = Make(o);
  SimulatedCard card(17);
  Drive(c, card, kTransferBound, 500);
  EXPECT_EQ(c.explorations(), 0);
}

// Continuous mode plans batches ahead of their observations (three in flight here): still one
// warm-up, one measurement and one event, and samples planned before a re-derivation are not
// mixed into the new one.
TEST(StreamControllerTest, PlansMadeAheadOfObservationsDoNotRepeatMeasurements) {
  AdaptiveOptions o = Options();
  o.check_anchor = false;
  StreamController c = Make(o);
  SimulatedCard card(23);
  std::deque<BatchPlan> in_flight;
  int warmups = 0, measures = 0;
  for (int i = 0; i < 300; ++i) {
    while (in_flight.size() < 3) {
      in_flight.push_back(c.Plan(kItems));
      warmups += in_flight.back().kind == PlanKind::kWarmup;
      measures += in_flight.back().kind == PlanKind::kMeasure;
    }
    const BatchPlan p = in_flight.front();
    in_flight.pop_front();
    ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kItems)).ok());
  }
  EXPECT_EQ(warmups, 1);
  EXPECT_EQ(measures, 1);  // the check (off here): TheAnchorCheckIsPlannedOnlyWhereItCanMove...
  int initial = 0;
  for (const RederivationEvent& e : c.events()) initial += e.kind == EventKind::kInitial;
  EXPECT_EQ(initial, 1);
  EXPECT_GT(c.streams(), 1);
  // A re-measurement requested with batches in flight happens once.
  c.RequestRemeasure("test");
  c.RequestRemeasure("test again");
  measures = 0;
  for (int i = 0; i < 50; ++i) {
    in_flight.push_back(c.Plan(kItems));
    measures += in_flight.back().kind == PlanKind::kMeasure;
    const BatchPlan p = in_flight.front();
    in_flight.pop_front();
    ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kItems)).ok());
  }
  EXPECT_EQ(measures, 1);
}

// Continuous mode: a neighbour is visited for `run` consecutive batches; the first ones share
// the GPU with batches of the old n and come unsettled. Here they are given absurdly short
// times: were they sampled, the controller would switch to every neighbour it visits.
TEST(StreamControllerTest, ExplorationVisitsAreRunsAndUnsettledBatchesAreNotSampled) {
  AdaptiveOptions o = Options();
  o.exploration.run = 5;
  StreamController c = Make(o);
  SimulatedCard card(29);
  constexpr int kDepth = 3;
  int prev_n = -1, run = 0, explored = 0, batches = 0;
  struct Visit {
    int n, length, end;  // end: the batch after it
  };
  std::vector<Visit> visits;
  int visit = 0, visit_n = 0;
  for (int i = 0; i < 4000; ++i) {
    const BatchPlan p = c.Plan(kItems);
    BatchObservation obs = card.Run(p, kTransferBound, kItems);
    run = p.streams == prev_n ? run + 1 : 1;
    prev_n = p.streams;
    if (p.kind == PlanKind::kExplore || p.kind == PlanKind::kStreamed) {
      ++batches;
      obs.settled = run > kDepth;
      if (!obs.settled) obs.measured_ms = 0.01;
    }
    if (p.kind == PlanKind::kExplore) {
      ++explored;
      ++visit;
      visit_n = p.streams;
    } else if (visit > 0) {
      visits.push_back({visit_n, visit, i});
      visit = 0;
    }
    ASSERT_TRUE(c.Observe(p, obs).ok());
  }
  ASSERT_FALSE(visits.empty());
  // A visit is cut short only when its neighbour wins: it becomes n*, or it won once and the
  // confirming visit follows on fresh samples (5 settled batches at n*, each after kDepth
  // unsettled ones: the next visit of the same n within 20 batches).
  for (std::size_t i = 0; i < visits.size(); ++i) {
    const Visit& v = visits[i];
    EXPECT_LE(v.length, 5);
    EXPECT_GT(v.length, kDepth);  // at least one settled sample before any decision
    if (v.length == 5) continue;
    bool switched = false;
    for (const RederivationEvent& e : c.events()) {
      switched = switched || (e.kind == EventKind::kExploration && e.new_streams == v.n);
    }
    const bool confirmed = i + 1 < visits.size() && visits[i + 1].n == v.n &&
                           visits[i + 1].end - visits[i + 1].length - v.end <= 20;
    EXPECT_TRUE(switched || confirmed)
        << "visit " << i << " of n = " << v.n << " cut to " << v.length << " batches for nothing";
  }
  for (const RederivationEvent& e : c.events()) {
    // Switches happen between near-equal neighbours, on real times (~1.5 ms), never on 0.01.
    EXPECT_GT(e.measured_ms, 1.0) << EventKindName(e.kind) << ": " << e.reason;
  }
  const int best = card.BestN(kTransferBound, {1, 2, 4, 8, 16, 32, 64, 128}, kItems);
  EXPECT_LE(card.Exact(kTransferBound, c.streams(), kItems),
            1.02 * card.Exact(kTransferBound, best, kItems));
  // The budget holds on average: 5 % of the batches, plus the first visit's burst.
  EXPECT_LE(explored, 0.05 * batches + 5);
  EXPECT_GE(explored, 0.02 * batches);
}

// What a batch of plan `p` observes on a card whose measured components are transfer-bound
// (the model picks n > 1) but whose streamed batches take `streamed_ms` (the tests' truth).
BatchObservation TransferBoundBatch(const BatchPlan& p, double streamed_ms) {
  BatchObservation obs;
  obs.items = kItems;
  if (RunsNonStreamed(p.kind)) {
    obs.components = {1.0, 0.05, 0.01};
    obs.measured_ms = obs.components.total_ms();
    if (p.kind == PlanKind::kMeasureHalves) obs.components.kernel_half_ms = 0.025;
  } else {
    obs.measured_ms = streamed_ms;
  }
  return obs;
}

// Two n that take the same time (copy-bound batches in continuous mode): with 4 % noise and a
// 1 % margin, comparing medians alone swaps n* back and forth; the noise test mostly keeps it.
TEST(StreamControllerTest, EqualNeighboursDoNotSwapOnNoise) {
  AdaptiveOptions o = Options();
  o.exploration.revisit_batches = 50;  // many comparisons
  StreamController c = Make(o);
  std::mt19937_64 rng(31);
  std::normal_distribution<double> noise(0.0, 0.04);
  int explored = 0;
  for (int i = 0; i < 5000; ++i) {
    const BatchPlan p = c.Plan(kItems);
    // Every n takes 1 ms.
    const BatchObservation obs = TransferBoundBatch(p, 1.0 * std::exp(noise(rng)));
    explored += p.kind == PlanKind::kExplore;
    ASSERT_TRUE(c.Observe(p, obs).ok());
  }
  int switches = 0;
  for (const RederivationEvent& e : c.events()) switches += e.kind == EventKind::kExploration;
  EXPECT_GT(explored, 50);  // the neighbours were compared many times
  // Medians alone swap 47 times here (in ~100 comparisons); the noise test 3 times, and 1 time
  // since the test is sequential (over 20 seeds a reviewer counted 9 against 3: more looks).
  EXPECT_LE(switches, 6) << "n* swapped " << switches << " times between equal neighbours in "
                         << explored << " explored batches";
}

// The same with the lower median (an n's time from its samples, session 17): of a visit's two
// samples it takes the faster, 0.56 sigma low under symmetric noise, against 0.15 sigma for
// the lower median of n*'s eight. Compared as they are, equal neighbours switched about 4x as
// often as with the median (43 against 11 in 40 runs of 2000 batches at 2 % noise; 21 in these
// 20); n*'s time taken by the same estimator over as many samples (TimeLike) leaves 19 (9).
TEST(StreamControllerTest, TheLowerMedianDoesNotFavourAVisitOverNStar) {
  int switches = 0;
  for (int seed = 0; seed < 20; ++seed) {
    AdaptiveOptions o = Options();
    o.exploration.revisit_batches = 50;  // many comparisons
    StreamController c = Make(o);
    std::mt19937_64 rng(1000 + seed);
    std::normal_distribution<double> noise(0.0, 0.02);
    for (int i = 0; i < 2000; ++i) {
      const BatchPlan p = c.Plan(kItems);
      ASSERT_TRUE(c.Observe(p, TransferBoundBatch(p, std::exp(noise(rng)))).ok());
    }
    for (const RederivationEvent& e : c.events()) switches += e.kind == EventKind::kExploration;
  }
  EXPECT_LE(switches, 14) << "equal neighbours swapped " << switches << " times in 20 runs";
}

// Continuous mode whose host falls behind: the pipeline switches the controller from periods to
// latencies. It re-derives from the last measurement (no new one), says why, and plans made
// before the switch become stale.
TEST(StreamControllerTest, SwitchingToLatenciesRederivesWithoutMeasuring) {
  AdaptiveOptions o = Options();
  o.steady_state = true;
  StreamController c = Make(o);
  SimulatedCard card(37);
  Drive(c, card, kTransferBound, 30);
  const int old_n = c.streams();
  EXPECT_LE(old_n, 2);  // periods of copy-bound batches: streams only add overhead
  const std::size_t events = c.events().size();
  const BatchPlan before = c.Plan(kItems);
  c.SetSteadyState(false, "the host fell behind");
  ASSERT_EQ(c.events().size(), events + 1);
  const RederivationEvent& e = c.events().back();
  EXPECT_EQ(e.kind, EventKind::kDrift);
  EXPECT_EQ(e.reason, "the host fell behind");
  EXPECT_EQ(e.old_streams, old_n);
  EXPECT_GE(c.streams(), 8);  // a lone batch's latency falls with streams (16 on the anchors)
  const BatchPlan after = c.Plan(kItems);
  EXPECT_EQ(after.kind, PlanKind::kStreamed);  // no measurement
  EXPECT_NE(after.generation, before.generation);
  c.SetSteadyState(false, "again");  // no change, no event
  EXPECT_EQ(c.events().size(), events + 1);
  // A switch while a re-measurement is pending waits for it instead.
  const int latency_n = c.streams();
  c.RequestRemeasure("test");
  c.SetSteadyState(true, "overlap again");
  EXPECT_EQ(c.events().size(), events + 1);
  const BatchPlan h = c.Plan(kItems);
  ASSERT_EQ(h.kind, PlanKind::kMeasureHalves);
  const BatchPlan m = c.Plan(kItems);
  ASSERT_EQ(m.kind, PlanKind::kMeasure);
  // Its re-measurement shows the same workload, but the n chosen for latencies is not kept: the
  // derivation is the model's, for periods again.
  ASSERT_TRUE(c.Observe(h, card.Run(h, kTransferBound, kItems)).ok());
  ASSERT_TRUE(c.Observe(m, card.Run(m, kTransferBound, kItems)).ok());
  ASSERT_EQ(c.events().size(), events + 2);
  EXPECT_FALSE(c.events().back().n_kept) << c.events().back().reason;
  EXPECT_EQ(c.events().back().old_streams, latency_n);
  EXPECT_LE(c.streams(), 2);
}

// A neighbour replaces n* only when it wins on `confirmations` (2) visits in a row: a burst of
// noise (or of machine speed) during one visit is not enough, a neighbour that is faster is.
TEST(StreamControllerTest, ANeighbourMustWinOnTwoVisits) {
  for (const bool really_faster : {false, true}) {
    StreamController c = Make();
    std::mt19937_64 rng(41);
    std::normal_distribution<double> noise(0.0, 0.01);
    std::map<int, int> visits;
    BatchPlan prev;
    int visits_before_switch = -1;
    for (int i = 0; i < 3000 && visits_before_switch < 0; ++i) {
      const BatchPlan p = c.Plan(kItems);
      bool fast = false;
      if (p.kind == PlanKind::kExplore) {
        if (prev.kind != PlanKind::kExplore || prev.streams != p.streams) ++visits[p.streams];
        fast = really_faster || visits[p.streams] == 1;
      }
      const BatchObservation obs = TransferBoundBatch(p, (fast ? 0.8 : 1.0) * std::exp(noise(rng)));
      ASSERT_TRUE(c.Observe(p, obs).ok());
      for (const RederivationEvent& e : c.events()) {
        if (e.kind == EventKind::kExploration) visits_before_switch = visits[e.new_streams];
      }
      prev = p;
    }
    if (really_faster) {
      EXPECT_EQ(visits_before_switch, 2) << "a faster neighbour is taken on its second visit";
    } else {
      EXPECT_EQ(visits_before_switch, -1) << "one lucky visit made a neighbour n*";
      int revisited = 0;
      for (const auto& [n, v] : visits) revisited += v >= 2;
      EXPECT_GE(revisited, 1) << "the first win must be checked on a later visit";
    }
  }
}

// A card whose neighbour below the model's first choice is faster: `below` times its time;
// above it, 5 % slower per doubling. Records that first choice (n* of the initial derivation)
// in `first_n` at the first streamed plan.
double BelowIsFaster(const BatchPlan& p, const StreamController& c, double below, int* first_n) {
  if (*first_n == 0 && !RunsNonStreamed(p.kind)) {
    *first_n = c.streams();
  }
  return *first_n == 0 || p.streams < *first_n
             ? below
             : 1.0 + 0.05 * std::log2(static_cast<double>(p.streams) / *first_n);
}

// The batch of the first exploration event of `c`, if it happened at batch i and none before.
void NoteSwitch(const StreamController& c, int i, int* switched) {
  for (const RederivationEvent& e : c.events()) {
    if (e.kind == EventKind::kExploration && *switched < 0) *switched = i;
  }
}

// The confirming visit comes a few batches after the first win, not when the budget has
// refilled (3 tokens at 5 % a batch: 40-60 batches later). Run 45's 1.5 MiB histogram: the
// model chose n = 2, n = 1 measured 8 % faster on its visit, and 150 batches later the
// pipeline was still at n = 2 (0.875 of the best). Outside the budget: with a budget of 0 and
// tokens for the two neighbours' first visits only, the win is still confirmed.
TEST(StreamControllerTest, AWinIsConfirmedSoonAndOutsideTheBudget) {
  for (const bool empty_bucket : {false, true}) {
    AdaptiveOptions o = Options();
    if (empty_bucket) {
      o.exploration.budget = 0.0;
      o.exploration.burst = 4;  // two visits of 2 batches, then nothing
    }
    StreamController c = Make(o);
    std::mt19937_64 rng(43);
    std::normal_distribution<double> noise(0.0, 0.01);
    int first_n = 0;              // n* of the initial derivation
    int first_visit = -1;         // batch of the first visit of the faster neighbour
    int switched = -1;            // batch of the switch
    int explored = 0, explored_before_first = 0;
    for (int i = 0; i < 400 && switched < 0; ++i) {
      const BatchPlan p = c.Plan(kItems);
      const double t = BelowIsFaster(p, c, 0.92, &first_n);
      const BatchObservation obs = TransferBoundBatch(p, t * std::exp(noise(rng)));
      if (p.kind == PlanKind::kExplore) {
        ++explored;
        if (first_visit < 0 && p.streams < first_n) {
          first_visit = i;
          explored_before_first = explored - 1;
        }
      }
      ASSERT_TRUE(c.Observe(p, obs).ok());
      NoteSwitch(c, i, &switched);
    }
    ASSERT_GT(first_n, 1) << "the model must choose n > 1 for this test";
    ASSERT_GE(first_visit, 0) << "the faster neighbour was never visited";
    ASSERT_GE(switched, 0) << "empty bucket " << empty_bucket
                           << ": the faster neighbour never replaced n* = " << first_n;
    EXPECT_LT(c.streams(), first_n);
    // Two visits of 2 batches and 6 batches at n* between them.
    EXPECT_LE(switched - first_visit, 12) << "first visit at batch " << first_visit
                                          << ", switch at batch " << switched;
    // Between the first visit and the switch: the confirming visit only.
    EXPECT_EQ(explored - explored_before_first, 4);
  }
}

// A neighbour 4 % faster under 2 % noise: two samples cannot tell (three standard errors are
// 4.7 %), so a single visit left n* where it was until the next revisit (500 batches). The
// comparison goes on over more visits, up to 8 samples, and the faster neighbour wins within
// the sweep's adaptive run of 150 batches (run 55: matmul 2 MiB, n = 4 4 % faster than n* = 8
// on its visit). The later visits are not paid from the budget (it measured faster, so they
// are expected to gain): with a budget of 0 and tokens for the two neighbours' first visits
// only, it still wins (paid, 40-60 batches apart, run 64's 6.2 MiB histogram stayed undecided
// through 150 batches).
TEST(StreamControllerTest, ANeighbourFasterWithinTheNoiseIsSampledUntilDecided) {
  for (const bool empty_bucket : {false, true}) {
    int won = 0;
    constexpr int kSeeds = 20;
    for (int seed = 0; seed < kSeeds; ++seed) {
      AdaptiveOptions o = Options();
      if (empty_bucket) {
        o.exploration.budget = 0.0;
        o.exploration.burst = 4;  // two visits of 2 batches, then nothing
      }
      StreamController c = Make(o);
      std::mt19937_64 rng(47 + seed);
      std::normal_distribution<double> noise(0.0, 0.02);
      int first_n = 0;
      int switched = -1;
      for (int i = 0; i < 150 && switched < 0; ++i) {
        const BatchPlan p = c.Plan(kItems);
        const double t = BelowIsFaster(p, c, 0.96, &first_n);
        ASSERT_TRUE(c.Observe(p, TransferBoundBatch(p, t * std::exp(noise(rng)))).ok());
        NoteSwitch(c, i, &switched);
      }
      ASSERT_GT(first_n, 1);
      won += switched >= 0 && c.streams() < first_n;
    }
    // 16 and 16 of 20 win (15 and 14 before a time was taken as the lower median of its
    // samples; each of the rest lost its first visit to the noise outright and waits for the
    // revisit); paid from the budget, 7 of 20 with the empty bucket.
    EXPECT_GE(won, 12) << "empty bucket " << empty_bucket << ": the 4 % faster neighbour won in "
                       << won << " of " << kSeeds << " runs of 150 batches";
  }
}

// Of a visit's two samples, the second is slowed 17 % (run 97: a quarter of the tiny batches
// at n = 1 took 1.17x, the rest within 2 %). The median of two is their mean, 8.5 % over the
// neighbour's time: a neighbour 8 % faster looked as fast as n*, and the comparison ended
// until the revisit 500 batches later (runs 84-95: the tiny matmul and histograms stayed at
// n = 2 where n = 1 was best in most sweeps, 0.835-0.96 of the best). The lower median of
// two is the faster sample: the faster neighbour wins, a slower one does not, and the
// prediction at the neighbour is its time, not 8.5 % over it.
TEST(StreamControllerTest, ASlowedSampleOfAVisitDoesNotHideAFasterNeighbour) {
  for (const double below : {0.92, 1.05}) {
    StreamController c = Make();
    std::mt19937_64 rng(53);
    std::normal_distribution<double> noise(0.0, 0.01);
    int first_n = 0;
    int switched = -1;
    BatchPlan prev;
    int in_visit = 0;  // the batch's place in its visit (of two, each a sample here)
    for (int i = 0; i < 400 && switched < 0; ++i) {
      const BatchPlan p = c.Plan(kItems);
      const bool same_visit = prev.kind == PlanKind::kExplore && prev.streams == p.streams;
      in_visit = p.kind == PlanKind::kExplore ? (same_visit ? in_visit + 1 : 0) : 0;
      const double slowed = p.kind == PlanKind::kExplore && in_visit == 1 ? 1.17 : 1.0;
      const double t = BelowIsFaster(p, c, below, &first_n) * slowed * std::exp(noise(rng));
      ASSERT_TRUE(c.Observe(p, TransferBoundBatch(p, t)).ok());
      NoteSwitch(c, i, &switched);
      prev = p;
    }
    ASSERT_GT(first_n, 1) << "the model must choose n > 1 for this test";
    if (below < 1.0) {
      ASSERT_GE(switched, 0) << "the neighbour " << below << "x as fast never replaced n* = "
                             << first_n;
      EXPECT_EQ(c.streams(), first_n / 2);
    } else {
      EXPECT_EQ(switched, -1) << "a neighbour " << below << "x as slow replaced n*";
      EXPECT_EQ(c.streams(), first_n);
      // Its prediction is its time (1.05 x n*'s), not the mean with the slowed sample (1.14).
      const double ratio = c.PredictMs(first_n / 2, kItems) / c.PredictMs(first_n, kItems);
      EXPECT_NEAR(ratio, below, 0.03);
    }
  }
}

// The measurement's halves batch: planned before its kMeasure batches, its kernel's half in
// the reference (per item of the reference), carried as a share of the kernel to measurements
// without one, and off with the option. On the 1.5 MiB histogram of run 136 (whose kernel takes
// as long for half the frames, docs/evidence/run139/shapes.txt) the half moves the choice from
// n = 2 to n = 1, which run 136 measured 1-8 % faster.
TEST(StreamControllerTest, TheKernelsHalfReachesTheModelAndCarriesOver) {
  const DeviceTraits traits = testing::Run117Traits();  // the profile of run 136
  constexpr std::int64_t kFrames = 64;
  const ComponentTimes hist{.h2d_ms = 0.034576, .kernel_ms = 0.012256, .d2h_ms = 0.009856};
  auto measured = [&](std::int64_t items, double half_share) {
    const double s = static_cast<double>(items) / kFrames;
    BatchObservation o;
    o.items = items;
    o.components = {hist.h2d_ms * s, hist.kernel_ms * s, hist.d2h_ms * s,
                    half_share * hist.kernel_ms * s};
    o.measured_ms = o.components.total_ms();
    o.h2d_bytes = 1622016.0 * s;
    o.d2h_bytes = 65536.0 * s;
    return o;
  };
  for (const bool halves : {true, false}) {
    SCOPED_TRACE(halves ? "with the halves batch" : "without");
    AdaptiveOptions o = Options();
    o.measure_kernel_halves = halves;
    StreamController c(MakeModel(ModelKind::kCurrent), traits, o);
    BatchPlan p = c.Plan(kFrames);
    ASSERT_EQ(p.kind, PlanKind::kWarmup);
    ASSERT_TRUE(c.Observe(p, measured(kFrames, 0.0)).ok());
    if (halves) {
      p = c.Plan(kFrames);
      ASSERT_EQ(p.kind, PlanKind::kMeasureHalves);
      // Measured on a batch of 32 frames (its half as long as its whole kernel, which is half
      // the reference's): scaled per frame, the reference's kernel.
      ASSERT_TRUE(c.Observe(p, measured(32, 1.0)).ok());
      EXPECT_TRUE(c.events().empty());
    }
    p = c.Plan(kFrames);
    ASSERT_EQ(p.kind, PlanKind::kMeasure);
    ASSERT_TRUE(c.Observe(p, measured(kFrames, 0.0)).ok());
    ASSERT_EQ(c.events().size(), 1u);
    ASSERT_TRUE(c.reference().has_value());
    EXPECT_NEAR(c.reference()->components.kernel_half_ms, halves ? hist.kernel_ms : 0.0, 1e-15);
    // Half the frames take as long as all: the fixed part is the whole kernel, and n = 1 is
    // chosen.
    EXPECT_EQ(c.streams(), halves ? 1 : 2);
    EXPECT_EQ(c.Plan(kFrames).kind, PlanKind::kStreamed);

    // A measurement the caller asks for (no halves batch of its own): the share carries over.
    const BatchPlan asked{PlanKind::kMeasure, 1, 0.0, kNoGeneration};
    ASSERT_TRUE(c.Observe(asked, measured(kFrames / 2, 0.0)).ok());
    EXPECT_NEAR(c.reference()->components.kernel_half_ms, halves ? hist.kernel_ms / 2 : 0.0,
                1e-15);
    // A caller's halves batch is not the controller's: nothing changes.
    const BatchPlan asked_halves{PlanKind::kMeasureHalves, 1, 0.0, kNoGeneration};
    const std::size_t events = c.events().size();
    ASSERT_TRUE(c.Observe(asked_halves, measured(kFrames, 0.5)).ok());
    EXPECT_EQ(c.events().size(), events);
    EXPECT_NEAR(c.reference()->components.kernel_half_ms, halves ? hist.kernel_ms / 2 : 0.0,
                1e-15);
    if (!halves) continue;
    // A re-measurement whose halves batch reports none (a batch of one item cannot be
    // halved): the share carries over too.
    c.RequestRemeasure("test");
    p = c.Plan(kFrames);
    ASSERT_EQ(p.kind, PlanKind::kMeasureHalves);
    ASSERT_TRUE(c.Observe(p, measured(1, 0.0)).ok());
    p = c.Plan(kFrames);
    ASSERT_EQ(p.kind, PlanKind::kMeasure);
    ASSERT_TRUE(c.Observe(p, measured(kFrames, 0.0)).ok());
    EXPECT_NEAR(c.reference()->components.kernel_half_ms, hist.kernel_ms, 1e-15);
    EXPECT_EQ(c.streams(), 1);
  }
}

// Plans whose batches never ran (a launcher's error) are given back: a warm-up, the kernel's
// halves or the measured batch is planned again and the measurement completes; a streamed
// plan owes nothing, and a plan of an earlier derivation is ignored.
TEST(StreamControllerTest, AnAbandonedMeasurementBatchIsPlannedAgain) {
  StreamController c = Make();
  SimulatedCard card(5);
  for (const PlanKind kind :
       {PlanKind::kWarmup, PlanKind::kMeasureHalves, PlanKind::kMeasure}) {
    BatchPlan p = c.Plan(kItems);
    ASSERT_EQ(p.kind, kind);
    c.Abandon(p);
    p = c.Plan(kItems);
    ASSERT_EQ(p.kind, kind) << "planned again";
    ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kItems)).ok());
  }
  ASSERT_EQ(c.events().size(), 1u);
  EXPECT_EQ(c.events()[0].kind, EventKind::kInitial);
  BatchPlan p = c.Plan(kItems);
  ASSERT_EQ(p.kind, PlanKind::kStreamed);
  c.Abandon(p);
  EXPECT_EQ(c.Plan(kItems).kind, PlanKind::kStreamed);
  // A re-measurement: the halves plan of the generation before it is stale.
  const BatchPlan stale{PlanKind::kMeasureHalves, 1, 0.0, 0};
  c.RequestRemeasure("test");
  const BatchPlan halves = c.Plan(kItems);
  ASSERT_EQ(halves.kind, PlanKind::kMeasureHalves);
  ASSERT_NE(halves.generation, stale.generation);
  c.Abandon(stale);  // planned ahead of observations, before this derivation's halves ran
  p = c.Plan(kItems);
  EXPECT_EQ(p.kind, PlanKind::kMeasure) << "the stale plan changed nothing";
  ASSERT_TRUE(c.Observe(halves, card.Run(halves, kTransferBound, kItems)).ok());
  const std::size_t events = c.events().size();
  ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kItems)).ok());
  EXPECT_EQ(c.events().size(), events + 1);
}

// A measurement's batch that ran but could not be collected (an error that did not stop the
// pipeline) is given back after later plans were made, batches in flight: the measurement is
// planned again, and the derivation comes with its observation.
TEST(StreamControllerTest, AMeasurementGivenBackAfterLaterPlansIsPlannedAgain) {
  StreamController c = Make();
  SimulatedCard card(7);
  Drive(c, card, kTransferBound, 20);
  const std::size_t events = c.events().size();
  c.RequestRemeasure("test");
  const BatchPlan halves = c.Plan(kItems);
  ASSERT_EQ(halves.kind, PlanKind::kMeasureHalves);
  ASSERT_TRUE(c.Observe(halves, card.Run(halves, kTransferBound, kItems)).ok());
  const BatchPlan lost = c.Plan(kItems);
  ASSERT_EQ(lost.kind, PlanKind::kMeasure);
  // Planned while the measurement is out: the current n, owed nothing.
  const BatchPlan later = c.Plan(kItems);
  const BatchPlan later2 = c.Plan(kItems);
  ASSERT_EQ(later.kind, PlanKind::kStreamed);
  ASSERT_EQ(later2.kind, PlanKind::kStreamed);
  c.Abandon(lost);
  EXPECT_EQ(c.events().size(), events) << "nothing derived from a batch never observed";
  ASSERT_TRUE(c.Observe(later, card.Run(later, kTransferBound, kItems)).ok());
  const BatchPlan again = c.Plan(kItems);
  ASSERT_EQ(again.kind, PlanKind::kMeasure) << "the measurement is owed again";
  ASSERT_TRUE(c.Observe(later2, card.Run(later2, kTransferBound, kItems)).ok());
  EXPECT_EQ(c.events().size(), events);
  ASSERT_TRUE(c.Observe(again, card.Run(again, kTransferBound, kItems)).ok());
  ASSERT_EQ(c.events().size(), events + 1);
  EXPECT_EQ(c.events().back().kind, EventKind::kDrift);
  EXPECT_EQ(c.events().back().reason.rfind("test", 0), 0u) << c.events().back().reason;
  EXPECT_NE(c.Plan(kItems).kind, PlanKind::kMeasure);
}

// A measurement's batch planned before a caller's measurement derived (batches in flight) is
// stale when it comes back: it neither completes the next measurement with its old time nor
// derives again.
TEST(StreamControllerTest, AStaleMeasurementBatchIsIgnored) {
  StreamController c = Make();
  SimulatedCard card(6);
  Drive(c, card, kTransferBound, 20);
  c.RequestRemeasure("test");
  const BatchPlan old_halves = c.Plan(kItems);
  ASSERT_EQ(old_halves.kind, PlanKind::kMeasureHalves);
  const BatchPlan old_measure = c.Plan(kItems);
  ASSERT_EQ(old_measure.kind, PlanKind::kMeasure);
  // The caller measures (a batch of its own) and the controller derives from it.
  const BatchPlan asked{PlanKind::kMeasure, 1, 0.0, kNoGeneration};
  std::size_t events = c.events().size();
  ASSERT_TRUE(c.Observe(asked, card.Run(asked, kTransferBound, kItems)).ok());
  ASSERT_EQ(c.events().size(), ++events);
  // Then a new re-measurement; the old batches come back late, with times 5x the card's.
  c.RequestRemeasure("test again");
  const BatchPlan halves = c.Plan(kItems);
  ASSERT_EQ(halves.kind, PlanKind::kMeasureHalves);
  const BatchPlan measure = c.Plan(kItems);
  ASSERT_EQ(measure.kind, PlanKind::kMeasure);
  BatchObservation slow = card.Run(old_measure, kTransferBound, kItems);
  slow.components.h2d_ms *= 5.0;
  slow.measured_ms = slow.components.total_ms();
  ASSERT_TRUE(c.Observe(old_halves, card.Run(old_halves, kTransferBound, kItems)).ok());
  ASSERT_TRUE(c.Observe(old_measure, slow).ok());
  EXPECT_EQ(c.events().size(), events) << "stale: no derivation";
  ASSERT_TRUE(c.Observe(halves, card.Run(halves, kTransferBound, kItems)).ok());
  EXPECT_EQ(c.events().size(), events) << "the new measurement's own batch is still out";
  const BatchObservation fresh = card.Run(measure, kTransferBound, kItems);
  ASSERT_TRUE(c.Observe(measure, fresh).ok());
  ASSERT_EQ(c.events().size(), events + 1);
  EXPECT_DOUBLE_EQ(c.reference()->components.h2d_ms, fresh.components.h2d_ms);
}

TEST(StreamControllerTest, InvalidTimingsAreRejected) {
  StreamController c = Make();
  SimulatedCard card(19);
  Drive(c, card, kTransferBound, 20);
  const std::int64_t before = c.observations();
  const BatchPlan p = c.Plan(kItems);
  for (double bad : {std::numeric_limits<double>::quiet_NaN(), 0.0, -1.0,
                     std::numeric_limits<double>::infinity()}) {
    BatchObservation o;
    o.items = kItems;
    o.measured_ms = bad;
    absl::Status s = c.Observe(p, o);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << bad;
  }
  BatchObservation zero_items;
  zero_items.measured_ms = 1.0;
  EXPECT_FALSE(c.Observe(p, zero_items).ok());
  BatchObservation bad_half;
  bad_half.items = kItems;
  bad_half.measured_ms = 1.0;
  bad_half.components.kernel_half_ms = -0.5;
  EXPECT_EQ(c.Observe(p, bad_half).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(c.observations(), before);  // rejected observations are not counted
  // ... and the controller goes on: the same plan's good observation is counted.
  EXPECT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kItems)).ok());
  EXPECT_EQ(c.observations(), before + 1);
}

// A GPU shared with bursts of other work: one of the three batches of a measurement runs
// during a burst (its kernel 30x slower). The median of the three is the workload's own, so the
// derivation chooses what a clean measurement chooses; the burst alone would choose far more
// streams (as on our noisiest H100 lease, docs/results-log.md).
TEST(StreamControllerTest, SeveralMeasuredBatchesOutvoteABurst) {
  auto measure = [](int measure_batches, bool burst_in_first) {
    AdaptiveOptions o = Options();
    o.measure_batches = measure_batches;
    o.warmup_batches = 0;
    StreamController c = Make(o);
    // Plans run ahead of observations (continuous mode): all the measurement's batches are
    // planned first, then a streamed batch at the current n while they are out.
    std::vector<BatchPlan> plans;
    const BatchPlan halves = c.Plan(kItems);
    EXPECT_EQ(halves.kind, PlanKind::kMeasureHalves);
    for (int i = 0; i < measure_batches; ++i) {
      plans.push_back(c.Plan(kItems));
      EXPECT_EQ(plans.back().kind, PlanKind::kMeasure) << i;
    }
    EXPECT_EQ(c.Plan(kItems).kind, PlanKind::kStreamed);
    {
      BatchObservation obs;
      obs.items = kItems;
      obs.components = {kTransferBound.h2d_ms, kTransferBound.kernel_ms, kTransferBound.d2h_ms,
                        0.5 * kTransferBound.kernel_ms};
      obs.measured_ms = obs.components.total_ms();
      EXPECT_TRUE(c.Observe(halves, obs).ok());
      EXPECT_TRUE(c.events().empty());
    }
    for (int i = 0; i < measure_batches; ++i) {
      BatchObservation obs;
      obs.items = kItems;
      const bool burst = burst_in_first && i == 0;
      obs.components = {kTransferBound.h2d_ms, kTransferBound.kernel_ms * (burst ? 30.0 : 1.0),
                        kTransferBound.d2h_ms};
      obs.measured_ms = obs.components.total_ms();
      EXPECT_TRUE(c.Observe(plans[static_cast<std::size_t>(i)], obs).ok());
      EXPECT_EQ(c.events().size(), i + 1 < measure_batches ? 0u : 1u) << i;
    }
    EXPECT_NEAR(c.reference()->components.kernel_ms,
                kTransferBound.kernel_ms * (measure_batches == 1 && burst_in_first ? 30.0 : 1.0),
                1e-12);
    return c.streams();
  };
  const int clean = measure(1, false);
  EXPECT_GT(measure(1, true), clean) << "one batch measures the burst";
  EXPECT_EQ(measure(3, true), clean);
  EXPECT_EQ(measure(3, false), clean);
}

// A drift that moves the whole card (every batch and every part of the re-measurement 15 %
// slower) keeps the n the batches chose; one that changes the workload's shape (the kernel 8x,
// the copies as before) re-derives from the model. Runs 97-98: 41 of 46 re-derivations of tiny
// batches came at 0.83-1.25x the level, and each sent the 1.5 MiB histogram back to the
// model's n = 2 after its visits had found n = 1 faster.
TEST(StreamControllerTest, ARemeasurementOfTheSameWorkloadKeepsTheChosenN) {
  for (const bool shape_changes : {false, true}) {
    StreamController c = Make();
    std::mt19937_64 rng(61);
    std::normal_distribution<double> noise(0.0, 0.01);
    int first_n = 0;
    int switched = -1;
    int i = 0;
    for (; i < 400 && switched < 0; ++i) {
      const BatchPlan p = c.Plan(kItems);
      const double t = BelowIsFaster(p, c, 0.9, &first_n) * std::exp(noise(rng));
      ASSERT_TRUE(c.Observe(p, TransferBoundBatch(p, t)).ok());
      NoteSwitch(c, i, &switched);
    }
    ASSERT_GT(first_n, 1) << "the model must choose n > 1 for this test";
    ASSERT_GE(switched, 0) << "the faster neighbour never replaced n* = " << first_n;
    const int chosen = c.streams();
    ASSERT_LT(chosen, first_n);
    for (int k = 0; k < 30; ++k) {  // the level at the new n* is learned
      const BatchPlan p = c.Plan(kItems);
      const double t = BelowIsFaster(p, c, 0.9, &first_n) * std::exp(noise(rng));
      ASSERT_TRUE(c.Observe(p, TransferBoundBatch(p, t)).ok());
    }
    ASSERT_EQ(c.streams(), chosen);
    // The card slows by 15 % as a whole (or the kernel grows 8x, which the batches show as
    // 15 % slower too): the detector sees it, the pipeline re-measures.
    const std::size_t events = c.events().size();
    std::vector<int> visits_after;
    BatchPlan prev;
    for (int k = 0; k < 60; ++k) {
      const BatchPlan p = c.Plan(kItems);
      BatchObservation o = TransferBoundBatch(
          p, 1.15 * BelowIsFaster(p, c, 0.9, &first_n) * std::exp(noise(rng)));
      if (p.kind == PlanKind::kMeasure || p.kind == PlanKind::kMeasureHalves) {
        if (shape_changes) {
          o.components.kernel_ms *= 8.0;
          o.components.kernel_half_ms *= 8.0;
        } else {
          o.components = {o.components.h2d_ms * 1.15, o.components.kernel_ms * 1.15,
                          o.components.d2h_ms * 1.15, o.components.kernel_half_ms * 1.15};
        }
        o.measured_ms = o.components.total_ms();
      }
      if (c.events().size() > events && p.kind == PlanKind::kExplore &&
          (prev.kind != PlanKind::kExplore || prev.streams != p.streams)) {
        visits_after.push_back(p.streams);
      }
      ASSERT_TRUE(c.Observe(p, o).ok());
      prev = p;
    }
    ASSERT_GT(c.events().size(), events) << "the 15 % step was not seen";
    const RederivationEvent& e = c.events()[events];
    EXPECT_EQ(e.kind, EventKind::kDrift);
    EXPECT_EQ(e.old_streams, chosen);
    EXPECT_EQ(e.n_kept, !shape_changes) << e.reason;
    if (shape_changes) {
      EXPECT_EQ(e.reason.find("n kept"), std::string::npos) << e.reason;
    } else {
      EXPECT_EQ(e.new_streams, chosen) << "n* went from " << chosen << " to " << e.new_streams
                                       << ": " << e.reason;
      EXPECT_NE(e.reason.find("shape unchanged (x1.150), n kept"), std::string::npos) << e.reason;
      // The model's own choice, where it is another n, is visited first.
      const std::size_t at = e.reason.find("the model's n = ");
      if (at != std::string::npos && e.reason.find("visited first") != std::string::npos) {
        ASSERT_FALSE(visits_after.empty());
        EXPECT_EQ(visits_after.front(), std::stoi(e.reason.substr(at + 16))) << e.reason;
      }
      // A measurement the caller asks for re-derives from the model, with its own event: it
      // keeps no n, and the old n is the one in use (not the one of the last drift).
      const int in_use = c.streams();
      const std::size_t before = c.events().size();
      const BatchPlan asked{PlanKind::kMeasure, 1, 0.0, kNoGeneration};
      BatchObservation o = TransferBoundBatch(asked, 0.0);
      o.components = {o.components.h2d_ms * 1.15, o.components.kernel_ms * 1.15,
                      o.components.d2h_ms * 1.15};
      o.measured_ms = o.components.total_ms();
      ASSERT_TRUE(c.Observe(asked, o).ok());
      ASSERT_EQ(c.events().size(), before + 1);
      const RederivationEvent& a = c.events().back();
      EXPECT_EQ(a.reason, "a measurement the caller asked for");
      EXPECT_FALSE(a.n_kept);
      EXPECT_EQ(a.old_streams, in_use);
    }
  }
}

// After a drift of the whole lease (15 % slower, the workload's shape unchanged), the
// re-derivation keeps the neighbour the batches before had measured 10 % faster than the model's
// n*, rather than going back to the model's choice, and its reason says why. (That the model's n
// is then not suggested for a visit is not observable here: it is a neighbour of the kept n,
// which the exploration visits anyway once the samples are new.)
TEST(StreamControllerTest, AKeptDriftKeepsTheNeighbourMeasuredFasterThanTheModelsChoice) {
  StreamController c = Make();
  std::mt19937_64 rng(67);
  std::normal_distribution<double> noise(0.0, 0.01);
  int first_n = 0;
  // Only the neighbour below the model's first choice is faster; every other n as slow as it.
  const auto time = [&](const BatchPlan& p) {
    if (first_n == 0 && !RunsNonStreamed(p.kind)) {
      first_n = c.streams();
    }
    return first_n != 0 && p.streams == first_n / 2 ? 0.9 : 1.0;
  };
  int switched = -1;
  for (int i = 0; i < 400 && switched < 0; ++i) {
    const BatchPlan p = c.Plan(kItems);
    ASSERT_TRUE(c.Observe(p, TransferBoundBatch(p, time(p) * std::exp(noise(rng)))).ok());
    NoteSwitch(c, i, &switched);
  }
  ASSERT_GT(first_n, 1);
  ASSERT_GE(switched, 0);
  for (int k = 0; k < 150; ++k) {  // the new n*'s neighbours are visited too
    const BatchPlan p = c.Plan(kItems);
    ASSERT_TRUE(c.Observe(p, TransferBoundBatch(p, time(p) * std::exp(noise(rng)))).ok());
  }
  const std::size_t events = c.events().size();
  for (int k = 0; k < 40 && c.events().size() == events; ++k) {
    const BatchPlan p = c.Plan(kItems);
    BatchObservation o = TransferBoundBatch(p, 1.15 * time(p) * std::exp(noise(rng)));
    if (p.kind == PlanKind::kMeasure || p.kind == PlanKind::kMeasureHalves) {
      o.components = {o.components.h2d_ms * 1.15, o.components.kernel_ms * 1.15,
                      o.components.d2h_ms * 1.15, o.components.kernel_half_ms * 1.15};
      o.measured_ms = o.components.total_ms();
    }
    ASSERT_TRUE(c.Observe(p, o).ok());
  }
  ASSERT_GT(c.events().size(), events);
  const RederivationEvent& e = c.events()[events];
  ASSERT_TRUE(e.n_kept) << e.reason;
  EXPECT_EQ(e.new_streams, first_n / 2);
  EXPECT_NE(e.reason.find(absl::StrFormat("the model's n = %d measured no faster", first_n)),
            std::string::npos)
      << e.reason;
}

// The same workload up to one speed: once scaled by the whole batch's factor, the parts differ by
// at most the tolerance of the batch's time (the time that moved between them).
TEST(StreamControllerTest, TheWorkloadsShapeIsTheTimeMovedBetweenItsParts) {
  BatchObservation a;
  a.items = 1000;
  a.components = {1.0, 0.5, 1.0};
  a.measured_ms = a.components.total_ms();
  a.h2d_bytes = 4000;
  a.d2h_bytes = 4000;
  BatchObservation b = a;
  b.components = {1.3, 0.65, 1.3};  // 30 % slower as a whole: nothing moved
  EXPECT_TRUE(SameWorkloadShape(a, b, 0.1));
  EXPECT_TRUE(SameWorkloadShape(a, b, 0.001));
  b.components = {1.3, 0.95, 1.3};  // and the kernel 0.3 ms more: 6.8 % of the batch moved
  EXPECT_TRUE(SameWorkloadShape(a, b, 0.1));
  EXPECT_FALSE(SameWorkloadShape(a, b, 0.05));
  b.components = {1.0, 1.0, 1.0};  // the kernel 2x: 13.3 % moved
  EXPECT_FALSE(SameWorkloadShape(a, b, 0.1));
  // Twice the items and twice the bytes and times: the same per item.
  b = a;
  b.items = 2000;
  b.h2d_bytes = b.d2h_bytes = 8000;
  b.components = {2.0, 1.0, 2.0};
  EXPECT_TRUE(SameWorkloadShape(a, b, 0.1));
  b.d2h_bytes = 4000;  // half the bytes out per item: another workload
  EXPECT_FALSE(SameWorkloadShape(a, b, 0.1));
  // A typical pair of run 125's measurements of the 1.5 MiB histogram (p10-p90 of ten: the
  // copy in 0.96-1.16, the kernel 0.74-1.13, the copy out 0.70-1.16 of their medians; the worst
  // corners of those ranges move 14.9 %): 6.5 % of the batch moved, the same workload. Judged part by part (session 21's first test), 42 of the 45
  // pairs of that configuration's measurements failed.
  a.components = {0.0354, 0.0145, 0.0094};
  b = a;
  b.components = {0.0354 * 1.1, 0.0145 * 0.75, 0.0094 * 1.16};
  EXPECT_TRUE(SameWorkloadShape(a, b, 0.1));
  // A small part that grows to a fifth of the batch: 19.7 % moved.
  a.components = {1.0, 0.5, 0.02};
  b = a;
  b.components = {1.0, 0.5, 0.4};
  EXPECT_FALSE(SameWorkloadShape(a, b, 0.1));
  // By design, a kernel that doubles where it is 80 % of the batch moves 8.9 % and passes (the
  // batch 1.8x slower, nearly all kernel before and after); at a quarter it moves 15 %.
  a.components = {0.1, 0.8, 0.1};
  b = a;
  b.components = {0.1, 1.6, 0.1};
  EXPECT_TRUE(SameWorkloadShape(a, b, 0.1));
  a.components = {0.375, 0.25, 0.375};
  b = a;
  b.components = {0.375, 0.5, 0.375};
  EXPECT_FALSE(SameWorkloadShape(a, b, 0.1));
  EXPECT_TRUE(SameWorkloadShape(a, b, 0.16));
  // Nothing to compare.
  b = a;
  b.components = {0.0, 0.0, 0.0};
  EXPECT_FALSE(SameWorkloadShape(a, b, 0.1));
  b = a;
  b.items = 0;
  EXPECT_FALSE(SameWorkloadShape(a, b, 0.1));
  b = a;
  b.components.kernel_ms = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(SameWorkloadShape(a, b, 0.1));
  EXPECT_FALSE(SameWorkloadShape(a, a, std::numeric_limits<double>::infinity()));
}

// At the largest batch's size (since session 48; the newest before, so that a short last batch
// among them set the measurement's items, and the full batches after it read as another size).
TEST(StreamControllerTest, MedianMeasurementIsPerItemAtTheLargestSize) {
  BatchObservation a, b, c;
  a.items = 100;
  a.measured_ms = 3.0;
  a.components = {1.0, 1.0, 1.0};
  a.h2d_bytes = a.d2h_bytes = 400;
  b = a;
  b.items = 200;  // twice the items, twice the times: the same per item
  b.measured_ms = 6.0;
  b.components = {2.0, 2.0, 2.0};
  b.h2d_bytes = b.d2h_bytes = 800;
  c = a;
  c.items = 50;
  c.components = {0.5, 10.0, 0.5};  // a burst in the kernel
  c.measured_ms = 11.0;
  c.h2d_bytes = c.d2h_bytes = 200;
  const BatchObservation m = MedianMeasurement({a, b, c});
  EXPECT_EQ(m.items, 200);
  EXPECT_DOUBLE_EQ(m.components.h2d_ms, 2.0);
  EXPECT_DOUBLE_EQ(m.components.kernel_ms, 2.0);
  EXPECT_DOUBLE_EQ(m.components.d2h_ms, 2.0);
  EXPECT_DOUBLE_EQ(m.measured_ms, 6.0);
  EXPECT_DOUBLE_EQ(m.h2d_bytes, 800);
  // Of two largest, the newer: its fields beyond the medians (issue time) are the measurement's.
  BatchObservation b2 = b;
  b2.issue_ms = 0.25;
  EXPECT_DOUBLE_EQ(MedianMeasurement({b, c, b2}).issue_ms, 0.25);
  EXPECT_EQ(MedianMeasurement({c, a}).items, 100);
  const BatchObservation one = MedianMeasurement({c});
  EXPECT_DOUBLE_EQ(one.components.kernel_ms, 10.0);
}

// A batch more than a factor 2 under the largest is left out of the measurement: a short one
// (a source's short read) scaled per item carries its fixed costs into the workload's time.
// Before session 51, of two batches (their median is their mean) a 1000-item one beside a
// 1e6-item one made the measurement 6x slow.
TEST(StreamControllerTest, MedianMeasurementLeavesOutABatchFarUnderTheLargest) {
  BatchObservation full, tiny;
  full.items = 1'000'000;
  full.components = {1.0, 0.5, 1.0};
  full.measured_ms = 2.5;
  full.h2d_bytes = full.d2h_bytes = 4e6;
  tiny = full;
  tiny.items = 1000;  // 10 us fixed per part, then per item
  tiny.components = {0.011, 0.0055, 0.011};
  tiny.measured_ms = 0.0275;
  tiny.h2d_bytes = tiny.d2h_bytes = 4e3;
  for (const auto& batches : {std::vector<BatchObservation>{full, tiny},
                              std::vector<BatchObservation>{tiny, full}}) {
    const BatchObservation m = MedianMeasurement(batches);
    EXPECT_EQ(m.items, 1'000'000);
    EXPECT_DOUBLE_EQ(m.measured_ms, 2.5);
    EXPECT_DOUBLE_EQ(m.components.h2d_ms, 1.0);
    EXPECT_DOUBLE_EQ(m.components.kernel_ms, 0.5);
    EXPECT_DOUBLE_EQ(m.h2d_bytes, 4e6);
  }
  // Half the items is still scaled per item (the factor itself is near enough).
  BatchObservation half = full;
  half.items = 500'000;
  half.components = {0.6, 0.3, 0.6};
  half.measured_ms = 1.5;
  EXPECT_DOUBLE_EQ(MedianMeasurement({full, half}).measured_ms, 2.75);
}

// The same inside the controller, with two measurement batches and a short halves batch: the
// reference and the kernel's half are the full batches' (before session 51 the reference
// stayed 6x slow for the run, and a 1000-item halves batch made the kernel's half 11x its
// whole, all of it fixed).
TEST(StreamControllerTest, AShortBatchInsideAMeasurementIsNotScaledIntoIt) {
  AdaptiveOptions o = Options();
  o.measure_batches = 2;
  StreamController c = Make(o);
  const std::int64_t items = 1'000'000;
  const auto observe = [&](const BatchPlan& p, std::int64_t n) {
    const double s = static_cast<double>(n) / 1e6;
    BatchObservation b;
    b.items = n;
    b.components = {0.01 + 1.0 * s, 0.005 + 0.5 * s, 0.01 + 1.0 * s,
                    p.kind == PlanKind::kMeasureHalves ? 0.0025 + 0.25 * s : 0.0};
    b.measured_ms = b.components.total_ms();
    b.h2d_bytes = b.d2h_bytes = 4e6 * s;
    return c.Observe(p, b);
  };
  BatchPlan p = c.Plan(items);
  ASSERT_EQ(p.kind, PlanKind::kWarmup);
  ASSERT_TRUE(observe(p, items).ok());
  p = c.Plan(items);
  ASSERT_EQ(p.kind, PlanKind::kMeasureHalves);
  ASSERT_TRUE(observe(p, 1000).ok());  // short
  p = c.Plan(items);
  ASSERT_EQ(p.kind, PlanKind::kMeasure);
  ASSERT_TRUE(observe(p, items).ok());
  p = c.Plan(items);
  ASSERT_EQ(p.kind, PlanKind::kMeasure);
  ASSERT_TRUE(observe(p, 1000).ok());  // short
  ASSERT_TRUE(c.reference().has_value());
  EXPECT_EQ(c.reference()->items, items);
  EXPECT_NEAR(c.reference()->measured_ms, 2.525, 1e-12);
  EXPECT_NEAR(c.reference()->components.kernel_ms, 0.505, 1e-12);
  // The halves batch was not used; with no share measured before, the kernel has no half.
  EXPECT_LT(c.reference()->components.kernel_half_ms, c.reference()->components.kernel_ms);
  EXPECT_NEAR(c.PredictMs(1, items), 2.525, 0.01 * 2.525);
}

// A measurement the model cannot use (copies of no time and no G to give them one): n = 1, and
// the event says why (before session 51 it said "first non-streamed measurement" alone and the
// predictions were 0 ms from then on).
TEST(StreamControllerTest, AMeasurementTheModelCannotUseIsSaidInItsEvent) {
  DeviceTraits t = Believed();
  t.h2d.ms_per_byte = 0.0;
  StreamController c(MakeModel(ModelKind::kCurrent), t, Options());
  BatchPlan p = c.Plan(kItems);
  BatchObservation b;
  b.items = kItems;
  b.components = {0.0, 0.5, 1.0};
  b.measured_ms = 1.5;
  b.h2d_bytes = 4e6;
  b.d2h_bytes = 4e6;
  while (RunsNonStreamed(p.kind)) {
    ASSERT_TRUE(c.Observe(p, b).ok());
    p = c.Plan(kItems);
  }
  ASSERT_EQ(c.events().size(), 1u);
  EXPECT_EQ(c.streams(), 1);
  EXPECT_NE(c.events()[0].reason.find("the model cannot use this measurement ("),
            std::string::npos)
      << c.events()[0].reason;
  EXPECT_NE(c.events()[0].reason.find("): n = 1, the batch unsplit"), std::string::npos)
      << c.events()[0].reason;
}

// A plan out of range (a caller's own, or one not Plan's) is refused: streams = 0 went into
// log2(n) and NaN predictions, before session 51.
TEST(StreamControllerTest, APlanOutOfRangeIsRefused) {
  StreamController c = Make();
  SimulatedCard card(3);
  BatchPlan p = c.Plan(kItems);
  while (RunsNonStreamed(p.kind)) {
    ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kItems)).ok());
    p = c.Plan(kItems);
  }
  const double before = c.PredictMs(8, kItems);
  for (const int streams : {0, -3, kMaxCandidateStreams + 1}) {
    BatchPlan bad = p;
    bad.streams = streams;
    BatchObservation o = card.Run(p, kTransferBound, kItems);
    const absl::Status s = c.Observe(bad, o);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << streams;
    EXPECT_NE(s.message().find(absl::StrCat("a plan of ", streams, " streams")), std::string::npos)
        << s.message();
  }
  BatchPlan bad = p;
  bad.kind = static_cast<PlanKind>(42);
  EXPECT_EQ(c.Observe(bad, card.Run(p, kTransferBound, kItems)).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(c.PredictMs(8, kItems), before);
  EXPECT_TRUE(std::isfinite(c.PredictMs(8, kItems)));
}

// Batches of another size than the measurement's keep to the candidate rules for their own
// items (before session 51 only n <= items was asked: a batch of 999999 items ran at n = 10
// under divisors_only, and one of 600001 items at sub-chunks under min_items_per_stream).
TEST(StreamControllerTest, ABatchOfAnotherSizeRunsAnNItsItemsAllow) {
  AdaptiveOptions o = Options();
  o.candidates.powers_of_two = false;
  o.candidates.divisors_only = true;
  o.candidates.min_items_per_stream = 60'000;
  o.candidates.max_streams = 16;
  StreamController c = Make(o);
  SimulatedCard card(5);
  BatchPlan p = c.Plan(kItems);
  while (RunsNonStreamed(p.kind)) {
    ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kItems)).ok());
    p = c.Plan(kItems);
  }
  const int star = c.streams();
  ASSERT_GT(star, 1);
  ASSERT_EQ(kItems % star, 0);
  for (const std::int64_t items : {std::int64_t{999'999}, std::int64_t{600'001},
                                   std::int64_t{1'000'003}, std::int64_t{7}}) {
    const BatchPlan q = c.Plan(items);
    EXPECT_LE(q.streams, star) << items;
    EXPECT_EQ(items % q.streams, 0) << items << " at n = " << q.streams;
    EXPECT_TRUE(q.streams == 1 || items / q.streams >= 60'000) << items << " at " << q.streams;
  }
  // 999999 = 3^3 7 11 13 37: the largest divisor up to n* with sub-chunks of 60000 or more.
  int want = 1;
  for (int n = 1; n <= star; ++n) {
    if (999'999 % n == 0 && 999'999 / n >= 60'000) want = n;
  }
  EXPECT_EQ(c.Plan(999'999).streams, want);
  EXPECT_EQ(c.Plan(kItems).streams, star);
}

// Runs `batches` batches and returns the streams of each exploration visit, in order (a visit
// is a run of consecutive explore plans at one n).
std::vector<int> Visits(StreamController& c, SimulatedCard& card, const Workload2& w,
                        int batches) {
  std::vector<int> visits;
  bool in_visit = false;
  for (int i = 0; i < batches; ++i) {
    const BatchPlan p = c.Plan(kItems);
    const bool explore = p.kind == PlanKind::kExplore;
    if (explore && (!in_visit || visits.back() != p.streams)) visits.push_back(p.streams);
    in_visit = explore;
    EXPECT_TRUE(c.Observe(p, card.Run(p, w, kItems)).ok());
  }
  return visits;
}

// After the neighbours of n*, the controller visits one far candidate per derivation: the
// largest the model predicts within probe_ratio (3x) of n*'s time. Without the probe it never
// goes past the neighbours, and its prediction there is what the neighbours extrapolate.
TEST(StreamControllerTest, TheCalibrationProbeVisitsOneFarCandidatePerDerivation) {
  StreamController c = Make();
  SimulatedCard card(21, 0.01);
  const std::vector<int> visits = Visits(c, card, kTransferBound, 400);
  ASSERT_EQ(c.events().size(), 1u) << "a re-derivation would reset the probe";
  const int n = c.streams();
  std::vector<int> far;
  for (int v : visits) {
    if (v > 2 * n) far.push_back(v);
  }
  ASSERT_EQ(far.size(), 1u) << "n* = " << n;
  EXPECT_GE(far[0], 4 * n);
  // Bounded cost: the probe's true time is within the ratio of n*'s (the model that chose it
  // knew c only approximately, so allow some slack).
  EXPECT_LE(card.Exact(kTransferBound, far[0], kItems) / card.Exact(kTransferBound, n, kItems),
            3.5);
  const double with_probe = std::abs(c.PredictMs(far[0], kItems) /
                                     card.Exact(kTransferBound, far[0], kItems) - 1.0);

  AdaptiveOptions o = Options();
  o.exploration.probe_ratio = 0.0;
  StreamController off = Make(o);
  SimulatedCard card2(21, 0.01);
  for (int v : Visits(off, card2, kTransferBound, 400)) EXPECT_LE(v, 2 * off.streams());
  ASSERT_EQ(off.streams(), n);
  const double without = std::abs(off.PredictMs(far[0], kItems) /
                                  card2.Exact(kTransferBound, far[0], kItems) - 1.0);
  EXPECT_LT(with_probe, 0.05);
  EXPECT_GT(without, 2.0 * with_probe);

  // Overlapped batches (steady state): a visit is many batches long, so no probe.
  o = Options();
  o.steady_state = true;
  StreamController steady = Make(o);
  SimulatedCard card3(21, 0.01);
  for (int v : Visits(steady, card3, kTransferBound, 400)) EXPECT_LE(v, 2 * steady.streams());
}

// The calibration is complete once the derivation's owed visits are made: the neighbours and
// then the probe. Not before the measurement, not while the probe is owed, and again not after
// a re-measurement until that derivation's visits are made; at once without exploration.
TEST(StreamControllerTest, CalibrationIsCompleteOnceTheNeighboursAndTheProbeAreVisited) {
  AdaptiveOptions visits_only = Options();
  visits_only.check_anchor = false;  // the visits alone here (the check: its own tests)
  StreamController c = Make(visits_only);
  SimulatedCard card(21, 0.01);
  EXPECT_FALSE(c.CalibrationComplete());
  int complete_at = -1, last_far = -1, first_streamed = -1;
  for (int i = 0; i < 400 && complete_at < 0; ++i) {
    const BatchPlan p = c.Plan(kItems);
    ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kItems)).ok());
    if (p.kind == PlanKind::kStreamed && first_streamed < 0) first_streamed = i;
    if (p.kind == PlanKind::kExplore && p.streams > 2 * c.streams()) last_far = i;
    if (c.CalibrationComplete()) complete_at = i;
  }
  ASSERT_EQ(c.events().size(), 1u) << "a re-derivation would restart the calibration";
  ASSERT_GE(complete_at, 0) << "not complete in 400 batches";
  ASSERT_GE(last_far, 0) << "no probe";
  // Complete with the probe's last batch, not before it; the measurement and n*'s first batches
  // were long before.
  EXPECT_EQ(complete_at, last_far);
  EXPECT_GT(complete_at, first_streamed + 20);
  // It stays complete while the run goes on at n* (nothing more is owed).
  for (int i = 0; i < 100; ++i) {
    const BatchPlan p = c.Plan(kItems);
    ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kItems)).ok());
    EXPECT_TRUE(c.CalibrationComplete()) << "batch " << complete_at + 1 + i;
  }
  // A re-measurement starts a derivation that owes its visits again.
  c.RequestRemeasure("test");
  EXPECT_FALSE(c.CalibrationComplete());
  int again = -1;
  for (int i = 0; i < 400 && again < 0; ++i) {
    const BatchPlan p = c.Plan(kItems);
    ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kItems)).ok());
    if (c.CalibrationComplete()) again = i;
  }
  EXPECT_GT(again, 20);

  // Without exploration no visit is owed: complete once measured, and with the anchor check
  // once its batch, right after the measurement, is in too.
  AdaptiveOptions o = Options();
  o.exploration.enabled = false;
  for (const bool check : {false, true}) {
    o.check_anchor = check;
    StreamController quiet = Make(o);
    SimulatedCard card2(21, 0.01);
    int measured_at = -1;
    for (int i = 0; i < 10; ++i) {
      const BatchPlan p = quiet.Plan(kItems);
      ASSERT_TRUE(quiet.Observe(p, card2.Run(p, kTransferBound, kItems)).ok());
      if (p.kind == PlanKind::kMeasure && measured_at < 0) measured_at = i;
      if (check && measured_at >= 0 && i == measured_at + 1) {
        EXPECT_EQ(p.kind, PlanKind::kMeasure) << "the check";
      }
      EXPECT_EQ(quiet.CalibrationComplete(), measured_at >= 0 && i >= measured_at + (check ? 1 : 0))
          << "batch " << i << (check ? " with" : " without") << " the check";
    }
  }
  o.check_anchor = AdaptiveOptions{}.check_anchor;
  // Options the constructor found bad: Observe refuses every batch, so never.
  o = Options();
  o.measure_batches = 0;
  StreamController bad = Make(o);
  SimulatedCard card3(21, 0.01);
  for (int i = 0; i < 10; ++i) {
    const BatchPlan p = bad.Plan(kItems);
    EXPECT_FALSE(bad.Observe(p, card3.Run(p, kTransferBound, kItems)).ok());
    EXPECT_FALSE(bad.CalibrationComplete());
  }

  // A bucket that never holds a visit's token (burst 0): nothing is ever visited, nothing owed.
  o = Options();
  o.exploration.burst = 0;
  StreamController broke = Make(o);
  SimulatedCard card4(21, 0.01);
  for (int i = 0; i < 40; ++i) {
    const BatchPlan p = broke.Plan(kItems);
    EXPECT_NE(p.kind, PlanKind::kExplore);
    ASSERT_TRUE(broke.Observe(p, card4.Run(p, kTransferBound, kItems)).ok());
  }
  EXPECT_TRUE(broke.CalibrationComplete());
  // One that never refills (budget 0): complete once the first burst is spent.
  o = Options();
  o.exploration.budget = 0.0;
  StreamController spent = Make(o);
  SimulatedCard card5(21, 0.01);
  int explored = 0;
  for (int i = 0; i < 200; ++i) {
    const BatchPlan p = spent.Plan(kItems);
    explored += p.kind == PlanKind::kExplore;
    ASSERT_TRUE(spent.Observe(p, card5.Run(p, kTransferBound, kItems)).ok());
  }
  EXPECT_GT(explored, 0);
  EXPECT_TRUE(spent.CalibrationComplete());
}

// exploration.second_visit_batches: each neighbour of n* is visited a second time, with at
// least that many batches between its first visit and the second, outside the budget; the
// calibration owes it until its samples are in (with the probe off, complete with the last
// batch of the last second visit, not when it is planned), and the probe still comes. Without
// the option (the default, 0) a neighbour is visited once in the first 300 batches
// (revisit_batches is 500).
TEST(StreamControllerTest, EachNeighbourIsVisitedASecondTimeApartFromItsFirst) {
  for (const auto& [spacing, probe] : std::vector<std::pair<int, bool>>{
           {0, true}, {40, true}, {40, false}, {1, false}}) {
    SCOPED_TRACE(absl::StrFormat("spacing %d, probe %d", spacing, probe));
    AdaptiveOptions o = Options();
    o.check_anchor = false;
    if (!probe) o.exploration.probe_ratio = 0.0;
    o.exploration.second_visit_batches = spacing;
    StreamController c = Make(o);
    SimulatedCard card(21, 0.01);
    std::map<int, std::vector<std::pair<int, int>>> visits;  // n: (first batch, last batch)
    int complete_at = -1, previous = -1;
    for (int i = 0; i < 300; ++i) {
      const BatchPlan p = c.Plan(kItems);
      ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kItems)).ok());
      if (p.kind == PlanKind::kExplore) {
        auto& v = visits[p.streams];
        if (previous == i - 1 && !v.empty() && v.back().second == i - 1) {
          v.back().second = i;
        } else {
          v.emplace_back(i, i);
        }
        previous = i;
      }
      if (complete_at < 0 && c.CalibrationComplete()) complete_at = i;
    }
    ASSERT_EQ(c.events().size(), 1u) << "a re-derivation would restart the visits";
    const int n = c.streams();
    int last_visit_end = -1, exact = 0;
    for (int neighbour : {n / 2, 2 * n}) {
      ASSERT_TRUE(visits.count(neighbour)) << "n* " << n << ", neighbour " << neighbour;
      const auto& v = visits[neighbour];
      ASSERT_EQ(v.size(), spacing > 0 ? 2u : 1u) << "neighbour " << neighbour;
      if (spacing > 0) {
        // Batches strictly between the two visits (the first visit's last batch is its sample).
        const int between = v[1].first - v[0].second - 1;
        EXPECT_GE(between, spacing) << "neighbour " << neighbour;
        exact += between == spacing;
      }
      last_visit_end = std::max(last_visit_end, v.back().second);
      // Every visit's samples are the neighbour's: two per visit.
      for (const MeasuredN& m : c.Measured()) {
        if (m.streams == neighbour) {
          EXPECT_EQ(m.samples, spacing > 0 ? 4 : 2);
        }
      }
    }
    // The first neighbour's second visit comes as soon as it is due.
    if (spacing > 0) {
      EXPECT_GE(exact, 1);
    }
    int far = 0;
    for (const auto& [m, v] : visits) far += m > 2 * n ? static_cast<int>(v.size()) : 0;
    EXPECT_EQ(far, probe ? 1 : 0) << "the probe, once";
    ASSERT_GE(complete_at, 0);
    if (probe) {
      EXPECT_GE(complete_at, last_visit_end) << "complete before a second visit was made";
    } else {
      EXPECT_EQ(complete_at, last_visit_end) << "complete before the last second visit's samples";
    }
  }
}

// The spacing counts from the first visit's samples, not from any sample of the neighbour's n:
// batches at n* clamped to the lower neighbour (fewer items than n* streams) sample that n too,
// and would put its second visit off for as long as they come.
TEST(StreamControllerTest, ClampedBatchesDoNotPutASecondVisitOff) {
  AdaptiveOptions o = Options();
  o.check_anchor = false;
  // n* = 16 the largest candidate: one neighbour (8) and no probe, so that no other visit's
  // batch clamped to 8 stands in for its second visit.
  o.candidates.max_streams = 16;
  o.exploration.second_visit_batches = 40;
  StreamController c = Make(o);
  SimulatedCard card(21, 0.01);
  int complete_at = -1;
  for (int i = 0; i < 400 && complete_at < 0; ++i) {
    // From batch 40 on, every other batch has n* - 1 items: n* clamps to the lower neighbour.
    const std::int64_t items = i >= 40 && i % 2 == 1 ? c.streams() - 1 : kItems;
    const BatchPlan p = c.Plan(items);
    ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, items)).ok());
    if (c.CalibrationComplete()) complete_at = i;
  }
  ASSERT_EQ(c.events().size(), 1u);
  ASSERT_EQ(c.streams(), 16);
  ASSERT_GE(complete_at, 0) << "incomplete after 400 batches: a second visit never came";
  EXPECT_GE(complete_at, 40) << "complete without the second visits";
}

// Two visits apart in time: a first visit in a slow stretch of the machine (its batches 15 %
// slow) no longer sets the neighbour's prediction, since the lower median of its four samples is
// one of the second visit's. With one visit the prediction there is the slow stretch's.
TEST(StreamControllerTest, ASecondVisitOutvotesAFirstVisitInASlowStretch) {
  double error[2] = {0.0, 0.0};
  int neighbour_of[2] = {0, 0};
  for (const int spacing : {0, 40}) {
    AdaptiveOptions o = Options();
    o.check_anchor = false;
    o.cap_slow_visits = false;  // the second visit alone (the cap: ASlowVisitIsCapped...)
    o.exploration.second_visit_batches = spacing;
    StreamController c = Make(o);
    SimulatedCard card(21, 0.005);
    std::map<int, int> visits_seen;
    int slowed = 0, last = -2, neighbour = 0;
    for (int i = 0; i < 300; ++i) {
      const BatchPlan p = c.Plan(kItems);
      BatchObservation obs = card.Run(p, kTransferBound, kItems);
      if (p.kind == PlanKind::kExplore) {
        if (last != i - 1) ++visits_seen[p.streams];
        last = i;
        // The first visit of the first neighbour visited runs in a slow stretch.
        if (neighbour == 0) neighbour = p.streams;
        if (p.streams == neighbour && visits_seen[p.streams] == 1) {
          obs.measured_ms *= 1.15;
          ++slowed;
        }
      }
      ASSERT_TRUE(c.Observe(p, obs).ok());
    }
    ASSERT_EQ(c.events().size(), 1u);
    ASSERT_GE(slowed, 2);
    const int k = spacing > 0 ? 1 : 0;
    neighbour_of[k] = neighbour;
    error[k] = c.PredictMs(neighbour, kItems) / card.Exact(kTransferBound, neighbour, kItems) - 1;
  }
  ASSERT_EQ(neighbour_of[0], neighbour_of[1]);
  EXPECT_GT(error[0], 0.10) << "one visit: its slow stretch is the prediction";
  EXPECT_LT(std::abs(error[1]), 0.04) << "two visits: the second one's time";
}

// Overlapped batches (steady state): a visit is many batches long already; no second visit.
// The option changes nothing there: the same card gives the same plans with it and without
// (a kernel-heavy batch, whose n* settles with a neighbour visited once: with second visits in
// steady state the plans differ).
TEST(StreamControllerTest, NoSecondVisitInSteadyState) {
  // Batches that say they are periods, and batches that do not (steady state set all the same).
  for (const bool periods : {true, false}) {
    SCOPED_TRACE(periods);
    std::vector<std::pair<int, int>> plans[2];  // (kind, n) of every batch
    for (const int spacing : {0, 20}) {
      AdaptiveOptions o = Options();
      o.steady_state = true;
      o.exploration.second_visit_batches = spacing;
      StreamController c = Make(o);
      SimulatedCard card(21, 0.01);
      if (periods) card.ReportPeriods();
      for (int i = 0; i < 300; ++i) {
        const BatchPlan p = c.Plan(kItems);
        plans[spacing > 0 ? 1 : 0].emplace_back(static_cast<int>(p.kind), p.streams);
        ASSERT_TRUE(c.Observe(p, card.Run(p, kKernelHeavy, kItems)).ok());
      }
    }
    int explored = 0;
    for (const auto& [kind, n] : plans[0]) {
      explored += kind == static_cast<int>(PlanKind::kExplore);
    }
    ASSERT_GT(explored, 0);
    EXPECT_EQ(plans[0], plans[1]);
  }
}

// Batches smaller than the measured one: a target they cannot run as it is (more streams than
// items) is not visited under another n's name, and not owed. The controller visits what it can
// and its calibration completes; before, the clamped visit came back whenever the bucket allowed
// and the targets after it were never reached.
TEST(StreamControllerTest, TargetsTheBatchCannotRunAreNeitherVisitedNorOwed) {
  StreamController c = Make();
  SimulatedCard card(21, 0.01);
  // Measure and derive on full batches.
  while (c.events().empty()) {
    const BatchPlan p = c.Plan(kItems);
    ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kItems)).ok());
  }
  const int star = c.streams();
  ASSERT_GE(star, 4);
  ASSERT_LT(star, 128);
  // Then batches of exactly n* items: the upper neighbour and the probe are out of reach.
  const std::int64_t items = star;
  std::set<int> explored;
  bool complete = false;
  for (int i = 0; i < 600 && !complete; ++i) {
    const BatchPlan p = c.Plan(items);
    if (p.kind == PlanKind::kExplore) explored.insert(p.streams);
    EXPECT_LE(p.streams, items);
    ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, items)).ok());
    complete = c.CalibrationComplete();
  }
  EXPECT_TRUE(complete) << "n* " << c.streams();
  // Since session 48 batches of another size (here a factor over 2) give no samples, and three
  // in a row ask for a re-measurement on them: the derivation is then of their items, and
  // every n it explores is one they can run.
  ASSERT_TRUE(c.reference().has_value());
  EXPECT_EQ(c.reference()->items, items);
  const std::string asked = "3 batches in a row of another size (the last " +
                            std::to_string(items) + " items, the measurement's " +
                            std::to_string(kItems) + ")";
  EXPECT_TRUE(std::any_of(c.events().begin(), c.events().end(), [&](const RederivationEvent& e) {
    return e.reason.find(asked) != std::string::npos;
  }));
  for (int n : explored) EXPECT_LE(n, items);
}

// No n in [streams.min, streams.max] splits a batch of 3 items: the batch runs whole on one
// stream, and the derivation's event says so (before session 49 n fell back to 1 silently).
TEST(StreamControllerTest, NoStreamCountThatFitsIsSaidInTheEvent) {
  AdaptiveOptions o = Options();
  o.candidates.min_streams = 4;
  StreamController c = Make(o);
  SimulatedCard card(43, 0.01);
  constexpr std::int64_t kFew = 3;
  for (int i = 0; i < 50 && c.events().empty(); ++i) {
    const BatchPlan p = c.Plan(kFew);
    ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kFew)).ok());
  }
  ASSERT_FALSE(c.events().empty());
  EXPECT_EQ(c.streams(), 1);
  EXPECT_NE(c.events().front().reason.find("no stream count in [4, 128] fits 3 items"),
            std::string::npos)
      << c.events().front().reason;
  EXPECT_NE(c.events().front().reason.find("n = 1, the batch unsplit"), std::string::npos);
  for (int i = 0; i < 20; ++i) {
    const BatchPlan p = c.Plan(kFew);
    EXPECT_EQ(p.streams, 1);
    ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kFew)).ok());
  }
}

// A first batch much shorter than the rest (a source's partial first batch, a Submit caller's
// small one) was measured, and its items bounded the candidates for good: a workload that
// splits best over 16 or more streams stayed at n = 1 for 4000 batches (before session 48).
// Batches of another size now ask for a re-measurement on them.
TEST(StreamControllerTest, AShortFirstMeasurementIsMeasuredAgainOnTheBatchesThatFollow) {
  StreamController c = Make();
  SimulatedCard card(41, 0.01);
  while (c.events().empty()) {
    const BatchPlan p = c.Plan(1);
    ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, 1)).ok());
  }
  ASSERT_EQ(c.streams(), 1);
  for (int i = 0; i < 300; ++i) {
    const BatchPlan p = c.Plan(kItems);
    ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kItems)).ok());
  }
  ASSERT_TRUE(c.reference().has_value());
  EXPECT_EQ(c.reference()->items, kItems);
  EXPECT_NE(c.events()[1].reason.find("3 batches in a row of another size (the last 1000000 "
                                      "items, the measurement's 1)"),
            std::string::npos)
      << c.events()[1].reason;
  // n is derived afresh on the new size, as a controller that measured full batches first
  // derives it (the rule that keeps n where the shape per item is unchanged kept the short
  // measurement's n: 8 where 16 was derived, in the review's probe of session 48).
  for (std::int64_t first : {kItems / 3, kItems / 4, kItems / 8}) {
    StreamController resized = Make();
    StreamController fresh = Make();
    SimulatedCard a(45, 0.0), b(45, 0.0);
    while (resized.events().empty()) {
      const BatchPlan p = resized.Plan(first);
      ASSERT_TRUE(resized.Observe(p, a.Run(p, kTransferBound, first)).ok());
    }
    while (resized.events().size() < 2) {
      const BatchPlan p = resized.Plan(kItems);
      ASSERT_TRUE(resized.Observe(p, a.Run(p, kTransferBound, kItems)).ok());
    }
    while (fresh.events().empty()) {
      const BatchPlan p = fresh.Plan(kItems);
      ASSERT_TRUE(fresh.Observe(p, b.Run(p, kTransferBound, kItems)).ok());
    }
    EXPECT_EQ(resized.events()[1].new_streams, fresh.events()[0].new_streams) << first;
    EXPECT_EQ(resized.events()[1].reason.find("n kept"), std::string::npos)
        << resized.events()[1].reason;
  }
}

// `count` transfer-bound batches of `items`, each planned and observed (asserted OK).
void Feed(StreamController& c, SimulatedCard& card, std::int64_t items, int count) {
  for (int i = 0; i < count; ++i) {
    const BatchPlan p = c.Plan(items);
    ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, items)).ok()) << "batch " << i;
  }
}

// Batches within a factor 2 of the measurement's items are scaled per item and sampled, as
// before session 48: the controller goes on adapting to them (a workload that turns 3x slower
// at 1.5x the items is re-measured).
TEST(StreamControllerTest, BatchesNearTheMeasurementsSizeAreStillSamples) {
  StreamController c = Make();
  SimulatedCard card(47, 0.01);
  ASSERT_NO_FATAL_FAILURE(Feed(c, card, kItems, 200));
  const std::size_t events = c.events().size();
  card.ScaleDevice(3.0);
  ASSERT_NO_FATAL_FAILURE(Feed(c, card, kItems * 3 / 2, 300));
  ASSERT_GT(c.events().size(), events);
  EXPECT_EQ(c.events()[events].kind, EventKind::kDrift) << c.events()[events].reason;
}

// One short batch (the last of a stream) scaled per item to the measurement's items read as a
// sample 1e6 times its time at its n: PredictMs(1) went from 3.6 ms to 10 s, and the on-line
// fit took it (before session 48). It gives no sample now: the predictions stay as they were.
TEST(StreamControllerTest, AShortBatchGivesNoSample) {
  StreamController c = Make();
  SimulatedCard card(43, 0.01);
  ASSERT_NO_FATAL_FAILURE(Feed(c, card, kItems, 300));
  std::vector<double> before;
  for (int n = 1; n <= 128; n *= 2) before.push_back(c.PredictMs(n, kItems));
  const std::size_t events = c.events().size();
  // (A third batch a factor 2 or more off would ask for a re-measurement.)
  for (std::int64_t items : {std::int64_t{1}, std::int64_t{3}}) {
    const BatchPlan p = c.Plan(items);
    ASSERT_EQ(p.kind, PlanKind::kStreamed);
    ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, items)).ok());
  }
  std::vector<double> after;
  for (int n = 1; n <= 128; n *= 2) after.push_back(c.PredictMs(n, kItems));
  EXPECT_EQ(before, after);
  EXPECT_EQ(c.events().size(), events);
  // A time that scales to no number is refused before anything is kept.
  BatchPlan p = c.Plan(kItems);
  ASSERT_EQ(p.kind, PlanKind::kStreamed);  // no re-measurement was asked for
  BatchObservation huge = card.Run(p, kTransferBound, kItems);
  huge.items = kItems * 95 / 100;
  huge.measured_ms = 1.7e308;
  const absl::Status s = c.Observe(p, huge);
  EXPECT_TRUE(absl::IsInvalidArgument(s)) << s;
  EXPECT_EQ(c.PredictMs(1, kItems), before[0]);
}

// Where the issue bound binds (tiny sub-chunks: matrix multiplication N = 512 in run 24), the
// on-line fit finds the card's issue cost s, which the traits put 30 % too low; where it never
// binds (64 MiB copies) s keeps its calibrated value.
TEST(StreamControllerTest, TheIssueCostIsFittedWhereTheIssueBoundBinds) {
  constexpr Workload2 kTiny{0.045, 0.08, 0.044};
  constexpr double kTrueS = 0.016;
  for (const Workload2& w : {kTiny, kTransferBound}) {
    DeviceTraits believed = Believed();
    believed.sub_chunk_cost_ms = 0.011;
    StreamController c(MakeModel(ModelKind::kCurrent), believed, Options());
    SimulatedCard card(23, 0.01, kTrueS);
    Drive(c, card, w, 600);
    if (w.kernel_ms == kTiny.kernel_ms) {
      EXPECT_NEAR(c.sub_chunk_cost_ms(), kTrueS, 0.1 * kTrueS);
      // Right up to 4 n* (the card's unknown effect past 16 streams is beyond any fit).
      for (int n = 1; n <= 4 * c.streams(); n *= 2) {
        EXPECT_NEAR(c.PredictMs(n, kItems) / card.Exact(w, n, kItems), 1.0, 0.05) << "n " << n;
      }
    } else {
      EXPECT_NEAR(c.sub_chunk_cost_ms(), 0.011, 0.02 * 0.011);
    }
  }
}

TEST(StreamControllerTest, TheIssueCostIsMeasuredWhereBatchesReportIssueTimes) {
  // Run 30: the calibrated s (tiny sub-chunks) was 13 us, matmul and histogram sub-chunks
  // issued at 9-13 us, and s inferred from the batch times came out 15-19 us: predictions 40-50 %
  // over at 16-64 n*. Here the traits believe 16 us, the host issues at 9 us per sub-chunk plus
  // 12 us per batch, and the batches say so.
  constexpr Workload2 kTiny{0.045, 0.08, 0.044};
  constexpr double kTrueS = 0.009;
  for (const Workload2& w : {kTiny, kTransferBound}) {
    SCOPED_TRACE(w.kernel_ms);
    DeviceTraits believed = Believed();
    believed.sub_chunk_cost_ms = 0.016;
    StreamController c(MakeModel(ModelKind::kCurrent), believed, Options());
    SimulatedCard card(29, 0.01, kTrueS);
    card.ReportIssueTimes(0.012);
    Drive(c, card, w, 600);
    // The slope of issue time in n, not issue time / n (which the 12 us per batch inflates).
    EXPECT_NEAR(c.sub_chunk_cost_ms(), kTrueS, 0.03 * kTrueS);
    if (w.kernel_ms == kTiny.kernel_ms) {
      EXPECT_EQ(c.streams(), card.BestN(w, {1, 2, 4, 8, 16, 32, 64, 128}, kItems));
      // Right up to 16 streams, 4 n* (past 16 the card adds an effect no model has).
      ASSERT_LE(c.streams(), 4);
      for (int n = 1; n <= 16; n *= 2) {
        EXPECT_NEAR(c.PredictMs(n, kItems) / card.Exact(w, n, kItems), 1.0, 0.05) << "n " << n;
      }
    }
  }
  // Without issue times the same run infers s from the batch times, about 2x off at 32 n*.
  DeviceTraits believed = Believed();
  believed.sub_chunk_cost_ms = 0.016;
  StreamController c(MakeModel(ModelKind::kCurrent), believed, Options());
  SimulatedCard card(29, 0.01, kTrueS);
  Drive(c, card, kTiny, 600);
  EXPECT_GT(std::abs(c.sub_chunk_cost_ms() / kTrueS - 1.0), 0.1) << c.sub_chunk_cost_ms();
}

// The calibrated prediction corrects the model by what was measured, n by n: a device the
// model under-predicts by 25 % is predicted right at the n measured and between them, and the
// host's issue time (where it bounds the batch) is not scaled by the device's error. One factor
// for all n (measured / model at n*) put the issue-bound n 25 % over.
TEST(StreamControllerTest, MeasuredResidualsCorrectTheDeviceNotTheHostsIssueTime) {
  constexpr Workload2 kTiny{0.045, 0.08, 0.044};
  constexpr double kTrueS = 0.009;
  StreamController c(MakeModel(ModelKind::kCurrent), Believed(), Options());
  SimulatedCard card(31, 0.01, kTrueS);
  card.ReportIssueTimes(0.012);
  card.ScaleDevice(1.25);
  card.SetUnknownEffect(0.0);  // past 16 streams no prediction could know it
  Drive(c, card, kTiny, 600);
  const std::vector<MeasuredN> measured = c.Measured();
  ASSERT_GE(measured.size(), 3u);
  int largest = 0;
  for (const MeasuredN& m : measured) {
    if (m.samples == 0) continue;
    largest = std::max(largest, m.streams);
    EXPECT_NEAR(c.PredictMs(m.streams, kItems) / card.Exact(kTiny, m.streams, kItems), 1.0, 0.03)
        << "measured n = " << m.streams;
  }
  // Past the measured n, where the host's issue time bounds the batch.
  int checked = 0;
  for (int n = 2 * largest; n <= 128; n *= 2) {
    EXPECT_NEAR(c.PredictMs(n, kItems) / card.Exact(kTiny, n, kItems), 1.0, 0.05) << "n " << n;
    // The single factor (up to run 37) scales the host's issue time by the device's error.
    EXPECT_GT(c.SingleFactorPredictMs(n, kItems) / card.Exact(kTiny, n, kItems), 1.15)
        << "n " << n;
    ++checked;
  }
  EXPECT_GE(checked, 1) << "largest measured n " << largest;
}

// Warms `c` up, takes its measurement and four settled batches at the n* it chose, without
// issue times; `*star` is that n*. For tests that then place visits by hand (Visit).
void StartAtStar(StreamController& c, SimulatedCard& card, const Workload2& w, int* star) {
  BatchPlan p = c.Plan(kItems);
  ASSERT_TRUE(c.Observe(p, card.Run(p, w, kItems)).ok());  // warm-up
  p = c.Plan(kItems);
  ASSERT_EQ(p.kind, PlanKind::kMeasureHalves);
  ASSERT_TRUE(c.Observe(p, card.Run(p, w, kItems)).ok());
  p = c.Plan(kItems);
  ASSERT_EQ(p.kind, PlanKind::kMeasure);
  ASSERT_TRUE(c.Observe(p, card.Run(p, w, kItems)).ok());
  *star = c.streams();
  for (int k = 0; k < 4; ++k) {
    p = c.Plan(kItems);
    p.kind = PlanKind::kStreamed;
    p.streams = *star;
    BatchObservation o = card.Run(p, w, kItems);
    o.issue_ms = 0.0;
    o.settled = true;
    ASSERT_TRUE(c.Observe(p, o).ok());
  }
}

// One settled batch at n as a visit (it re-fits), taking the card's time; its issue time the
// card's, or `issue_ms` where given, which must then leave it unbound by the host (at most 0.7
// of the batch).
void Visit(StreamController& c, SimulatedCard& card, const Workload2& w, int n,
           std::optional<double> issue_ms = std::nullopt) {
  BatchPlan p = c.Plan(kItems);
  p.kind = PlanKind::kExplore;
  p.streams = n;
  BatchObservation o = card.Run(p, w, kItems);
  if (issue_ms) {
    ASSERT_LE(*issue_ms, 0.7 * o.measured_ms) << "n " << n;
    o.issue_ms = *issue_ms;
  }
  o.settled = true;
  ASSERT_TRUE(c.Observe(p, o).ok());
}

// The host's issue line I(n) = a + s n has a per-batch part a >= 0. Where the free fit puts a
// below 0 (a burst at the larger n visited), the line goes through the origin:
// s = sum(n I) / sum(n^2). Clamping a to 0 and keeping the free s (before) kept a slope steeper
// than the visits support: run 103 a1 (91 us at n = 8, 218 us at n = 16) predicted 2.03 ms at
// n = 128, 1.07 ms measured; through the origin, 1.69 ms.
TEST(StreamControllerTest, TheIssueLineKeepsItsPerBatchPartNonNegative) {
  constexpr Workload2 kTiny{0.045, 0.08, 0.044};
  for (const bool burst : {true, false}) {
    SCOPED_TRACE(burst ? "burst at 4 n*" : "no burst");
    StreamController c = Make();
    SimulatedCard card(43, 0.0);
    // Batches at the chosen n* without issue times, then visits (each re-fits) with issue times
    // at 2 n* and 4 n* only: 91 us, then 218 us in a burst or 150 us without (run 103 a1's
    // shape). The batches take the card's time, the host at most 0.7 of it: none issue bound.
    int star = 0;
    ASSERT_NO_FATAL_FAILURE(StartAtStar(c, card, kTiny, &star));
    const double n1 = 2.0 * star, n2 = 4.0 * star;
    const double i1 = 0.091, i2 = burst ? 0.218 : 0.150;
    for (int k = 0; k < 2; ++k) {
      ASSERT_NO_FATAL_FAILURE(Visit(c, card, kTiny, static_cast<int>(n1), i1));
      ASSERT_NO_FATAL_FAILURE(Visit(c, card, kTiny, static_cast<int>(n2), i2));
    }
    const double s_free = (i2 - i1) / (n2 - n1);
    const double a_free = i1 - n1 * s_free;
    const double s_origin = (n1 * i1 + n2 * i2) / (n1 * n1 + n2 * n2);
    ASSERT_EQ(a_free < 0.0, burst);
    EXPECT_NEAR(c.sub_chunk_cost_ms(), burst ? s_origin : s_free, 1e-12)
        << "free fit a " << a_free << " s " << s_free << ", through the origin s " << s_origin;
    // The prediction is the longer of the device's part and the host's line (here the device's:
    // the slope above is what tells the two fits apart), and at least the line.
    const double line128 = burst ? 128.0 * s_origin : a_free + 128.0 * s_free;
    EXPECT_GE(c.PredictMs(128, kItems), line128 * (1.0 - 1e-12));
    EXPECT_NEAR(c.PredictMs(128, kItems),
                std::max(c.DevicePredictMs(128, kItems), line128), 1e-9 * line128);
  }
}

// A visit in a burst on the host is left out of the issue line: run 116 a2 issued n = 32 at 57 us
// a sub-chunk in both its batches, against 11.8 at n = 16, and the line through all three visits
// predicted n = 128 at 5.96 ms where 1.48 was measured. Here visits at n*/2 and n* issue at the
// host's true 9 us a sub-chunk (plus 2 us a batch); the one at 2 n* takes 0.6 of its batch.
TEST(StreamControllerTest, ABurstInOneVisitIsLeftOutOfTheIssueLine) {
  constexpr double kTrueS = 0.009, kFixed = 0.002;
  for (const bool burst : {true, false}) {
    SCOPED_TRACE(burst ? "burst at 2 n*" : "no burst");
    StreamController c = Make();
    SimulatedCard card(53, 0.0, kTrueS);
    card.ReportIssueTimes(kFixed);
    card.SetUnknownEffect(0.0);  // past 16 streams no prediction could know it
    int star = 0;
    ASSERT_NO_FATAL_FAILURE(StartAtStar(c, card, kTransferBound, &star));
    ASSERT_GE(star, 4);
    const int n3 = 2 * star;
    const double i3 = burst ? 0.6 * card.Exact(kTransferBound, n3, kItems) : kFixed + kTrueS * n3;
    ASSERT_GT(i3 / n3, burst ? 3.0 * kTrueS : 0.0) << "a burst the rule can tell";
    for (int k = 0; k < 2; ++k) {
      ASSERT_NO_FATAL_FAILURE(Visit(c, card, kTransferBound, star / 2, kFixed + kTrueS * (star / 2)));
      ASSERT_NO_FATAL_FAILURE(Visit(c, card, kTransferBound, star, kFixed + kTrueS * star));
      ASSERT_NO_FATAL_FAILURE(Visit(c, card, kTransferBound, n3, i3));
    }
    EXPECT_NEAR(c.sub_chunk_cost_ms(), kTrueS, 1e-9) << "the line through n*/2 and n*";
    EXPECT_NEAR(c.PredictMs(128, kItems) / card.Exact(kTransferBound, 128, kItems), 1.0, 0.1);
  }
}

// s carries over from one derivation to the next; where the last derivation's visits left no
// line (issue times at n* only), the prediction takes the model's T4 path with that s, bounded
// by this derivation's issue times (a >= 0: s <= I(n) / n). Run 116 a3: a line through a burst's
// visits gave s = 65.8 us, a re-derivation then sampled only n* = 16 (9 us a sub-chunk), and
// n = 128 was predicted at 8.3 ms where 1.96 was measured (without the bound, here, 1.43x the
// truth).
TEST(StreamControllerTest, ACarriedIssueSlopeIsBoundedByThisDerivationsIssueTimes) {
  constexpr double kTrueS = 0.009;
  StreamController c = Make();
  SimulatedCard card(47, 0.0, kTrueS);
  card.ReportIssueTimes(0.002);
  card.SetUnknownEffect(0.0);  // past 16 streams no prediction could know it
  int star = 0;
  ASSERT_NO_FATAL_FAILURE(StartAtStar(c, card, kTransferBound, &star));
  ASSERT_GE(star, 4);
  ASSERT_LE(star, 32);
  // Two visits with issue times, both in a long burst on the host (30 us a sub-chunk; one visit
  // alone in a burst would be left out of the line, ABurstInOneVisitIsLeftOutOfTheIssueLine):
  // a line whose s is over 3x the truth.
  const double steep = 0.03;
  const int n1 = star / 2, n2 = star;
  for (int k = 0; k < 2; ++k) {
    ASSERT_NO_FATAL_FAILURE(Visit(c, card, kTransferBound, n1, steep * n1));
    ASSERT_NO_FATAL_FAILURE(Visit(c, card, kTransferBound, n2, steep * n2));
  }
  ASSERT_NEAR(c.sub_chunk_cost_ms(), steep, 1e-9);
  // A re-derivation: measured again, then batches at n* alone, with the host's true issue times.
  c.RequestRemeasure("test: the content changed");
  bool measured = false;
  for (int k = 0; k < 4 && !measured; ++k) {
    BatchPlan p = c.Plan(kItems);
    measured = p.kind == PlanKind::kMeasure;
    ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kItems)).ok());
  }
  ASSERT_TRUE(measured);
  const int star2 = c.streams();
  for (int k = 0; k < 8; ++k) {
    BatchPlan p = c.Plan(kItems);
    p.kind = PlanKind::kStreamed;
    p.streams = star2;
    BatchObservation o = card.Run(p, kTransferBound, kItems);
    o.settled = true;
    ASSERT_TRUE(c.Observe(p, o).ok());
  }
  const std::vector<MeasuredN> m = c.Measured();
  ASSERT_EQ(m.size(), 1u) << "n* alone since the re-derivation";
  EXPECT_NEAR(c.sub_chunk_cost_ms(), steep, 1e-9) << "the steep s carried over";
  // The host bounds n = 128 at about 128 x 9 us; the carried s would say 128 x steep.
  const double truth = card.Exact(kTransferBound, 128, kItems);
  EXPECT_NEAR(c.PredictMs(128, kItems) / truth, 1.0, 0.15)
      << "carried s " << c.sub_chunk_cost_ms() << " ms, 128 x that " << 128 * steep;
}

// The host issues copies in of up to 24 KiB inline, copying their bytes itself (runs
// 103-109): the 2 MiB matrix product as graphs took 3.6 us a sub-chunk at n = 64 (32 KiB
// copies) and 5.4 us at n = 128 (16 KiB). Visits near n* (copies far over the limit) cannot
// show the step; the profile's inline limit and rate (streampipe calibrate) add it.
TEST(StreamControllerTest, TheIssueLineAddsTheInlineCopiesPastTheVisitedN) {
  constexpr Workload2 kTiny{0.045, 0.08, 0.044};
  constexpr double kTrueS = 0.009, kBytes = 2 << 20, kLimit = 24576, kRate = 1e-7;
  for (const bool told : {true, false}) {
    SCOPED_TRACE(told ? "the traits know the inline path" : "they do not");
    DeviceTraits believed = Believed();
    believed.sub_chunk_cost_ms = kTrueS;
    if (told) {
      believed.inline_h2d_max_bytes = kLimit;
      believed.inline_h2d_ms_per_byte = kRate;
    }
    StreamController c(MakeModel(ModelKind::kCurrent), believed, Options());
    SimulatedCard card(47, 0.01, kTrueS);
    card.ReportIssueTimes(0.012);
    card.InlineCopies(kBytes, kLimit, kRate);
    card.SetUnknownEffect(0.0);
    Drive(c, card, kTiny, 600);
    int largest = 0;
    for (const MeasuredN& m : c.Measured()) {
      if (m.issue_samples > 0) largest = std::max(largest, m.streams);
    }
    ASSERT_GT(kBytes / largest, kLimit) << "a visit saw inline copies (n = " << largest << ")";
    // n = 128: 16 KiB copies, 0.21 ms of inline copying on 1.16 ms of issue time; n = 64:
    // 32 KiB copies, none. The line itself, extrapolated from the visited n, is a few per cent
    // off at both; the step between them is the inline part.
    const double at128 = c.PredictMs(128, kItems) / card.Exact(kTiny, 128, kItems);
    const double at64 = c.PredictMs(64, kItems) / card.Exact(kTiny, 64, kItems);
    EXPECT_NEAR(at64, 1.0, 0.05);
    if (told) {
      EXPECT_NEAR(at128, 1.0, 0.05);
      EXPECT_NEAR(at128, at64, 0.01);
    } else {
      EXPECT_LT(at128, at64 - 0.1);
    }
  }
}

// Where the visited n have inline copies, the line is fitted to their issue times less the
// inline part and the part is added back; where the traits' rate overshoots so far that the
// medians less it fall (no rising line), the line through the medians as measured, without the
// part, instead of none. Visits at n = 64 (32 KiB copies in) and 128 (16 KiB, inline).
TEST(StreamControllerTest, AVisitWithInlineCopiesIsFittedLessTheirPart) {
  constexpr Workload2 kTiny{0.045, 0.08, 0.044};
  constexpr double kTrueS = 0.009, kBytes = 2 << 20, kLimit = 24576, kRate = 1e-7;
  for (const double believed_rate : {kRate, 6 * kRate}) {
    SCOPED_TRACE(believed_rate);
    DeviceTraits believed = Believed();
    believed.sub_chunk_cost_ms = kTrueS;
    believed.inline_h2d_max_bytes = kLimit;
    believed.inline_h2d_ms_per_byte = believed_rate;
    StreamController c(MakeModel(ModelKind::kCurrent), believed, Options());
    SimulatedCard card(53, 0.0, kTrueS);
    card.ReportIssueTimes(0.012);
    card.InlineCopies(kBytes, kLimit, kRate);
    card.SetUnknownEffect(0.0);
    int star = 0;
    ASSERT_NO_FATAL_FAILURE(StartAtStar(c, card, kTiny, &star));
    ASSERT_LT(star, 64);
    for (int k = 0; k < 2; ++k) {
      ASSERT_NO_FATAL_FAILURE(Visit(c, card, kTiny, 64));
      ASSERT_NO_FATAL_FAILURE(Visit(c, card, kTiny, 128));
    }
    const double i64 = 0.012 + 64 * kTrueS;
    const double i128 = 0.012 + 128 * kTrueS + kRate * kBytes;
    // n = 128 was visited: its prediction is its own time, the issue time with the inline part
    // (AHostBoundVisitIsPredictedByItsOwnTime); the line shows in the model's value there.
    EXPECT_NEAR(c.PredictMs(128, kItems) / i128, 1.0, 1e-6);
    if (believed_rate == kRate) {
      // The slope without the inline part, and the issue time at n = 128 with it added back.
      EXPECT_NEAR(c.sub_chunk_cost_ms(), kTrueS, 1e-9);
      EXPECT_NEAR(c.ModelPredictMs(128, kItems) / i128, 1.0, 1e-6);
    } else {
      // 6x the rate: 128's issue time less the part falls under 64's; the line of the medians
      // as measured (whose free intercept is negative here: through the origin), no part added.
      ASSERT_LT(i128 - 6 * kRate * kBytes, i64);
      const double s = (64 * i64 + 128 * i128) / (64.0 * 64 + 128.0 * 128);
      EXPECT_NEAR(c.sub_chunk_cost_ms(), s, 1e-9);
      EXPECT_NEAR(c.ModelPredictMs(128, kItems), 128 * s, 1e-6);
    }
  }
}

// An n this derivation visited is predicted by its own time, where the host's issue time bounds
// it too. The model would take the larger of the device paths (corrected by a residual held from
// a device-bound n) and the issue line, and sees neither what a batch spends after its last call
// nor anything else the host adds at that n (run 184: add-scalar depth-first call by call at
// n = 128, visited at 0.98-1.01 of the rounds' time, predicted 11-14 % over). Here the card adds
// 2 us a stream past 16 (0.22 ms at n = 128, on 1.16 ms of issue time: still over 0.8 of the
// batch, so the controller counts it bound by the host) that no model term has.
// An n not visited (32) keeps the model's prediction.
TEST(StreamControllerTest, AHostBoundVisitIsPredictedByItsOwnTime) {
  constexpr Workload2 kTiny{0.045, 0.08, 0.044};
  constexpr double kTrueS = 0.009;
  DeviceTraits believed = Believed();
  believed.sub_chunk_cost_ms = kTrueS;
  StreamController c(MakeModel(ModelKind::kCurrent), believed, Options());
  SimulatedCard card(53, 0.0, kTrueS);
  card.ReportIssueTimes(0.012);
  card.SetUnknownEffect(0.002);
  int star = 0;
  ASSERT_NO_FATAL_FAILURE(StartAtStar(c, card, kTiny, &star));
  ASSERT_LT(star, 32);
  for (int k = 0; k < 2; ++k) {
    ASSERT_NO_FATAL_FAILURE(Visit(c, card, kTiny, 64));
    ASSERT_NO_FATAL_FAILURE(Visit(c, card, kTiny, 128));
  }
  const double exact128 = card.Exact(kTiny, 128, kItems);
  const double issue128 = 0.012 + 128 * kTrueS;
  ASSERT_GE(issue128, 0.8 * exact128) << "n = 128 is bound by the host (kIssueBound)";
  EXPECT_NEAR(c.PredictMs(128, kItems) / exact128, 1.0, 1e-6);
  EXPECT_NEAR(c.PredictMs(64, kItems) / card.Exact(kTiny, 64, kItems), 1.0, 1e-6);
  // The model alone there: the larger of the issue line and the device part, which misses the
  // card's unknown part.
  EXPECT_NEAR(c.ModelPredictMs(128, kItems) /
                  std::max(issue128, c.DevicePredictMs(128, kItems)), 1.0, 1e-6);
  EXPECT_LT(c.ModelPredictMs(128, kItems), 0.99 * exact128);
  // Not visited: the larger of the issue line (exact on this card) and the device paths.
  const double line32 = 0.012 + 32 * kTrueS;
  EXPECT_NEAR(c.PredictMs(32, kItems) / std::max(line32, c.DevicePredictMs(32, kItems)), 1.0,
              1e-6);
  EXPECT_EQ(c.PredictMs(32, kItems), c.ModelPredictMs(32, kItems));
}

// Below the smallest n the pipeline visited, the correction runs toward the non-streamed
// measurement (a batch at n = 1) instead of holding that n's: here every streamed batch is 10 %
// under the model and the measurement at n = 1 is exact (run 82 replayed: n = 1 predicted
// 9-13 % low where the correction was held).
TEST(StreamControllerTest, TheNonStreamedMeasurementAnchorsTheCorrectionAtOneStream) {
  StreamController c = Make();
  SimulatedCard card(41, 0.01);
  card.ScaleStreamed(0.9);
  Drive(c, card, kTransferBound, 400);
  int smallest = 1 << 20;
  for (const MeasuredN& m : c.Measured()) {
    if (m.samples > 0) smallest = std::min(smallest, m.streams);
  }
  ASSERT_GE(smallest, 4) << "the test needs n below the visited ones";
  EXPECT_NEAR(c.PredictMs(1, kItems) / card.Exact(kTransferBound, 1, kItems), 1.0, 0.02);
  // At the visited n the samples set the prediction.
  EXPECT_NEAR(c.PredictMs(smallest, kItems) / card.Exact(kTransferBound, smallest, kItems), 1.0,
              0.03);
  // In between, between the two.
  const double at2 = c.PredictMs(2, kItems) / card.Exact(kTransferBound, 2, kItems);
  EXPECT_GT(at2, 0.97);
  EXPECT_LT(at2, 1.0 / 0.9 + 0.01);
  // Where the samples are periods of overlapped batches the measurement (a latency) is no
  // residual of theirs: the correction of the smallest n holds at n = 1, as before.
  StreamController periods = Make();
  SimulatedCard card2(41, 0.01);
  card2.ScaleStreamed(0.9);
  card2.ReportPeriods();
  Drive(periods, card2, kTransferBound, 400);
  EXPECT_NEAR(periods.PredictMs(1, kItems) / card2.Exact(kTransferBound, 1, kItems), 0.9, 0.03);
}

// The anchor check (check_anchor): once the visits are made, one more non-streamed batch; the
// faster of the two anchors the prediction below the visited n. On a noise-free card whose
// first measurement copied 1.5x slow: without the check n = 1 is predicted 1.5x-ish high, with
// it as the card takes it; the plans are the same but for the one batch, and the prediction
// with the first anchor alone is the plain controller's, to the last bit of rounding.
int DriveUntilComplete(StreamController& c, SimulatedCard& card, std::vector<BatchPlan>* plans) {
  for (int i = 0; i < 600; ++i) {
    const BatchPlan p = c.Plan(kItems);
    plans->push_back(p);
    EXPECT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kItems)).ok());
    if (c.CalibrationComplete()) return i;
  }
  return -1;
}

TEST(StreamControllerTest, TheAnchorCheckTakesTheFasterNonStreamedBatchForPredictionsOnly) {
  AdaptiveOptions o = Options();
  o.check_anchor = true;
  StreamController checked = Make(o);
  o.check_anchor = false;
  StreamController plain = Make(o);
  o.check_anchor = true;
  SimulatedCard card_checked(7, 0.0), card_plain(7, 0.0);
  card_checked.ScaleStreamed(0.9);
  card_plain.ScaleStreamed(0.9);
  card_checked.SlowNextMeasurements(1, 1.5);
  card_plain.SlowNextMeasurements(1, 1.5);
  std::vector<BatchPlan> pc, pp;
  const int done_checked = DriveUntilComplete(checked, card_checked, &pc);
  const int done_plain = DriveUntilComplete(plain, card_plain, &pp);
  ASSERT_GE(done_plain, 0);
  ASSERT_EQ(done_checked, done_plain + 1) << "complete one batch later: the check's";
  // The same plans, then the check: a non-streamed kMeasure of this derivation.
  for (int i = 0; i <= done_plain; ++i) {
    EXPECT_EQ(pc[i].kind, pp[i].kind) << i;
    EXPECT_EQ(pc[i].streams, pp[i].streams) << i;
  }
  EXPECT_EQ(pc.back().kind, PlanKind::kMeasure);
  EXPECT_EQ(checked.streams(), plain.streams());
  ASSERT_EQ(checked.events().size(), plain.events().size()) << "the check derives nothing";
  EXPECT_EQ(plain.anchor_check_ms(), 0.0);
  const double exact1 = card_plain.Exact(kTransferBound, 1, kItems);
  EXPECT_NEAR(checked.anchor_check_ms() / exact1, 1.0, 1e-9);
  int smallest = 1 << 20;
  for (const MeasuredN& m : plain.Measured()) {
    if (m.samples > 0) smallest = std::min(smallest, m.streams);
  }
  ASSERT_GE(smallest, 4) << "the test needs n below the visited ones";
  EXPECT_GT(plain.PredictMs(1, kItems) / exact1, 1.3);
  EXPECT_NEAR(checked.PredictMs(1, kItems) / exact1, 1.0, 1e-9);
  for (int n = 1; n <= 128; n *= 2) {
    EXPECT_NEAR(checked.FirstAnchorPredictMs(n, kItems) / plain.PredictMs(n, kItems), 1.0, 1e-12)
        << n;
    if (n >= smallest) {
      EXPECT_NEAR(checked.PredictMs(n, kItems) / plain.PredictMs(n, kItems), 1.0, 1e-12) << n;
    }
  }
  // It stays complete, and the check is not planned again in this derivation.
  for (int i = 0; i < 100; ++i) {
    const BatchPlan p = checked.Plan(kItems);
    EXPECT_NE(p.kind, PlanKind::kMeasure) << i;
    ASSERT_TRUE(checked.Observe(p, card_checked.Run(p, kTransferBound, kItems)).ok());
    EXPECT_TRUE(checked.CalibrationComplete());
  }

  // A check slower than the measurement leaves the anchor as it was (a burst slows a batch).
  StreamController slow_check = Make(o);
  SimulatedCard card_slow(7, 0.0);
  card_slow.ScaleStreamed(0.9);
  std::vector<BatchPlan> ps;
  const int done = DriveUntilComplete(slow_check, card_slow, &ps);
  ASSERT_GE(done, 0);
  EXPECT_NEAR(slow_check.PredictMs(1, kItems) / exact1, 1.0, 1e-9);
  // (the check itself came out of a card without a slowed batch: now re-measure, and slow the
  // new derivation's check)
  slow_check.RequestRemeasure("test");
  int checks = 0;
  const auto drifts = [](const StreamController& c) {
    return std::count_if(c.events().begin(), c.events().end(),
                         [](const RederivationEvent& e) { return e.kind == EventKind::kDrift; });
  };
  for (int i = 0; i < 600 && checks == 0; ++i) {
    const BatchPlan p = slow_check.Plan(kItems);
    // Not complete until the new derivation's check is in: the re-measurement, its visits, then
    // the check (its visits made at the batch before it: owed then all the same).
    EXPECT_FALSE(slow_check.CalibrationComplete()) << "batch " << i;
    if (p.kind == PlanKind::kMeasure && drifts(slow_check) == 1) {  // after the re-derivation
      ++checks;
      card_slow.SlowNextMeasurements(1, 1.5);
    }
    ASSERT_TRUE(slow_check.Observe(p, card_slow.Run(p, kTransferBound, kItems)).ok());
  }
  EXPECT_EQ(checks, 1);
  EXPECT_TRUE(slow_check.CalibrationComplete());
  EXPECT_GT(slow_check.anchor_check_ms() / exact1, 1.3);
  EXPECT_NEAR(slow_check.PredictMs(1, kItems) / exact1, 1.0, 1e-9);
}

// An abandoned check is planned again.
TEST(StreamControllerTest, AnAbandonedAnchorCheckIsPlannedAgain) {
  AdaptiveOptions o = Options();
  o.check_anchor = true;
  StreamController c = Make(o);
  SimulatedCard card(9, 0.0);
  int abandoned = 0, observed = 0;
  for (int i = 0; i < 600 && observed == 0; ++i) {
    const BatchPlan p = c.Plan(kItems);
    if (p.kind == PlanKind::kMeasure && !c.events().empty()) {
      if (abandoned == 0) {
        ++abandoned;
        c.Abandon(p);
        EXPECT_FALSE(c.CalibrationComplete());
        continue;
      }
      ++observed;
    }
    ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kItems)).ok());
  }
  EXPECT_EQ(abandoned, 1);
  EXPECT_EQ(observed, 1);
  EXPECT_TRUE(c.CalibrationComplete());
  EXPECT_GT(c.anchor_check_ms(), 0.0);
}

// The check's batch given back after a re-measurement began (batches in flight: its collection
// failed during the next batch's submission), with the kernel's halves planned first: the
// re-measurement's own kMeasure batch is the measurement, not taken for the check, and derives.
// (Told apart by the plan's mark: before it, the first kMeasure of the generation observed was
// taken for the check, and this re-measurement never completed.)
TEST(StreamControllerTest, AnAnchorCheckGivenBackDuringARemeasurementLeavesItsMeasurementWhole) {
  AdaptiveOptions o = Options();
  o.check_anchor = true;
  o.measure_kernel_halves = true;
  StreamController c = Make(o);
  SimulatedCard card(13, 0.0);
  std::optional<BatchPlan> check;
  for (int i = 0; i < 600 && !check; ++i) {
    const BatchPlan p = c.Plan(kItems);
    if (p.anchor_check) {
      check = p;
      break;
    }
    ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kItems)).ok());
  }
  ASSERT_TRUE(check.has_value()) << "no anchor check planned";
  EXPECT_EQ(check->kind, PlanKind::kMeasure);
  const std::size_t events = c.events().size();
  c.RequestRemeasure("test");
  const BatchPlan halves = c.Plan(kItems);
  ASSERT_EQ(halves.kind, PlanKind::kMeasureHalves);
  EXPECT_FALSE(halves.anchor_check);
  c.Abandon(*check);
  ASSERT_TRUE(c.Observe(halves, card.Run(halves, kTransferBound, kItems)).ok());
  const BatchPlan measure = c.Plan(kItems);
  ASSERT_EQ(measure.kind, PlanKind::kMeasure);
  EXPECT_FALSE(measure.anchor_check);
  ASSERT_TRUE(c.Observe(measure, card.Run(measure, kTransferBound, kItems)).ok());
  ASSERT_EQ(c.events().size(), events + 1) << "the re-measurement derived";
  EXPECT_EQ(c.events().back().kind, EventKind::kDrift);
  // The new derivation plans its own check once its visits are made, and completes.
  bool checked = false;
  for (int i = 0; i < 600 && !c.CalibrationComplete(); ++i) {
    const BatchPlan p = c.Plan(kItems);
    checked = checked || p.anchor_check;
    ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kItems)).ok());
  }
  EXPECT_TRUE(checked);
  EXPECT_TRUE(c.CalibrationComplete());
  EXPECT_GT(c.anchor_check_ms(), 0.0);
}

// Where the check could not change a prediction it is neither planned nor owed: in steady state
// (the measurement is no residual among periods), where n = 1 has samples of its own (n* = 1),
// and where the batches are not of the reference's items. With batches in flight and a
// re-measurement requested while the check is in flight, the check is observed as the check and
// the re-measurement as the measurement.
TEST(StreamControllerTest, TheAnchorCheckIsPlannedOnlyWhereItCanMoveAPrediction) {
  AdaptiveOptions o = Options();
  o.check_anchor = true;
  const auto non_streamed_after_first = [](StreamController& c, SimulatedCard& card,
                                           const Workload2& w, std::int64_t items, int batches) {
    int measures = 0;
    for (int i = 0; i < batches; ++i) {
      const BatchPlan p = c.Plan(items);
      // The anchor check's (the learned level's check, a batch of its own, is not counted).
      measures += p.kind == PlanKind::kMeasure && !p.level_check && !c.events().empty();
      EXPECT_TRUE(c.Observe(p, card.Run(p, w, items)).ok());
    }
    return measures;
  };
  {  // steady state
    AdaptiveOptions steady = o;
    steady.steady_state = true;
    StreamController c = Make(steady);
    SimulatedCard card(31, 0.01);
    card.ReportPeriods();
    EXPECT_EQ(non_streamed_after_first(c, card, kTransferBound, kItems, 400), 0);
    EXPECT_TRUE(c.CalibrationComplete());
  }
  {  // n* = 1: a batch so small that the per-stream overhead makes every split slower
    constexpr Workload2 kTiny{0.002, 0.001, 0.002};
    StreamController c = Make(o);
    SimulatedCard card(33, 0.0);
    EXPECT_EQ(non_streamed_after_first(c, card, kTiny, kItems, 400), 0);
    ASSERT_EQ(c.streams(), 1) << "the case needs n* = 1";
    EXPECT_TRUE(c.CalibrationComplete());
  }
  {  // batches smaller than the measured one: re-measured on them (session 48), once
    StreamController c = Make(o);
    SimulatedCard card(35, 0.01);
    while (c.events().empty()) {
      const BatchPlan p = c.Plan(kItems);
      ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kItems)).ok());
    }
    const std::int64_t items = c.streams();
    const int before = static_cast<int>(c.events().size());
    EXPECT_EQ(non_streamed_after_first(c, card, kTransferBound, items, 600),
              o.measure_batches);
    EXPECT_TRUE(c.CalibrationComplete());
    ASSERT_GT(static_cast<int>(c.events().size()), before);
    EXPECT_NE(c.events()[static_cast<std::size_t>(before)].reason.find("of another size"),
              std::string::npos);
  }
  {  // three batches in flight; a re-measurement requested as the check is planned
    StreamController c = Make(o);
    SimulatedCard card(37, 0.0);
    card.ScaleStreamed(0.9);
    std::deque<BatchPlan> in_flight;
    int checks = 0, measurements = 0;
    for (int i = 0; i < 700; ++i) {
      while (in_flight.size() < 3) {
        in_flight.push_back(c.Plan(kItems));
        const BatchPlan& p = in_flight.back();
        if (p.kind == PlanKind::kMeasure && !c.events().empty() && checks == 0) {
          ++checks;  // the first derivation's check: a drift is declared right after it
          c.RequestRemeasure("test");
        } else if (p.kind == PlanKind::kMeasure) {
          ++measurements;
        }
      }
      const BatchPlan p = in_flight.front();
      in_flight.pop_front();
      ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kItems)).ok());
    }
    ASSERT_EQ(checks, 1);
    // The initial measurement, the re-measurement, and the second derivation's check.
    EXPECT_EQ(measurements, 3);
    int drifts = 0;
    for (const RederivationEvent& e : c.events()) drifts += e.kind == EventKind::kDrift;
    EXPECT_EQ(drifts, 1) << "the check derived nothing; the re-measurement derived once";
    EXPECT_TRUE(c.CalibrationComplete());
    EXPECT_NEAR(c.anchor_check_ms() / card.Exact(kTransferBound, 1, kItems), 1.0, 1e-9);
  }
}

// The level learned over the cooldown is the drift detector's reference; the prediction at n*
// follows n*'s samples since. Here a burst slows the cooldown's batches by 7 % (under the
// detector's 10 %): the level keeps the burst, the prediction does not (runs 89-93: n*'s level
// 5-9 % off its later samples in 2-15 of 124 configurations per sweep, and every n's prediction
// with it).
TEST(StreamControllerTest, ThePredictionAtTheChosenNFollowsItsSamplesNotTheCooldown) {
  StreamController c = Make();
  SimulatedCard card(43, 0.01);
  card.ScaleStreamed(1.07);
  Drive(c, card, kTransferBound, 2 + Options().cooldown_batches);  // warm-up, measure, cooldown
  const int star = c.streams();
  ASSERT_GE(star, 2);
  EXPECT_NEAR(c.PredictMs(star, kItems) / card.Exact(kTransferBound, star, kItems), 1.0, 0.02)
      << "during the burst the prediction is the burst's";
  card.ScaleStreamed(1.0);
  int drift = 0;
  Drive(c, card, kTransferBound, 60, &drift);
  EXPECT_EQ(drift, 0) << "7 % is within the detector's threshold";
  ASSERT_EQ(c.streams(), star);
  EXPECT_NEAR(c.PredictMs(star, kItems) / card.Exact(kTransferBound, star, kItems), 1.0, 0.02);
  // A neighbour measured after the burst is predicted from its own samples as before.
  int neighbours = 0;
  for (const MeasuredN& m : c.Measured()) {
    if (m.streams == star || m.samples < 2) continue;
    SCOPED_TRACE(m.streams);
    ++neighbours;
    EXPECT_NEAR(c.PredictMs(m.streams, kItems) / card.Exact(kTransferBound, m.streams, kItems),
                1.0, 0.03);
  }
  EXPECT_GE(neighbours, 1) << "no n but n* was measured after the burst";
}

// The device part of the prediction (DevicePredictMs) leaves out the host's issue time: where a
// slow host bounds the batch, PredictMs follows the host and the device part stays with the
// device's paths, corrected by the residuals of the n measured off the issue bound (there it
// matches the device; beyond them it extrapolates with the c fitted on-line, 7.7 us here
// against a true 4: the n the host bounds say nothing about the device).
// A card whose host bounds n >= 8 (20 us per sub-chunk) and whose device is 1.1x the believed
// traits, driven 600 batches: n* moves 8 -> 2 -> 4, so n = 2 and 8 are former n* with 32
// samples each.
constexpr Workload2 kTinyBatch{0.045, 0.08, 0.044};
SimulatedCard SlowHostCard() {
  SimulatedCard card(37, 0.01, /*sub_chunk_ms=*/0.02);
  card.ReportIssueTimes(0.012);
  card.ScaleDevice(1.1);
  card.SetUnknownEffect(0.0);
  return card;
}

TEST(StreamControllerTest, TheDevicePartLeavesOutTheHostsIssueTime) {
  constexpr Workload2 kTiny = kTinyBatch;
  StreamController c(MakeModel(ModelKind::kCurrent), Believed(), Options());
  SimulatedCard card = SlowHostCard();
  Drive(c, card, kTiny, 600);
  int host_bound = 0, device_bound = 0;
  for (const MeasuredN& m : c.Measured()) {
    if (m.samples == 0) continue;
    const int n = m.streams;
    SCOPED_TRACE(n);
    const double device = card.DeviceExact(kTiny, n, kItems);
    const double batch = card.Exact(kTiny, n, kItems);
    EXPECT_NEAR(c.PredictMs(n, kItems) / batch, 1.0, 0.03);
    if (batch > 1.3 * device) {
      // The host bounds the batch: the prediction is the host's, the device part below it.
      ++host_bound;
      EXPECT_LT(c.DevicePredictMs(n, kItems), c.PredictMs(n, kItems) * (1.0 - 1e-6));
    } else if (m.issue_median_ms < 0.8 * batch) {
      ++device_bound;
      EXPECT_NEAR(c.DevicePredictMs(n, kItems) / device, 1.0, 0.03);
    }
  }
  EXPECT_GE(host_bound, 1);
  EXPECT_GE(device_bound, 2);
  // Far past the visited n the host's line is the prediction; the device part stays below it.
  EXPECT_GT(c.PredictMs(128, kItems), 1.5 * c.DevicePredictMs(128, kItems));
}

// cap_slow_visits: a visit whose two batches sat in a slow stretch (1.15x) is predicted at the
// slower of what the measured n beside it say there, not at its own time; the plans are the
// same with the cap and without, and so is every other n's prediction. On this card n* = 16,
// its neighbours 32 (visited first) and 8, and the probe 128: 32 lies between 16 and 128.
TEST(StreamControllerTest, ASlowVisitIsCappedByTheMeasuredNBesideIt) {
  std::vector<std::pair<int, int>> plans[2];
  std::optional<StreamController> runs[2];
  int slowed_n = 0;
  for (const bool cap : {false, true}) {
    AdaptiveOptions o = Options();
    o.cap_slow_visits = cap;
    runs[cap].emplace(Make(o));
    StreamController& c = *runs[cap];
    SimulatedCard card(21, 0.005);
    int first = 0;
    for (int i = 0; i < 300; ++i) {
      const BatchPlan p = c.Plan(kItems);
      plans[cap].emplace_back(static_cast<int>(p.kind), p.streams);
      BatchObservation obs = card.Run(p, kTransferBound, kItems);
      if (p.kind == PlanKind::kExplore && (first == 0 || p.streams == first)) {
        first = p.streams;  // the first neighbour visited: every batch of it slowed
        obs.measured_ms *= 1.15;
      }
      ASSERT_TRUE(c.Observe(p, obs).ok());
    }
    slowed_n = first;
  }
  ASSERT_EQ(plans[0], plans[1]) << "predictions only";
  const StreamController& off = *runs[0];
  const StreamController& on = *runs[1];
  ASSERT_EQ(on.streams(), 16);
  ASSERT_EQ(slowed_n, 32);
  int largest = 0;
  for (const MeasuredN& m : on.Measured()) {
    if (m.samples > 0) largest = std::max(largest, m.streams);
  }
  ASSERT_GT(largest, slowed_n) << "the slowed visit has a measured n on either side";
  SimulatedCard card(21, 0.005);
  const double exact = card.Exact(kTransferBound, slowed_n, kItems);
  EXPECT_GT(off.PredictMs(slowed_n, kItems) / exact - 1.0, 0.10) << "its own time";
  EXPECT_NEAR(on.PredictMs(slowed_n, kItems) / exact, 1.0, 0.03) << "the n beside it";
  for (int n = 1; n <= 128; n *= 2) {
    EXPECT_NEAR(on.UncappedPredictMs(n, kItems) / off.PredictMs(n, kItems), 1.0, 1e-12) << n;
    if (n != slowed_n) {
      EXPECT_NEAR(on.PredictMs(n, kItems) / off.PredictMs(n, kItems), 1.0, 1e-12) << n;
    }
  }
}

// What the cap leaves: a visit faster than the measured n beside it say (a shape the model
// lacks: a slow stretch never speeds a batch up), and the largest n measured (the probe), which
// has no measured n above it. Every batch at n = 32 takes 0.95x the card's time, and the probe's
// 1.15x; with the cap both are predicted by their own times, as without it.
TEST(StreamControllerTest, AFasterVisitAndTheLargestMeasuredNKeepTheirOwnTimes) {
  AdaptiveOptions o = Options();
  StreamController c = Make(o);
  SimulatedCard card(21, 0.005);
  int largest = 0;
  for (int i = 0; i < 300; ++i) {
    const BatchPlan p = c.Plan(kItems);
    BatchObservation obs = card.Run(p, kTransferBound, kItems);
    if (!RunsNonStreamed(p.kind) && p.streams == 32) obs.measured_ms *= 0.95;
    if (!RunsNonStreamed(p.kind) && p.streams == 128) obs.measured_ms *= 1.15;
    ASSERT_TRUE(c.Observe(p, obs).ok());
  }
  ASSERT_EQ(c.streams(), 16);
  for (const MeasuredN& m : c.Measured()) {
    if (m.samples > 0) largest = std::max(largest, m.streams);
  }
  ASSERT_EQ(largest, 128);
  EXPECT_NEAR(c.PredictMs(32, kItems) / (0.95 * card.Exact(kTransferBound, 32, kItems)), 1.0,
              0.02);
  EXPECT_NEAR(c.PredictMs(128, kItems) / (1.15 * card.Exact(kTransferBound, 128, kItems)), 1.0,
              0.02);
  for (const int n : {32, 128}) {
    EXPECT_EQ(c.PredictMs(n, kItems), c.UncappedPredictMs(n, kItems)) << n;
  }
}

// A former n* is no visit: its time is many batches' (kRecent or more), and the cap leaves it.
// On SlowHostCard the fitted c leaves n = 2's residual about 4 % above those of the measured n
// beside it; n = 2, n* before the run moved on to 4, keeps its own time (capped, it came out
// 4.2 % under the card, where the test asks 3 %).
TEST(StreamControllerTest, AFormerNStarKeepsItsOwnTime) {
  StreamController c(MakeModel(ModelKind::kCurrent), Believed(), Options());
  SimulatedCard card = SlowHostCard();
  Drive(c, card, kTinyBatch, 600);
  ASSERT_NE(c.streams(), 2);
  bool former = false;
  for (const RederivationEvent& e : c.events()) former = former || e.new_streams == 2;
  ASSERT_TRUE(former) << "n = 2 was n* once";
  int samples = 0;
  for (const MeasuredN& m : c.Measured()) {
    if (m.streams == 2) samples = m.samples;
  }
  ASSERT_GE(samples, 8);
  EXPECT_NEAR(c.PredictMs(2, kItems) / card.Exact(kTinyBatch, 2, kItems), 1.0, 0.03);
  EXPECT_EQ(c.PredictMs(2, kItems), c.UncappedPredictMs(2, kItems));
}

// n* is never capped, whatever its brackets say: here its two neighbours' visits read 7 % fast
// (their residuals below n*'s), and n* keeps the time of its own samples.
TEST(StreamControllerTest, NStarIsNeverCapped) {
  StreamController c = Make();
  SimulatedCard card(21, 0.0);
  int star = 0;
  ASSERT_NO_FATAL_FAILURE(StartAtStar(c, card, kTransferBound, &star));
  ASSERT_GE(star, 4);
  for (const int n : {star / 2, 2 * star}) {
    for (int k = 0; k < 2; ++k) {
      BatchPlan p = c.Plan(kItems);
      p.kind = PlanKind::kExplore;
      p.streams = n;
      BatchObservation o = card.Run(p, kTransferBound, kItems);
      o.measured_ms *= 0.93;
      o.settled = true;
      ASSERT_TRUE(c.Observe(p, o).ok());
    }
  }
  ASSERT_EQ(c.streams(), star) << "no switch yet: a win needs a confirming visit";
  const double exact = card.Exact(kTransferBound, star, kItems);
  EXPECT_NEAR(c.PredictMs(star, kItems) / exact, 1.0, 1e-9);
  EXPECT_EQ(c.PredictMs(star, kItems), c.UncappedPredictMs(star, kItems));
  // The neighbours, read fast, keep their own times too.
  for (const int n : {star / 2, 2 * star}) {
    EXPECT_NEAR(c.PredictMs(n, kItems) / (0.93 * card.Exact(kTransferBound, n, kItems)), 1.0,
                1e-9) << n;
  }
}

// Where batches overlap a visit is a dozen batches: no cap where the samples are periods. On
// this card (periods sampled, steady state not set) n* = 16, and the slowed visit to 32 lies
// between 16 and the probe at 128; every prediction is the same with the option and without.
// (In steady state no visit here has a measured n on either side: no probe, and n* climbs
// through former n*s from n = 1; the guard stands for a case these tests do not build.)
TEST(StreamControllerTest, NoCapOnSlowVisitsWhereSamplesArePeriods) {
  std::optional<StreamController> runs[2];
  int slowed = 0;
  for (const bool cap : {false, true}) {
    AdaptiveOptions o = Options();
    o.cap_slow_visits = cap;
    runs[cap].emplace(Make(o));
    SimulatedCard card(21, 0.005);
    card.ReportPeriods();
    int first = 0;
    for (int i = 0; i < 300; ++i) {
      const BatchPlan p = runs[cap]->Plan(kItems);
      BatchObservation obs = card.Run(p, kTransferBound, kItems);
      if (p.kind == PlanKind::kExplore && (first == 0 || p.streams == first)) {
        first = p.streams;
        obs.measured_ms *= 1.15;
      }
      ASSERT_TRUE(runs[cap]->Observe(p, obs).ok());
    }
    slowed = first;
  }
  ASSERT_EQ(runs[1]->streams(), 16);
  ASSERT_EQ(slowed, 32);
  int largest = 0;
  for (const MeasuredN& m : runs[1]->Measured()) {
    if (m.samples > 0) largest = std::max(largest, m.streams);
  }
  ASSERT_GT(largest, slowed) << "the slowed visit has a measured n on either side";
  for (int n = 1; n <= 128; n *= 2) {
    EXPECT_EQ(runs[1]->PredictMs(n, kItems), runs[0]->PredictMs(n, kItems)) << n;
  }
}

// A card whose batches outgrow the model past n = 32 (1.125x at 64, 1.25x at 128: a shape no c
// explains, as breadth-first batches grow there) and whose lease then slows by 15 % as a whole.
// The first derivation's probe measures n = 128; the drift re-derivation keeps n* = 16 and
// clears the visits. Until its own probe, the n above those it measured again are predicted
// from the times carried over it (adaptive.carry_far_visits), within 3 % of the card; without
// the carry, by the largest n measured since, its residual held out to 128 (over 10 % under).
// Predictions only: the plans are the same either way. Once the new derivation measures n = 128
// itself, the carried times no longer move any prediction. A re-derivation that changes the
// workload's shape (the kernel 8x) keeps no n and carries nothing.
TEST(StreamControllerTest, AKeptDriftCarriesTheFarVisitsAboveTheNMeasuredSince) {
  const auto shape = [](int n) { return n <= 32 ? 1.0 : 1.0 + 0.125 * std::log2(n / 32.0); };
  for (const bool shape_changes : {false, true}) {
    std::optional<StreamController> runs[2];
    std::vector<std::pair<int, int>> plans[2];
    int drift_at[2] = {-1, -1};
    std::map<int, double> before_probe[2];  // predictions once the kept derivation's visits
    bool probe_again[2] = {false, false};   // ... and whether n = 128 was measured again
    std::map<std::pair<int, int>, double> until_probe[2];  // (batch, n) -> prediction
    for (const bool carry : {false, true}) {
      AdaptiveOptions o = Options();
      o.carry_far_visits = carry;
      runs[carry].emplace(Make(o));
      StreamController& c = *runs[carry];
      SimulatedCard card(21, 0.005);
      for (int i = 0; i < 700; ++i) {
        const BatchPlan p = c.Plan(kItems);
        plans[carry].emplace_back(static_cast<int>(p.kind), p.streams);
        BatchObservation obs = card.Run(p, kTransferBound, kItems);
        const double slower = i >= 300 ? 1.15 : 1.0;
        if (RunsNonStreamed(p.kind)) {
          obs.components = {obs.components.h2d_ms * slower,
                            obs.components.kernel_ms * slower * (i >= 300 && shape_changes ? 8 : 1),
                            obs.components.d2h_ms * slower, obs.components.kernel_half_ms * slower};
          obs.measured_ms = obs.components.total_ms();
        } else {
          obs.measured_ms *= slower * shape(p.streams);
        }
        ASSERT_TRUE(c.Observe(p, obs).ok());
        if (drift_at[carry] < 0 && c.events().size() > 1) drift_at[carry] = i;
        if (drift_at[carry] < 0 || probe_again[carry]) continue;
        bool far = false, neighbours = true;
        for (const MeasuredN& m : c.Measured()) far = far || (m.samples > 0 && m.streams > 32);
        for (const int n : {8, 32}) {
          bool seen = false;
          for (const MeasuredN& m : c.Measured()) seen = seen || (m.streams == n && m.samples > 0);
          neighbours = neighbours && seen;
        }
        if (far) {
          probe_again[carry] = true;
          continue;
        }
        if (neighbours && before_probe[carry].empty()) {
          for (int n = 1; n <= 128; n *= 2) before_probe[carry][n] = c.PredictMs(n, kItems);
        }
        // Every batch until then: the n up to the largest measured since are not carried.
        int top = 0;
        for (const MeasuredN& m : c.Measured()) top = m.samples > 0 ? std::max(top, m.streams) : top;
        for (int n = 1; n <= top; n *= 2) until_probe[carry][{i, n}] = c.PredictMs(n, kItems);
      }
    }
    ASSERT_EQ(plans[0], plans[1]) << "predictions only";
    ASSERT_EQ(until_probe[0].size(), until_probe[1].size());
    for (const auto& [at, ms] : until_probe[1]) {
      EXPECT_NEAR(ms / until_probe[0][at], 1.0, 1e-12) << "batch " << at.first << ", n = " << at.second;
    }
    const StreamController& off = *runs[0];
    const StreamController& on = *runs[1];
    ASSERT_GE(drift_at[1], 300) << "the 15 % step was not seen";
    ASSERT_GE(on.events().size(), 2u);
    const RederivationEvent& e = on.events()[1];
    ASSERT_EQ(e.kind, EventKind::kDrift);
    ASSERT_EQ(e.n_kept, !shape_changes) << e.reason;
    ASSERT_EQ(on.streams(), 16);
    ASSERT_FALSE(before_probe[1].empty()) << "the kept derivation's neighbours were not visited";
    ASSERT_TRUE(probe_again[1]) << "the kept derivation's probe did not come in 700 batches";
    SimulatedCard card(21, 0.005);
    for (int n = 1; n <= 128; n *= 2) {
      const double truth = card.Exact(kTransferBound, n, kItems) * 1.15 * shape(n);
      if (n == 128 && !shape_changes) {
        EXPECT_NEAR(before_probe[1][n] / truth, 1.0, 0.03) << "carried";
        EXPECT_LT(before_probe[0][n] / truth, 0.90) << "held from n = 32";
      } else if (n <= 32 || shape_changes) {
        EXPECT_NEAR(before_probe[1][n] / before_probe[0][n], 1.0, 1e-12) << n;
      }
      // Its own probe measured, the carry moves nothing.
      EXPECT_NEAR(on.PredictMs(n, kItems) / off.PredictMs(n, kItems), 1.0, 1e-12) << n;
    }
    if (!shape_changes) {
      EXPECT_GT(before_probe[1][64] / before_probe[0][64], 1.05) << "between 32 and 128";
    }
  }
}

// The carry chains: the lease steps by 15 % twice, the second step 40 batches after the first
// drift, before that derivation's probe; both re-derivations keep n* = 16. After the second,
// n = 128 (measured only in the first derivation) is still predicted from its carried time,
// within 3 % of the card, and without the chain it would be held from n = 32 (over 10 % under).
TEST(StreamControllerTest, AFarVisitIsCarriedOverTwoKeptReDerivations) {
  const auto shape = [](int n) { return n <= 32 ? 1.0 : 1.0 + 0.125 * std::log2(n / 32.0); };
  AdaptiveOptions o = Options();
  o.carry_far_visits = true;
  StreamController c = Make(o);
  SimulatedCard card(21, 0.005);
  std::vector<int> drifts;  // the batch of each drift event
  std::optional<double> at_128;
  bool far_again = false;
  for (int i = 0; i < 700 && !at_128 && !far_again; ++i) {
    const BatchPlan p = c.Plan(kItems);
    BatchObservation obs = card.Run(p, kTransferBound, kItems);
    double slower = i >= 300 ? 1.15 : 1.0;
    if (!drifts.empty() && i >= drifts.front() + 40) slower *= 1.15;
    if (RunsNonStreamed(p.kind)) {
      obs.components = {obs.components.h2d_ms * slower, obs.components.kernel_ms * slower,
                        obs.components.d2h_ms * slower, obs.components.kernel_half_ms * slower};
      obs.measured_ms = obs.components.total_ms();
    } else {
      obs.measured_ms *= slower * shape(p.streams);
    }
    ASSERT_TRUE(c.Observe(p, obs).ok());
    if (c.events().size() > drifts.size() + 1) drifts.push_back(i);
    if (drifts.size() < 2) continue;
    bool neighbours = true;
    for (const int n : {8, 32}) {
      bool seen = false;
      for (const MeasuredN& m : c.Measured()) {
        seen = seen || (m.streams == n && m.samples > 0);
        far_again = far_again || (m.samples > 0 && m.streams > 32);
      }
      neighbours = neighbours && seen;
    }
    if (neighbours && !far_again) at_128 = c.PredictMs(128, kItems);
  }
  ASSERT_EQ(drifts.size(), 2u);
  for (std::size_t k = 1; k < c.events().size(); ++k) {
    ASSERT_TRUE(c.events()[k].n_kept) << c.events()[k].reason;
    ASSERT_EQ(c.events()[k].new_streams, 16);
  }
  ASSERT_FALSE(far_again) << "the second derivation's probe came before its neighbours";
  ASSERT_TRUE(at_128.has_value());
  const double truth = card.Exact(kTransferBound, 128, kItems) * 1.15 * 1.15 * shape(128);
  EXPECT_NEAR(*at_128 / truth, 1.0, 0.03);
}

// Drives two controllers, the carry off and on, over the same simulated card: streamed batches
// scaled by shape(n) and, from batch 300, the lease 15 % slower; `after_drift(k, obs, plan)`
// changes the batches from k batches after the first drift on. Returns the plans of both and, per
// batch after the first drift, each controller's prediction at every n up to `upto(c)`.
struct CarryPair {
  std::vector<std::pair<int, int>> plans[2];
  std::map<std::pair<int, int>, double> predictions[2];  // (batch, n)
  std::vector<RederivationEvent> events;                 // the carrying controller's
};
template <typename Shape, typename AfterDrift, typename UpTo>
CarryPair RunCarryPair(Shape shape, AfterDrift after_drift, UpTo upto, int batches) {
  CarryPair out;
  for (const bool carry : {false, true}) {
    AdaptiveOptions o = Options();
    o.carry_far_visits = carry;
    StreamController c = Make(o);
    SimulatedCard card(21, 0.005);
    int drift = -1;
    for (int i = 0; i < batches; ++i) {
      const BatchPlan p = c.Plan(kItems);
      out.plans[carry].emplace_back(static_cast<int>(p.kind), p.streams);
      BatchObservation obs = card.Run(p, kTransferBound, kItems);
      const double slower = i >= 300 ? 1.15 : 1.0;
      if (RunsNonStreamed(p.kind)) {
        obs.components = {obs.components.h2d_ms * slower, obs.components.kernel_ms * slower,
                          obs.components.d2h_ms * slower, obs.components.kernel_half_ms * slower};
        obs.measured_ms = obs.components.total_ms();
      } else {
        obs.measured_ms *= slower * shape(p.streams);
      }
      if (drift >= 0) after_drift(i - drift, obs, p);
      EXPECT_TRUE(c.Observe(p, obs).ok());
      if (drift < 0 && c.events().size() > 1) drift = i;
      if (drift < 0) continue;
      for (int n = 1; n <= upto(c); n *= 2) out.predictions[carry][{i, n}] = c.PredictMs(n, kItems);
    }
    if (carry) out.events = c.events();
  }
  return out;
}

int LargestSampled(const StreamController& c) {
  int top = 0;
  for (const MeasuredN& m : c.Measured()) top = m.samples > 0 ? std::max(top, m.streams) : top;
  return top;
}

// A carried time brackets no visit: n = 128 runs at 0.85x the model (its residual below the
// others), and after the kept re-derivation every batch at n = 32 is 1.2x slow, a visit the cap
// would bring down to a bracket above it. With the carry, 128's carried residual is such a
// bracket; it is appended after the cap, so n = 32 and every n up to the largest sampled are
// predicted as without the carry, batch by batch.
TEST(StreamControllerTest, ACarriedTimeBracketsNoVisit) {
  const CarryPair r = RunCarryPair(
      [](int n) { return n == 128 ? 0.85 : 1.0; },
      [](int, BatchObservation& obs, const BatchPlan& p) {
        if (!RunsNonStreamed(p.kind) && p.streams == 32) obs.measured_ms *= 1.2;
      },
      LargestSampled, 700);
  ASSERT_EQ(r.plans[0], r.plans[1]) << "predictions only";
  ASSERT_GE(r.events.size(), 2u);
  ASSERT_TRUE(r.events[1].n_kept) << r.events[1].reason;
  ASSERT_EQ(r.predictions[0].size(), r.predictions[1].size());
  int at_32 = 0;
  for (const auto& [at, ms] : r.predictions[1]) {
    at_32 += at.second == 32;
    EXPECT_NEAR(ms / r.predictions[0].at(at), 1.0, 1e-12) << "batch " << at.first << ", n = "
                                                          << at.second;
  }
  EXPECT_GT(at_32, 0) << "n = 32 never the largest sampled n";
}

// Any re-derivation that does not keep n clears what was carried: a kept drift (15 %), then 40
// batches later the kernel grows 8x (another workload). From then on every prediction, at every
// n, is the same with the carry and without it.
TEST(StreamControllerTest, AReDerivationThatKeepsNoNCarriesNothing) {
  const CarryPair r = RunCarryPair(
      [](int n) { return n <= 32 ? 1.0 : 1.0 + 0.125 * std::log2(n / 32.0); },
      [](int k, BatchObservation& obs, const BatchPlan& p) {
        if (k < 40) return;
        if (RunsNonStreamed(p.kind)) {
          obs.components.kernel_ms *= 8.0;
          obs.components.kernel_half_ms *= 8.0;
          obs.measured_ms = obs.components.total_ms();
        } else {
          obs.measured_ms *= 1.5;
        }
      },
      [](const StreamController&) { return 128; }, 700);
  ASSERT_EQ(r.plans[0], r.plans[1]) << "predictions only";
  std::vector<const RederivationEvent*> drifts;
  for (const RederivationEvent& e : r.events) {
    if (e.kind == EventKind::kDrift) drifts.push_back(&e);
  }
  ASSERT_GE(drifts.size(), 2u);
  ASSERT_TRUE(drifts[0]->n_kept) << drifts[0]->reason;
  ASSERT_FALSE(drifts[1]->n_kept) << drifts[1]->reason;
  // The batch of the second drift: the first whose predictions at n = 128 agree again.
  int differ = 0, after = 0;
  bool cleared = false;
  for (const auto& [at, ms] : r.predictions[1]) {
    const bool same = std::abs(ms / r.predictions[0].at(at) - 1.0) < 1e-12;
    if (at.second == 128 && !same && !cleared) ++differ;
    if (at.second == 128 && !same && cleared) ++after;
    cleared = cleared || (at.second == 128 && same && differ > 0);
  }
  EXPECT_GT(differ, 0) << "the kept drift carried nothing";
  EXPECT_EQ(after, 0) << "a carried time moved a prediction after the workload changed";
}

TEST(StreamControllerTest, OptionsAreValidated) {
  EXPECT_TRUE(ValidateAdaptiveOptions(Options()).ok());
  AdaptiveOptions o = Options();
  o.exploration.budget = 0.9;
  EXPECT_NE(ValidateAdaptiveOptions(o).message().find("exploration budget"), std::string::npos);
  o = Options();
  o.cooldown_batches = 0;
  EXPECT_FALSE(ValidateAdaptiveOptions(o).ok());
  o = Options();
  o.detector.threshold = -1;
  EXPECT_FALSE(ValidateAdaptiveOptions(o).ok());
  o = Options();
  o.exploration.run = -1;
  EXPECT_NE(ValidateAdaptiveOptions(o).message().find("exploration run"), std::string::npos);
  o = Options();
  o.measure_batches = 0;
  EXPECT_NE(ValidateAdaptiveOptions(o).message().find("measure_batches"), std::string::npos);
  o = Options();
  o.exploration.probe_ratio = -1.0;
  EXPECT_NE(ValidateAdaptiveOptions(o).message().find("probe_ratio"), std::string::npos);
  o = Options();
  o.exploration.second_visit_batches = -1;
  EXPECT_NE(ValidateAdaptiveOptions(o).message().find("second_visit_batches"), std::string::npos);
}

// streams.divisors_only: the item count comes with each batch, so the options are valid without
// one (a config could never set the key before: StreamPipeline::Create refused it), and every n
// the controller runs divides the batch's items. 999999 = 3^3 7 11 13 37.
TEST(StreamControllerTest, DivisorsOnlyIsCheckedAgainstEachBatchsItems) {
  AdaptiveOptions o = Options();
  o.candidates.powers_of_two = false;
  o.candidates.divisors_only = true;
  ASSERT_TRUE(ValidateAdaptiveOptions(o).ok()) << ValidateAdaptiveOptions(o).message();
  StreamController c = Make(o);
  SimulatedCard card(7);
  constexpr std::int64_t kOddItems = 999'999;
  std::set<int> ran;
  for (int i = 0; i < 300; ++i) {
    const BatchPlan p = c.Plan(kOddItems);
    if (p.kind == PlanKind::kStreamed || p.kind == PlanKind::kExplore) ran.insert(p.streams);
    ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kOddItems)).ok());
  }
  ASSERT_FALSE(ran.empty());
  for (int n : ran) EXPECT_EQ(kOddItems % n, 0) << n;
  EXPECT_GT(*ran.rbegin(), 1);  // it streamed, among the divisors
}

// The visit length one batch at a time: the pipeline's check at Create and the config's at load.
TEST(StreamControllerTest, AVisitTooShortForItsSamplesIsRefusedOneBatchAtATime) {
  ExplorationOptions e;
  e.samples_per_candidate = 2;
  e.run = 2;
  const absl::Status s = ValidateExplorationRun(e, /*max_in_flight=*/1);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("exploration.run = 2 is too short one batch at a time"),
            std::string::npos) << s.message();
  EXPECT_NE(s.message().find("samples_per_candidate + 1 = 3"), std::string::npos);
  EXPECT_TRUE(ValidateExplorationRun(e, /*max_in_flight=*/2).ok());  // overlapped: own windows
  e.run = 3;
  EXPECT_TRUE(ValidateExplorationRun(e, 1).ok());
  e.run = 0;  // picks samples_per_candidate + 1
  EXPECT_TRUE(ValidateExplorationRun(e, 1).ok());
  e.run = 1;
  e.enabled = false;  // no visits
  EXPECT_TRUE(ValidateExplorationRun(e, 1).ok());
}

// Traits or options the constructor finds bad: every Observe says so (bad traits left every
// derivation at n = 1 with OK; measure_batches = 0 read an empty measurement and crashed).
TEST(StreamControllerTest, BadTraitsOrOptionsAreReportedByObserve) {
  DeviceTraits t = Believed();
  t.h2d.latency_ms = -1.0;
  StreamController bad_traits(MakeModel(ModelKind::kCurrent), t, Options());
  SimulatedCard card(5);
  BatchPlan p = bad_traits.Plan(kItems);
  absl::Status s = bad_traits.Observe(p, card.Run(p, kTransferBound, kItems));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("StreamController traits: h2d latency_ms"), std::string::npos)
      << s.message();
  AdaptiveOptions o = Options();
  o.measure_batches = 0;
  StreamController bad_options(MakeModel(ModelKind::kCurrent), Believed(), o);
  for (int i = 0; i < 4; ++i) {
    p = bad_options.Plan(kItems);
    s = bad_options.Observe(p, card.Run(p, kTransferBound, kItems));
    EXPECT_NE(s.message().find("StreamController options: measure_batches is 0"),
              std::string::npos) << s.message();
  }
  StreamController no_model(nullptr, Believed(), Options());
  p = no_model.Plan(kItems);
  EXPECT_FALSE(no_model.Observe(p, card.Run(p, kTransferBound, kItems)).ok());
  EXPECT_EQ(MedianMeasurement({}).items, 0);  // no batch, no measurement (it crashed)
}

TEST(StreamControllerTest, EventJsonHasEveryField) {
  // Every field, each a value of its own, and a reason that needs escaping: one line, exactly.
  RederivationEvent e;
  e.kind = EventKind::kDrift;
  e.reason = "window mean \"slower\"\nby 1.5x";
  e.old_streams = 16;
  e.new_streams = 64;
  e.old_predicted_ms = 1.5;
  e.new_predicted_ms = 2.25;
  e.measured_ms = 3.125;
  e.mean_ratio = 0.875;
  e.stream_overhead_ms = 0.0625;
  e.sub_chunk_cost_ms = 0.015625;
  const std::string j = EventJson(e, 1234);
  EXPECT_EQ(j,
            "{\"batch\":1234,\"event\":\"drift\",\"reason\":\"window mean \\\"slower\\\"\\nby 1.5x\","
            "\"old_streams\":16,\"new_streams\":64,\"old_predicted_ms\":1.5,"
            "\"new_predicted_ms\":2.25,\"measured_ms\":3.125,\"mean_ratio\":0.875,"
            "\"stream_overhead_ms\":0.0625,\"sub_chunk_cost_ms\":0.015625,\"n_kept\":false}");
  EXPECT_EQ(j.find('\n'), std::string::npos);
  e.n_kept = true;
  EXPECT_NE(EventJson(e, 1).find("\"n_kept\":true}"), std::string::npos);
  // A caller's reason (RequestRemeasure) with a stray byte still gives valid UTF-8.
  e.reason = "user: re-measure \xFF after \xC3\xA9";
  EXPECT_NE(EventJson(e, 1).find("\"reason\":\"user: re-measure \\ufffd after \xC3\xA9\""),
            std::string::npos)
      << EventJson(e, 1);
}



// A workload that steps while the level at n* is learned (the first cooldown_batches batches at
// n* after a derivation) would make the step that level, the drift detector's reference, and
// never be declared: the learned level is checked against the derivation's prediction
// (CheckLearnedLevel). A step later in the cooldown leaves the level at the old workload, and the
// detector declares it (k = 5 and on).
TEST(StreamControllerTest, AStepWhileTheLevelIsLearnedIsFollowed) {
  constexpr Workload2 kHeavier{1.23, 4.0, 1.22};  // the kernel 60x heavier
  for (int k : {0, 1, 2, 4, 5, 7}) {
    StreamController c = Make();
    SimulatedCard card(21);
    // The measurement and k streamed batches at n* of the first workload; then the second.
    int streamed = 0;
    while (true) {
      const BatchPlan p = c.Plan(kItems);
      const bool at_star = p.kind == PlanKind::kStreamed;
      if (at_star && streamed == k) break;
      streamed += at_star;
      ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kItems)).ok());
    }
    ASSERT_EQ(c.events().size(), 1u) << "k = " << k;
    Drive(c, card, kHeavier, 300);
    const std::vector<RederivationEvent>& ev = c.events();
    ASSERT_GE(ev.size(), 2u) << "k = " << k << ": the step was never re-measured";
    EXPECT_EQ(ev[1].kind, EventKind::kDrift) << "k = " << k;
    EXPECT_FALSE(ev[1].n_kept) << "k = " << k << ": " << ev[1].reason;
    if (k <= 4) {
      EXPECT_NE(ev[1].reason.find("the level learned at n="), std::string::npos)
          << "k = " << k << ": " << ev[1].reason;
    } else {
      EXPECT_NE(ev[1].reason.find("slower than expected"), std::string::npos)
          << "k = " << k << ": " << ev[1].reason;
    }
    // The prediction is of the second workload, and its n near its best.
    const int n = c.streams();
    EXPECT_NEAR(c.PredictMs(n, kItems) / card.Exact(kHeavier, n, kItems), 1.0, 0.10)
        << "k = " << k << ", n = " << n;
    const int best = card.BestN(kHeavier, {1, 2, 4, 8, 16, 32, 64, 128}, kItems);
    EXPECT_LE(card.Exact(kHeavier, n, kItems) / card.Exact(kHeavier, best, kItems), 1.05)
        << "k = " << k << ": chose " << n << ", best " << best;
  }
}

// Where the model is off at n* beyond that band on a stationary workload (a shape it lacks), the
// check's one non-streamed batch finds the measurement's workload: no re-measurement, and n*'s
// learned level stands. One such batch per derivation, whatever the batches after.
TEST(StreamControllerTest, AModelOffAtNStarCostsOneNonStreamedBatchAndNoRemeasurement) {
  AdaptiveOptions o = Options();
  o.exploration.enabled = false;  // n* stays the model's: its error stays
  struct Case {
    double streamed_scale;
    int checks;  // level-check batches expected in 400 batches
  };
  for (const Case& k : {Case{1.6, 1}, Case{0.6, 1}, Case{1.2, 0}}) {
    StreamController c = Make(o);
    SimulatedCard card(5);
    card.ScaleStreamed(k.streamed_scale);
    int checks = 0, measures = 0;
    for (int i = 0; i < 400; ++i) {
      const BatchPlan p = c.Plan(kItems);
      checks += p.level_check;
      measures += p.kind == PlanKind::kMeasure && !p.level_check;
      ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kItems)).ok());
    }
    EXPECT_EQ(checks, k.checks) << "x" << k.streamed_scale;
    EXPECT_EQ(measures, 1) << "x" << k.streamed_scale << ": the first measurement only";
    EXPECT_EQ(c.events().size(), 1u) << "x" << k.streamed_scale << ": " << c.events().back().reason;
  }
  // In steady state (periods of overlapped batches), no check.
  {
    AdaptiveOptions steady = o;
    steady.steady_state = true;
    StreamController c = Make(steady);
    SimulatedCard card(5);
    card.ScaleStreamed(1.6);
    card.ReportPeriods();
    for (int i = 0; i < 400; ++i) {
      const BatchPlan p = c.Plan(kItems);
      EXPECT_FALSE(p.level_check) << i;
      ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kItems)).ok());
    }
  }
  // With adapt off, no check.
  o.adapt = false;
  StreamController fixed = Make(o);
  SimulatedCard off(5);
  off.ScaleStreamed(1.6);
  for (int i = 0; i < 400; ++i) {
    const BatchPlan p = fixed.Plan(kItems);
    EXPECT_FALSE(p.level_check);
    ASSERT_TRUE(fixed.Observe(p, off.Run(p, kTransferBound, kItems)).ok());
  }
}

// The check's batch given back is planned again; one observed after a re-derivation is stale.
// Runs the stationary workload until the learned level's check is planned (within 100 batches);
// that plan, not yet observed (a plan without level_check where none came).
BatchPlan PlanUntilLevelCheck(StreamController& c, SimulatedCard& card) {
  for (int i = 0; i < 100; ++i) {
    const BatchPlan p = c.Plan(kItems);
    if (p.level_check) return p;
    EXPECT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kItems)).ok());
  }
  return BatchPlan{};
}

TEST(StreamControllerTest, ALevelCheckGivenBackIsPlannedAgain) {
  AdaptiveOptions o = Options();
  o.exploration.enabled = false;
  StreamController c = Make(o);
  SimulatedCard card(5);
  card.ScaleStreamed(1.6);
  const BatchPlan check = PlanUntilLevelCheck(c, card);
  ASSERT_TRUE(check.level_check);
  c.Abandon(check);
  const BatchPlan again = c.Plan(kItems);
  EXPECT_TRUE(again.level_check);
  EXPECT_EQ(again.kind, PlanKind::kMeasure);
  // Not planned on a batch of other items (its fixed costs would read as another shape): the
  // batch runs at n*, and the check waits for one of the measurement's items.
  c.Abandon(again);
  const BatchPlan small = c.Plan(kItems / 10);
  EXPECT_FALSE(small.level_check);
  ASSERT_TRUE(c.Observe(small, card.Run(small, kTransferBound, kItems / 10)).ok());
  const BatchPlan third = c.Plan(kItems);
  ASSERT_TRUE(third.level_check);
  // Observed with another workload's parts: a re-measurement follows.
  ASSERT_TRUE(c.Observe(third, card.Run(third, Workload2{1.23, 4.0, 1.22}, kItems)).ok());
  EXPECT_EQ(c.Plan(kItems).kind, PlanKind::kMeasureHalves);
}

// A check observed after a re-derivation is of the old generation: ignored, however its parts
// read; one observed while a re-measurement is already asked for leaves that one's reason.
TEST(StreamControllerTest, AStaleOrSupersededLevelCheckDerivesNothing) {
  AdaptiveOptions o = Options();
  o.exploration.enabled = false;
  constexpr Workload2 kOther{1.23, 4.0, 1.22};
  {  // stale: a caller's measurement derives in between
    StreamController c = Make(o);
    SimulatedCard card(5);
    card.ScaleStreamed(1.6);
    const BatchPlan check = PlanUntilLevelCheck(c, card);
    ASSERT_TRUE(check.level_check);
    BatchPlan caller{PlanKind::kMeasure, 1, 0.0, kNoGeneration};
    ASSERT_TRUE(c.Observe(caller, card.Run(caller, kTransferBound, kItems)).ok());
    const std::size_t events = c.events().size();
    ASSERT_TRUE(c.Observe(check, card.Run(check, kOther, kItems)).ok());
    EXPECT_EQ(c.events().size(), events);
    EXPECT_NE(c.Plan(kItems).kind, PlanKind::kMeasureHalves);
  }
  {  // superseded: a re-measurement asked for while the check is in flight
    StreamController c = Make(o);
    SimulatedCard card(5);
    card.ScaleStreamed(1.6);
    const BatchPlan check = PlanUntilLevelCheck(c, card);
    ASSERT_TRUE(check.level_check);
    c.RequestRemeasure("the caller asked");
    ASSERT_TRUE(c.Observe(check, card.Run(check, kOther, kItems)).ok());
    for (int i = 0; i < 10 && c.events().size() < 2; ++i) {
      const BatchPlan p = c.Plan(kItems);
      ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kItems)).ok());
    }
    ASSERT_EQ(c.events().size(), 2u);
    EXPECT_NE(c.events()[1].reason.find("the caller asked"), std::string::npos)
        << c.events()[1].reason;
    EXPECT_EQ(c.events()[1].reason.find("the level learned"), std::string::npos)
        << c.events()[1].reason;
    EXPECT_EQ(c.events()[1].mean_ratio, 1.0);
  }
}

// Overlapped batches' periods (several in flight) are no level a latency predicts: no check,
// with steady_state off too.
TEST(StreamControllerTest, NoLevelCheckOverPeriods) {
  AdaptiveOptions o = Options();
  o.exploration.enabled = false;
  StreamController c = Make(o);
  SimulatedCard card(5);
  card.ScaleStreamed(0.6);
  card.ReportPeriods();
  for (int i = 0; i < 200; ++i) {
    const BatchPlan p = c.Plan(kItems);
    EXPECT_FALSE(p.level_check) << i;
    ASSERT_TRUE(c.Observe(p, card.Run(p, kTransferBound, kItems)).ok());
  }
}

}  // namespace
}  // namespace streampipe
