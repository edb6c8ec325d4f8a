#include "streampipe/core/least_squares.hpp"

#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"

namespace streampipe {
namespace {

TEST(LeastSquaresTest, ExactLine) {
  std::vector<double> a = {1, 0, 1, 1, 1, 2};
  std::vector<double> y = {1, 3, 5};
  absl::StatusOr<LinearFit> f = FitLeastSquares(a, 2, y);
  ASSERT_TRUE(f.ok());
  EXPECT_NEAR(f->coefficients[0], 1.0, 1e-12);
  EXPECT_NEAR(f->coefficients[1], 2.0, 1e-12);
  EXPECT_NEAR(f->residual_sum_squares, 0.0, 1e-20);
  EXPECT_NEAR(f->r_squared, 1.0, 1e-12);
}

TEST(LeastSquaresTest, NoisyThreeColumnsWithWidelyScaledColumns) {
  std::mt19937 rng(1);
  std::normal_distribution<double> noise(0.0, 0.01);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<double> a;
  std::vector<double> y;
  for (int i = 0; i < 200; ++i) {
    const double size = 1e3 + 1e8 * u(rng);
    const double l = std::log2(1.0 + 31.0 * u(rng));
    a.insert(a.end(), {size, l, 1.0});
    y.push_back(2e-8 * size - 0.5 * l + 3.0 + noise(rng));
  }
  absl::StatusOr<LinearFit> f = FitLeastSquares(a, 3, y);
  ASSERT_TRUE(f.ok());
  // Standard error of the slope: 0.01 / (sd(size) 2.9e7 * sqrt(200)) = 0.12 % of 2e-8; 5 sigma.
  EXPECT_NEAR(f->coefficients[0] / 2e-8, 1.0, 6e-3);
  EXPECT_NEAR(f->coefficients[1], -0.5, 0.01);
  EXPECT_NEAR(f->coefficients[2], 3.0, 0.01);
  EXPECT_GT(f->r_squared, 0.99);
}

TEST(LeastSquaresTest, Errors) {
  std::vector<double> y = {1, 2};
  EXPECT_FALSE(FitLeastSquares(std::vector<double>{1, 2, 3}, 2, y).ok());  // shape
  EXPECT_FALSE(FitLeastSquares(std::vector<double>{1, 2}, 2, std::vector<double>{1}).ok());
  std::vector<double> collinear = {1, 2, 2, 4, 3, 6};
  absl::StatusOr<LinearFit> f = FitLeastSquares(collinear, 2, std::vector<double>{1, 2, 3});
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.status().message().find("rank"), std::string::npos);
  std::vector<double> nan = {1, NAN, 1, 1};
  EXPECT_FALSE(FitLeastSquares(nan, 2, y).ok());
}

// A line y = 2 + 0.5 x measured at x = 0..6 (relative noise below 1 %), rows of [1, x].
struct Line {
  std::vector<double> a, y;
};
Line Measured(const std::vector<double>& factor) {
  Line l;
  for (std::size_t i = 0; i < factor.size(); ++i) {
    const double x = static_cast<double>(i);
    l.a.insert(l.a.end(), {1.0, x});
    l.y.push_back((2.0 + 0.5 * x) * factor[i]);
  }
  return l;
}

TEST(LeastSquaresTest, LeavesOutTheRowsABurstSpoiled) {
  const Line l = Measured({1.0, 1.005, 0.995, 1.4, 1.0, 0.997, 1.003});  // x = 3: 40 % over
  absl::StatusOr<RobustFit> f = FitLeastSquaresLeavingOut(l.a, 2, l.y, l.y, 0.05, 2, 4);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->left_out, std::vector<int>{3});
  EXPECT_NEAR(f->fit.coefficients[0], 2.0, 0.03);
  EXPECT_NEAR(f->fit.coefficients[1], 0.5, 0.01);
  EXPECT_LE(f->max_relative_residual, 0.05);
  // Plain least squares carries the burst into the intercept (by 1.4 / 7).
  absl::StatusOr<LinearFit> plain = FitLeastSquares(l.a, 2, l.y);
  ASSERT_TRUE(plain.ok());
  EXPECT_GT(plain->coefficients[0] - 2.0, 0.15);
  // Nothing to leave out: every row kept, the plain fit.
  const Line clean = Measured({1.0, 1.005, 0.995, 1.0, 1.0, 0.997, 1.003});
  f = FitLeastSquaresLeavingOut(clean.a, 2, clean.y, clean.y, 0.05, 2, 4);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_TRUE(f->left_out.empty());
}

