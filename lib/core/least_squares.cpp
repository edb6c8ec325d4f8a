#include "streampipe/core/least_squares.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "streampipe/status_macros.hpp"

namespace streampipe {

absl::StatusOr<LinearFit> FitLeastSquares(std::span<const double> a, int cols,
                                          std::span<const double> y) {
  if (cols <= 0) return absl::InvalidArgumentError("least squares: no columns");
  const std::size_t n = static_cast<std::size_t>(cols);
  if (a.size() != y.size() * n) {
    return absl::InvalidArgumentError(absl::StrCat("least squares: design matrix has ", a.size(),
                                                   " values, expected ", y.size(), " rows x ",
                                                   cols, " columns"));
  }
  const std::size_t m = y.size();
  if (m < n) {
    return absl::InvalidArgumentError(
        absl::StrCat("least squares: ", m, " samples for ", cols, " coefficients"));
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!std::isfinite(a[i])) {
      return absl::InvalidArgumentError(absl::StrCat("least squares: design value ", a[i],
                                                     " at row ", i / n, " is not finite"));
    }
  }
  for (std::size_t i = 0; i < m; ++i) {
    if (!std::isfinite(y[i])) {
      return absl::InvalidArgumentError(
          absl::StrCat("least squares: sample ", i, " is ", y[i], ", not finite"));
    }
  }

  // Householder QR on a column-major copy: R overwrites the upper triangle, Q^T y is applied
  // on the fly.
  std::vector<double> q(m * n);
  for (std::size_t r = 0; r < m; ++r) {
    for (std::size_t c = 0; c < n; ++c) q[c * m + r] = a[r * n + c];
  }
  std::vector<double> b(y.begin(), y.end());
  // Rank: what is left of a column once the columns before it are taken out, against that
  // column's own norm, at about the square root of the machine epsilon: a column nearer than
  // that to the others' span gives a fit whose coefficients are rounding (an intercept beside
  // sizes 1e9 + {0, 1, 2, 3}). Against the largest value of the whole matrix (before session
  // 51), an intercept beside values near 1e11 read as rank deficient, while a nearly collinear
  // pair passed or not by the order of its columns.
  std::vector<double> own(n, 0.0);
  for (std::size_t c = 0; c < n; ++c) {
    double sum = 0.0;
    for (std::size_t r = 0; r < m; ++r) sum += q[c * m + r] * q[c * m + r];
    own[c] = std::sqrt(sum);
  }
  for (std::size_t k = 0; k < n; ++k) {
    double* col = &q[k * m];
    double norm = 0.0;
    for (std::size_t r = k; r < m; ++r) norm += col[r] * col[r];
    norm = std::sqrt(norm);
    // (A norm that overflows is left to the overflow check below.)
    if (own[k] == 0.0 || (std::isfinite(own[k]) && norm <= 1e-8 * own[k])) {
      return absl::InvalidArgumentError(absl::StrCat(
          "least squares: column ", k, " is a linear combination of the others (rank deficient)"));
    }
    const double alpha = col[k] > 0.0 ? -norm : norm;
    std::vector<double> v(m - k);
    for (std::size_t r = k; r < m; ++r) v[r - k] = col[r];
    v[0] -= alpha;
    double vnorm2 = 0.0;
    for (double x : v) vnorm2 += x * x;
    if (vnorm2 == 0.0) continue;
    auto reflect = [&](double* target) {
      double dot = 0.0;
      for (std::size_t r = k; r < m; ++r) dot += v[r - k] * target[r];
      const double f = 2.0 * dot / vnorm2;
      for (std::size_t r = k; r < m; ++r) target[r] -= f * v[r - k];
    };
    for (std::size_t c = k; c < n; ++c) reflect(&q[c * m]);
    reflect(b.data());
  }
  // Back substitution R x = (Q^T y)[0:n].
  std::vector<double> x(n);
  for (std::size_t i = n; i-- > 0;) {
    double s = b[i];
    for (std::size_t c = i + 1; c < n; ++c) s -= q[c * m + i] * x[c];
    x[i] = s / q[i * m + i];
  }
  LinearFit fit;
  fit.coefficients = x;
  double mean = 0.0;
  for (double v : y) mean += v;
  mean /= static_cast<double>(m);
  double rss = 0.0;
  double tss = 0.0;
  for (std::size_t r = 0; r < m; ++r) {
    double pred = 0.0;
    for (std::size_t c = 0; c < n; ++c) pred += a[r * n + c] * x[c];
    rss += (y[r] - pred) * (y[r] - pred);
    tss += (y[r] - mean) * (y[r] - mean);
  }
  fit.residual_sum_squares = rss;
  fit.r_squared = tss > 0.0 ? 1.0 - rss / tss : (rss <= 1e-24 ? 1.0 : 0.0);
  // Finite inputs whose squares overflow (values near 1e155 and beyond) leave inf or NaN here.
  bool finite = std::isfinite(rss) && std::isfinite(fit.r_squared);
  for (double c : x) finite = finite && std::isfinite(c);
  if (!finite) {
    return absl::InvalidArgumentError(
        "least squares: the fit overflows double precision (values too large; scale them)");
  }
  return fit;
}

