// The decisions of a pipeline in automatic mode, without CUDA: which batch to run how, and
// when to re-derive n. The pipeline asks Plan() before each batch and reports the measurement
// with Observe(). Pure CPU, so tests drive it with synthetic timings.
//
//   streampipe::StreamController c(std::move(model), traits, {});
//   BatchPlan p = c.Plan(items);   // warm-up, measure (non-streamed), then streamed/explore
//   ... run the batch as planned ...
//   STREAMPIPE_RETURN_IF_ERROR(c.Observe(p, {.items = items, .measured_ms = ms, ...}));
//
// The method (seed 000 section 4.4, made robust; docs/design.md "Adaptation"):
//   1. Measure one batch non-streamed (components) and choose n* with the model.
//   2. Learn the measured level at n* over `cooldown_batches` batches, the drift detector's
//      reference. The calibrated prediction of n* is the lower median of its samples since (the
//      level until there are as many); of another n measured, its own time (the host's issue
//      time bounding it or not); of an n not measured, the model corrected by the residuals of
//      the n measured (docs/models.md, "Calibrated prediction").
//   3. Each streamed batch is compared with its prediction by the drift detector; on drift,
//      measure one batch non-streamed again and re-derive (back to 1).
//   4. Within a budget (a token bucket, at most `exploration.budget` of the batches), explore
//      the neighbours of n* in the candidate list, and any n the re-fitted model prefers. The
//      per-stream overhead c is re-fitted from the explored times relative to n* (on-line
//      calibration), with the issue cost s where the traits have one; once per derivation a
//      far candidate (`exploration.probe_ratio`) is visited to pin them. Where the batches
//      report their host issue time, s is measured instead: the slope of issue time in n. A
//      neighbour whose measured time (lower median) beats n* by `switch_margin`, and by three
//      standard errors of n*'s measured noise, on `confirmations` visits in a row, becomes n*.
//      A visit that confirms an earlier win comes a few batches later, outside the budget (it
//      is expected to gain).
//      A neighbour faster by the margin but not beyond the noise is visited again and judged
//      on up to 8 samples of the comparison (a sequential test).
//
// Not thread-safe: one controller per pipeline.
#ifndef STREAMPIPE_CORE_STREAM_CONTROLLER_HPP_
#define STREAMPIPE_CORE_STREAM_CONTROLLER_HPP_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "streampipe/core/drift_detector.hpp"
#include "streampipe/core/model.hpp"
#include "streampipe/core/model_types.hpp"
#include "streampipe/core/optimizer.hpp"

