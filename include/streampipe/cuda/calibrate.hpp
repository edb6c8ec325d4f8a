// Calibrates the transfer parameters of a device by micro-benchmarks (van Werkhoven et al.,
// seed 003, section V-A): L+o per direction (1-byte copies), G per direction (copies of 4 MiB
// and up), both directions at once, the gap g between back-to-back copies, the cost of a tiny
// sub-chunk per stream (as the host issues it, s, and held until issued, the device's: c0),
// and, fitted together by least squares to an add-scalar pipeline sweep
// (n = 1..64, in three rounds; streampipe/core/in_situ_fit.hpp), the duplex G' and the
// per-stream overhead c of the current-GPU model.
// Warms up first; every figure is a median.
//
//   absl::StatusOr<streampipe::Calibration> c = streampipe::Calibrate({});
//   streampipe::WriteDeviceProfile("h100.toml", c->profile);
//
// Uses the device exclusively for its duration (about 1 s; 0.3 s with quick = true).
#ifndef STREAMPIPE_CUDA_CALIBRATE_HPP_
#define STREAMPIPE_CUDA_CALIBRATE_HPP_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "streampipe/core/device_profile.hpp"
#include "streampipe/core/model.hpp"
#include "streampipe/cuda/device.hpp"
#include "streampipe/cuda/pipeline_types.hpp"

namespace streampipe {

struct CalibrationOptions {
  int device = 0;
  bool quick = false;          // fewer sizes and repetitions (what StreamPipeline::Create uses)
  int repetitions = 21;        // per measurement (quick: 7); the median is kept
  std::size_t max_bytes = std::size_t{256} << 20;  // largest copy (quick: 64 MiB)
  bool fit_stream_overhead = true;  // run the add-scalar sweep that fits c
  // Time tiny sub-chunks held until issued for c0 (DeviceTraits::idle_stream_overhead_ms);
  // false leaves it unmeasured (-1): c for every sub-chunk, the model before run 81.
  bool measure_idle_overhead = true;
  // Measure the inline path of small copies in (Calibration::inline_ladder, inline_fit and
  // the ladders beside them): what `streampipe calibrate` prints. Off by default: the
  // pipeline's own quick calibration would only discard it.
  bool measure_inline_copies = false;
  // Measure it and write the pipeline's ladder (call by call) into the profile
  // (DeviceTraits::inline_h2d_*). Off by default (docs/models.md, "Inline copies in").
  bool inline_copies = false;
};

struct CopySample {
  double bytes = 0.0;
  double h2d_ms = 0.0;
  double d2h_ms = 0.0;
};

struct SweepSample {
  int streams = 1;
  double measured_ms = 0.0;
  double model_ms = 0.0;  // the current model with the calibrated parameters
  double issue_ms = 0.0;  // the host's median time enqueueing the batch
};

// The host's time issuing one sub-chunk (or one bare copy in) whose copy in is `bytes` (the
// inline ladders).
struct IssueSample {
  double bytes = 0.0;
  double issue_ms = 0.0;
};

// One ladder of the inline path: the pipeline at `streams`, issued `issue`.
struct InlineLadder {
  int streams = 0;
  IssueMode issue = IssueMode::kStreams;
  std::vector<IssueSample> samples;
  InlineCopyFit fit;
};

struct Calibration {
  DeviceInfo device;
  DeviceProfile profile;  // traits with every parameter filled, ready to save
  std::vector<CopySample> copies;       // the size sweep
  double duplex_h2d_ms = 0.0;           // both directions at once, max_bytes each
  double duplex_d2h_ms = 0.0;
  double gap_copies = 0;                // copies in the g measurement
  std::vector<SweepSample> sweep;       // the add-scalar sweep c was fitted to (medians of
                                        // three rounds)
  double sweep_bytes = 0.0;             // bytes each way of that sweep
  // g between copies in as the back-to-back test measured it; the profile keeps the sweep's
  // (FitInSitu's h2d_gap_ms: lower where that test ran in a burst). 0 without a sweep fit.
  double measured_h2d_gap_ms = 0.0;
  // The inline ladders (empty unless measured): each size's median host time per sub-chunk.
  // inline_ladders: an add-scalar StreamPipeline whose sub-chunks copy that size in and out
  // (MeasureInlineLadder), at n = 8, 32 and 128, call by call and as graphs, each with what
  // FitInlineCopies made of it; inline_fit: CombineInlineFits of those six (the profile's
  // h2d.inline_* with CalibrationOptions::inline_copies); bare_inline_*: one bare copy in on
  // each of 32 streams (the ladder of session 19, for comparison).
  std::vector<InlineLadder> inline_ladders;
  InlineCopyFit inline_fit;
  std::vector<IssueSample> bare_inline_ladder;
  InlineCopyFit bare_inline_fit;
  std::vector<int> sweep_left_out;      // n of the sweep the fit left out (FitInSitu: a burst)
  std::vector<int> sweep_host_bound;   // n the host set or disturbed (FitInSitu: kept out)
  double sweep_misfit = 0.0;            // largest |model_ms / measured - 1| over the kept n
  bool sweep_duplex_plausible = false;  // the fit's x' was used (else the two-stream test's)
  std::string sweep_fit_error;          // why the sweep gave no fit (c stays 0); empty if it did
  // Tiny sub-chunks held until issued (medians of three rounds; model_ms unused): their slope,
  // the device's cost per sub-chunk, less g in, is c0 (profile idle_stream_overhead_ms).
  std::vector<SweepSample> held_sub_chunks;
  double held_sub_chunk_ms = 0.0;  // that slope; 0 where it gave none (see idle_overhead_error)
  std::string idle_overhead_error;  // why c0 stays unmeasured (-1); empty if it was measured
};

// The inline ladder in the pipeline's own shape (session 20): an add-scalar StreamPipeline
// (4-byte items in and out, one iteration; `traits` given, so it does not calibrate itself) at
// n = `streams`, issued `issue`, whose sub-chunks copy each size of `ladder_bytes` in (and as
// much out, after the kernel); each size's median host time per sub-chunk,
// BatchStats::issue_ms / n, as the pipeline reports it to its controller. The sizes in three
// rounds, alternating in direction (a burst moves a third of one size's samples); each visit
// of a size runs one batch first (a graph's copy nodes retargeted to it). A ladder of bare
// copies in overshoots the rate the pipeline's sub-chunks show (runs 110-114). InvalidArgument
// for streams or repetitions < 1, an empty ladder or a size under 4 bytes.
struct InlineLadderOptions {
  int device = 0;
  int streams = 32;
  IssueMode issue = IssueMode::kStreams;
  std::vector<double> ladder_bytes;
  int warmup = 3;       // batches before the first round's samples of each size
  int repetitions = 21; // samples per size, over the three rounds
};
absl::StatusOr<std::vector<IssueSample>> MeasureInlineLadder(const DeviceTraits& traits,
                                                             const InlineLadderOptions& options);

absl::StatusOr<Calibration> Calibrate(const CalibrationOptions& options);

// The profile at `path` if it exists and matches this device and driver; otherwise calibrates
// (and, if `save`, writes the profile). `why` (optional) tells which happened.
absl::StatusOr<DeviceProfile> LoadOrCalibrate(const std::string& path, int device, bool save,
                                              std::string* why = nullptr);

}  // namespace streampipe

#endif  // STREAMPIPE_CUDA_CALIBRATE_HPP_
