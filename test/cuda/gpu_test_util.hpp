// Shared by the GPU tests: skip cleanly without a device, fresh random data, poisoning.
#ifndef STREAMPIPE_TEST_CUDA_GPU_TEST_UTIL_HPP_
#define STREAMPIPE_TEST_CUDA_GPU_TEST_UTIL_HPP_

#include <cstring>
#include <iostream>
#include <random>
#include <span>

#include <gtest/gtest.h>

#include "streampipe/core/model_types.hpp"
#include "streampipe/cuda/calibrate.hpp"
#include "streampipe/cuda/device.hpp"
#include "streampipe/cuda/resource_counts.hpp"

namespace streampipe::testing {

// Skips the test when there is no CUDA device (the binary's main, gpu_test_main.cpp, then says
// "GPU tests skipped: <reason>" and exits 77, which ctest reports as Skipped).
#define STREAMPIPE_REQUIRE_GPU()                                             \
  do {                                                                      \
    if (::streampipe::CudaDeviceCount() == 0) {                             \
      GTEST_SKIP() << "no CUDA device: " << ::streampipe::NoDeviceReason(); \
    }                                                                       \
  } while (false)

// A GPU test that must leave no CUDA resource behind: skips without a device, and checks
// after the test that the live streams, events and buffers are what they were before it.
class NoLeakGpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    STREAMPIPE_REQUIRE_GPU();
    before_ = LiveResources();
  }
  void TearDown() override {
    if (!IsSkipped()) {
      EXPECT_EQ(LiveResources(), before_) << "a CUDA resource leaked";
    }
  }
  ResourceCounts before_;
};

// A per-test random engine seeded from the test's name and a time-based salt, printed on
// failure, so every run checks fresh data but a failure can be replayed.
inline std::mt19937_64 TestRng() {
  static const std::uint64_t salt = std::random_device{}();
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::uint64_t seed = salt;
  for (const char* p = info->name(); *p; ++p) seed = seed * 131 + static_cast<unsigned char>(*p);
  ::testing::Test::RecordProperty("seed", std::to_string(seed));
  return std::mt19937_64(seed);
}

inline void FillRandom(std::span<float> v, std::mt19937_64& rng) {
  std::uniform_real_distribution<float> d(-1000.0f, 1000.0f);
  for (float& x : v) x = d(rng);
}

// 0xFF bytes: a NaN pattern for floats, an impossible value for counts.
inline void Poison(void* p, std::size_t bytes) { std::memset(p, 0xFF, bytes); }

// Traits calibrated once per test binary (quick; with the inline path, as a profile has it).
inline const DeviceTraits& CalibratedTraits() {
  static const DeviceTraits traits = [] {
    CalibrationOptions o;
    o.quick = true;
    absl::StatusOr<Calibration> c = Calibrate(o);
    if (!c.ok()) {
      std::cerr << "calibration failed: " << c.status() << "\n";
      return DeviceTraits::H100Anchors();
    }
    return c->profile.traits;
  }();
  return traits;
}

}  // namespace streampipe::testing

#endif  // STREAMPIPE_TEST_CUDA_GPU_TEST_UTIL_HPP_