namespace streampipe {

enum class PlanKind {
  kWarmup,    // run non-streamed; timing discarded (module loading, first use)
  kMeasure,   // run non-streamed with events around each component
  // Run non-streamed with the kernel launched over each half of the items in turn, events
  // around each: the kernel's time at half the batch (ComponentTimes::kernel_half_ms). Planned
  // once per (re-)measurement, before its kMeasure batches; not part of their median.
  kMeasureHalves,
  kStreamed,  // run on the chosen number of streams
  kExplore,   // run on a neighbouring number of streams, to calibrate and compare
};
const char* PlanKindName(PlanKind kind);
// Warm-ups and a measurement's batches (kMeasure, kMeasureHalves): run without streams.
inline bool RunsNonStreamed(PlanKind kind) {
  return kind == PlanKind::kWarmup || kind == PlanKind::kMeasure ||
         kind == PlanKind::kMeasureHalves;
}

struct BatchPlan {
  PlanKind kind = PlanKind::kStreamed;
  int streams = 1;
  double predicted_ms = 0.0;  // the (calibrated) prediction for this batch; 0 for warm-up
  // The derivation the plan belongs to. With batches in flight, a plan made before a
  // re-derivation is observed after it: its sample is stale and ignored. kNoGeneration marks
  // batches the controller did not plan (a fixed n), which it ignores too.
  std::int64_t generation = 0;
  // A kMeasure batch that is the anchor check (AdaptiveOptions::check_anchor): it derives
  // nothing, and is told from a re-measurement's kMeasure batches of the same generation by
  // this mark, whatever the order they are observed or given back in.
  bool anchor_check = false;
  // A kMeasure batch that checks the workload's shape after the level learned at n* came out
  // far from its prediction (StreamController::CheckLearnedLevel): it derives nothing itself.
  bool level_check = false;
};
inline constexpr std::int64_t kNoGeneration = -1;

struct BatchObservation {
  std::int64_t items = 0;
  double measured_ms = 0.0;   // the batch's device time (the period, in continuous mode)
  ComponentTimes components;  // for kMeasure
  double h2d_bytes = 0.0;
  double d2h_bytes = 0.0;
  // Host time that enqueuing the batch took (0: not known). Streamed batches whose issue time
  // is known pin the issue cost s directly (docs/design.md, "Issue cost").
  double issue_ms = 0.0;
  // False when the time is not the batch's own: in continuous mode, a batch issued while
  // batches of another n were in flight shares the GPU with them. Counted, not sampled.
  bool settled = true;
  // The time is the period of batches in flight together (continuous mode), not one batch's
  // latency.
  bool overlapped = false;
};

struct ExplorationOptions {
  bool enabled = true;
  double budget = 0.05;          // fraction of batches whose exploration is paid (confirming
                                 // visits of a neighbour that measured faster come on top)
  int burst = 2;                 // tokens right after a derivation (a visit costs `run`)
  int samples_per_candidate = 2; // measurements of a neighbour before it is compared
  double switch_margin = 0.01;   // a neighbour replaces n* if its time is this much faster
                                 // (and faster than the noise of n*'s samples allows)
  int revisit_batches = 500;     // a neighbour is explored again after this many batches
  // Visits in a row that must find a neighbour faster before it becomes n* (each on fresh
  // samples): the machine's speed drifts too, and two wins apart in time rarely both are noise.
  int confirmations = 2;
  // Consecutive batches per visit of a neighbour; 0: samples_per_candidate (the pipeline makes
  // it samples_per_candidate + 1 one batch at a time, the first batch at a new n running cold,
  // and 2 x max_in_flight x (samples_per_candidate + 1) where batches overlap: one window of
  // 2 x max_in_flight batches to settle at the new n, then one window per sample).
  int run = 0;
  // Calibration probe: once per derivation, after the neighbours, visit the largest candidate
  // that the model predicts at most this many times n*'s time (0: never). The neighbours of n*
  // differ from it by a few per cent, too little to pin the per-stream overhead c and the issue
  // cost s; a far point does (run 24's sweeps: on-line fits 2x off at 4-8 n*). Not in steady
  // state (overlapped batches), where a visit is a dozen batches. docs/design.md.
  double probe_ratio = 3.0;
  // A second visit of each neighbour of n*, with at least this many batches between the last
  // sample of its first visit of a derivation and the second's first batch, on top of the
  // budget (0: none). A visit's batches run back to back, and a slow stretch of the machine
  // slows them together; two visits apart in time rarely both sit in one (session 40,
  // docs/results.md). Owed until its samples are in (a visit cut short is made once more); a
  // confirming or undecided comparison's visit counts as the second, however soon it came. Not
  // in steady state (overlapped batches), where a visit is a dozen batches.
  int second_visit_batches = 0;
};

struct AdaptiveOptions {
  CandidateOptions candidates;  // bounds on n; num_items is set per batch
  int warmup_batches = 1;
  // Non-streamed batches per (re-)measurement; the derivation uses their median components
  // (per item). 1 is the papers' method; more resist a GPU shared with bursts of other work,
  // where one batch may measure the burst.
  int measure_batches = 1;
  // One more non-streamed batch per (re-)measurement, its kernel launched over each half of
  // the items (kMeasureHalves): the part of the kernel's time that every sub-chunk pays whatever
  // its size (docs/models.md, "The current-GPU model"). Off: the kernel of a sub-chunk is
  // modelled as 1/n of the batch's (the papers'), or as the last measured halves said.
  bool measure_kernel_halves = true;
  // One more non-streamed batch per derivation, once its calibration has made every visit it
  // owes (CalibrationComplete waits for it): the anchor of the calibrated prediction at n = 1
  // (and below the n visited) becomes the faster of the two non-streamed batches. Predictions
  // only: the choice, exploration and drift read the (re-)measurement as before. A single
  // non-streamed batch can sit in a burst of the host's link (copies 1.1-2.2x the rounds',
  // runs 187-191) and every prediction below the visited n with it: on run 193's lease the
  // check cut the points over 10 % from 128 to 95 (docs/results.md, session 34). Not in steady
  // state nor where the samples are periods: the anchor is no residual there, the batch would
  // be cost alone. Off by default: on run 194's drifting lease (28-46 re-derivations in 400
  // batches) its batches cost issue 4's stationary workloads 2.1 % against the best fixed n.
  bool check_anchor = false;
  // A visited n predicted at most at what the measured n beside it say: at an n this
  // derivation visited (not n*, and with fewer samples than a former n* keeps: a visit, or two)
  // whose batches the device's paths bound, with a measured n on either side of it (the
  // non-streamed measurement's anchor at n = 1 counts), the prediction is the faster of the
  // visit's own time and the slower of the two neighbours' residuals carried to it (and never
  // below the host's measured issue line). A visit is two batches; on the shared H100 two
  // batches in a row sit in a slow stretch often enough that a neighbour read 10-20 % slow was
  // the most common point over 10 % on the symmetric grid, and a slow stretch only slows a
  // batch. Predictions only: the
  // choice, exploration and drift read the samples, never a prediction. Not where batches
  // overlap (steady state, or periods sampled): a visit is a dozen batches there. Replayed on
  // the committed traces of runs 189-231 (bench/trace_replay; docs/results.md, session 41).
  bool cap_slow_visits = true;
  // After a drift re-derivation that kept n (the workload's shape unchanged: the lease slower or
  // faster as a whole), the n measured before it predict the n above every n measured since:
  // each device-bound n's time relative to the kept n's then, times the kept n's now, as a
  // residual of the calibration (and through it the n between). The re-derivation clears the
  // visits, and its own probe comes about 110 batches in: until then the largest n measured
  // since holds its residual out to n = 128, which breadth-first batches outgrow (run 233 sweep
  // 19: 13-33 % under at n = 32-128 in two runs re-measured 7 and 21 times). Chained over kept
  // re-derivations; cleared by any other. Predictions only: the choice, exploration and drift
  // read samples. Not where batches overlap (steady state, or periods sampled). Off by default:
  // on the committed traces of runs 189-234 it took the symmetric points over 10 % from 156 to
  // 147, on run 236's fresh sweeps it moved none, and on run 237's busy lease it took them from
  // 68 to 63 but one sweep-mode over 10 % and one median up by 0.09 points, which its criterion,
  // written before the run, did not allow (docs/results.md, session 42).
  bool carry_far_visits = false;
  // Where batches are issued breadth-first (every copy in, then every kernel, then every copy
  // out), the share of a sub-chunk's issue cost s spent before the first kernel can be issued:
  // the current model's path T5, w (n - 1) + t_e + the last copy out with w = share x s
  // (docs/models.md). It moves the first choice, before any batch has measured the issue line:
  // a kernel-bound breadth-first workload the model otherwise predicts flat from n = 32 to 128
  // is issued live 7-15 % slower at 64-128 (the largest class of worst choices on the H100 and
  // every one on the H200; docs/evidence/session47/). The pipeline applies it to breadth-first
  // order alone. 0: off (the default, until an A/B on the H100); about 1/3 fits both cards.
  double breadth_first_issue_share = 0.0;
  DriftDetectorOptions detector;
  int cooldown_batches = 8;     // batches after a (re)derivation that learn the level at n*
  bool adapt = true;            // re-derive on drift
  bool online_calibration = true;  // re-fit c from explored batches
  ExplorationOptions exploration;
  bool steady_state = false;    // batches overlap (continuous mode): predict their period
};

// InvalidArgument naming the field for out-of-range options. The candidates' item count comes
// with each batch: divisors_only is checked against it then, not here.
absl::Status ValidateAdaptiveOptions(const AdaptiveOptions& options);

// The options with the candidates' bounds capped at a pool of `max_streams` streams (streams.max
// at most the pool, streams.min at most that): what StreamPipeline::Create runs, and what the
// config's load-time check validates.
AdaptiveOptions CapStreams(AdaptiveOptions options, int max_streams);

// The options as batches issued in one order run them: breadth_first_issue_share is breadth-first
// order's alone (issued depth-first or engine by engine, each kernel follows its own copy in), so
// it is 0 elsewhere; a value outside [0, 1] is kept, for ValidateAdaptiveOptions to refuse in any
// order. The pipeline, bench/trace_replay and bench/controller_replay apply it alike.
AdaptiveOptions ForIssueOrder(AdaptiveOptions options, bool breadth_first);

// InvalidArgument where exploration.run is too short for batches run one at a time
// (max_in_flight = 1): the first batch of a visit runs cold and is not a sample, so a visit needs
// samples_per_candidate + 1 batches (run = 0 picks that). The pipeline's check at Create, and
// the config's at load.
absl::Status ValidateExplorationRun(const ExplorationOptions& exploration, int max_in_flight);

// The measurement that several non-streamed batches make together: the median of each part
// per item, scaled to the largest batch's item count (the last of those, where several are; a
// short one among them is not the workload's size), over the batches within a factor 2 of it
// (a batch further under carries its fixed costs, scaled per item, into the workload's time).
// Items > 0 in each; none: an empty observation.
BatchObservation MedianMeasurement(const std::vector<BatchObservation>& batches);

// Whether the non-streamed measurement `now` shows the workload that `before` showed, up to one
// common speed: the same bytes per item each way (exactly, to rounding: a batch whose bytes are
// not proportional to its items, padded or with a fixed header, counts as another workload),
// and the parts (copy in, kernel, copy out), once `before`'s are scaled by the factor the whole
// batch moved, differ from `now`'s by at most `tolerance` (relative, > 0; the controller passes
// the drift threshold) of the batch's time: the time that moved from one part to another, half
// the sum of the parts' absolute differences. A change is judged by the batch time it moves,
// the unit of the drift threshold itself: a part of a few microseconds that jitters by a third
// moves a few per cent of a tiny batch (run 125); a kernel that doubles from a quarter of the
// batch moves 15 % of it. One part changing by a factor k moves at most (sqrt(k) - 1) /
// (sqrt(k) + 1) of the batch, so at 10 % a part that changes by less than about 1.49x (or
// 0.67x) always passes, and a doubling passes where the part is under about 13 % or over about
// 77 % of the batch: a change the optimum n hardly follows, which the exploration after the
// derivation still finds. A tolerance of 1 or more passes everything. False where either
// measurement has no positive time or items, or a non-finite value.
bool SameWorkloadShape(const BatchObservation& before, const BatchObservation& now,
                       double tolerance);

enum class EventKind {
  kInitial,      // the first derivation
  kDrift,        // the detector saw the workload move; re-measured and re-derived
  kExploration,  // an explored neighbour was faster
};
const char* EventKindName(EventKind kind);

// A change of n (or a re-derivation that kept it), for statistics and the JSON-lines log.
struct RederivationEvent {
  std::int64_t observation = 0;  // index of the Observe() call that caused it
  EventKind kind = EventKind::kInitial;
  std::string reason;
  int old_streams = 1;
  int new_streams = 1;
  double old_predicted_ms = 0.0;  // prediction for the old n, before
  double new_predicted_ms = 0.0;  // prediction for the new n, after
  double measured_ms = 0.0;       // the measurement behind the decision
  double mean_ratio = 1.0;        // drift: measured / predicted over the detector's window
  double stream_overhead_ms = 0.0;  // c at the time
  double sub_chunk_cost_ms = 0.0;   // s at the time
  // A drift whose re-measurement showed the workload of the one before (SameWorkloadShape):
  // new_streams is the n the batches had chosen, not the model's.
  bool n_kept = false;
};
// One JSON object (no newline): the event with `batch` as the pipeline's batch index.
std::string EventJson(const RederivationEvent& event, std::int64_t batch);

// What the controller has measured at one n in the current derivation (lower medians of the recent
// samples, as the calibration uses them).
struct MeasuredN {
  int streams = 0;
  int samples = 0;          // settled batch times
  double median_ms = 0.0;   // normalized to the reference item count; 0 without samples
  int issue_samples = 0;    // host issue times
  double issue_median_ms = 0.0;
};

class StreamController {
 public:
  // Traits and options are checked here (ValidateTraits, ValidateAdaptiveOptions); where either
  // is bad, or the model is null, every Observe returns that error (a constructor cannot).
  StreamController(std::unique_ptr<StreamModel> model, DeviceTraits traits,
                   AdaptiveOptions options);

