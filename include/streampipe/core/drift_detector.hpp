// Decides that a workload has moved: each batch's measured time is compared with the time
// expected for it, and the detector says so when the divergence passes a threshold for enough
// batches, ignoring single outliers. A small decision object fed with numbers (after nvbench's
// stopping criteria), so tests drive it with synthetic sequences.
//
//   streampipe::DriftDetector d({});                // sound defaults
//   STREAMPIPE_RETURN_IF_ERROR(d.AddMeasurement(measured_ms, expected_ms));
//   if (d.HasDrifted()) { ... re-measure, re-derive ..., d.Reset(); }
//
// Divergence is measured as log(measured / expected), symmetric for faster and slower.
// Drift is declared when either
//   - the last `consecutive` batches all diverge beyond `threshold` in the same direction
//     (a step: detected within `consecutive` batches; a single outlier is not enough), or
//   - the window is full and its mean divergence is beyond `threshold` and significant
//     (|mean| > 3 standard errors: a slow or noisy ramp).
// Not thread-safe.
#ifndef STREAMPIPE_CORE_DRIFT_DETECTOR_HPP_
#define STREAMPIPE_CORE_DRIFT_DETECTOR_HPP_

#include <boost/circular_buffer.hpp>

#include "absl/status/status.h"

namespace streampipe {

struct DriftDetectorOptions {
  double threshold = 0.10;  // relative divergence: 0.10 = 10 % slower or faster than expected
  int window = 32;          // recent batches kept for the mean and variance
  int min_samples = 4;      // no decision before this many measurements
  int consecutive = 3;      // batches in a row beyond the threshold that make a drift
};

// InvalidArgument naming the field for values out of range (threshold in (0, 10],
// window in [2, 100000], min_samples in [1, window], consecutive in [1, window]).
absl::Status ValidateDriftDetectorOptions(const DriftDetectorOptions& options);

class DriftDetector {
 public:
  // The options are checked here (ValidateDriftDetectorOptions); where they are bad, every
  // AddMeasurement returns that error and the detector never drifts (a constructor cannot).
  explicit DriftDetector(const DriftDetectorOptions& options);

  // InvalidArgument (and the sample is ignored) unless both times are finite and > 0, or the
  // options' error.
  absl::Status AddMeasurement(double measured_ms, double expected_ms);

  bool HasDrifted() const { return drifted_; }
  // Forgets every sample (after a re-derivation).
  void Reset();

  int samples() const { return static_cast<int>(window_.size()); }
  // Mean and standard deviation of log(measured / expected) over the window.
  double mean_log_ratio() const;
  double stddev_log_ratio() const;
  // exp(mean): the typical measured/expected ratio.
  double mean_ratio() const;
  // Why HasDrifted() is true, for the re-derivation event ("" if not drifted).
  const char* reason() const { return reason_; }

 private:
  DriftDetectorOptions options_;
  absl::Status init_;  // ValidateDriftDetectorOptions(options_)
  double log_threshold_;
  boost::circular_buffer<double> window_;
  double sum_ = 0.0;
  double sum_sq_ = 0.0;
  int run_ = 0;        // batches in a row beyond the threshold, same sign
  int run_sign_ = 0;
  int since_recompute_ = 0;
  bool drifted_ = false;
  const char* reason_ = "";
};

}  // namespace streampipe

#endif  // STREAMPIPE_CORE_DRIFT_DETECTOR_HPP_
