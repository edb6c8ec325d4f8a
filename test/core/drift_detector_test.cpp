// The drift detector on synthetic timing sequences: stationary noise, a step, a slow ramp,
// single outliers, invalid timings.
#include "streampipe/core/drift_detector.hpp"

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>
#include <algorithm>

#include <gtest/gtest.h>

namespace streampipe {
namespace {

// Noise like the H100's batch-to-batch spread (docs/evidence/anchors and our benchmarks): a few
// percent log-normal, plus rare outliers 20-40 % slow (a preempted batch, a clock dip).
struct NoisyTimes {
  explicit NoisyTimes(std::uint64_t seed) : rng(seed) {}
  double Next(double level) {
    double t = level * std::exp(noise(rng));
    if (outlier(rng) < 0.01) t *= 1.2 + 0.2 * outlier(rng);
    return t;
  }
  std::mt19937_64 rng;
  std::normal_distribution<double> noise{0.0, 0.03};
  std::uniform_real_distribution<double> outlier{0.0, 1.0};
};

TEST(DriftDetectorTest, StationaryNoiseNeverDriftsIn10000Batches) {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    DriftDetector d({});
    NoisyTimes times(seed);
    for (int i = 0; i < 10000; ++i) {
      ASSERT_TRUE(d.AddMeasurement(times.Next(1.5), 1.5).ok());
      ASSERT_FALSE(d.HasDrifted()) << "seed " << seed << " batch " << i << ": " << d.reason();
    }
    EXPECT_NEAR(d.mean_ratio(), 1.0, 0.05);
  }
}

TEST(DriftDetectorTest, StepChangeIsDetectedWithinThreeBatches) {
  for (double step : {1.25, 0.75, 2.0}) {
    DriftDetector d({});
    NoisyTimes times(7);
    for (int i = 0; i < 200; ++i) ASSERT_TRUE(d.AddMeasurement(times.Next(1.5), 1.5).ok());
    ASSERT_FALSE(d.HasDrifted());
    times.outlier = std::uniform_real_distribution<double>(2.0, 3.0);  // no outliers now
    int detected_after = -1;
    for (int i = 1; i <= 10 && detected_after < 0; ++i) {
      ASSERT_TRUE(d.AddMeasurement(times.Next(1.5 * step), 1.5).ok());
      if (d.HasDrifted()) detected_after = i;
    }
    EXPECT_GE(detected_after, 1) << "step " << step;
    EXPECT_LE(detected_after, 3) << "step " << step;
    EXPECT_NE(std::string(d.reason()), "");
  }
}

// A ramp of +0.05 % per batch under the same noise, over 20 seeds: every run detects it; the
// typical detection is near the 10 % threshold; none fires while the true divergence is below
// 4 % (where single noisy samples beyond 10 % are rare), none later than at 16 %.
TEST(DriftDetectorTest, SlowRampIsDetectedOnceItPassesTheThreshold) {
  std::vector<double> levels;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    DriftDetector d({});
    NoisyTimes times(seed);
    double at = -1.0;
    for (int i = 0; i < 2000 && at < 0; ++i) {
      const double divergence = 0.0005 * i;
      ASSERT_TRUE(d.AddMeasurement(times.Next(1.5 * (1.0 + divergence)), 1.5).ok());
      if (d.HasDrifted()) at = divergence;
    }
    ASSERT_GE(at, 0.0) << "seed " << seed << ": a ramp to +100 % was never detected";
    EXPECT_GT(at, 0.04) << "seed " << seed;
    EXPECT_LT(at, 0.16) << "seed " << seed;
    levels.push_back(at);
  }
  std::sort(levels.begin(), levels.end());
  const double median = levels[levels.size() / 2];
  EXPECT_GT(median, 0.07);
  EXPECT_LT(median, 0.12);
}

TEST(DriftDetectorTest, SingleOutliersAreIgnored) {
  DriftDetector d({});
  for (int i = 0; i < 1000; ++i) {
    const double t = i % 50 == 25 ? 10.0 : 1.0;  // a 10x outlier every 50 batches
    ASSERT_TRUE(d.AddMeasurement(t, 1.0).ok());
    ASSERT_FALSE(d.HasDrifted()) << "batch " << i;
  }
  // Two in a row are still not three.
  ASSERT_TRUE(d.AddMeasurement(5.0, 1.0).ok());
  ASSERT_TRUE(d.AddMeasurement(5.0, 1.0).ok());
  EXPECT_FALSE(d.HasDrifted());
  ASSERT_TRUE(d.AddMeasurement(5.0, 1.0).ok());
  EXPECT_TRUE(d.HasDrifted());
  d.Reset();
  EXPECT_FALSE(d.HasDrifted());
  EXPECT_EQ(d.samples(), 0);
}