  // What to run for a batch of `items` (> 0) items. Every plan must be run and reported with
  // Observe() (or given back with Abandon()), in the order planned (plans may run ahead of
  // observations, as in continuous mode): a planned warm-up or measurement counts as done or
  // pending from here on.
  BatchPlan Plan(std::int64_t items);

  // A plan that will not be observed: its batch was refused or failed before it ran (a
  // launcher's error, a bad batch), or ran and could not be collected. A warm-up or a
  // measurement's batch is planned again, so that the measurement still completes; a streamed
  // or explored batch is simply not owed. Plans of an earlier derivation are ignored. Later
  // plans may have been made (batches in flight): the measurement completes once all its
  // batches are observed, in any order.
  void Abandon(const BatchPlan& plan);

  // Reports how the planned batch went. InvalidArgument for non-finite or negative timings,
  // a zero time for a timed batch, items <= 0, or a time that scaled to the measurement's items
  // is no finite number (the observation is ignored), and for traits or options the
  // constructor found bad. A streamed batch within a factor 2 of the measurement's items is a
  // sample scaled per item; one further off gives none, and three such in a row ask for a
  // re-measurement (with adapt), after which n is derived afresh (docs/design.md).
  absl::Status Observe(const BatchPlan& plan, const BatchObservation& obs);

