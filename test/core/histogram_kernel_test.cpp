#include "streampipe/core/histogram_kernel.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace streampipe {
namespace {

TEST(HistogramKernelTest, EachKernelHasANameThatParsesBackToIt) {
  std::set<std::string> seen;
  for (HistogramKernel k :
       {HistogramKernel::kShared, HistogramKernel::kSharedAtomic, HistogramKernel::kGlobal}) {
    const std::string name = HistogramKernelName(k);
    EXPECT_TRUE(seen.insert(name).second) << name;
    absl::StatusOr<HistogramKernel> parsed = ParseHistogramKernel(name);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(*parsed, k) << name;
  }
  // The list is those names, the default first.
  EXPECT_EQ(HistogramKernelNames(),
            (std::vector<std::string>{"shared", "shared-atomic", "global"}));
  EXPECT_EQ(std::set<std::string>(HistogramKernelNames().begin(), HistogramKernelNames().end()),
            seen);
}

TEST(HistogramKernelTest, AnUnknownNameIsRefusedWithTheValidOnes) {
  for (const char* bad : {"private", "", "Shared", "shared ", "shared-atomic,global"}) {
    absl::StatusOr<HistogramKernel> parsed = ParseHistogramKernel(bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(parsed.status().message(), std::string("unknown histogram kernel '") + bad +
                                             "'; valid: shared, shared-atomic, global");
  }
}

}  // namespace
}  // namespace streampipe
