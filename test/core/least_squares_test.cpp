#include "streampipe/core/least_squares.hpp"

#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace streampipe