  // Forces a non-streamed re-measurement at the next Plan() (reason in the event).
  void RequestRemeasure(std::string reason);

  // Switches between predicting periods of overlapped batches (steady state) and latencies of
  // batches that run alone, and re-derives n from the last measurement (no new one): for a
  // continuous stream whose host side falls behind the GPU, or catches up again. A drift event
  // gives the reason. No-op when already in that mode.
  void SetSteadyState(bool steady, std::string reason);

  int streams() const { return n_star_; }
  const StreamModel& model() const { return *model_; }
  const DeviceTraits& traits() const { return traits_; }
  const AdaptiveOptions& options() const { return options_; }
  const std::optional<BatchObservation>& reference() const { return reference_; }
  double stream_overhead_ms() const { return c_; }
  double sub_chunk_cost_ms() const { return s_; }
  const std::vector<RederivationEvent>& events() const { return events_; }
  std::int64_t explorations() const { return explorations_; }
  std::int64_t observations() const { return observations_; }
  // Every n with samples or issue times in this derivation, ascending.
  std::vector<MeasuredN> Measured() const;
  // Whether this derivation has made every visit its calibration owes: the non-streamed
  // measurement, n*'s level, both neighbours sampled (samples_per_candidate each in this
  // derivation; no confirmation or undecided comparison pending), the calibration probe where
  // there is one, and each neighbour's second visit where exploration.second_visit_batches asks
  // for one. A neighbour revisited after `revisit_batches` is upkeep, not owed; so is a
  // target the last planned batch's items would run at another n (ClampToItems). True where
  // nothing can be owed: exploration off, no model terms, exploration.burst < 1 (no visit is
  // ever paid), or budget 0 once the bucket is spent. False before the first measurement, while
  // a (re-)measurement is pending, and for traits or options the constructor found bad.
  // The predictions far from n* rest on the probe: `streampipe sweep` runs its adaptive
  // pipeline on until this holds (up to --adaptive-max-batches).
  bool CalibrationComplete() const;
  // The anchor check's batch (AdaptiveOptions::check_anchor) of this derivation: its measured
  // time at the reference items, 0 where none was observed yet.
  double anchor_check_ms() const;
  // PredictMs with the anchor of the (re-)measurement alone, as without check_anchor: for
  // `streampipe sweep` to compare both on the same batches.
  double FirstAnchorPredictMs(int streams, std::int64_t items) const;
  // PredictMs as without cap_slow_visits (a visited n predicted by its own time): for
  // bench/trace_replay to compare both on the same batches.
  double UncappedPredictMs(int streams, std::int64_t items) const;