namespace {
constexpr std::size_t kMaxRobustRows = 20;  // 2^20 subsets at most (the calibration's fits: 6-7 rows)
}  // namespace

absl::StatusOr<RobustFit> FitLeastSquaresLeavingOut(
    std::span<const double> a, int cols, std::span<const double> y, std::span<const double> scale,
    double tolerance, int max_left_out, int min_kept,
    const std::function<bool(const LinearFit&)>& accept) {
  const std::size_t m = y.size();
  if (scale.size() != m) {
    return absl::InvalidArgumentError(
        absl::StrCat("robust least squares: ", scale.size(), " scales for ", m, " rows"));
  }
  // The matrix's shape before any row is copied out of it (FitLeastSquares checks it too, but
  // only of the rows kept).
  if (cols < 1 || a.size() != m * static_cast<std::size_t>(cols)) {
    return absl::InvalidArgumentError(absl::StrCat("robust least squares: ", a.size(),
                                                   " matrix entries for ", m, " rows of ", cols,
                                                   " columns"));
  }
  for (std::size_t i = 0; i < m; ++i) {
    if (!std::isfinite(scale[i]) || !(scale[i] > 0.0)) {
      return absl::InvalidArgumentError(absl::StrCat("robust least squares: scale ", scale[i],
                                                     " at row ", i, " is not > 0"));
    }
  }
  const std::size_t n = static_cast<std::size_t>(std::max(cols, 1));
  // Whether row i is left out by the subset `drop` (bit i; only the first kMaxRobustRows rows
  // can be).
  const auto out = [](std::uint32_t drop, std::size_t i) {
    return i < kMaxRobustRows && (drop >> i & 1u) != 0;
  };
  // The fit of the rows `drop` keeps, and its largest relative residual.
  const auto fit = [&](std::uint32_t drop) -> absl::StatusOr<RobustFit> {
    std::vector<double> ka, ky;
    for (std::size_t i = 0; i < m; ++i) {
      if (out(drop, i)) continue;
      ka.insert(ka.end(), a.begin() + static_cast<std::ptrdiff_t>(i * n),
                a.begin() + static_cast<std::ptrdiff_t>((i + 1) * n));
      ky.push_back(y[i]);
    }
    STREAMPIPE_ASSIGN_OR_RETURN(LinearFit f, FitLeastSquares(ka, cols, ky));
    RobustFit r{std::move(f), {}, 0.0};
    for (std::size_t i = 0; i < m; ++i) {
      if (out(drop, i)) {
        r.left_out.push_back(static_cast<int>(i));
        continue;
      }
      double fitted = 0.0;
      for (std::size_t j = 0; j < n; ++j) fitted += a[i * n + j] * r.fit.coefficients[j];
      r.max_relative_residual =
          std::max(r.max_relative_residual, std::abs(y[i] - fitted) / scale[i]);
    }
    return r;
  };
  absl::StatusOr<RobustFit> all = fit(0);
  if (!all.ok()) return all.status();
  // Every kept set has at least two rows more than coefficients: with one more, any single row
  // left out is fitted exactly and the tolerance tests nothing.
  const int keep = std::max(min_kept, cols + 2);
  const int most = std::min(max_left_out, static_cast<int>(m) - keep);
  if (most <= 0 || m > kMaxRobustRows) return all;
  for (int k = 0; k <= most; ++k) {
    std::optional<RobustFit> best;
    for (std::uint32_t drop = 0; drop < (std::uint32_t{1} << m); ++drop) {
      if (std::popcount(drop) != k) continue;
      absl::StatusOr<RobustFit> r = fit(drop);
      if (!r.ok() || r->max_relative_residual > tolerance || (accept && !accept(r->fit))) continue;
      if (!best || r->fit.residual_sum_squares < best->fit.residual_sum_squares) {
        best = *std::move(r);
      }
    }
    if (best) return *std::move(best);
  }
  return all;
}

}  // namespace streampipe
