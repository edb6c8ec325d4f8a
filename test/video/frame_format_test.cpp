#include "streampipe/video/frame_format.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace streampipe::video {
namespace {

using ::testing::HasSubstr;

// Sizes worked out by hand: 33x17 has 561 pixels; half sizes round up to 17x9.
TEST(FrameFormatTest, StoredAndItemBytesOddSize) {
  struct Case {
    PixelFormat format;
    std::size_t stored, item;
  };
  for (const Case& c : {Case{PixelFormat::kGray8, 561, 561}, Case{PixelFormat::kRgb24, 1683, 1683},
                        Case{PixelFormat::kYuv420, 561 + 2 * 153, 561},
                        Case{PixelFormat::kYuv422, 561 + 2 * 289, 561},
                        Case{PixelFormat::kYuv444, 1683, 561}, Case{PixelFormat::kMono, 561, 561}}) {
    const FrameFormat f{33, 17, c.format};
    EXPECT_EQ(f.stored_bytes(), c.stored) << PixelFormatName(c.format);
    EXPECT_EQ(f.item_bytes(), c.item) << PixelFormatName(c.format);
    EXPECT_EQ(f.pixels(), 561u);
  }
}

TEST(FrameFormatTest, TinyAndEvenSizes) {
  EXPECT_EQ((FrameFormat{1, 1, PixelFormat::kYuv420}).stored_bytes(), 3u);
  EXPECT_EQ((FrameFormat{1, 1, PixelFormat::kYuv422}).stored_bytes(), 3u);
  EXPECT_EQ((FrameFormat{1, 1, PixelFormat::kYuv444}).stored_bytes(), 3u);
  EXPECT_EQ((FrameFormat{2, 3, PixelFormat::kYuv420}).stored_bytes(), 6u + 2 * 2);
  EXPECT_EQ((FrameFormat{2, 3, PixelFormat::kYuv422}).stored_bytes(), 6u + 2 * 3);
  // 704x576 4:2:0: the classic 1.5 bytes per pixel.
  EXPECT_EQ((FrameFormat{704, 576, PixelFormat::kYuv420}).stored_bytes(), 704u * 576 * 3 / 2);
  EXPECT_EQ((FrameFormat{704, 576, PixelFormat::kYuv422}).stored_bytes(), 704u * 576 * 2);
  // The largest accepted frame does not overflow.
  EXPECT_EQ((FrameFormat{65536, 32768, PixelFormat::kYuv444}).stored_bytes(),
            std::size_t{3} << 31);
}

TEST(FrameFormatTest, NonPositiveSizesAreZeroBytes) {
  for (auto [w, h] : {std::pair{0, 5}, std::pair{5, 0}, std::pair{-3, 4}, std::pair{4, -3}}) {
    const FrameFormat f{w, h, PixelFormat::kYuv420};
    EXPECT_EQ(f.stored_bytes(), 0u);
    EXPECT_EQ(f.item_bytes(), 0u);
  }
}

TEST(FrameFormatTest, NamesRoundTrip) {
  for (PixelFormat p : {PixelFormat::kGray8, PixelFormat::kRgb24, PixelFormat::kYuv420,
                        PixelFormat::kYuv422, PixelFormat::kYuv444, PixelFormat::kMono}) {
    absl::StatusOr<PixelFormat> back = ParsePixelFormat(PixelFormatName(p));
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(*back, p);
  }
  EXPECT_EQ(*ParsePixelFormat("gray"), PixelFormat::kGray8);
  EXPECT_EQ(*ParsePixelFormat("yuv420p"), PixelFormat::kYuv420);
  EXPECT_EQ(FrameFormatToString({704, 576, PixelFormat::kRgb24}), "704x576 rgb24");
}

TEST(FrameFormatTest, ParseRejectsUnknownNames) {
  for (const char* bad : {"", "GRAY8", "rgb", "yuv420p10", "gray8 "}) {
    absl::StatusOr<PixelFormat> p = ParsePixelFormat(bad);
    EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_THAT(std::string(p.status().message()),
                HasSubstr(std::string("'") + bad + "'"));
    EXPECT_THAT(std::string(p.status().message()), HasSubstr("gray8"));
  }
}

}  // namespace
}  // namespace streampipe::video
