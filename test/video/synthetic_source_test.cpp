#include <algorithm>
#include <cstdlib>
#include <set>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "streampipe/video/frame_source.hpp"
#include "streampipe/video/histogram_cpu.hpp"
#include "video_test_util.hpp"

namespace streampipe::video {
namespace {

using ::streampipe::video::testing::Drain;
using ::streampipe::video::testing::Drained;
using ::testing::HasSubstr;

Histogram HistogramOf(const FrameFormat& f, const std::vector<std::byte>& item) {
  Histogram h;
  HistogramOfItem(f, item, h);
  return h;
}

int NonzeroBins(const Histogram& h) {
  return static_cast<int>(std::count_if(h.begin(), h.end(), [](std::uint32_t c) { return c; }));
}

std::int64_t L1(const Histogram& a, const Histogram& b) {
  std::int64_t d = 0;
  for (int i = 0; i < 256; ++i) d += std::llabs(std::int64_t{a[i]} - std::int64_t{b[i]});
  return d;
}

Drained DrainSynthetic(const SyntheticOptions& o, std::int64_t batch) {
  absl::StatusOr<std::unique_ptr<FrameSource>> src = MakeSyntheticSource(o);
  EXPECT_TRUE(src.ok()) << src.status();
  if (!src.ok()) return {};
  return Drain(**src, batch);
}

// A generated source reads no stream: no byte count to size batches by.
TEST(SyntheticSourceTest, ConsumesNoBytes) {
  auto src = MakeSyntheticSource(SyntheticOptions{.width = 8, .height = 8, .frames = 2});
  ASSERT_TRUE(src.ok()) << src.status();
  EXPECT_FALSE((*src)->bytes_consumed().has_value());
}

TEST(SyntheticSourceTest, SameSeedSameFramesOtherSeedOtherFrames) {
  VIDEO_TEST_RNG(rng);
  for (SyntheticPattern p : {SyntheticPattern::kSection44, SyntheticPattern::kSceneCuts,
                             SyntheticPattern::kResolutionChanges}) {
    for (PixelFormat pf : {PixelFormat::kGray8, PixelFormat::kRgb24}) {
      SyntheticOptions o{.width = 37, .height = 21, .format = pf, .frames = 24, .pattern = p,
                         .seed = rng(), .scene_length = 5};
      const Drained a = DrainSynthetic(o, 7);
      const Drained b = DrainSynthetic(o, 3);
      ASSERT_TRUE(a.status.ok() && b.status.ok());
      ASSERT_EQ(a.items.size(), 24u);
      EXPECT_EQ(a.items, b.items);
      EXPECT_EQ(a.formats, b.formats);
      // The free function is what the source uses.
      for (std::int64_t i = 0; i < 24; ++i) {
        const FrameFormat f = SyntheticFormatAt(o, i);
        EXPECT_EQ(a.formats[i], f);
        std::vector<std::byte> frame(f.item_bytes());
        GenerateSyntheticFrame(o, i, f, frame);
        EXPECT_EQ(frame, a.items[i]) << "frame " << i;
      }
      ++o.seed;
      const Drained c = DrainSynthetic(o, 7);
      ASSERT_EQ(c.items.size(), 24u);
      int same = 0;
      for (std::size_t i = 0; i < 24; ++i) same += c.items[i] == a.items[i];
      // Degenerate gray8 frames of two seeds coincide with probability 1/256 each.
      EXPECT_LE(same, 4) << "another seed should give other frames";
    }
  }
}

TEST(SyntheticSourceTest, Section44UniformThenDegenerate) {
  VIDEO_TEST_RNG(rng);
  for (PixelFormat pf : {PixelFormat::kGray8, PixelFormat::kRgb24}) {
    const SyntheticOptions o{.width = 96, .height = 64, .format = pf, .frames = 64,
                             .pattern = SyntheticPattern::kSection44, .seed = rng()};
    const Drained d = DrainSynthetic(o, 10);
    ASSERT_TRUE(d.status.ok());
    ASSERT_EQ(d.items.size(), 64u);
    EXPECT_TRUE(d.changes.empty());
    std::set<int> degenerate_values;
    for (std::size_t i = 0; i < 64; ++i) {
      const Histogram h = HistogramOf(d.formats[i], d.items[i]);
      const int bins = NonzeroBins(h);
      if (i < 32) {
        // 6144 uniform bytes: every bin is hit (P(miss) = e^-24 per bin); for rgb24 the gray
        // values are a sum of three uniform draws and still cover the middle 200.
        EXPECT_GE(bins, pf == PixelFormat::kGray8 ? 256 : 200) << "frame " << i;
        if (pf == PixelFormat::kGray8) {
          EXPECT_LT(*std::max_element(h.begin(), h.end()), 6144u / 256 * 3) << "frame " << i;
        }
      } else {
        ASSERT_EQ(bins, 1) << "frame " << i;
        const auto it = std::find(h.begin(), h.end(), 96u * 64);
        ASSERT_NE(it, h.end());
        degenerate_values.insert(static_cast<int>(it - h.begin()));
      }
    }
    EXPECT_GE(degenerate_values.size(), 16u) << "the degenerate value should vary per frame";
  }
}

TEST(SyntheticSourceTest, Section44OddFrameCountPutsTheMiddleFrameInTheSecondHalf) {
  const SyntheticOptions o{.width = 16, .height = 16, .frames = 5,
                           .pattern = SyntheticPattern::kSection44};
  const Drained d = DrainSynthetic(o, 5);
  ASSERT_EQ(d.items.size(), 5u);
  EXPECT_GT(NonzeroBins(HistogramOf(d.formats[1], d.items[1])), 1);
  EXPECT_EQ(NonzeroBins(HistogramOf(d.formats[2], d.items[2])), 1);
}

TEST(SyntheticSourceTest, SceneCutsChangeTheHistogramOnlyAtCuts) {
  VIDEO_TEST_RNG(rng);
  for (PixelFormat pf : {PixelFormat::kGray8, PixelFormat::kRgb24}) {
    const SyntheticOptions o{.width = 128, .height = 96, .format = pf, .frames = 48,
                             .pattern = SyntheticPattern::kSceneCuts, .seed = rng(),
                             .scene_length = 8};
    const Drained d = DrainSynthetic(o, 5);
    ASSERT_EQ(d.items.size(), 48u);
    EXPECT_TRUE(d.changes.empty());
    const std::int64_t n = 128 * 96;
    Histogram prev = HistogramOf(d.formats[0], d.items[0]);
    for (std::size_t i = 1; i < 48; ++i) {
      const Histogram h = HistogramOf(d.formats[i], d.items[i]);
      const std::int64_t dist = L1(prev, h);
      // Scene means at least 56 apart with spreads <= 30: the histograms overlap < 40%, so
      // L1 > 1.2 n at a cut; within a scene only sampling noise (~0.15 n) remains.
      if (i % 8 == 0) {
        EXPECT_GT(dist, n * 9 / 10) << "cut before frame " << i;
      } else {
        EXPECT_LT(dist, n * 4 / 10) << "inside a scene, frame " << i;
      }
      prev = h;
    }
  }
}

TEST(SyntheticSourceTest, ResolutionChangesAreReportedAtSceneCuts) {
  VIDEO_TEST_RNG(rng);
  const SyntheticOptions o{.width = 40, .height = 30, .format = PixelFormat::kRgb24, .frames = 23,
                           .pattern = SyntheticPattern::kResolutionChanges, .seed = rng(),
                           .scene_length = 5};
  const FrameFormat big{40, 30, PixelFormat::kRgb24}, half{20, 15, PixelFormat::kRgb24},
      odd{21, 18, PixelFormat::kRgb24};
  const std::vector<FrameFormat> scenes = {big, half, odd, big, half};
  for (std::int64_t batch : {1, 3, 5, 100}) {
    SCOPED_TRACE(::testing::Message() << "batch " << batch);
    const Drained d = DrainSynthetic(o, batch);
    ASSERT_TRUE(d.status.ok());
    EXPECT_TRUE(d.ended);
    ASSERT_EQ(d.items.size(), 23u);
    for (std::size_t i = 0; i < 23; ++i) {
      EXPECT_EQ(d.formats[i], scenes[i / 5]) << "frame " << i;
      EXPECT_EQ(d.items[i].size(), scenes[i / 5].item_bytes());
    }
    EXPECT_EQ(d.changes, (std::vector<std::int64_t>{5, 10, 15, 20}));
    for (std::int64_t n : d.batch_sizes) EXPECT_LE(n, std::min<std::int64_t>(batch, 5));
  }
  // The default size.
  SyntheticOptions def;
  def.pattern = SyntheticPattern::kResolutionChanges;
  EXPECT_EQ(SyntheticFormatAt(def, 64), (FrameFormat{352, 288, PixelFormat::kGray8}));
  EXPECT_EQ(SyntheticFormatAt(def, 128), (FrameFormat{353, 291, PixelFormat::kGray8}));
  EXPECT_EQ(SyntheticFormatAt(def, 192), (FrameFormat{704, 576, PixelFormat::kGray8}));
}

TEST(SyntheticSourceTest, ResolutionChangesOnlyWhereTheSizeDiffers) {
  // 1x1: scenes 0 and 1 are both 1x1, scene 2 is 2x4.
  const SyntheticOptions o{.width = 1, .height = 1, .frames = 12,
                           .pattern = SyntheticPattern::kResolutionChanges, .scene_length = 2};
  const Drained d = DrainSynthetic(o, 100);
  ASSERT_EQ(d.items.size(), 12u);
  EXPECT_EQ(d.changes, (std::vector<std::int64_t>{4, 6, 10}));
  EXPECT_EQ(d.formats[5], (FrameFormat{2, 4, PixelFormat::kGray8}));
}

TEST(SyntheticSourceTest, EndComesWithTheLastFrames) {
  SyntheticOptions o{.width = 8, .height = 8, .frames = 10};
  auto src = MakeSyntheticSource(o);
  ASSERT_TRUE(src.ok());
  std::vector<std::byte> buf(64 * 6);
  auto r = (*src)->Read(buf, 6);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->frames, 6);
  EXPECT_FALSE(r->end);
  r = (*src)->Read(buf, 6);
  EXPECT_EQ(r->frames, 4);
  EXPECT_TRUE(r->end);
  r = (*src)->Read(buf, 6);
  EXPECT_EQ(r->frames, 0);
  EXPECT_TRUE(r->end);
  EXPECT_EQ((*src)->frames_read(), 10);