// Two finite times whose ratio is not (1e300 against 1e-10): refused, not an infinite log in the
// window (one such outlier declared a drift, and the sums went NaN, before session 51).
TEST(DriftDetectorTest, ARatioOutOfRangeIsRefusedAndChangesNothing) {
  DriftDetector d({});
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(d.AddMeasurement(1.0, 1.0).ok());
  const absl::Status s = d.AddMeasurement(1e300, 1e-10);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("their ratio is out of a double's range"), std::string::npos)
      << s.message();
  EXPECT_EQ(d.samples(), 3);
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(d.AddMeasurement(1.0, 1.0).ok());
  EXPECT_FALSE(d.HasDrifted());
  EXPECT_DOUBLE_EQ(d.mean_ratio(), 1.0);
}

// The window's mean alone: batches alternating 1.25x and 1x of their prediction never make three
// in a row past the threshold, but their mean (+11.2 % in logs) is past it, far beyond its
// standard error, once the window (32) is full. Faster likewise.
TEST(DriftDetectorTest, AWindowMeanPastTheThresholdDriftsWithoutARun) {
  for (const auto& [slow, why] : std::vector<std::pair<double, std::string>>{
           {1.25, "window mean slower than expected"}, {0.75, "window mean faster than expected"}}) {
    DriftDetector d({});
    for (int i = 1; i <= 32; ++i) {
      ASSERT_TRUE(d.AddMeasurement(i % 2 == 1 ? slow : 1.0, 1.0).ok());
      ASSERT_EQ(d.HasDrifted(), i == 32) << "sample " << i;
    }
    EXPECT_EQ(std::string(d.reason()), why);
  }
}

TEST(DriftDetectorTest, NoDecisionBeforeMinSamples) {
  DriftDetector d({.threshold = 0.1, .window = 16, .min_samples = 8, .consecutive = 3});
  for (int i = 0; i < 7; ++i) ASSERT_TRUE(d.AddMeasurement(3.0, 1.0).ok());
  EXPECT_FALSE(d.HasDrifted());
  ASSERT_TRUE(d.AddMeasurement(3.0, 1.0).ok());
  EXPECT_TRUE(d.HasDrifted());
}

TEST(DriftDetectorTest, InvalidTimingsAreRejectedWithAStatus) {
  DriftDetector d({});
  const double bad[] = {std::numeric_limits<double>::quiet_NaN(), 0.0, -1.0,
                        std::numeric_limits<double>::infinity()};
  for (double v : bad) {
    absl::Status s = d.AddMeasurement(v, 1.0);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << v;
    EXPECT_NE(s.message().find("finite and > 0"), std::string::npos);
    EXPECT_FALSE(d.AddMeasurement(1.0, v).ok()) << v;
  }
  EXPECT_EQ(d.samples(), 0);  // nothing was recorded
}

TEST(DriftDetectorTest, OptionsAreValidated) {
  EXPECT_TRUE(ValidateDriftDetectorOptions({}).ok());
  // Each bound, just past it and at it.
  EXPECT_FALSE(ValidateDriftDetectorOptions({.threshold = 10.0001}).ok());
  EXPECT_TRUE(ValidateDriftDetectorOptions({.threshold = 10.0}).ok());
  EXPECT_FALSE(ValidateDriftDetectorOptions({.min_samples = 0}).ok());
  EXPECT_FALSE(
      ValidateDriftDetectorOptions({.window = 8, .min_samples = 8, .consecutive = 9}).ok());
  EXPECT_TRUE(ValidateDriftDetectorOptions({.window = 8, .min_samples = 8, .consecutive = 8}).ok());
  EXPECT_FALSE(ValidateDriftDetectorOptions({.threshold = 0.0}).ok());
  EXPECT_FALSE(ValidateDriftDetectorOptions({.window = 1}).ok());
  EXPECT_FALSE(ValidateDriftDetectorOptions({.window = 8, .min_samples = 9}).ok());
  EXPECT_FALSE(ValidateDriftDetectorOptions({.window = 8, .consecutive = 0}).ok());
}

TEST(DriftDetectorTest, ADetectorWithBadOptionsReportsThemAndNeverDrifts) {
  // Each bad option: every measurement returns the options' error, nothing is recorded and
  // no drift is declared however far the times are off (with a NaN threshold the old detector
  // silently never drifted; with min_samples past the window it never decided).
  const DriftDetectorOptions bad[] = {
      {.threshold = std::numeric_limits<double>::quiet_NaN()},
      {.threshold = -0.1},
      {.window = 8, .min_samples = 9},
      {.window = 8, .consecutive = 0},
      // Not allocated: a window of 2^31 - 1 doubles took 16 GiB before any check.
      {.window = std::numeric_limits<int>::max()},
  };
  for (const DriftDetectorOptions& o : bad) {
    const std::string want(ValidateDriftDetectorOptions(o).message());
    ASSERT_FALSE(want.empty());
    DriftDetector d(o);
    for (int i = 0; i < 10; ++i) {
      const absl::Status s = d.AddMeasurement(10.0, 1.0);
      EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << want;
      EXPECT_EQ(s.message(), want);
    }
    EXPECT_FALSE(d.HasDrifted()) << want;
    EXPECT_EQ(d.samples(), 0) << want;
  }
}

}  // namespace
}  // namespace streampipe