  // The calibrated prediction for n streams and `items` items; 0 before the first measurement.
  // At an n this derivation measured, its measured time (a visit's at most what the measured n
  // beside it say, AdaptiveOptions::cap_slow_visits); elsewhere the larger of the device part
  // below and the host's measured issue line.
  double PredictMs(int streams, std::int64_t items) const;
  // Its device part: the model's device paths corrected by the measured residuals, without the
  // bound of the host's measured issue time (ModelPredictMs is the larger of the two, and so is
  // PredictMs at an n not measured; at a measured n PredictMs is that n's time, which may be
  // below either): what a batch takes when the host's issue is hidden (StreamPipeline::RunHeld).
  // Before any n was measured off the issue bound, the single-factor prediction (as
  // ModelPredictMs). Where the batches report no issue times, or at fewer than two n, there is
  // no issue line and the device paths include the fitted T4 path: then it equals
  // ModelPredictMs.
  double DevicePredictMs(int streams, std::int64_t items) const;
  // The calibrated model alone: the larger of the device part and the issue line at every n, a
  // measured one too (where PredictMs takes the measurement): how the model fits the n it
  // measured (`streampipe sweep` logs it beside the measurement).
  double ModelPredictMs(int streams, std::int64_t items) const;
  // The calibrated prediction as it was up to run 37, one factor for every n (n*'s level times
  // the model's ratio T(n) / T(n*)): kept so that sweeps compare both on the same batches.
  double SingleFactorPredictMs(int streams, std::int64_t items) const;
  // The model's choice for `items` from the reference measurement, with every candidate
  // (uncalibrated but for c). FailedPrecondition before the first measurement.
  absl::StatusOr<StreamChoice> Choose(std::int64_t items) const;

