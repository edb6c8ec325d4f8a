// Gómez-Luna et al. (seed 000), section 3.2: the closed-form optima (eqs. 2, 4, 6, 8) against a
// numeric search of the equations they come from (eqs. 1, 3, 5, 7).
#include <cmath>

#include <gtest/gtest.h>

#include "streampipe/core/model.hpp"

namespace streampipe {
namespace {

// The best integer n by exhaustive search of the model's equations (1..200000). It does not
// use the closed forms. For these unimodal curves the best integer lies next to the real
// optimum, so it must be floor or ceil of the closed form.
int IntegerOptimum(const StreamModel& model, const ModelTerms& terms) {
  int best = 1;
  double best_t = model.Predict(terms, 1).total_ms;
  for (int n = 2; n <= 200000; ++n) {
    const double t = model.Predict(terms, n).total_ms;
    if (t < best_t) {
      best_t = t;
      best = n;
    }
  }
  return best;
}

struct Case {
  const char* name;
  ModelKind kind;
  double t_hd, t_e, t_dh, tsc;
};

class GomezLunaClosedForm : public ::testing::TestWithParam<Case> {};

TEST_P(GomezLunaClosedForm, MatchesNumericSearch) {
  const Case& c = GetParam();
  DeviceTraits traits;
  traits.stream_overhead_ms = c.tsc;
  Workload w;
  w.times = {.h2d_ms = c.t_hd, .kernel_ms = c.t_e, .d2h_ms = c.t_dh};
  absl::StatusOr<ModelTerms> terms = ComputeModelTerms(traits, w);
  ASSERT_TRUE(terms.ok());
  auto model = MakeModel(c.kind);
  std::optional<double> closed = model->ClosedFormOptimum(*terms);
  ASSERT_TRUE(closed.has_value());
  const int best = IntegerOptimum(*model, *terms);
  EXPECT_GE(best, std::max(1.0, std::floor(*closed))) << c.name << " closed " << *closed;
  EXPECT_LE(best, std::max(1.0, std::ceil(*closed))) << c.name << " closed " << *closed;
}

INSTANTIATE_TEST_SUITE_P(
    Equations, GomezLunaClosedForm,
    ::testing::Values(
        // cc 1.x, dominant kernel (tT < tE): eq. 4 sqrt(tT/tsc) = sqrt(8/0.1) = 8.94
        Case{"cc1-kernel", ModelKind::kGomezLunaCc1, 4.0, 20.0, 4.0, 0.10},
        // cc 1.x, dominant transfers, sqrt(tT/tsc) = 28.3 > tT/(tT-tE) = 1.33: eq. 2 governs
        Case{"cc1-transfers-eq2", ModelKind::kGomezLunaCc1, 40.0, 10.0, 40.0, 0.10},
        // cc 1.x, tT > tE but eq. 4 first: sqrt(8/0.1) = 8.9 < 8/(8-7.5) = 16
        Case{"cc1-transfers-eq4", ModelKind::kGomezLunaCc1, 4.0, 7.5, 4.0, 0.10},
        // cc 2.x, tThd > tE: eq. 6 sqrt(tE/tsc) = sqrt(3/0.03) = 10
        Case{"cc2-transfers", ModelKind::kGomezLunaCc2, 6.0, 3.0, 6.0, 0.03},
        // cc 2.x, tThd < tE: eq. 8 sqrt(tThd/tsc) = sqrt(6/0.03) = 14.1
        Case{"cc2-kernel", ModelKind::kGomezLunaCc2, 6.0, 20.0, 6.0, 0.03}),
    [](const ::testing::TestParamInfo<Case>& p) {
      std::string s = p.param.name;
      for (char& ch : s) {
        if (ch == '-') ch = '_';
      }
      return s;
    });

TEST(GomezLunaTest, ClosedFormValuesByHand) {
  DeviceTraits traits;
  traits.stream_overhead_ms = 0.03;
  Workload w;
  w.times = {.h2d_ms = 6.0, .kernel_ms = 3.0, .d2h_ms = 6.0};
  auto cc2 = MakeModel(ModelKind::kGomezLunaCc2);
  EXPECT_NEAR(*cc2->ClosedFormOptimum(*ComputeModelTerms(traits, w)), 10.0, 1e-12);  // eq. 6
  w.times.kernel_ms = 20.0;
  EXPECT_NEAR(*cc2->ClosedFormOptimum(*ComputeModelTerms(traits, w)), std::sqrt(200.0),
              1e-12);  // eq. 8
  traits.stream_overhead_ms = 0.10;
  w.times = {.h2d_ms = 40.0, .kernel_ms = 10.0, .d2h_ms = 40.0};
  auto cc1 = MakeModel(ModelKind::kGomezLunaCc1);
  EXPECT_NEAR(*cc1->ClosedFormOptimum(*ComputeModelTerms(traits, w)), 80.0 / 70.0,
              1e-12);  // eq. 2
}

TEST(GomezLunaTest, NoOverheadMeansNoFiniteKernelOptimum) {
  DeviceTraits traits;  // tsc = 0
  Workload w;
  w.times = {.h2d_ms = 1.0, .kernel_ms = 5.0, .d2h_ms = 1.0};
  auto terms = ComputeModelTerms(traits, w);
  EXPECT_FALSE(MakeModel(ModelKind::kGomezLunaCc2)->ClosedFormOptimum(*terms).has_value());
  EXPECT_FALSE(MakeModel(ModelKind::kGomezLunaCc1)->ClosedFormOptimum(*terms).has_value());
}

}  // namespace
}  // namespace streampipe
