// van Werkhoven et al. (seed 003): the LogGP transfer model (section V) and the bounds on
// nStreams (section VI) with the PCIe 3.0 parameters of Table I. Reference values were computed
// independently (Python, in docs/models.md) from the printed formulas.
#include "streampipe/core/werkhoven.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

namespace streampipe {
namespace {

// Table I.
DeviceTraits TableI() {
  DeviceTraits t;
  t.cc_major = 3;
  t.cc_minor = 5;
  t.h2d = {.latency_ms = 0.009420, .ms_per_byte = 8.318392E-08, .gap_ms = 0.002503};
  t.d2h = {.latency_ms = 0.009023, .ms_per_byte = 7.924734E-08, .gap_ms = 0.002674};
  return t;
}

ModelTerms Terms(double kernel_ms) {
  Workload w;
  w.bytes = {.h2d = 64.0 * (1 << 20), .d2h = 32.0 * (1 << 20)};  // x_hd 5.582, x_dh 2.659 ms
  w.times.kernel_ms = kernel_ms;
  absl::StatusOr<ModelTerms> t = ComputeModelTerms(TableI(), w);
  EXPECT_TRUE(t.ok()) << t.status();
  return *t;
}

TEST(WerkhovenTest, LogGpTransferTimeTableI) {
  const LinkParams hd = TableI().h2d;
  const double mb16 = 16.0 * (1 << 20);
  EXPECT_NEAR(LogGpTransferMs(hd, mb16, 1), 1.40501459356672, 1e-9);
  EXPECT_NEAR(LogGpTransferMs(hd, mb16, 16), 1.44255959356672, 1e-9);
  EXPECT_NEAR(LogGpTransferMs(hd, mb16, 256), 2.04327959356672, 1e-9);
}

// Section V-A's estimator is a sum over the samples, not one of them: residuals of 0.1 and
// 0.3 ms over 1e6 and 4e6 bytes give G = 0.4 ms / 5e6 bytes (one sample alone: 1e-7 or 7.5e-8).
TEST(WerkhovenTest, EstimateGSumsEverySample) {
  const double latency = 0.01;
  absl::StatusOr<double> g =
      EstimateMsPerByte(std::vector<double>{1e6, 4e6},
                        std::vector<double>{latency + 0.1, latency + 0.3}, latency);
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_NEAR(*g, 0.4 / 5e6, 1e-20);
}

// Each sample finite, their sums not: G = 0 with OK (the bytes) or "inf ms in all" (the times)
// before session 51.
TEST(WerkhovenTest, EstimateGRefusesSumsThatOverflow) {
  absl::StatusOr<double> g = EstimateMsPerByte(std::vector<double>{1.5e308, 1.5e308},
                                               std::vector<double>{1.0, 1.0}, 0.0);
  EXPECT_EQ(g.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(g.status().message().find("the samples' bytes sum to more than a double holds"),
            std::string::npos)
      << g.status();
  g = EstimateMsPerByte(std::vector<double>{1.0, 1.0}, std::vector<double>{1.5e308, 1.5e308},
                        0.0);
  EXPECT_NE(g.status().message().find("the samples' times sum to more"), std::string::npos)
      << g.status();
}

TEST(WerkhovenTest, EstimateGRecoversTheParameter) {
  const LinkParams hd = TableI().h2d;
  std::vector<double> k = {1e6, 4e6, 16e6, 64e6};
  std::vector<double> t;
  for (double b : k) t.push_back(hd.latency_ms + b * hd.ms_per_byte);
  absl::StatusOr<double> g = EstimateMsPerByte(k, t, hd.latency_ms);
  ASSERT_TRUE(g.ok());
  EXPECT_NEAR(*g / hd.ms_per_byte, 1.0, 1e-12);
  EXPECT_FALSE(EstimateMsPerByte(k, std::vector<double>{1.0}, 0.0).ok());
  EXPECT_FALSE(EstimateMsPerByte(std::vector<double>{0.0}, std::vector<double>{1.0}, 0.0).ok());
  // A latency that is not a number, or more than the copies took: an error, not G = NaN or < 0.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(EstimateMsPerByte(k, t, nan).ok());
  absl::StatusOr<double> negative = EstimateMsPerByte(k, t, 1000.0);
  ASSERT_FALSE(negative.ok());
  EXPECT_NE(negative.status().message().find("no G >= 0 fits"), std::string::npos)
      << negative.status();
}

TEST(WerkhovenTest, TwoEngineMaxStreamsTableI) {
  // Bhd > Bdh: sqrt((Bdh*Gdh + tE) / g) with tE = 2 ms.
  absl::StatusOr<StreamBounds> b = WerkhovenStreamBounds(ModelKind::kWerkhoven2ce, Terms(2.0));
  ASSERT_TRUE(b.ok());
  ASSERT_TRUE(b->max_streams.has_value());
  EXPECT_NEAR(*b->max_streams, 43.1440158673038, 1e-9);
  EXPECT_FALSE(b->min_streams.has_value());
  // It is the minimum of the eq. 5 term it was derived from: neighbours are not better.
  auto m = MakeModel(ModelKind::kWerkhoven2ce);
  const ModelTerms t = Terms(2.0);
  EXPECT_LE(m->Predict(t, 43).total_ms, m->Predict(t, 30).total_ms);
  EXPECT_LE(m->Predict(t, 43).total_ms, m->Predict(t, 60).total_ms);
}

TEST(WerkhovenTest, ImplicitSyncMaxStreamsTableI) {
  // Dominant kernel (tE = 10 >= Bhd*Ghd): sqrt(Bhd*Ghd / g).
  absl::StatusOr<StreamBounds> k =
      WerkhovenStreamBounds(ModelKind::kWerkhovenSync1ce, Terms(10.0));
  ASSERT_TRUE(k.ok());
  EXPECT_NEAR(*k->max_streams, 45.69081801096555, 1e-9);
  // Dominant transfers (tE = 2): sqrt(tE / 2g), with the two directions' g.
  absl::StatusOr<StreamBounds> d =
      WerkhovenStreamBounds(ModelKind::kWerkhovenSync1ce, Terms(2.0));
  ASSERT_TRUE(d.ok());
  EXPECT_NEAR(*d->max_streams, 19.655129761506664, 1e-9);
}

TEST(WerkhovenTest, OneEngineMinStreamsTableI) {
  // Bhd > Bdh: Bdh*Gdh + g(n-1) = tE/n + Bdh*Gdh/n, tE = 2 ms.
  absl::StatusOr<StreamBounds> b = WerkhovenStreamBounds(ModelKind::kWerkhoven1ce, Terms(2.0));
  ASSERT_TRUE(b.ok());
  ASSERT_TRUE(b->min_streams.has_value());
  const double n = *b->min_streams;
  EXPECT_NEAR(n, 1.7508124296402052, 1e-9);
  const ModelTerms t = Terms(2.0);
  EXPECT_NEAR(t.x_dh + t.gap_dh * (n - 1), t.t_e / n + t.x_dh / n, 1e-9);
  // Dominant kernel: eq. 3 has no bound.
  absl::StatusOr<StreamBounds> k = WerkhovenStreamBounds(ModelKind::kWerkhoven1ce, Terms(50.0));
  ASSERT_TRUE(k.ok());
  EXPECT_FALSE(k->min_streams.has_value());
}

TEST(WerkhovenTest, NoBoundForOtherModels) {
  EXPECT_EQ(WerkhovenStreamBounds(ModelKind::kWerkhovenMapped, Terms(1.0)).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(WerkhovenStreamBounds(ModelKind::kGomezLunaCc1, Terms(1.0)).ok());
}

}  // namespace
}  // namespace streampipe
