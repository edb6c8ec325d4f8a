// Calibrates the transfer parameters of a device by micro-benchmarks (van Werkhoven et al.,
// seed 003, section V-A): L+o per direction (1-byte copies), G per direction (copies of 4 MiB
// and up), both directions at once, the gap g between back-to-back copies, the cost of a tiny
// sub-chunk per stream (as the host issues it, s, and held until issued, the device's: c0),
// and, fitted together by least squares to an add-scalar pipeline sweep
// (n = 1..64, in three rounds; streampipe/core/in_situ_fit.hpp), the duplex G' and the
// per-stream overhead c of the current-GPU model; and (CalibrationOptions::inline_copies) the
// driver's inline path for small copies in, from ladders run on the pipeline's own sub-chunks
// (MeasureInlineLadder).
// Warms up first; every figure is a median.
//
//   absl::StatusOr<streampipe::Calibration> c = streampipe::Calibrate({});
//   streampipe::WriteDeviceProfile("h100.toml", c->profile);
//
// Uses the device exclusively for its duration (about 1 s, 3-6 s with the inline ladders;
// quick = true without them, as StreamPipeline::Create runs it: 0.3 s). Not thread-safe with
// other work on the device: its timings assume it runs alone.
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
  bool quick = false;          // fewer sizes and repetitions (StreamPipeline::Create's, which
                               // also sets inline_copies = false)
  int repetitions = 21;        // per measurement (quick: 7); the median is kept
  std::size_t max_bytes = std::size_t{256} << 20;  // largest copy (quick: 64 MiB)
  bool fit_stream_overhead = true;  // run the add-scalar sweep that fits c
  // Time tiny sub-chunks held until issued for c0 (DeviceTraits::idle_stream_overhead_ms);
  // false leaves it unmeasured (-1): c for every sub-chunk, the model before run 81.
  bool measure_idle_overhead = true;
  // Measure the inline path of small copies in and write it into the profile
  // (DeviceTraits::inline_h2d_*): the pipeline's ladders combined (Calibration::inline_fit), a
  // second or more (quick: about 1.3 s). On by default since session 20 (runs 114-116: with the
  // combined rate the calibrated predictions at the n whose copies in are inline improve in
  // both issue modes); the quick calibrations at Create (StreamPipeline, streampipe histogram)
  // leave it out. A ladder that fails leaves the keys at 0 and says why in
  // Calibration::inline_error (a sticky CUDA error still fails the calibration).
  bool inline_copies = true;
  // Measure the ladders and print them, with the ladder of bare copies in beside them, without
  // writing the keys unless inline_copies (streampipe calibrate, which --no-inline-copies
  // leaves at this).
  bool measure_inline_copies = false;
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
  // FitInlineLadder made of it; inline_fit: CombineInlineFits of those six (the profile's
  // h2d.inline_* with CalibrationOptions::inline_copies; its per_copy_ms mixes the modes' costs
  // per sub-chunk and means little); inline_error: why there is none (a ladder failed), empty
  // otherwise. bare_inline_*: one bare copy in on each of 32 streams, the host's time per copy
  // (the ladder of session 19, for comparison; measured only with measure_inline_copies).
  std::vector<InlineLadder> inline_ladders;
  InlineCopyFit inline_fit;
  std::string inline_error;
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

// The ladder of copy-in sizes calibration uses: 4-64 KiB, 14 sizes across the H100 driver's
// limit (24 KiB), denser around it.
std::vector<double> DefaultInlineLadderBytes();

// The inline ladder in the pipeline's own shape (session 20): an add-scalar StreamPipeline
// (4-byte items in and out, one iteration; `traits` given, so it does not calibrate itself) at
// n = `streams`, issued `issue`, whose sub-chunks copy each size of `ladder_bytes` in (and as
// much out, after the kernel); each size's median host time per sub-chunk,
// BatchStats::issue_ms / n, as the pipeline reports it to its controller. The sizes in three
// rounds, alternating in direction (a burst moves a third of one size's samples); each visit
// of a size runs one batch first, not sampled (as graphs, the batch is captured again for each
// size). A ladder of bare copies in does not measure what follows a copy in the pipeline: its
// rate was 1.5-2.5x the sweeps' in runs 110-113 and 0.9-1.6x the pipeline ladders' in runs
// 114-116. InvalidArgument for streams or repetitions < 1, warmup < 0, an empty ladder, or a
// size that is not a multiple of 4 bytes in [4, 64 MiB]; the pipeline's own errors (e.g. more
// streams than it takes) as StreamPipeline::Create gives them. Uses the device as Calibrate
// does.
struct InlineLadderOptions {
  int device = 0;
  int streams = 32;
  IssueMode issue = IssueMode::kStreams;
  std::vector<double> ladder_bytes = DefaultInlineLadderBytes();
  int warmup = 3;        // batches before the first round's samples of each size
  int repetitions = 21;  // samples per size, over the three rounds
};
absl::StatusOr<std::vector<IssueSample>> MeasureInlineLadder(const DeviceTraits& traits,
                                                             const InlineLadderOptions& options);

// FitInlineCopies of a ladder's sizes and times.
absl::StatusOr<InlineCopyFit> FitInlineLadder(const std::vector<IssueSample>& ladder);

// Calibrates options.device and leaves the caller's current device as it was (since session 48;
// it left options.device current before); waits only on its own streams, bounded.
absl::StatusOr<Calibration> Calibrate(const CalibrationOptions& options);

// The profile at `path` as the pipeline uses it on `device`: read, checked against its name and
// driver, with the runtime's hardware queues (CUDA_DEVICE_MAX_CONNECTIONS) in place of the
// file's. NotFound where the file is missing, FailedPrecondition (naming both) where it was
// made on another device or driver, ReadDeviceProfile's errors otherwise. Never calibrates.
absl::StatusOr<DeviceProfile> LoadDeviceProfile(const std::string& path, const DeviceInfo& device);

// The profile at `path` if it exists and matches this device and driver; FailedPrecondition
// (naming both cards) where it is another card's, which is left as it is; otherwise (no file,
// or this card's profile from another driver) calibrates and, if `save`, writes the profile.
// `why` (optional) is empty where the profile was loaded, and where it calibrated says why and
// where it wrote: "PATH does not exist: calibrated and written there", or "PATH: this card's
// profile from driver D (the driver now is E): calibrated again and written over".
absl::StatusOr<DeviceProfile> LoadOrCalibrate(const std::string& path, int device, bool save,
                                              std::string* why = nullptr);

}  // namespace streampipe

#endif  // STREAMPIPE_CUDA_CALIBRATE_HPP_
