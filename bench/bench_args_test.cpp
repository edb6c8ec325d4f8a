// The benchmark tools' shared helpers (bench_args.hpp): flag values read whole, and a failed
// call's status printed with what failed before the tool exits 70.
#include "bench_args.hpp"

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace streampipe::bench {
namespace {

using ::testing::ElementsAre;
using ::testing::ExitedWithCode;
using ::testing::HasSubstr;

TEST(BenchArgs, IntFlagReadsTheWholeValueWithinItsRange) {
  int v = 0;
  EXPECT_TRUE(ParseIntFlag("--batches", "12", 1, 100, &v).ok());
  EXPECT_EQ(v, 12);
  const absl::Status trailing = ParseIntFlag("--batches", "12x", 1, 100, &v);
  EXPECT_EQ(trailing.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(trailing.message()),
              HasSubstr("--batches: '12x' is not an integer in [1, 100]"));
  EXPECT_FALSE(ParseIntFlag("--batches", "101", 1, 100, &v).ok());
  EXPECT_EQ(v, 12) << "a refused value leaves the flag as it was";
}

TEST(BenchArgs, DoubleFlagRefusesNonFiniteAndOutOfRange) {
  double v = 1.0;
  EXPECT_TRUE(ParseDoubleFlag("--heavy-ratio", "2.5", 0.01, 100.0, &v).ok());
  EXPECT_EQ(v, 2.5);
  EXPECT_FALSE(ParseDoubleFlag("--heavy-ratio", "nan", 0.01, 100.0, &v).ok());
  EXPECT_FALSE(ParseDoubleFlag("--heavy-ratio", "inf", 0.01, 100.0, &v).ok());
  EXPECT_FALSE(ParseDoubleFlag("--heavy-ratio", "0", 0.01, 100.0, &v).ok());
  EXPECT_EQ(v, 2.5);
}

TEST(BenchArgs, IntListNamesTheFirstBadPart) {
  absl::StatusOr<std::vector<int>> ok = ParseIntListFlag("--streams", "1,2,64", 1, 128);
  ASSERT_TRUE(ok.ok());
  EXPECT_THAT(*ok, ElementsAre(1, 2, 64));
  absl::StatusOr<std::vector<int>> bad = ParseIntListFlag("--streams", "1,0,300", 1, 128);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("'0'"));
}

TEST(BenchArgs, ValueOrExitHandsTheValueOn) {
  EXPECT_EQ(ValueOrExit(absl::StatusOr<int>(7), "unused"), 7);
  // Move-only values (the tools' buffers, streams and pipelines are).
  std::unique_ptr<int> p = ValueOrExit(absl::StatusOr<std::unique_ptr<int>>(std::make_unique<int>(3)),
                                       "unused");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(*p, 3);
  OkOrExit(absl::OkStatus(), "unused");  // returns
}

TEST(BenchArgsDeathTest, ValueOrExitPrintsWhatFailedAndExits70) {
  EXPECT_EXIT(
      ValueOrExit(absl::StatusOr<int>(absl::ResourceExhaustedError("out of memory")),
                  "adaptive_bench stationary"),
      ExitedWithCode(kSoftwareExit),
      "^adaptive_bench stationary: RESOURCE_EXHAUSTED: out of memory\n$");
  EXPECT_EXIT(OkOrExit(absl::InternalError("cudaStreamCreate failed"), "soak: a stream"),
              ExitedWithCode(70), "^soak: a stream: INTERNAL: cudaStreamCreate failed\n$");
  // What failed, in parts: joined only here, on failure.
  EXPECT_EXIT(ValueOrExit(absl::StatusOr<int>(absl::InternalError("bad batch")),
                          "histogram_bench: ", "a batch of ", 64, " frames"),
              ExitedWithCode(70), "^histogram_bench: a batch of 64 frames: INTERNAL: bad batch\n$");
}

}  // namespace
}  // namespace streampipe::bench