TEST(LeastSquaresTest, LeavesOutNoMoreRowsThanAllowed) {
  const Line l = Measured({1.3, 1.005, 0.995, 1.4, 1.0, 1.5, 1.003});  // three bursts
  absl::StatusOr<RobustFit> f = FitLeastSquaresLeavingOut(l.a, 2, l.y, l.y, 0.05, 3, 4);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->left_out, (std::vector<int>{0, 3, 5}));
  // Two allowed: no choice explains the rest, so every row is kept.
  f = FitLeastSquaresLeavingOut(l.a, 2, l.y, l.y, 0.05, 2, 4);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_TRUE(f->left_out.empty());
  EXPECT_GT(f->max_relative_residual, 0.05);
  // Keeping at least 5 of 7 rows: at most 2 out, the same.
  f = FitLeastSquaresLeavingOut(l.a, 2, l.y, l.y, 0.05, 3, 5);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_TRUE(f->left_out.empty());
}

TEST(LeastSquaresTest, AFitTheCallerRejectsIsNotChosen) {
  const Line l = Measured({1.0, 1.005, 0.995, 1.4, 1.0, 0.997, 1.003});
  // Reject slopes below 0.6: no choice of up to one row out gives one, so every row is kept.
  absl::StatusOr<RobustFit> f = FitLeastSquaresLeavingOut(
      l.a, 2, l.y, l.y, 0.05, 1, 4, [](const LinearFit& fit) { return fit.coefficients[1] > 0.6; });
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_TRUE(f->left_out.empty());
}

// Rows are left out only where at least cols + 2 remain (with cols + 1, any row left out is
// fitted exactly), and only among the first 20 (more: every row kept, no undefined shifts).
TEST(LeastSquaresTest, RobustFitKeepsTwoRowsMoreThanCoefficients) {
  const Line three = Measured({1.0, 1.4, 1.0});
  absl::StatusOr<RobustFit> f = FitLeastSquaresLeavingOut(three.a, 2, three.y, three.y, 0.05, 2, 1);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_TRUE(f->left_out.empty());
  const Line four = Measured({1.0, 1.4, 1.0, 1.0});
  f = FitLeastSquaresLeavingOut(four.a, 2, four.y, four.y, 0.05, 2, 1);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_TRUE(f->left_out.empty());
  std::vector<double> factors(40, 1.0);
  factors[3] = 1.4;
  const Line many = Measured(factors);
  f = FitLeastSquaresLeavingOut(many.a, 2, many.y, many.y, 0.05, 2, 4);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_TRUE(f->left_out.empty());
  EXPECT_GT(f->max_relative_residual, 0.05);
}

TEST(LeastSquaresTest, RobustFitRejectsBadScales) {
  const Line l = Measured({1.0, 1.0, 1.0, 1.0});
  const std::vector<double> short_scale = {1.0, 1.0};
  absl::StatusOr<RobustFit> f = FitLeastSquaresLeavingOut(l.a, 2, l.y, short_scale, 0.05, 1, 2);
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.status().message().find("2 scales for 4 rows"), std::string::npos) << f.status();
  const std::vector<double> zero = {1.0, 0.0, 1.0, 1.0};
  f = FitLeastSquaresLeavingOut(l.a, 2, l.y, zero, 0.05, 1, 2);
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.status().message().find("row 1"), std::string::npos) << f.status();
  // A matrix of another shape than the rows say: refused before a row is read (it was read past
  // its end when shorter, and accepted when longer).
  const std::vector<double> ones(4, 1.0);
  for (std::size_t entries : {4u, 9u}) {
    const std::vector<double> a(l.a.begin(), l.a.begin() + std::min<std::size_t>(entries, 8));
    std::vector<double> shaped = a;
    shaped.resize(entries, 1.0);
    f = FitLeastSquaresLeavingOut(shaped, 2, l.y, ones, 0.05, 1, 2);
    ASSERT_FALSE(f.ok()) << entries;
    EXPECT_NE(f.status().message().find(absl::StrCat(entries, " matrix entries for 4 rows of 2")),
              std::string::npos)
        << f.status();
  }
}

