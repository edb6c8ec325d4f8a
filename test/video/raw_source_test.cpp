#include <filesystem>
#include <fstream>
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "streampipe/video/frame_source.hpp"
#include "video_test_util.hpp"

namespace streampipe::video {
namespace {

using ::streampipe::video::testing::AsString;
using ::streampipe::video::testing::Drain;
using ::streampipe::video::testing::RandomBytes;
using ::testing::AllOf;
using ::testing::HasSubstr;

std::string Msg(const absl::Status& s) { return std::string(s.message()); }

TEST(RawSourceTest, Gray8AndRgb24FramesComeOutWhole) {
  VIDEO_TEST_RNG(rng);
  for (PixelFormat pf : {PixelFormat::kGray8, PixelFormat::kRgb24}) {
    for (auto [w, h] : {std::pair{33, 17}, std::pair{1, 1}, std::pair{175, 143}}) {
      SCOPED_TRACE(::testing::Message() << PixelFormatName(pf) << " " << w << "x" << h);
      const std::size_t frame = static_cast<std::size_t>(w) * h * (pf == PixelFormat::kRgb24 ? 3 : 1);
      const std::vector<std::byte> data = RandomBytes(rng, 6 * frame);
      for (std::int64_t batch : {1, 4, 100}) {
        std::istringstream in(AsString(data));
        auto src = MakeRawSource(in, w, h, pf);
        ASSERT_TRUE(src.ok()) << src.status();
        EXPECT_EQ((*src)->format(), (FrameFormat{w, h, pf}));
        const auto d = Drain(**src, batch);
        ASSERT_TRUE(d.status.ok()) << d.status;
        EXPECT_TRUE(d.ended);
        ASSERT_EQ(d.items.size(), 6u);
        for (std::size_t i = 0; i < 6; ++i) {
          EXPECT_TRUE(std::equal(d.items[i].begin(), d.items[i].end(), data.begin() + i * frame))
              << "frame " << i;
        }
        EXPECT_EQ((*src)->frames_read(), 6);
        EXPECT_EQ((*src)->bytes_consumed(), 6 * frame);  // raw frames back to back
      }
    }
  }
}

TEST(CheckReadRequestTest, NamesTheSourceAndTheSizes) {
  EXPECT_TRUE(CheckReadRequest("s", 10, 30, 3).ok());
  EXPECT_TRUE(CheckReadRequest("s", 10, 30, 0).ok());
  const absl::Status small = CheckReadRequest("cam.raw", 10, 29, 3);
  EXPECT_EQ(small.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Msg(small), "cam.raw: Read of 3 frames of 10 bytes into a buffer of 29 bytes");
  EXPECT_EQ(CheckReadRequest("s", 10, 30, -1).code(), absl::StatusCode::kInvalidArgument);
  // Frames of no bytes: an error (it divided by zero).
  EXPECT_EQ(Msg(CheckReadRequest("s", 0, 30, 3)), "s: Read of 3 frames of 0 bytes into a buffer of 30 bytes");
}

// Every source rejects a bad request with that message and stays usable.
TEST(RawSourceTest, BadReadRequestIsRejectedAndTheSourceStaysUsable) {
  VIDEO_TEST_RNG(rng);
  const std::vector<std::byte> data = RandomBytes(rng, 2 * 6);
  std::istringstream in(AsString(data));
  auto raw = MakeRawSource(in, 3, 2, PixelFormat::kGray8, "two.raw");
  ASSERT_TRUE(raw.ok()) << raw.status();
  SyntheticOptions so;
  so.width = 3;
  so.height = 2;
  so.frames = 2;
  auto synthetic = MakeSyntheticSource(so);
  ASSERT_TRUE(synthetic.ok()) << synthetic.status();
  for (FrameSource* src : {raw->get(), synthetic->get()}) {
    std::vector<std::byte> buf(12);
    absl::StatusOr<ReadResult> r = src->Read(buf, 3);
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(Msg(r.status()), HasSubstr(": Read of 3 frames of 6 bytes into a buffer of 12"));
    r = src->Read(buf, 2);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->frames, 2);
  }
}

TEST(RawSourceTest, PlanarYuvKeepsLuma) {
  VIDEO_TEST_RNG(rng);
  // 5x3 yuv420p: 15 luma + 2 * 3*2 chroma = 27 bytes.
  const std::vector<std::byte> data = RandomBytes(rng, 3 * 27);
  std::istringstream in(AsString(data));
  auto src = MakeRawSource(in, 5, 3, PixelFormat::kYuv420);
  ASSERT_TRUE(src.ok());
  const auto d = Drain(**src, 2);
  ASSERT_TRUE(d.status.ok()) << d.status;
  ASSERT_EQ(d.items.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_TRUE(std::equal(d.items[i].begin(), d.items[i].end(), data.begin() + i * 27));
  }
}

TEST(RawSourceTest, PartialLastFrameIsDataLoss) {
  VIDEO_TEST_RNG(rng);
  // 7x5 rgb24: 105 bytes a frame; 3 frames and 50 bytes.
  const std::vector<std::byte> data = RandomBytes(rng, 3 * 105 + 50);
  std::istringstream in(AsString(data));
  auto src = MakeRawSource(in, 7, 5, PixelFormat::kRgb24, "cam.rgb");
  ASSERT_TRUE(src.ok());
  const auto d = Drain(**src, 2);
  EXPECT_EQ(d.status.code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(Msg(d.status), AllOf(HasSubstr("cam.rgb"), HasSubstr("frame 3"),
                                   HasSubstr("at byte 315"), HasSubstr("expected 105 bytes"),
                                   HasSubstr("found 50")));
  EXPECT_EQ(d.items.size(), 3u);
}

TEST(RawSourceTest, PartialYuvFrameCountsChroma) {
  VIDEO_TEST_RNG(rng);
  const std::vector<std::byte> data = RandomBytes(rng, 27 + 20);  // luma 15 + 5 chroma
  std::istringstream in(AsString(data));
  auto src = MakeRawSource(in, 5, 3, PixelFormat::kYuv420);
  ASSERT_TRUE(src.ok());
  const auto d = Drain(**src, 4);
  EXPECT_EQ(d.status.code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(Msg(d.status), AllOf(HasSubstr("frame 1"), HasSubstr("expected 27"),
                                   HasSubstr("found 20")));
}

TEST(RawSourceTest, InvalidSizesAndMissingFiles) {
  std::istringstream in("");
  for (auto [w, h] : {std::pair{0, 5}, std::pair{5, 0}, std::pair{-1, 5}, std::pair{65536, 65536}}) {
    auto src = MakeRawSource(in, w, h, PixelFormat::kGray8);
    EXPECT_EQ(src.status().code(), absl::StatusCode::kInvalidArgument) << w << "x" << h;
    EXPECT_THAT(Msg(src.status()), HasSubstr(std::to_string(w) + "x" + std::to_string(h)));
  }
  auto missing = OpenRawSource("/nonexistent/dir/x.raw", 4, 4, PixelFormat::kGray8);
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(Msg(missing.status()), HasSubstr("/nonexistent/dir/x.raw"));
}

TEST(RawSourceTest, EmptyFileIsZeroFrames) {
  VIDEO_TEST_RNG(rng);
  const std::string path =
      (std::filesystem::temp_directory_path() / ("raw_test_" + std::to_string(rng()) + ".raw"))
          .string();
  { std::ofstream out(path, std::ios::binary); }
  auto src = OpenRawSource(path, 4, 4, PixelFormat::kGray8);
  ASSERT_TRUE(src.ok()) << src.status();
  const auto d = Drain(**src, 3);
  EXPECT_TRUE(d.status.ok());
  EXPECT_TRUE(d.ended);
  EXPECT_TRUE(d.items.empty());
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace streampipe::video
