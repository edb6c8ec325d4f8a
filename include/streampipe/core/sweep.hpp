// The CPU-side half of `streampipe sweep`: the measured points of a sweep over configurations
// and stream counts, their CSV form, the list syntax of the sweep's flags, and the summary
// statistics (model accuracy, quality of the chosen n, speed-ups) that docs/results.md reports.
//
//   absl::StatusOr<std::vector<int>> ns = streampipe::ParseIntList("1..128*2");  // 1,2,4,...,128
//   std::string csv = streampipe::SweepCsvHeader();
//   for (const streampipe::SweepPoint& p : points) csv += streampipe::SweepCsvRow(p);
//   absl::StatusOr<std::vector<streampipe::SweepPoint>> back = streampipe::ParseSweepCsv(csv);
//   absl::StatusOr<streampipe::SweepSummary> s = streampipe::Summarize(*back);
//   std::cout << streampipe::SummaryText(*s);
//
// Definitions used by the summary:
//  - A *configuration* is the group of points with equal (workload, grid, in_bytes, out_bytes,
//    intensity, order, issue); its points differ in `streams` (n), each n at most once.
//  - The *best n* of a configuration is the n with the lowest median_ms among its points (the
//    smaller n on a tie).
//  - The *relative error* of a prediction at a point is |predicted - measured| / measured with
//    measured = median_ms, over the points where the prediction is finite.
//  - The *ratio* of a chooser (a model or the adaptive pipeline) in a configuration is
//    median_ms at the chosen n / median_ms at the best n (>= 1). Configurations where the
//    chooser's n is 0 (not computed) or was not measured are skipped for that chooser.
//  - Its *speed* is the inverse, median_ms at the best n / median_ms at the chosen n (<= 1): the
//    fraction of the best n's speed the chosen n reaches, the form of issue 6's goals ("at least
//    0.98 of the best on average and 0.95 at worst"). The mean speed is the mean of the speeds,
//    not the inverse of the mean ratio.
//  - A *speed-up* vs n = k is median_ms at n = k / median_ms at the adaptive (or the best) n,
//    averaged (arithmetic mean) over the configurations where both n were measured.
//  - The median of an even count is the mean of the two middle values.
//
// All functions are pure and thread-safe.
#ifndef STREAMPIPE_CORE_SWEEP_HPP_
#define STREAMPIPE_CORE_SWEEP_HPP_

#include <compare>
#include <cstddef>
#include <iterator>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "streampipe/core/model.hpp"
#include "streampipe/core/stream_controller.hpp"

