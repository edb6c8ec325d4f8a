#include "streampipe/core/statistics.hpp"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace streampipe {
namespace {

TEST(MedianTest, OddCountIsTheMiddleValue) {
  EXPECT_DOUBLE_EQ(Median({5.0, 1.0, 3.0}), 3.0);
  EXPECT_DOUBLE_EQ(Median({2.5}), 2.5);
}

TEST(MedianTest, EvenCountIsTheMeanOfTheTwoMiddleValues) {
  EXPECT_DOUBLE_EQ(Median({4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_DOUBLE_EQ(Median({10.0, -2.0}), 4.0);
}

TEST(MedianTest, AnOutlierDoesNotMoveIt) {
  EXPECT_DOUBLE_EQ(Median({1.0, 1.1, 0.9, 1e9, 1.0}), 1.0);
}

TEST(MedianTest, NoValuesIsNaN) { EXPECT_TRUE(std::isnan(Median({}))); }

// A NaN among the values: NaN whatever the order (nth_element gave NaN for {1, NaN, 3} and 1
// for {NaN, 1, 3} before session 51).
TEST(MedianTest, ANaNAmongTheValuesIsNaNInAnyOrder) {
  const double nan = std::nan("");
  for (const std::vector<double>& v : {std::vector<double>{1.0, nan, 3.0},
                                       std::vector<double>{nan, 1.0, 3.0},
                                       std::vector<double>{1.0, 3.0, nan, 2.0}}) {
    EXPECT_TRUE(std::isnan(Median(v)));
    EXPECT_TRUE(std::isnan(LowMedian(v)));
  }
}

TEST(LowMedianTest, OddCountIsTheMedian) {
  EXPECT_DOUBLE_EQ(LowMedian({5.0, 1.0, 3.0}), 3.0);
  EXPECT_DOUBLE_EQ(LowMedian({2.5}), 2.5);
}

TEST(LowMedianTest, EvenCountIsTheSmallerMiddleValue) {
  EXPECT_DOUBLE_EQ(LowMedian({4.0, 1.0, 3.0, 2.0}), 2.0);
  EXPECT_DOUBLE_EQ(LowMedian({10.0, -2.0}), -2.0);
  EXPECT_DOUBLE_EQ(LowMedian({7.0, 7.0}), 7.0);
}

TEST(LowMedianTest, OneSlowSampleOfTwoDoesNotMoveIt) {
  // A visit's two samples, one of them slowed 17 %: the median moves 8.5 %, the lower none.
  EXPECT_DOUBLE_EQ(Median({0.0500, 0.0585}), 0.05425);
  EXPECT_DOUBLE_EQ(LowMedian({0.0585, 0.0500}), 0.0500);
}

TEST(LowMedianTest, NoValuesIsNaN) { EXPECT_TRUE(std::isnan(LowMedian({}))); }

}  // namespace
}  // namespace streampipe