  o.frames = 0;
  src = MakeSyntheticSource(o);
  ASSERT_TRUE(src.ok());
  r = (*src)->Read(buf, 6);
  EXPECT_EQ(r->frames, 0);
  EXPECT_TRUE(r->end);
}

TEST(SyntheticSourceTest, InvalidOptions) {
  const SyntheticOptions good{.width = 8, .height = 8, .frames = 10};
  struct Case {
    SyntheticOptions o;
    const char* part;
  };
  std::vector<Case> cases;
  cases.push_back({good, "frame size 0x8"});
  cases.back().o.width = 0;
  cases.push_back({good, "frame size 8x-1"});
  cases.back().o.height = -1;
  cases.push_back({good, "yuv420"});
  cases.back().o.format = PixelFormat::kYuv420;
  cases.push_back({good, "frames = -1"});
  cases.back().o.frames = -1;
  cases.push_back({good, "scene_length = 0"});
  cases.back().o.scene_length = 0;
  // Every scene within 2^31 pixels: resolution-changes' third scene is (W/2+1)x(H/2+3), 2^32
  // pixels from 2147483647x1 (its frames generated before session 50).
  cases.push_back({good, "a third scene of 1073741824x4"});
  cases.back().o.pattern = SyntheticPattern::kResolutionChanges;
  cases.back().o.width = 2147483647;
  cases.back().o.height = 1;
  for (const Case& c : cases) {
    auto src = MakeSyntheticSource(c.o);
    EXPECT_EQ(src.status().code(), absl::StatusCode::kInvalidArgument) << c.part;
    EXPECT_THAT(std::string(src.status().message()), HasSubstr(c.part));
  }
  // The largest that fits in every scene: (W/2+1) x 4 = 2^31.
  SyntheticOptions edge = good;
  edge.pattern = SyntheticPattern::kResolutionChanges;
  edge.width = 1073741822;
  edge.height = 1;
  EXPECT_TRUE(MakeSyntheticSource(edge).ok());
  auto src = MakeSyntheticSource(good);
  ASSERT_TRUE(src.ok());
  std::vector<std::byte> small(63);
  EXPECT_EQ((*src)->Read(small, 1).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace streampipe::video