namespace streampipe {

// The number of models in a sweep: one per entry of kAllModelKinds, in that order.
inline constexpr std::size_t kSweepModelCount = std::size(kAllModelKinds);

// One measured point of a sweep: one configuration (workload, sizes, kernel intensity, issue
// order) at one number of streams n. Strings never contain commas (the CSV does not quote).
struct SweepPoint {
  std::string workload;  // "add-scalar", "asymmetric", "matmul", "histogram"
  std::string grid;      // "symmetric", "asymmetric", "matmul", "histogram", "quick"
  double in_bytes = 0;   // bytes copied in per batch
  double out_bytes = 0;  // bytes copied out per batch
  double intensity = 0;  // kernel loop trips (add-scalar), p (matmul), frame pixels (histogram)
  std::string order;     // "depth-first", "breadth-first", "engine-per-stream"
  int streams = 1;
  double median_ms = 0, p10_ms = 0, p90_ms = 0;  // measured over `repetitions` batches
  int repetitions = 0;
  double h2d_ms = 0, kernel_ms = 0, d2h_ms = 0;  // non-streamed components of the configuration
  // The kernel over half the batch (StreamPipeline::MeasureKernelHalves); NaN: not measured.
  double kernel_half_ms = std::numeric_limits<double>::quiet_NaN();
  // Predicted time of each model (kAllModelKinds order), NaN where not computed. Sized
  // kSweepModelCount by default; SweepCsvRow writes missing entries as NaN.
  std::vector<double> predicted_ms =
      std::vector<double>(kSweepModelCount, std::numeric_limits<double>::quiet_NaN());
  // The adaptive pipeline's on-line-calibrated prediction for this n; NaN where not computed.
  double calibrated_ms = std::numeric_limits<double>::quiet_NaN();
  // The n each model chooses for this configuration (same on every row of the configuration);
  // 0 where not computed. Sized kSweepModelCount; SweepCsvRow writes missing entries as 0.
  std::vector<int> chosen = std::vector<int>(kSweepModelCount, 0);
  int adaptive_n = 0;  // the n the adaptive pipeline settled on for this configuration; 0: none
  // Median host time that enqueuing one batch took (BatchStats::issue_ms); NaN where not
  // measured (CSVs written before the column existed).
  double issue_ms = std::numeric_limits<double>::quiet_NaN();
  // How the batches were issued: "streams" (call by call) or "graph" (IssueMode); "streams" in
  // CSVs written before the column existed.
  std::string issue = "streams";
  // How well the measurement repeats itself at this point: the median of the rounds after the
  // adaptive run over the median of the rounds before it (the sweep measures each n in rounds
  // on both sides of it). NaN where there is no second half, or in CSVs written before the
  // column existed.
  double halves_ratio = std::numeric_limits<double>::quiet_NaN();
  // The device's time alone: the median of batches run behind a gate that holds the GPU until
  // the host has enqueued the whole batch (StreamPipeline::RunHeld), so the host's issue gaps do
  // not count. NaN where not measured (--held=0, every gate timed out, older CSVs).
  double held_ms = std::numeric_limits<double>::quiet_NaN();
  // The device part of the calibrated prediction (StreamController::DevicePredictMs: without
  // the bound of the host's measured issue line; the same as calibrated_ms where the adaptive
  // run measured no issue line), to compare with held_ms; NaN where not computed.
  double calibrated_device_ms = std::numeric_limits<double>::quiet_NaN();
  // The current model's device paths alone (the calibrated traits with the host's issue cost
  // s = 0: no T4 path), to compare with held_ms; NaN where not computed.
  double current_device_ms = std::numeric_limits<double>::quiet_NaN();
  // How many adaptive runs the sweep made for this configuration (1 + the runs repeated
  // because a run's own batches disagreed with the rounds before it, or it sampled nothing; the
  // one kept is the one agreeing best), and that run's AdaptiveAgreement::deviation (in units
  // of the tolerances: <= 1 agrees; +inf: nothing compared). 0 / NaN where not recorded (CSVs written before the columns existed).
  // The same on every point of a configuration.
  int adaptive_runs = 0;
  double adaptive_deviation = std::numeric_limits<double>::quiet_NaN();
  // The batches the kept adaptive run took (--adaptive-batches, then on until its calibration
  // was complete, up to --adaptive-max-batches) and whether it was complete at the run's end
  // (StreamController::CalibrationComplete: 1 yes, 0 no, -1 not recorded). The same on every
  // point of a configuration; 0 / -1 in CSVs written before the columns existed.
  int adaptive_batches = 0;
  int adaptive_calibrated = -1;
  // How the sweep measured, where its row does not otherwise say: `streampipe sweep` writes
  // its measuring flags, the streams' hardware queues and its profile's fingerprint
  // (FormatSweepSettings: "per-visit=3 held=2 ... hardware-queues=8 profile=fnv1a64:..."). The
  // same on every row of one sweep; --resume refuses rows
  // of other settings, and the summary names the settings its rows were measured with. Empty in
  // CSVs written before the column existed. Never holds a comma or a line break.
  std::string settings;
};

// ---- Did the adaptive run see the card the rounds saw? ----
//
// The sweep measures every n in rounds before and after a configuration's adaptive run, and
// checks the run against the rounds before it (the first half; the second half is measured
// after the run it keeps). The adaptive run lasts a fraction of a second, and a burst of another tenant on a shared machine
// can sit on it alone (run 88: a configuration whose adaptive run measured its own n = 16 at
// 1.77x the rounds' time, every prediction of it 72-94 % over; another whose non-streamed
// measurement ran 2.2x slow). Its calibrated predictions then describe the burst, not the card.
// The check compares measurements of the same batches only, never a prediction: the run's own
// median at each n it sampled against the rounds' median at that n, over all of them (their
// median ratio within kAdaptiveAgreementWithin of 1) and at each (within kAdaptiveSampleWithin:
// a visit of two batches that a burst slowed 1.8-2.4x fitted c or the issue cost to it and put
// n far from it 48-159 % over, runs 89 and 92; visits of two batches repeat the rounds within
// 7 % at the 90th percentile on quiet leases). Its non-streamed (reference) measurement, whose
// parts the model's device paths come from and, where it anchors n = 1, the anchor of every
// prediction below the n the run visited, is judged against the rounds at n = 1
// where `judge_reference` (the sweep's --judge-anchor, on by default since session 35): slower
// than them by more than kAdaptiveReferenceWithin, and by more than kAdaptiveReferenceFloorMs,
// is a burst on the run (run 191: 1.49x, the copies 2.1x, and n = 1 predicted 49 % over). Only
// slower: a burst slows a batch, and a faster anchor is a burst on the rounds. The floor is for
// batches of tens of microseconds, whose one batch with timing events, after batches at other
// n, runs 6.8 us over the rounds on median and 25 us at most on runs 184-193's leases (11-33 %
// of the 0.5 MiB matmul's 46 us on run 89's quiet one), which is no burst.
inline constexpr double kAdaptiveAgreementWithin = 0.10;
inline constexpr double kAdaptiveSampleWithin = 0.25;
inline constexpr double kAdaptiveReferenceWithin = 0.10;
inline constexpr double kAdaptiveReferenceFloorMs = 0.025;
struct AdaptiveAgreement {
  // Median over the n the run sampled at least twice and the rounds measured, of the run's
  // median / the rounds' median; NaN where no n compares.
  double samples_ratio = std::numeric_limits<double>::quiet_NaN();
  // Of those n's ratios, the one farthest from 1 (its n: worst_n); NaN / 0 where none.
  double worst_ratio = std::numeric_limits<double>::quiet_NaN();
  int worst_n = 0;
  int compared = 0;  // n in samples_ratio
  // The run's non-streamed measurement / the rounds' median at n = 1; NaN where either is
  // missing or not positive.
  double reference_ratio = std::numeric_limits<double>::quiet_NaN();
  // How far that measurement is slower than the rounds at n = 1, in units of its tolerance:
  // (reference - rounds) / max(kAdaptiveReferenceWithin x rounds, kAdaptiveReferenceFloorMs),
  // 0 where faster or where either is missing. Reported whether judged or not.
  double reference_deviation = 0.0;
  // The deviation below without reference_deviation: the check as it was before session 35
  // (--no-judge-anchor).
  double samples_deviation = std::numeric_limits<double>::infinity();
  // In units of the tolerances, the larger of |samples_ratio - 1| / kAdaptiveAgreementWithin,
  // |worst_ratio - 1| / kAdaptiveSampleWithin and, where judged, reference_deviation: <= 1, the
  // run agrees with the rounds. +inf where no n compares (a run whose last derivation sampled
  // nothing, as in a burst that kept it re-measuring: not trusted).
  double deviation = std::numeric_limits<double>::infinity();
  bool agrees() const { return deviation <= 1.0; }
};

// `run`: the adaptive run's measured n (StreamController::Measured()); `reference_ms`: its
// non-streamed measurement at the same item count as the rounds (<= 0: none); `rounds_ms`:
// the rounds' median batch time by n; `judge_reference`: whether reference_deviation counts in
// the deviation. Entries with a non-finite or non-positive time are skipped.
AdaptiveAgreement CompareAdaptiveRun(const std::vector<MeasuredN>& run, double reference_ms,
                                     const std::map<int, double>& rounds_ms,
                                     bool judge_reference);

// ---- CSV: one row per point ----
//
// Columns, in order: workload, grid, in_bytes, out_bytes, intensity, order, streams,
// median_ms, p10_ms, p90_ms, repetitions, h2d_ms, kernel_ms, d2h_ms, pred_<model> for each
// model of kAllModelKinds (e.g. pred_werkhoven-2ce), pred_calibrated, chosen_<model> for each
// model, chosen_adaptive, issue_ms, issue, halves_ratio, held_ms, pred_calibrated_device,
// pred_current_device, adaptive_runs, adaptive_deviation, kernel_half_ms, adaptive_batches,
// adaptive_calibrated, settings (the last twelve optional when reading, dropped from the end:
// files written before they existed parse with NaN, "streams", NaN, 0, -1 and "" there).
// Numbers are written in the shortest form that round-trips exactly; NaN is written as an
// empty field (infinities as inf / -inf).

// The column names, in order.
std::vector<std::string> SweepCsvColumns();

// The header line, with its trailing "\n".
std::string SweepCsvHeader();

// One row, with its trailing "\n". The strings must not contain commas or line breaks (not
// checked; the caller's names never do).
std::string SweepCsvRow(const SweepPoint& point);

// The inverse of SweepCsvHeader + SweepCsvRow*: the header line, then one point per line
// ("\r\n" line ends and blank lines are accepted). Empty number fields parse as NaN (every
// double column); integer columns must not be empty.
// InvalidArgument: empty text (no header); a header that differs from SweepCsvColumns (names
// the first differing column: expected vs found); a row with the wrong number of fields (names
// the line and the counts); a field that is not a number / an integer (names the line, the
// column and the value, escaped and cut at 64 bytes). Where `lines` is given it receives each
// point's line (1-based), for Summarize to name.
absl::StatusOr<std::vector<SweepPoint>> ParseSweepCsv(std::string_view text,
                                                      std::vector<int>* lines = nullptr);

// What makes a sweep point's configuration: every field but n and what was measured.
struct SweepConfigKey {
  std::string workload;
  std::string grid;
  double in_bytes = 0;
  double out_bytes = 0;
  double intensity = 0;
  std::string order;
  std::string issue;
  auto operator<=>(const SweepConfigKey&) const = default;
};
SweepConfigKey ConfigKeyOf(const SweepPoint& point);
// "add-scalar symmetric, 67108864 B in, 67108864 B out, intensity 50, depth-first, streams".
std::string ConfigKeyName(const SweepConfigKey& key);

// ---- A sweep's settings (SweepPoint::settings) ----
//
// Key=value pairs, in order, joined by single spaces: {{"held", "2"}, {"warmup", "3"}} is
// "held=2 warmup=3". InvalidArgument, naming the pair, where a key is empty or repeats, or a
// key or value holds a space, '=', a comma or a line break (a value may be empty).
absl::StatusOr<std::string> FormatSweepSettings(
    const std::vector<std::pair<std::string, std::string>>& settings);

// The pairs of a settings text, in order: "a=1 b=2" is {{"a", "1"}, {"b", "2"}}; a token
// without '=' is a key of an empty value.
std::vector<std::pair<std::string, std::string>> ParseSweepSettings(std::string_view settings);

// A number as a setting's value: the shortest text that reads back as exactly `v` (as the
// CSV writes its numbers: 0.1 is "0.1", 3.0000001 is "3.0000001"), so that two settings compare
// equal only where their values are.
std::string SweepSettingNumber(double v);

// How settings `was` differ from `now`, key by key, joined by "; ": the keys whose values
// differ ("held: 2 -> 0"), in `was`'s order, then the keys only one of them has ("probe-ratio:
// 3 -> not set", "check-anchor: not set -> true"); "" where they hold the same pairs (in any
// order). A token without '=' is a key of an empty value.
std::string SweepSettingsDifference(std::string_view was, std::string_view now);

// `streampipe sweep --resume`: what the sweep that resumes would measure.
struct SweepResume {
  // For each of its configurations, the n it measures (ascending).
  std::map<SweepConfigKey, std::vector<int>> streams;
  int repetitions = 0;   // --repetitions
  std::string settings;  // SweepPoint::settings of the rows it writes
};

// Of the rows a stopped sweep left (its .partial file, in order), the configurations to keep
// rather than measure again: a configuration of `rows` is kept where its n are exactly those
// `resume` measures. InvalidArgument, naming the configuration or the row, where the rows hold
// one that sweep does not measure, another set of n (another command line, or rows cut short),
// another --repetitions, or other settings (names the settings that differ): resuming would
// mix two sweeps.
absl::StatusOr<std::set<SweepConfigKey>> KeptConfigurations(const std::vector<SweepPoint>& rows,
                                                            const SweepResume& resume);

// ---- Lists of values for flags such as --streams=1..128*2 ----
//
// Syntax: comma-separated items, whitespace around items allowed; each item is a number
// (strtod syntax: 4, 0.5, 1e6, -2) or a range that includes b when it is reached (within a
// relative tolerance of 1e-9, in which case b itself is the last value):
//   a..b     a, a+1, a+2, ... <= b
//   a..b+k   a, a+k, a+2k, ... <= b   (k > 0)
//   a..b*k   a, a*k, a*k^2, ... <= b  (k > 1, a > 0)
// Values come in the order given; duplicates are kept.

inline constexpr std::size_t kMaxListValues = 100000;

// InvalidArgument naming the item and why: empty spec, empty item, a number that is not
// finite or not a number, a > b, step <= 0, factor <= 1, a geometric range with a <= 0, more
// than kMaxListValues values in all.
absl::StatusOr<std::vector<double>> ParseNumberList(std::string_view spec);

// As ParseNumberList, and also InvalidArgument for a value that is not an integer or is out
// of int's range (names the item and the value).
absl::StatusOr<std::vector<int>> ParseIntList(std::string_view spec);

// Comma-separated names (whitespace around names allowed), each one of `allowed`; order kept,
// duplicates kept. InvalidArgument: empty spec, empty item, a name not in `allowed` (names it
// and lists the allowed ones).
absl::StatusOr<std::vector<std::string>> ParseNameList(std::string_view spec,
                                                       const std::vector<std::string>& allowed);

// ---- Summary statistics (definitions at the top of this file) ----

// Accuracy of one predictor over all points where its prediction is finite. With points == 0
// the errors are NaN.
struct ModelAccuracy {
  std::string model;  // a model name, or "calibrated" for SweepPoint::calibrated_ms
  double median_rel_error = std::numeric_limits<double>::quiet_NaN();
  double max_rel_error = std::numeric_limits<double>::quiet_NaN();
  int points = 0;
  int over_10_percent = 0;  // points whose error is above 10 %
};

// Quality of one chooser's n over the configurations where it chose a measured n. With
// configs == 0 the ratios are NaN.
struct ChoiceQuality {
  std::string who;  // a model name, or "adaptive" for SweepPoint::adaptive_n
  double mean_ratio = std::numeric_limits<double>::quiet_NaN();   // mean over configurations
  double worst_ratio = std::numeric_limits<double>::quiet_NaN();  // max over configurations
  double mean_speed = std::numeric_limits<double>::quiet_NaN();   // mean over configurations
  double worst_speed = std::numeric_limits<double>::quiet_NaN();  // min over configurations
  int configs = 0;
};

// Speed-ups (> 1: faster than the fixed n). Each mean is NaN when its count is 0.
struct SpeedUps {
  // Of the adaptive choice: time(n=1 / 4 / 8) / time(adaptive_n).
  double vs_non_streamed_mean = std::numeric_limits<double>::quiet_NaN();
  double vs_fixed4_mean = std::numeric_limits<double>::quiet_NaN();
  double vs_fixed8_mean = std::numeric_limits<double>::quiet_NaN();
  int vs_non_streamed_configs = 0, vs_fixed4_configs = 0, vs_fixed8_configs = 0;
  // Of the best measured n: time(n=1 / 4 / 8) / time(best n).
  double best_vs_non_streamed_mean = std::numeric_limits<double>::quiet_NaN();
  double best_vs_fixed4_mean = std::numeric_limits<double>::quiet_NaN();
  double best_vs_fixed8_mean = std::numeric_limits<double>::quiet_NaN();
  int best_vs_non_streamed_configs = 0, best_vs_fixed4_configs = 0, best_vs_fixed8_configs = 0;
  int configs = 0;  // configurations in the sweep
};

// Whether the measurement repeats itself, beside the predictions it judges: |halves_ratio - 1|
// over the points where it is finite, and the calibrated prediction's error over all those
// points and over the ones that repeat within kRepeatableWithin. A prediction cannot be shown
// closer than the measurement repeats: where the maximum error sits on points that do not
// repeat, it measures the card's noise, not the model.
inline constexpr double kRepeatableWithin = 0.05;
struct Repeatability {
  // |halves_ratio - 1| as a "relative error" of the measurement against itself (model
  // "measurement, after / before"), over the points where it is finite.
  ModelAccuracy measurement;
  // The calibrated prediction over those points (model "calibrated, measured twice"), and over
  // the ones that repeat within kRepeatableWithin ("calibrated, repeating within 5.0%").
  ModelAccuracy calibrated_all, calibrated_repeatable;
  // The calibrated prediction's error counted from the nearer edge of the point's own batches'
  // spread instead of from their median: |predicted - edge| / median_ms outside
  // [min(p10_ms, median_ms), max(p90_ms, median_ms)], 0 inside ("calibrated, beyond the
  // batches' p10-p90"); over the points with a finite prediction and p10_ms, p90_ms > 0. Where
  // a point's batches spread by more than 10 % (a second mode, runs 189-190: p90 1.10-1.16x the
  // median at n = 32-64), a prediction at the slower mode is over 10 % from the median and
  // still a time the card takes: this row tells those points from the model's misses.
  ModelAccuracy calibrated_beyond_spread;
  // The calibrated prediction over the points whose configuration's kept adaptive run agrees
  // with the rounds (deviation <= 1, AdaptiveAgreement::agrees; "calibrated, adaptive run
  // agreeing with the rounds"); points == 0 where no point records its adaptive runs.
  ModelAccuracy calibrated_agreeing;
};

// The sweep's adaptive runs, over the configurations that record them (adaptive_runs > 0).
struct AdaptiveRuns {
  int configs = 0;   // configurations that record their adaptive runs
  int repeated = 0;  // of them, with more than one run
  int off = 0;       // of them, whose kept run does not agree (deviation > 1 or NaN)
  // Of them, those that record whether the kept run's calibration was complete
  // (adaptive_calibrated >= 0), and of those, the ones where it was not: the run ended at
  // --adaptive-max-batches with its calibration incomplete, so its predictions far from n* rest
  // on less.
  int calibration_recorded = 0;
  int incomplete = 0;
  // The kept runs' batches: the median (of an even count, the mean of the two middle ones) and
  // the most over the configurations that record them.
  double median_batches = 0;
  int max_batches = 0;
};

// Accuracy of every predictor over the points of one grid (SweepPoint::grid); rows as in
// SweepSummary::accuracy.
struct GridAccuracy {
  std::string grid;
  int points = 0;  // the grid's points
  std::vector<ModelAccuracy> accuracy;
};

// The accuracy and the choice of n over the points of one issue mode (SweepPoint::issue: call by
// call, or CUDA graphs), where issue 6's goals are judged: a sweep-mode. Rows as in
// SweepSummary::accuracy and SweepSummary::choices.
struct IssueModeSummary {
  std::string issue;
  int points = 0;   // the mode's points
  int configs = 0;  // its configurations
  std::vector<ModelAccuracy> accuracy;
  std::vector<ChoiceQuality> choices;
};

struct SweepSummary {
  // One row per model (kAllModelKinds order), then "calibrated"; rows with no finite
  // prediction have points == 0.
  std::vector<ModelAccuracy> accuracy;
  // The same per grid, grids in the order they first appear; empty where every point belongs
  // to one grid. The models' errors differ most between grids (the host bounds the small
  // batches of the matmul and histogram grids at large n), and the papers quote theirs per grid.
  std::vector<GridAccuracy> grid_accuracy;
  // One row per model (kAllModelKinds order), then "adaptive".
  std::vector<ChoiceQuality> choices;
  // The accuracy and the choices per issue mode, modes in the order they first appear; empty
  // where every point is of one mode. Each mode's figures are the ones its own sweep would give.
  std::vector<IssueModeSummary> issue_modes;
  SpeedUps speedups;
  Repeatability repeatability;
  AdaptiveRuns adaptive_runs;
  // The device's time alone (SweepPoint::held_ms): each model's prediction, then the current
  // model's device paths ("current, device paths": no issue cost s) and the device part of the
  // calibrated prediction ("calibrated, device part"), against held_ms over the points
  // where both are finite. The papers' models describe the device; where the host's issue
  // bounds a batch, median_ms measures the host and held_ms still measures the device. Rows
  // have points == 0 where no point was held.
  std::vector<ModelAccuracy> device_accuracy;
  // The settings the rows were measured with (SweepPoint::settings), each with its number of
  // rows, in the order they first appear (the same pairs in another order are one entry, named
  // as first written). One entry where the sweep is one; more where rows of several sweeps were
  // put together; {"", rows} for rows that predate the column.
  std::vector<std::pair<std::string, int>> settings;
};

// InvalidArgument: an empty point list; a point whose median_ms is not finite or <= 0, or
// whose predicted_ms / chosen does not have kSweepModelCount entries (names the point); a
// configuration with two points of the same n, or whose points disagree on chosen,
// adaptive_n, adaptive_runs, adaptive_deviation, adaptive_batches or adaptive_calibrated (names
// the configuration, the column and the two values); a negative adaptive_runs or
// adaptive_batches; an adaptive_calibrated other than -1, 0 or 1, or recorded (0 or 1) with
// adaptive_batches or adaptive_runs below 1. A point is named by its index and n, or, where
// `lines` (ParseSweepCsv's, one per point) is given, by its line in the CSV.
absl::StatusOr<SweepSummary> Summarize(const std::vector<SweepPoint>& points,
                                       const std::vector<int>* lines = nullptr);

// The tables (accuracy, accuracy per grid where there are several, choice of n, the accuracy and
// the choice per issue mode where there are several, speed-ups,
// repeatability, and the device's time where some point was held), then the settings the rows
// were measured with where they record them (each, with its rows and what differs, where they
// are several), as Markdown, ready for docs/results.md.
// NaN prints as "n/a".
std::string SummaryMarkdown(const SweepSummary& summary);

// The same tables as aligned plain text for the terminal.
std::string SummaryText(const SweepSummary& summary);

}  // namespace streampipe

#endif  // STREAMPIPE_CORE_SWEEP_HPP_
