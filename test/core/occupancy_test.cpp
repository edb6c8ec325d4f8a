// The G-SDMS occupancy model (seed 001, eqs. 1-9) on the kernels of Tables III/IV, compute
// capability 3.0 (Table I), GTX 680 with 8 MPs.
#include "streampipe/core/occupancy.hpp"

#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace streampipe {
namespace {

SmLimits Cc30() {
  absl::StatusOr<SmLimits> l = SmLimits::ForComputeCapability(3, 0);
  EXPECT_TRUE(l.ok());
  return *l;
}

struct KernelCase {
  const char* name;
  int regs, threads, smem;
  int blocks_per_sm;
  double occupancy;
};

class TableIII : public ::testing::TestWithParam<KernelCase> {};

TEST_P(TableIII, BlocksAndOccupancy) {
  const KernelCase& k = GetParam();
  absl::StatusOr<Occupancy> o = ComputeOccupancy(
      {.threads_per_block = k.threads, .regs_per_thread = k.regs, .smem_per_block = k.smem},
      Cc30());
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->blocks_per_sm, k.blocks_per_sm) << k.name;
  EXPECT_NEAR(o->occupancy, k.occupancy, 1e-9) << k.name;
}

// Table III prints occupancy 100 %, 50 %, 100 %, 63 % for A-D, which eqs. 2-9 give (63 % is
// 62.5 % rounded). For E and F it prints 100 % and 63 %, the values without their 24,576 bytes
// of shared memory; eq. 3 limits both to 49,152 / 24,576 = 2 blocks, i.e. 2 * 256 / 2048 = 25 %.
// Section IV-A agrees with the equations ("an MP can run up to one block of kernel E and one
// block of kernel F at the same time"), so we pin 25 %.
INSTANTIATE_TEST_SUITE_P(
    Seed001, TableIII,
    ::testing::Values(KernelCase{"A", 11, 1024, 0, 2, 1.0},     // warp-limited
                      KernelCase{"B", 33, 1024, 0, 1, 0.5},     // register-limited
                      KernelCase{"C", 11, 256, 0, 8, 1.0},      // warp-limited
                      KernelCase{"D", 44, 256, 0, 5, 0.625},    // register-limited
                      KernelCase{"E", 11, 256, 24576, 2, 0.25}, // shared-memory-limited
                      KernelCase{"F", 44, 256, 24576, 2, 0.25}),
    [](const ::testing::TestParamInfo<KernelCase>& i) { return std::string(i.param.name); });

TEST(OccupancyTest, IntermediateQuantitiesOfKernelD) {
  // R = 44: theta = ceil(44*32/256)*256 = 1536, gamma = floor(65535/(1536*4))*4 = 40,
  // omega = 8, beta_R = 5, beta_W = min(16, 64/8) = 8, beta_S = 16.
  absl::StatusOr<Occupancy> o =
      ComputeOccupancy({.threads_per_block = 256, .regs_per_thread = 44}, Cc30());
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->regs_per_warp, 1536);
  EXPECT_EQ(o->warps_by_regs, 40);
  EXPECT_EQ(o->warps_per_block, 8);
  EXPECT_EQ(o->blocks_by_regs, 5);
  EXPECT_EQ(o->blocks_by_warps, 8);
  EXPECT_EQ(o->blocks_by_smem, 16);
  EXPECT_EQ(o->threads_per_sm, 1280);
}

TEST(OccupancyTest, RunningRoundsOfSectionIVB) {
  // Eight streams of kernel A with four 1024-thread blocks each on a GTX 680 (8 MPs): two
  // blocks of A fit per MP, so 16 blocks (four streams) run at once: two rounds for 32 blocks.
  absl::StatusOr<Occupancy> a =
      ComputeOccupancy({.threads_per_block = 1024, .regs_per_thread = 11}, Cc30());
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(FullRoundBlocks(*a, 8), 16);
  EXPECT_EQ(*RunningRounds(1024, 32, *a, 8), 2);
  EXPECT_EQ(*RunningRounds(1024, 16, *a, 8), 1);
  EXPECT_EQ(*RunningRounds(1024, 17, *a, 8), 2);
}

// Near INT64_MAX threads the rounding up overflowed (a negative count of rounds, before
// session 51).
TEST(OccupancyTest, RunningRoundsDoNotOverflowNearTheLargestCount) {
  Occupancy one;
  one.threads_per_sm = 1;
  one.blocks_per_sm = 1;
  const std::int64_t max = std::numeric_limits<std::int64_t>::max();
  absl::StatusOr<std::int64_t> r = RunningRounds(1, max, one, 2);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(*r, max / 2 + 1);
  EXPECT_EQ(*RunningRounds(1, max - 1, one, 2), max / 2);
}