// r² of a poor fit, by hand: y = {1, 3, 2, 4} on x = 1..4 fits y = 0.8 x + 0.5, residuals
// -0.3, 0.9, -0.9, 0.3 (1.8 in squares) of a total 5: r² = 0.64.
TEST(LeastSquaresTest, RSquaredOfAPoorFit) {
  const std::vector<double> a = {1, 1, 2, 1, 3, 1, 4, 1};
  const std::vector<double> y = {1, 3, 2, 4};
  absl::StatusOr<LinearFit> f = FitLeastSquares(a, 2, y);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_NEAR(f->coefficients[0], 0.8, 1e-12);
  EXPECT_NEAR(f->coefficients[1], 0.5, 1e-12);
  EXPECT_NEAR(f->residual_sum_squares, 1.8, 1e-12);
  EXPECT_NEAR(f->r_squared, 0.64, 1e-12);
}

// Rank is judged per column: an intercept beside values near 1e11 (a size in bytes) is no
// linear combination of them (refused as rank deficient before session 51).
TEST(LeastSquaresTest, ColumnsOfFarApartScalesAreOfFullRank) {
  for (const double scale : {1e11, 1e14}) {
    std::vector<double> a, y;
    for (int i = 1; i <= 6; ++i) {
      const double x = scale * i;
      a.insert(a.end(), {x, 1.0});
      y.push_back(2e-12 * x + 0.15);
    }
    absl::StatusOr<LinearFit> f = FitLeastSquares(a, 2, y);
    ASSERT_TRUE(f.ok()) << scale << ": " << f.status();
    EXPECT_NEAR(f->coefficients[0] / 2e-12, 1.0, 1e-9) << scale;
    EXPECT_NEAR(f->coefficients[1], 0.15, 1e-9) << scale;
  }
  // Nearly collinear, in either order: an intercept beside sizes 1e9 + {0, 1, 2, 3} is all but
  // a multiple of them (the intercept's own direction is 1e-9 of its norm), and refused.
  for (const bool size_first : {true, false}) {
    std::vector<double> a, y;
    for (int i = 0; i < 4; ++i) {
      const double size = 1e9 + i;
      if (size_first) {
        a.insert(a.end(), {size, 1.0});
      } else {
        a.insert(a.end(), {1.0, size});
      }
      y.push_back(1.0 + 0.01 * (i % 2));
    }
    EXPECT_NE(FitLeastSquares(a, 2, y).status().message().find("rank deficient"),
              std::string::npos)
        << size_first;
  }
  // A column that is another times a number still is deficient, at any scale.
  std::vector<double> a, y;
  for (int i = 1; i <= 6; ++i) {
    a.insert(a.end(), {1e11 * i, 3e-5 * i});
    y.push_back(i);
  }
  EXPECT_NE(FitLeastSquares(a, 2, y).status().message().find("rank deficient"), std::string::npos);
}

TEST(LeastSquaresTest, AFitThatOverflowsIsAnError) {
  // Finite values whose squares overflow: an error, not OK with NaN coefficients.
  const std::vector<double> a = {1e200, 2e200, 3e200};
  const std::vector<double> y = {1e200, 2e200, 3.5e200};
  absl::StatusOr<LinearFit> f = FitLeastSquares(a, 1, y);
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.status().message().find("overflows"), std::string::npos) << f.status();
}

}  // namespace
}  // namespace streampipe