 private:
  struct Samples {
    std::vector<double> ms;  // normalized to the reference item count, most recent last
    std::int64_t last_observation = -1;
    int series = 0;  // the most recent samples that belong to the current comparison with n*
  };
  // `previous`: the measurement before this one (a re-measurement), else null.
  // The measurement's kernel at half the batch: the halves batch's, per reference item, or the
  // share carried from the last that had one.
  void SetKernelHalf(BatchObservation& reference) const;
  void Derive(EventKind kind, std::string reason, double measured_ms,
              const BatchObservation* previous = nullptr);
  void Refit();
  // The largest c Refit may fit: a fixed multiple of the calibrated one, not of the last fit.
  double FitBoundMs() const;
  // CalibrationComplete without the anchor check: every visit made.
  bool VisitsComplete() const;
  // The anchor check is useful, and this derivation's batch is planned and not in yet, or not
  // planned where the last planned batch has the reference's items (the batch it runs on).
  bool AnchorCheckOwed() const;
  // check_anchor, where the measurement may be the prediction's residual at n = 1.
  bool AnchorCheckUseful() const;
  // Whether the non-streamed measurement is the calibrated prediction's residual at n = 1
  // (CalibrationNow; with some n measured): not where n = 1 has samples of its own (n* = 1, or
  // its visited neighbour), not where the samples are periods (steady state, or overlapped
  // batches: the measurement is one batch's latency), and, where an issue line was measured
  // (issue_line), not where the host's issue time bounds the measurement.
  bool MeasurementAnchorsOne(bool issue_line) const;
  int VisitBatches() const;  // batches per visit of a neighbour (`exploration.run`, resolved)
  // Samples of a neighbour a comparison with n* ends at: 8, or samples_per_candidate if more.
  int ComparisonSamples() const;
  int ClampToItems(int n, std::int64_t items) const;
  // ComputeModelTerms with this controller's kernel issue share (breadth_first_issue_share).
  absl::StatusOr<ModelTerms> TermsFor(const DeviceTraits& traits, const Workload& w) const;
  double ModelMs(int n, double c) const { return ModelMs(n, c, s_); }  // at the reference items
  double ModelMs(int n, double c, double s) const;
  // OwedVisit(items), else a neighbour to revisit; only n a batch of `items` runs as they are.
  std::optional<int> ExploreTarget(std::int64_t items) const;
  // The next visit this derivation's calibration owes (a suggested n, a neighbour's comparison,
  // the probe), if any; with items > 0 only targets a batch of that many items runs as they are
  // (ClampToItems(n, items) == n).
  std::optional<int> OwedVisit(std::int64_t items) const;
  std::vector<int> Neighbours() const;  // n*'s neighbours among the candidates (0-2)
  // The neighbour whose second visit (exploration.second_visit_batches) is due now, and
  // whether one is owed at all (due or not yet), for a batch of `items` (> 0: only targets
  // such a batch runs as they are).
  struct SecondVisit {
    bool owed = false;
    std::optional<int> due;
  };
  SecondVisit SecondVisitOf(std::int64_t items) const;
  std::optional<int> ProbeTarget() const;  // the calibration probe's n, if any
  // The host's issue time I(n) = fixed_ms + per_sub_chunk_ms n (+ InlineIssueMs(n) where
  // inline_part): least squares with fixed_ms >= 0 (through the origin where the free intercept
  // is negative) of the lower median issue times over the streamed batches of this derivation,
  // less their inline part, where at least two n have them (and the slope is positive). Where
  // the medians less the inline part give no rising line (a rate that overshoots), the line of
  // the medians as measured, without the inline part (inline_part false).
  struct IssueLine {
    double fixed_ms = 0.0;
    double per_sub_chunk_ms = 0.0;
    bool inline_part = true;
  };
  std::optional<IssueLine> MeasuredIssueLine() const;
  // The host's time issuing the reference batch's inline copies in at n sub-chunks
  // (InlineCopyIssueMs with the traits): a step the line a + s n cannot show, where the copies
  // in fall under the inline limit between the visited n and the predicted one (runs 103-109:
  // the 2 MiB matrix product as graphs, 3.6 -> 5.4 us a sub-chunk from n = 64 to 128).
  double InlineIssueMs(int n) const;
  // The host's measured issue time at n sub-chunks: the line a + s n, and the inline copies'
  // part where the line's batches had none (0 without a line).
  double IssueLineMs(const std::optional<IssueLine>& line, int n) const;
  // What the calibrated prediction needs from the measurements (docs/models.md, "Calibrated
  // prediction"): built once after they change, not at every prediction (Plan() makes one per
  // batch).
  struct Calibration {
    std::optional<IssueLine> line;
    LinearizedModel device;                            // the paths the residuals correct
    std::vector<std::pair<double, double>> residuals;  // (log2 n, log(measured / model)), by n
    // Every n sampled in this derivation -> its measured time (n*'s: StarLevelMs; a visit's
    // scaled as the residuals' are, then capped by CapSlowVisits), host-bound n included: their
    // prediction.
    std::map<int, double> measured;
  };
  const Calibration& CalibrationNow() const;
  // Every n sampled in this derivation -> its time for the calibration (n*'s: StarLevelMs; a
  // visit's lower median scaled by what the same estimator makes of n*'s samples).
  std::map<int, double> SampledTimes() const;
  // Whether the host's issue time bounds n's batches of time `ms` (its issue times' lower median
  // at least kIssueBound of it), where an issue line is measured (`line`): a time of the host's,
  // not of the device's paths.
  bool IssueBound(int n, double ms, bool line) const;
  // AdaptiveOptions::cap_slow_visits on a calibration whose residuals are made.
  void CapSlowVisits(Calibration& cal) const;
  // n*'s measured time for the calibration, from its samples (not empty; see the .cpp).
  double StarLevelMs(const std::vector<double>& star_ms) const;
  // Drops the cached calibration when it goes out of scope (and when made).
  class CalibrationReset {
   public:
    explicit CalibrationReset(std::optional<Calibration>& c) : c_(c) { c_.reset(); }
    ~CalibrationReset() { c_.reset(); }
    CalibrationReset(const CalibrationReset&) = delete;
    CalibrationReset& operator=(const CalibrationReset&) = delete;