// A capability is a major and a one-digit minor: (2, 10) read as 3.0 and (8, 10) as 9.0
// before session 51.
TEST(OccupancyTest, AComputeCapabilityOutOfFormIsNoneKnown) {
  for (const auto& [major, minor] : std::vector<std::pair<int, int>>{
           {2, 10}, {8, 10}, {10, -10}, {5, 12}, {0, 30}, {214748364, 7}, {-1, 0}}) {
    const absl::StatusOr<SmLimits> l = SmLimits::ForComputeCapability(major, minor);
    EXPECT_EQ(l.status().code(), absl::StatusCode::kNotFound) << major << "." << minor;
  }
  EXPECT_TRUE(SmLimits::ForComputeCapability(9, 0).ok());
}

TEST(OccupancyTest, KernelsThatCannotRun) {
  absl::StatusOr<Occupancy> too_many_regs =
      ComputeOccupancy({.threads_per_block = 256, .regs_per_thread = 65}, Cc30());
  ASSERT_TRUE(too_many_regs.ok());
  EXPECT_EQ(too_many_regs->blocks_per_sm, 0);
  absl::StatusOr<Occupancy> too_much_smem = ComputeOccupancy(
      {.threads_per_block = 256, .regs_per_thread = 16, .smem_per_block = 60000}, Cc30());
  ASSERT_TRUE(too_much_smem.ok());
  EXPECT_EQ(too_much_smem->blocks_per_sm, 0);
  EXPECT_FALSE(RunningRounds(256, 10, *too_much_smem, 8).ok());
}

TEST(OccupancyTest, BadArgumentsAreErrors) {
  EXPECT_FALSE(ComputeOccupancy({.threads_per_block = 0}, Cc30()).ok());
  EXPECT_FALSE(ComputeOccupancy({.threads_per_block = 2048}, Cc30()).ok());
  EXPECT_FALSE(ComputeOccupancy({.threads_per_block = 64, .regs_per_thread = -1}, Cc30()).ok());
  EXPECT_EQ(SmLimits::ForComputeCapability(4, 2).status().code(), absl::StatusCode::kNotFound);
  // Counts too large for the arithmetic: no block fits, not a division by zero (2^25 registers
  // per thread overflowed the registers of a warp to 0, then SIGFPE).
  absl::StatusOr<SmLimits> h100 = SmLimits::ForComputeCapability(9, 0);
  ASSERT_TRUE(h100.ok());
  absl::StatusOr<Occupancy> huge =
      ComputeOccupancy({.threads_per_block = 256, .regs_per_thread = 1 << 25}, *h100);
  ASSERT_TRUE(huge.ok()) << huge.status();
  EXPECT_EQ(huge->blocks_per_sm, 0);
  huge = ComputeOccupancy({.threads_per_block = 256, .smem_per_block = 1 << 30}, *h100);
  ASSERT_TRUE(huge.ok()) << huge.status();
  EXPECT_EQ(huge->blocks_per_sm, 0);
  // Limits built by hand with a zero unit: an error naming it.
  SmLimits zero_unit = *h100;
  zero_unit.smem_alloc_unit = 0;
  absl::StatusOr<Occupancy> z =
      ComputeOccupancy({.threads_per_block = 256, .smem_per_block = 1024}, zero_unit);
  ASSERT_FALSE(z.ok());
  EXPECT_NE(z.status().message().find("smem_alloc_unit is 0"), std::string::npos) << z.status();
  zero_unit = *h100;
  zero_unit.reg_alloc_unit = 0;
  EXPECT_FALSE(ComputeOccupancy({.threads_per_block = 256, .regs_per_thread = 32}, zero_unit).ok());
  // Rounds of more threads than 64 bits count: an error, not 0 rounds.
  absl::StatusOr<Occupancy> one =
      ComputeOccupancy({.threads_per_block = 256, .regs_per_thread = 32}, *h100);
  ASSERT_TRUE(one.ok());
  absl::StatusOr<std::int64_t> rounds = RunningRounds(256, std::int64_t{1} << 60, *one, 132);
  ASSERT_FALSE(rounds.ok());
  EXPECT_NE(rounds.status().message().find("overflow"), std::string::npos) << rounds.status();
}

TEST(OccupancyTest, HopperAddScalarKernelFillsWithOneRoundOf1056Blocks) {
  // The add-scalar kernel of the anchors: 256 threads, few registers. On an H100 (cc 9.0,
  // 132 SMs) 8 blocks fit per SM (64 warps / 8), so a full round is 1056 blocks.
  absl::StatusOr<SmLimits> h100 = SmLimits::ForComputeCapability(9, 0);
  ASSERT_TRUE(h100.ok());
  absl::StatusOr<Occupancy> o =
      ComputeOccupancy({.threads_per_block = 256, .regs_per_thread = 16}, *h100);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->blocks_per_sm, 8);
  EXPECT_EQ(FullRoundBlocks(*o, 132), 1056);
}

}  // namespace
}  // namespace streampipe
