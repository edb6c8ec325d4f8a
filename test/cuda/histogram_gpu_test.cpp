// The GPU histogram kernels through the pipeline against the CPU reference: random frames of
// odd sizes, gray/luma and RGB, degenerate frames, both kernels, several n.
#include "streampipe/cuda/histogram.hpp"

#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "gpu_test_util.hpp"
#include "streampipe/cuda/pipeline.hpp"
#include "streampipe/cuda/resource_counts.hpp"
#include "streampipe/video/histogram_cpu.hpp"

namespace streampipe {
namespace {

using video::FrameFormat;
using video::PixelFormat;

class HistogramGpuTest : public ::testing::Test {
 protected:
  void SetUp() override { STREAMPIPE_REQUIRE_GPU(); }
};

void Check(const FrameFormat& f, HistogramKernel kernel, std::int64_t frames, bool degenerate,
           std::mt19937_64& rng) {
  std::vector<std::byte> in(frames * f.item_bytes());
  if (degenerate) {
    for (std::int64_t i = 0; i < frames; ++i) {
      std::memset(in.data() + i * f.item_bytes(), static_cast<int>(rng() & 0xff), f.item_bytes());
    }
  } else {
    for (std::byte& b : in) b = static_cast<std::byte>(rng());
  }
  std::vector<video::Histogram> ref(static_cast<std::size_t>(frames));
  video::HistogramsOfItems(f, in, frames, ref);
  PipelineOptions o;
  o.in_bytes_per_item = static_cast<std::int64_t>(f.item_bytes());
  o.out_bytes_per_item = static_cast<std::int64_t>(kHistogramBytes);
  o.max_items_per_batch = frames;
  absl::StatusOr<KernelLauncher> l = HistogramLauncher(f, kernel);
  ASSERT_TRUE(l.ok()) << l.status();
  o.launch = *l;
  o.max_streams = 8;
  o.traits = testing::CalibratedTraits();
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  ASSERT_TRUE(p.ok()) << p.status();
  std::vector<video::Histogram> out(static_cast<std::size_t>(frames));
  for (int n : {1, 3, static_cast<int>(std::min<std::int64_t>(8, frames))}) {
    testing::Poison(out.data(), out.size() * sizeof(video::Histogram));
    absl::StatusOr<BatchStats> st = p->Run({in.data(), out.data(), frames}, n);
    ASSERT_TRUE(st.ok()) << st.status();
    for (std::int64_t i = 0; i < frames; ++i) {
      ASSERT_EQ(out[i], ref[i]) << video::FrameFormatToString(f) << " "
                                << HistogramKernelName(kernel) << " frame " << i << " n=" << n;
    }
  }
}

TEST_F(HistogramGpuTest, RandomFramesOfOddSizesMatchTheCpu) {
  auto rng = testing::TestRng();
  const FrameFormat formats[] = {
      {.width = 176, .height = 144, .format = PixelFormat::kGray8},
      {.width = 33, .height = 17, .format = PixelFormat::kYuv420},  // item = luma, odd size
      {.width = 1, .height = 1, .format = PixelFormat::kMono},
      {.width = 351, .height = 287, .format = PixelFormat::kGray8},
      {.width = 65, .height = 31, .format = PixelFormat::kRgb24},
      {.width = 704, .height = 576, .format = PixelFormat::kRgb24},
  };
  for (const FrameFormat& f : formats) {
    for (HistogramKernel k : {HistogramKernel::kShared, HistogramKernel::kGlobal}) {
      Check(f, k, 13, false, rng);
    }
  }
}

TEST_F(HistogramGpuTest, DegenerateFramesMatchTheCpu) {
  auto rng = testing::TestRng();
  const FrameFormat f{.width = 704, .height = 576, .format = PixelFormat::kGray8};
  for (HistogramKernel k : {HistogramKernel::kShared, HistogramKernel::kGlobal}) {
    Check(f, k, 16, true, rng);
  }
}

TEST_F(HistogramGpuTest, BadFormatIsRejected) {
  EXPECT_FALSE(HistogramLauncher({.width = 0, .height = 5}, HistogramKernel::kShared).ok());
  EXPECT_TRUE(ParseHistogramKernel("global").ok());
  EXPECT_FALSE(ParseHistogramKernel("private").ok());
}

}  // namespace
}  // namespace streampipe