   private:
    std::optional<Calibration>& c_;
  };
  // The calibrated prediction at n streams and the reference items.
  double CalibratedMs(int n) const;
  double CalibratedDeviceMs(int n) const;  // its device part
  double CalibratedModelMs(int n) const;   // the model alone, a measured n too
  double SingleFactorMs(int n) const;  // at the reference items
  LinearizedModel Linearized(double c, double s) const;  // at the reference items
  static double Median(std::vector<double> v);
  // Once the level at n* is learned: a step of the workload while it was learned (the cooldown)
  // would be taken as n*'s level and never declared a drift. A level beyond kLevelStepBand x the
  // drift threshold of what the derivation predicted asks for one non-streamed batch; where its
  // parts show another workload than the measurement's (SameWorkloadShape), n is re-measured,
  // else the level stands (the model's error at n*, or the lease slower as a whole).
  void CheckLearnedLevel();
  // A time from an n's samples (batch or issue times): their lower median, 0 for none. A visit
  // keeps two samples, and a right tail of slowed batches moved their median (the mean of
  // two) into every comparison and prediction at that n (run 97: the sweep's visits to n = 1
  // of tiny batches 3-4 % slow on median, up to 18 %; statistics.hpp LowMedian).
  static double TimeOf(std::vector<double> v);
  // The same estimator applied to n*'s samples `v` in blocks of k (the median of the blocks'
  // lower medians), to compare with an n measured k times: the lower median of few samples
  // sits lower than that of many under symmetric noise. TimeOf(v) where v holds fewer than 2 k.
  static double TimeLike(const std::vector<double>& v, int k);
  void AddEvent(EventKind kind, std::string reason, int old_n, double old_pred, int new_n,
                double measured, double mean_ratio);

