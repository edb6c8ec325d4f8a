#include "streampipe/core/parallel_copy.hpp"

#include <numeric>
#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace streampipe {
namespace {

TEST(ParallelCopyTest, CopiesEveryByteForManySizesAndThreadCounts) {
  std::mt19937 rng(20261128);  // fixed: a failure can be run again
  for (int threads : {1, 2, 3, 8}) {
    ParallelCopier copier(threads);
    EXPECT_EQ(copier.threads(), threads);
    for (std::size_t bytes : {std::size_t{0}, std::size_t{1}, std::size_t{4095},
                              ParallelCopier::kMinPiece * 3 + 17, std::size_t{5} << 20}) {
      std::vector<unsigned char> src(bytes + 2), dst(bytes + 2, 0xAB);
      for (auto& b : src) b = static_cast<unsigned char>(rng());
      copier.Copy(dst.data() + 1, src.data() + 1, bytes);
      EXPECT_TRUE(std::equal(src.begin() + 1, src.begin() + 1 + bytes, dst.begin() + 1))
          << bytes << " bytes, " << threads << " threads";
      EXPECT_EQ(dst[0], 0xAB);  // nothing outside the range
      EXPECT_EQ(dst[bytes + 1], 0xAB);
    }
  }
}

TEST(ParallelCopyTest, ReusedManyTimes) {
  ParallelCopier copier(4);
  std::vector<int> src(1 << 20), dst(1 << 20);
  for (int round = 0; round < 200; ++round) {
    std::iota(src.begin(), src.end(), round);
    copier.Copy(dst.data(), src.data(), src.size() * sizeof(int));
    ASSERT_EQ(dst, src) << "round " << round;
  }
}

}  // namespace
}  // namespace streampipe
