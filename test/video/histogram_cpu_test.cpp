#include "streampipe/video/histogram_cpu.hpp"

#include <cmath>
#include <numeric>

#include <gtest/gtest.h>

#include "video_test_util.hpp"

namespace streampipe::video {
namespace {

using ::streampipe::video::testing::RandomBytes;

std::span<const std::byte> Bytes(const std::vector<std::uint8_t>& v) {
  return std::as_bytes(std::span(v));
}

Histogram Only(std::initializer_list<std::pair<int, std::uint32_t>> bins) {
  Histogram h{};
  for (auto [b, c] : bins) h[b] = c;
  return h;
}

// BT.601 in 8.8 fixed point, worked by hand: e.g. red = (77*255 + 128) >> 8 = 19763 >> 8 = 77.
static_assert(RgbToGray(255, 255, 255) == 255);
static_assert(RgbToGray(0, 0, 0) == 0);
static_assert(RgbToGray(255, 0, 0) == 77);
static_assert(RgbToGray(0, 255, 0) == 149);   // 38378 >> 8
static_assert(RgbToGray(0, 0, 255) == 29);    // 7523 >> 8
static_assert(RgbToGray(100, 150, 200) == 141);  // 36128 >> 8
static_assert(RgbToGray(128, 128, 128) == 128);
static_assert(RgbToGray(1, 1, 1) == 1);

TEST(RgbToGrayTest, WithinOneOfTheRealBt601Weights) {
  int worst = 0;
  for (int r = 0; r < 256; r += 3) {
    for (int g = 0; g < 256; ++g) {
      for (int b = 0; b < 256; ++b) {
        const double exact = 0.299 * r + 0.587 * g + 0.114 * b;
        const int got = RgbToGray(static_cast<std::uint8_t>(r), static_cast<std::uint8_t>(g),
                                  static_cast<std::uint8_t>(b));
        worst = std::max(worst, static_cast<int>(std::lround(std::abs(got - exact) * 100)));
      }
    }
  }
  EXPECT_LE(worst, 100);  // never more than one level off
}

TEST(HistogramCpuTest, HandComputedGray3x2) {
  const std::vector<std::uint8_t> px = {0, 7, 7, 255, 7, 0};
  Histogram h;
  h.fill(12345);  // overwritten, not accumulated
  HistogramOfItem({3, 2, PixelFormat::kGray8}, Bytes(px), h);
  EXPECT_EQ(h, Only({{0, 2}, {7, 3}, {255, 1}}));
}

TEST(HistogramCpuTest, HandComputedRgb4x2) {
  const std::vector<std::uint8_t> px = {
      255, 255, 255,  0, 0, 0,      255, 0, 0,      0, 255, 0,  // white black red green
      0,   0,   255,  100, 150, 200, 128, 128, 128, 255, 255, 255,  // blue, 141, gray, white
  };
  Histogram h;
  HistogramOfItem({4, 2, PixelFormat::kRgb24}, Bytes(px), h);
  EXPECT_EQ(h, Only({{255, 2}, {0, 1}, {77, 1}, {149, 1}, {29, 1}, {141, 1}, {128, 1}}));
}

TEST(HistogramCpuTest, YuvAndMonoItemsAreLuma) {
  const std::vector<std::uint8_t> px = {9, 9, 200, 1, 9};
  for (PixelFormat pf : {PixelFormat::kYuv420, PixelFormat::kYuv422, PixelFormat::kYuv444,
                         PixelFormat::kMono}) {
    Histogram h;
    HistogramOfItem({5, 1, pf}, Bytes(px), h);
    EXPECT_EQ(h, Only({{9, 3}, {200, 1}, {1, 1}})) << PixelFormatName(pf);
  }
}

TEST(HistogramCpuTest, RandomFramesMatchAPlainLoopAndSumToPixels) {
  VIDEO_TEST_RNG(rng);
  for (PixelFormat pf : {PixelFormat::kGray8, PixelFormat::kRgb24, PixelFormat::kYuv420}) {
    for (auto [w, h] : {std::pair{1, 1}, std::pair{3, 1}, std::pair{33, 17}, std::pair{175, 143}}) {
      const FrameFormat f{w, h, pf};
      const std::vector<std::byte> item = RandomBytes(rng, f.item_bytes());
      Histogram want{};
      const auto* p = reinterpret_cast<const std::uint8_t*>(item.data());
      for (std::size_t i = 0; i < f.pixels(); ++i) {
        if (pf == PixelFormat::kRgb24) {
          ++want[RgbToGray(p[3 * i], p[3 * i + 1], p[3 * i + 2])];
        } else {
          ++want[p[i]];
        }
      }
      Histogram got;
      HistogramOfItem(f, item, got);
      EXPECT_EQ(got, want) << FrameFormatToString(f);
      EXPECT_EQ(std::accumulate(got.begin(), got.end(), std::uint64_t{0}), f.pixels());
    }
  }
}

TEST(HistogramCpuTest, DegenerateFramesHitOneBin) {
  VIDEO_TEST_RNG(rng);
  std::uniform_int_distribution<int> byte(0, 255);
  for (int trial = 0; trial < 8; ++trial) {
    const int v = byte(rng);
    const std::vector<std::uint8_t> gray(101 * 7, static_cast<std::uint8_t>(v));
    Histogram h;
    HistogramOfItem({101, 7, PixelFormat::kGray8}, Bytes(gray), h);
    EXPECT_EQ(h, Only({{v, 707}}));

    const std::uint8_t r = static_cast<std::uint8_t>(byte(rng)), g = static_cast<std::uint8_t>(byte(rng)),
                       b = static_cast<std::uint8_t>(byte(rng));
    std::vector<std::uint8_t> rgb;
    for (int i = 0; i < 13 * 5; ++i) rgb.insert(rgb.end(), {r, g, b});
    HistogramOfItem({13, 5, PixelFormat::kRgb24}, Bytes(rgb), h);
    EXPECT_EQ(h, Only({{RgbToGray(r, g, b), 65}}));
  }
}

TEST(HistogramCpuTest, BatchMatchesOneByOne) {
  VIDEO_TEST_RNG(rng);
  const FrameFormat f{19, 11, PixelFormat::kRgb24};
  const std::vector<std::byte> items = RandomBytes(rng, 5 * f.item_bytes());
  std::vector<Histogram> batch(5);
  HistogramsOfItems(f, items, 5, batch);
  for (int i = 0; i < 5; ++i) {
    Histogram one;
    HistogramOfItem(f, std::span(items).subspan(i * f.item_bytes(), f.item_bytes()), one);
    EXPECT_EQ(batch[i], one) << i;
  }
  // Clamped to what the spans hold rather than overrun.
  std::vector<Histogram> three(3);
  HistogramsOfItems(f, items, 5, three);
  EXPECT_EQ(three[2], batch[2]);
  std::vector<Histogram> out(5, Only({{0, 99}}));
  HistogramsOfItems(f, std::span(items).first(2 * f.item_bytes()), 5, out);
  EXPECT_EQ(out[1], batch[1]);
  EXPECT_EQ(out[2], Only({{0, 99}}));
}

}  // namespace
}  // namespace streampipe::video