  std::unique_ptr<StreamModel> model_;
  DeviceTraits traits_;
  AdaptiveOptions options_;
  DriftDetector detector_;
  int warmups_planned_ = 0;
  bool measure_pending_ = false;  // a measurement is planned, not yet fully observed
  int measures_planned_ = 0;      // kMeasure plans of the pending measurement
  std::vector<BatchObservation> measures_;  // its batches observed so far
  bool halves_planned_ = false;             // its kMeasureHalves batch: planned,
  std::optional<BatchObservation> halves_;  // and observed
  // kernel_half_ms / kernel_ms of the last measurement that timed the halves: carried to one
  // that did not (a caller's measurement, a batch of one item). 0: none yet.
  double kernel_half_share_ = 0.0;
  std::int64_t generation_ = 0;   // derivations so far
  std::optional<BatchObservation> reference_;
  std::optional<ModelTerms> terms_;  // at the reference item count, c = 0
  std::vector<int> candidates_;      // for the reference item count
  // ClampToItems' candidates for the last other item count it was asked (a Plan asks for one
  // count a dozen times; the options do not change).
  mutable std::int64_t clamp_items_ = -1;
  mutable std::vector<int> clamp_candidates_;
  double c_ = 0.0;                   // per-stream overhead in use
  double s_ = 0.0;                   // issue cost of a sub-chunk in use
  int n_star_ = 1;
  double level_ = 0.0;               // learned measured time at n* (reference items); 0: learning
  std::vector<double> learning_;
  // What the derivation (or the switch to n*) predicted at n*, for CheckLearnedLevel once the
  // level is learned; 0: no check in this derivation.
  double level_expected_ = 0.0;
  // CheckLearnedLevel found the level beyond its band: a non-streamed batch is wanted (planned at
  // the next Plan()), then planned in the generation level_check_planned_in_ holds until it is
  // observed, given back, or a derivation clears it; its reason and the level's ratio go into
  // the drift it may declare.
  bool level_check_wanted_ = false;
  std::optional<std::int64_t> level_check_planned_in_;
  std::string level_check_reason_;
  double level_check_ratio_ = 1.0;
  std::map<int, Samples> samples_;
  // Visits of an n in this derivation: started, explored samples taken at that very n (a
  // confirmation's cleared samples still count), and the observation of the last of them.
  struct VisitRecord {
    int started = 0;
    int samples = 0;
    std::int64_t last_sample = -1;
  };
  std::map<int, VisitRecord> visits_;
  bool sampled_periods_ = false;  // some sample since the last derivation was a period
  std::map<int, std::vector<double>> issue_;  // host issue times (ms) per n, most recent last
  std::optional<int> suggested_;     // an n the re-fitted model prefers, to explore
  double tokens_ = 0.0;
  std::map<int, int> wins_;  // neighbours found faster, visits in a row
  std::int64_t planned_items_ = 0;  // the items of the last Plan()
  int explore_n_ = 0;      // the neighbour being visited
  int explore_left_ = 0;   // batches of the visit still to plan
  // The one free slot: a neighbour visited again, outside the budget, once n* has
  // `confirm_at_` samples in all (fresh samples of n* since its last visit): one that won a
  // visit but needs more wins, or else an undecided one.
  std::optional<int> confirm_n_;
  std::set<int> undecided_;  // neighbours faster by the margin, not yet beyond the noise
  std::int64_t confirm_at_ = 0;
  std::int64_t star_samples_ = 0;  // samples taken at n* (whichever n it was), ever
  bool need_measure_ = false;
  // The anchor check (AdaptiveOptions::check_anchor): the generation it was planned in (-1:
  // none), whether its batch is planned and not yet observed, and its time (0: none yet).
  std::int64_t anchor_check_generation_ = -1;
  bool anchor_check_pending_ = false;
  double anchor_check_ms_ = 0.0;
  // Set while FirstAnchorPredictMs builds its calibration: the check left out.
  mutable bool ignore_anchor_check_ = false;
  // Set while UncappedPredictMs builds its calibration: cap_slow_visits left out.
  mutable bool ignore_visit_cap_ = false;
  // AdaptiveOptions::carry_far_visits: n -> its device-bound time relative to carried_base_'s,
  // measured before the last re-derivations, each of which kept n; empty after any other.
  std::map<int, double> carried_;
  int carried_base_ = 0;
  std::string pending_reason_;
  double pending_ratio_ = 1.0;
  // The issue mode (SetSteadyState) changed while a re-measurement was pending: the coming
  // derivation re-derives from the model, whatever the measurement's shape.
  bool mode_changed_ = false;
  double pending_old_pred_ = 0.0;
  absl::Status init_;  // the traits and options checked at construction (Observe returns it)
  std::int64_t observations_ = 0;
  int off_size_run_ = 0;  // settled batches in a row a factor 2 or more off the measurement's items
  bool size_remeasure_ = false;  // the pending re-measurement is for batches of another size
  std::int64_t explorations_ = 0;
  std::vector<RederivationEvent> events_;
  mutable std::optional<Calibration> calibration_;  // dropped by every Observe / SetSteadyState
};

}  // namespace streampipe

#endif  // STREAMPIPE_CORE_STREAM_CONTROLLER_HPP_
