#include "streampipe/core/veneva.hpp"

#include <cmath>
#include <vector>

#include "absl/strings/str_cat.h"
#include "streampipe/core/least_squares.hpp"

namespace streampipe {
namespace {

// The log term of each eq. 7 form.
double LogTerm(VenevaOverheadForm form, int streams) {
  const double n = static_cast<double>(streams);
  if (form == VenevaOverheadForm::kLog10) return std::log10(n);
  return std::log2(std::pow(n, 4.0 / 3.0));  // log2(n^(4/3)) as printed in eq. 7
}

}  // namespace

double VenevaOverheadFit::Evaluate(double size, int streams) const {
  const double l = LogTerm(form, streams);
  if (form == VenevaOverheadForm::kLog10) return p0 * size + p1 * l + p2;
  return (p0 * size + p1) * l + p2;
}

VenevaCoefficients VenevaCoefficients::Published() {
  VenevaCoefficients c;
  // eq. 4
  c.sum_slope = 0.0000021890017149;
  c.sum_intercept = 0.1470644998564126;
  c.sum_from_regression = true;
  // eq. 7
  c.small = {VenevaOverheadForm::kLog10, 0.0000002245645331, 0.6009426920043296,
             -0.0605183610625299};
  c.big = {VenevaOverheadForm::kScaledLog2, 0.0000000356594859, 0.0522781620855163,
           0.3941472844770443};
  c.size_threshold = 1e6;
  return c;
}

double VenevaOverheadFromTimes(double t_streamed, double t_non_streamed, double sum,
                               int streams) {
  const double n = static_cast<double>(streams);
  return (t_streamed - t_non_streamed) + (n - 1.0) / n * sum;
}

double VenevaMargin(double sum, double overhead, int streams) {
  const double n = static_cast<double>(streams);
  return (n - 1.0) / n * sum - overhead;
}

int VenevaOptimum(const VenevaCoefficients& c, double size, std::span<const int> candidates) {
  const double sum = c.Sum(size);
  int best = 1;
  bool found = false;
  double best_margin = 0.0;
  for (int n : candidates) {
    const double margin = VenevaMargin(sum, c.Overhead(size, n), n);
    if (margin > 0.0 && (!found || margin > best_margin)) {  // eq. 6
      found = true;
      best_margin = margin;
      best = n;
    }
  }
  return best;
}

absl::StatusOr<VenevaCoefficients> FitVenevaSum(std::span<const VenevaSumSample> samples) {
  std::vector<double> a;
  std::vector<double> y;
  for (const VenevaSumSample& s : samples) {
    a.push_back(s.size);
    a.push_back(1.0);
    y.push_back(s.sum_ms);
  }
  absl::StatusOr<LinearFit> fit = FitLeastSquares(a, 2, y);
  if (!fit.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("eq. 4 fit: ", fit.status().message()));
  }
  VenevaCoefficients c = VenevaCoefficients::Published();
  c.sum_slope = fit->coefficients[0];
  c.sum_intercept = fit->coefficients[1];
  c.sum_from_regression = true;
  return c;
}

absl::StatusOr<VenevaOverheadFit> FitVenevaOverhead(std::span<const VenevaTimeSample> samples,
                                                    VenevaOverheadForm form) {
  std::vector<double> a;
  std::vector<double> y;
  for (const VenevaTimeSample& s : samples) {
    if (s.streams < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("eq. 7 fit: a sample has ", s.streams, " streams; it must be >= 1"));
    }
    const double l = LogTerm(form, s.streams);
    if (form == VenevaOverheadForm::kLog10) {
      a.insert(a.end(), {s.size, l, 1.0});
    } else {
      a.insert(a.end(), {s.size * l, l, 1.0});
    }
    y.push_back(VenevaOverheadFromTimes(s.streamed_ms, s.non_streamed_ms, s.sum_ms, s.streams));
  }
  absl::StatusOr<LinearFit> fit = FitLeastSquares(a, 3, y);
  if (!fit.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("eq. 7 fit: ", fit.status().message()));
  }
  return VenevaOverheadFit{form, fit->coefficients[0], fit->coefficients[1],
                           fit->coefficients[2]};
}

}  // namespace streampipe
