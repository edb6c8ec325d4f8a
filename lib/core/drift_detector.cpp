#include "streampipe/core/drift_detector.hpp"

#include <cmath>

#include "absl/strings/str_cat.h"

namespace streampipe {

absl::Status ValidateDriftDetectorOptions(const DriftDetectorOptions& o) {
  if (!(o.threshold > 0.0 && o.threshold <= 10.0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("detector threshold is ", o.threshold, "; it must be in (0, 10]"));
  }
  if (o.window < 2 || o.window > 100000) {
    return absl::InvalidArgumentError(
        absl::StrCat("detector window is ", o.window, "; it must be in [2, 100000]"));
  }
  if (o.min_samples < 1 || o.min_samples > o.window) {
    return absl::InvalidArgumentError(absl::StrCat("detector min_samples is ", o.min_samples,
                                                   "; it must be in [1, window = ", o.window,
                                                   "]"));
  }
  if (o.consecutive < 1 || o.consecutive > o.window) {
    return absl::InvalidArgumentError(absl::StrCat("detector consecutive is ", o.consecutive,
                                                   "; it must be in [1, window = ", o.window,
                                                   "]"));
  }
  return absl::OkStatus();
}

DriftDetector::DriftDetector(const DriftDetectorOptions& options)
    : options_(options),
      init_(ValidateDriftDetectorOptions(options)),
      // Bad options size nothing: a window of 2^31 would allocate 16 GiB before any check.
      log_threshold_(init_.ok() ? std::log1p(options.threshold) : 0.0),
      window_(static_cast<std::size_t>(init_.ok() ? options.window : 2)) {}

void DriftDetector::Reset() {
  window_.clear();
  sum_ = 0.0;
  sum_sq_ = 0.0;
  run_ = 0;
  run_sign_ = 0;
  since_recompute_ = 0;
  drifted_ = false;
  reason_ = "";
}

double DriftDetector::mean_log_ratio() const {
  return window_.empty() ? 0.0 : sum_ / static_cast<double>(window_.size());
}

double DriftDetector::stddev_log_ratio() const {
  const double n = static_cast<double>(window_.size());
  if (n < 2) return 0.0;
  const double mean = sum_ / n;
  return std::sqrt(std::max(0.0, (sum_sq_ - n * mean * mean) / (n - 1.0)));
}

double DriftDetector::mean_ratio() const { return std::exp(mean_log_ratio()); }

absl::Status DriftDetector::AddMeasurement(double measured_ms, double expected_ms) {
  if (!init_.ok()) return init_;  // bad options: never a decision, always this error
  if (!(std::isfinite(measured_ms) && measured_ms > 0.0 && std::isfinite(expected_ms) &&
        expected_ms > 0.0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "drift detector: measured ", measured_ms, " ms against expected ", expected_ms,
        " ms; both must be finite and > 0"));
  }
  const double x = std::log(measured_ms / expected_ms);
  // Each finite, their ratio may not be (1e300 / 1e-10): one such outlier made the window's
  // mean infinite and declared a drift, and later sums NaN, before session 51.
  if (!std::isfinite(x)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "drift detector: measured ", measured_ms, " ms against expected ", expected_ms,
        " ms; their ratio is out of a double's range"));
  }
  if (window_.full()) {
    const double old = window_.front();
    sum_ -= old;
    sum_sq_ -= old * old;
  }
  window_.push_back(x);
  sum_ += x;
  sum_sq_ += x * x;
  // Recompute the sums now and then so that rounding does not accumulate over long runs.
  if (++since_recompute_ >= 4096) {
    since_recompute_ = 0;
    sum_ = 0.0;
    sum_sq_ = 0.0;
    for (double v : window_) {
      sum_ += v;
      sum_sq_ += v * v;
    }
  }

  const int sign = x > log_threshold_ ? 1 : (x < -log_threshold_ ? -1 : 0);
  if (sign != 0 && sign == run_sign_) {
    ++run_;
  } else {
    run_ = sign != 0 ? 1 : 0;
    run_sign_ = sign;
  }
  if (drifted_ || samples() < options_.min_samples) return absl::OkStatus();
  if (run_ >= options_.consecutive) {
    drifted_ = true;
    reason_ = run_sign_ > 0 ? "consecutive batches slower than expected"
                            : "consecutive batches faster than expected";
    return absl::OkStatus();
  }
  if (window_.full()) {
    const double mean = mean_log_ratio();
    const double se = stddev_log_ratio() / std::sqrt(static_cast<double>(samples()));
    if (std::abs(mean) > log_threshold_ && std::abs(mean) > 3.0 * se) {
      drifted_ = true;
      reason_ = mean > 0 ? "window mean slower than expected" : "window mean faster than expected";
    }
  }
  return absl::OkStatus();
}

}  // namespace streampipe
