// Small dense linear least squares (Householder QR), for the regression fits of the models
// and the on-line calibration. Sizes are tens of rows and a handful of columns.
//
//   std::vector<double> a = {1, 0,  1, 1,  1, 2};   // rows of [1, x], row-major
//   std::vector<double> y = {1, 3, 5};
//   auto fit = streampipe::FitLeastSquares(a, 2, y); // fit->coefficients == {1, 2}
#ifndef STREAMPIPE_CORE_LEAST_SQUARES_HPP_
#define STREAMPIPE_CORE_LEAST_SQUARES_HPP_

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

}  // namespace streampipe

#endif  // STREAMPIPE_CORE_LEAST_SQUARES_HPP_
