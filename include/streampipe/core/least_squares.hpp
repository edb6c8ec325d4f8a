// Small dense linear least squares (Householder QR), for the regression fits of the models
// and the on-line calibration. Sizes are tens of rows and a handful of columns.
//
//   std::vector<double> a = {1, 0,  1, 1,  1, 2};   // rows of [1, x], row-major
//   std::vector<double> y = {1, 3, 5};
//   auto fit = streampipe::FitLeastSquares(a, 2, y); // fit->coefficients == {1, 2}
#ifndef STREAMPIPE_CORE_LEAST_SQUARES_HPP_
#define STREAMPIPE_CORE_LEAST_SQUARES_HPP_

#include <functional>
#include <span>
#include <vector>

#include "absl/status/statusor.h"

namespace streampipe {

struct LinearFit {
  std::vector<double> coefficients;
  double residual_sum_squares = 0.0;
  double r_squared = 0.0;  // 1 - RSS/TSS; 1 when y is constant and fitted exactly.
};

// Minimizes |A x - y|^2 for A given row-major with `cols` columns. InvalidArgument when the
// shapes disagree, there are fewer rows than columns, a value is not finite, or A is rank
// deficient (a column is a combination of the others).
absl::StatusOr<LinearFit> FitLeastSquares(std::span<const double> a, int cols,
                                          std::span<const double> y);

// Least squares that leaves out the rows a burst of other traffic spoiled (calibration on a
// shared machine). Row i is explained when |residual_i| <= tolerance * scale[i] (scale: the
// measured time the row stands for, so tolerance is relative). The fewest rows are left out, at
// most `max_left_out` and keeping at least max(min_kept, cols + 2) rows (with cols + 1, any one
// row left out is fitted exactly and the tolerance tests nothing), such that every kept row is
// explained and `accept` (if given) takes the fit; of equal counts the smallest residual sum of
// squares wins. Where no such choice exists, the fit of every row (nothing left out). Errors as
// FitLeastSquares, and InvalidArgument for a scale of the wrong size or not > 0. Rows are left
// out only where there are at most 20 (the calibration's fits have 6-7); beyond, every row is
// kept.
struct RobustFit {
  LinearFit fit;
  std::vector<int> left_out;  // row indices, ascending
  double max_relative_residual = 0.0;  // over the kept rows
};
absl::StatusOr<RobustFit> FitLeastSquaresLeavingOut(
    std::span<const double> a, int cols, std::span<const double> y, std::span<const double> scale,
    double tolerance, int max_left_out, int min_kept,
    const std::function<bool(const LinearFit&)>& accept = nullptr);

}  // namespace streampipe

#endif  // STREAMPIPE_CORE_LEAST_SQUARES_HPP_
