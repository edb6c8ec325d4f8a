// The regression model of Veneva & Imamura (seed 004): the overlapped sum linear in problem
// size (eq. 4), T_overhead growing with log(nStreams) (eqs. 5, 7), and the optimum criterion
// (eq. 6). Coefficients are the published fit or are fitted from samples by least squares.
//
//   auto c = streampipe::VenevaCoefficients::Published();
//   double sum = c.Sum(1e6);                       // eq. 4
//   double toh = c.Overhead(1e6, 8);               // eq. 7
//   auto fit = streampipe::FitVenevaOverhead(samples, VenevaOverheadForm::kLog10);
#ifndef STREAMPIPE_CORE_VENEVA_HPP_
#define STREAMPIPE_CORE_VENEVA_HPP_

#include <span>

#include "absl/status/statusor.h"

namespace streampipe {

// The two T_overhead forms of eq. 7.
enum class VenevaOverheadForm {
  kLog10,        // p0*size + p1*log10(n) + p2               ("small", size <= 1e6)
  kScaledLog2,   // (p0*size + p1) * log2(n^(4/3)) + p2      ("big", size > 1e6)
};

struct VenevaOverheadFit {
  VenevaOverheadForm form = VenevaOverheadForm::kLog10;
  double p0 = 0.0;
  double p1 = 0.0;
  double p2 = 0.0;

  double Evaluate(double size, int streams) const;
};

struct VenevaCoefficients {
  // eq. 4: sum = sum_slope * size + sum_intercept.
  double sum_slope = 0.0;
  double sum_intercept = 0.0;
  // When false, the model takes sum from the measured components instead of eq. 4: the
  // non-dominant component times, which are the ones that overlap (eq. 2).
  bool sum_from_regression = true;
  VenevaOverheadFit small;
  VenevaOverheadFit big;
  double size_threshold = 1e6;  // `small` applies at size <= threshold, `big` above.

  double Sum(double size) const { return sum_slope * size + sum_intercept; }
  double Overhead(double size, int streams) const {
    return (size <= size_threshold ? small : big).Evaluate(size, streams);
  }
  // The coefficients printed in eqs. 4 and 7 (RTX 2080 Ti, FP64).
  static VenevaCoefficients Published();
};

// eq. 5: T_overhead = (T_str - T_non_str) + (n - 1)/n * sum.
double VenevaOverheadFromTimes(double t_streamed, double t_non_streamed, double sum, int streams);

// eq. 6 margin: (n - 1)/n * sum - T_overhead. Streams help where it is positive; the optimum
// is the candidate with the largest positive margin (1 when none is positive).
double VenevaMargin(double sum, double overhead, int streams);

// Picks the optimum by eq. 6 among `candidates` for one problem size.
int VenevaOptimum(const VenevaCoefficients& c, double size, std::span<const int> candidates);

struct VenevaSumSample {
  double size = 0.0;
  double sum_ms = 0.0;
};
struct VenevaTimeSample {
  double size = 0.0;
  int streams = 1;
  double streamed_ms = 0.0;
  double non_streamed_ms = 0.0;
  double sum_ms = 0.0;
};

// Least-squares fits of eq. 4 and of one eq. 7 form (T_overhead computed by eq. 5 from each
// sample). InvalidArgument on too few or degenerate samples, or non-finite values.
absl::StatusOr<VenevaCoefficients> FitVenevaSum(std::span<const VenevaSumSample> samples);
absl::StatusOr<VenevaOverheadFit> FitVenevaOverhead(std::span<const VenevaTimeSample> samples,
                                                    VenevaOverheadForm form);

}  // namespace streampipe

#endif  // STREAMPIPE_CORE_VENEVA_HPP_
