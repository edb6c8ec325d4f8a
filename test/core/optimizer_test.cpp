#include "streampipe/core/optimizer.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace streampipe {
namespace {

using ::testing::ElementsAre;

TEST(CandidatesTest, DefaultsAreOneToMax) {
  absl::StatusOr<std::vector<int>> c = CandidateStreams({.max_streams = 5});
  ASSERT_TRUE(c.ok());
  EXPECT_THAT(*c, ElementsAre(1, 2, 3, 4, 5));
}

TEST(CandidatesTest, PowersOfTwoDivisorsAndItemLimits) {
  EXPECT_THAT(*CandidateStreams({.max_streams = 40, .powers_of_two = true}),
              ElementsAre(1, 2, 4, 8, 16, 32));
  EXPECT_THAT(*CandidateStreams({.max_streams = 12, .divisors_only = true, .num_items = 12}),
              ElementsAre(1, 2, 3, 4, 6, 12));
  // Never more streams than items.
  EXPECT_THAT(*CandidateStreams({.max_streams = 64, .num_items = 3}), ElementsAre(1, 2, 3));
  // Minimum work size: 100 items, at least 30 per sub-chunk -> n <= 3 (floor(100/3) = 33).
  EXPECT_THAT(*CandidateStreams({.max_streams = 64, .num_items = 100, .min_items_per_stream = 30}),
              ElementsAre(1, 2, 3));
  // n = 1 (the whole batch) stays even when the batch is below the minimum work size.
  EXPECT_THAT(*CandidateStreams({.max_streams = 8, .num_items = 10, .min_items_per_stream = 50}),
              ElementsAre(1));
}

TEST(CandidatesTest, Errors) {
  EXPECT_EQ(CandidateStreams({.min_streams = 0}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(CandidateStreams({.min_streams = 9, .max_streams = 8}).ok());
  EXPECT_FALSE(CandidateStreams({.max_streams = kMaxCandidateStreams + 1}).ok());
  EXPECT_FALSE(CandidateStreams({.divisors_only = true}).ok());
  absl::StatusOr<std::vector<int>> none =
      CandidateStreams({.min_streams = 4, .max_streams = 8, .num_items = 3});
  EXPECT_EQ(none.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(none.status().message().find("fits 3 items"), std::string::npos) << none.status();
  // No item count (no cap): only the powers of two can leave nothing, and the message says so
  // (before session 49: "fits 0 items").
  none = CandidateStreams({.min_streams = 3, .max_streams = 3, .powers_of_two = true});
  EXPECT_EQ(none.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(none.status().message(), "no stream count in [3, 3] is a power of two");
}

TEST(ChooseTest, PicksTheLowestPredictionAndReportsEveryCandidate) {
  DeviceTraits traits;
  traits.stream_overhead_ms = 0.03;
  Workload w;
  w.times = {.h2d_ms = 6.0, .kernel_ms = 3.0, .d2h_ms = 6.0};  // eq. 6 optimum: 10
  absl::StatusOr<ModelTerms> t = ComputeModelTerms(traits, w);
  ASSERT_TRUE(t.ok());
  auto m = MakeModel(ModelKind::kGomezLunaCc2);
  absl::StatusOr<StreamChoice> c = ChooseNumStreams(*m, *t, {.max_streams = 64});
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->streams, 10);
  EXPECT_EQ(c->predictions.size(), 64u);
  ASSERT_TRUE(c->closed_form.has_value());
  EXPECT_NEAR(*c->closed_form, 10.0, 1e-12);
  for (const Prediction& p : c->predictions) EXPECT_GE(p.total_ms, c->predicted_ms);
  // Restricted to powers of two: 3/8 + 0.24 = 0.615 beats 3/16 + 0.48 = 0.668.
  absl::StatusOr<StreamChoice> p2 =
      ChooseNumStreams(*m, *t, {.max_streams = 64, .powers_of_two = true});
  ASSERT_TRUE(p2.ok());
  EXPECT_EQ(p2->streams, 8);
}

TEST(ChooseTest, TiesGoToFewerStreams) {
  // The mapped-memory model predicts the same time for every n.
  DeviceTraits traits = DeviceTraits::H100Anchors();
  Workload w;
  w.times = {.h2d_ms = 1.0, .kernel_ms = 1.0, .d2h_ms = 1.0};
  auto m = MakeModel(ModelKind::kWerkhovenMapped);
  absl::StatusOr<StreamChoice> c = ChooseNumStreams(*m, *ComputeModelTerms(traits, w), {});
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->streams, 1);
}

TEST(ChooseTest, CurrentModelPicksSixteenOnTheH100Anchors) {
  // docs/evidence/anchors: best measured n is 16 for the 64 MiB add-scalar sweep (powers of two).
  Workload w;
  w.times = {.h2d_ms = 1.230, .kernel_ms = 0.064, .d2h_ms = 1.222};
  auto m = MakeModel(ModelKind::kCurrent);
  absl::StatusOr<StreamChoice> c = ChooseNumStreams(
      *m, *ComputeModelTerms(DeviceTraits::H100Anchors(), w),
      {.max_streams = 128, .powers_of_two = true});
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->streams, 16);
  // The continuous optimum lies between the neighbours.
  ASSERT_TRUE(c->closed_form.has_value());
  EXPECT_GT(*c->closed_form, 8.0);
  EXPECT_LT(*c->closed_form, 32.0);
}

}  // namespace
}  // namespace streampipe
