#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "streampipe/video/frame_source.hpp"
#include "video_test_util.hpp"

namespace streampipe::video {
namespace {

using ::streampipe::video::testing::Drain;
using ::streampipe::video::testing::Drained;
using ::streampipe::video::testing::Y4mBuilder;
using ::testing::AllOf;
using ::testing::HasSubstr;

std::string Msg(const absl::Status& s) { return std::string(s.message()); }

// A non-seekable stream that hands out its bytes in chunks of 1..max_chunk, like a pipe.
class ChunkyBuf : public std::streambuf {
 public:
  ChunkyBuf(std::string data, std::size_t max_chunk, std::uint64_t seed)
      : data_(std::move(data)), max_chunk_(max_chunk), rng_(seed) {}

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    if (pos_ >= data_.size()) return traits_type::eof();
    std::uniform_int_distribution<std::size_t> d(1, max_chunk_);
    const std::size_t n = std::min(d(rng_), data_.size() - pos_);
    char* p = data_.data() + pos_;
    setg(p, p, p + n);
    pos_ += n;
    return traits_type::to_int_type(*p);
  }
  // No seeking, no bulk path: istream::read must go through underflow.
  pos_type seekoff(off_type, std::ios_base::seekdir, std::ios_base::openmode) override {
    return pos_type(off_type(-1));
  }
  pos_type seekpos(pos_type, std::ios_base::openmode) override { return pos_type(off_type(-1)); }

 private:
  std::string data_;
  std::size_t max_chunk_;
  std::size_t pos_ = 0;
  std::mt19937_64 rng_;
};

// Fails (throws from underflow) after `good` bytes.
class FailingBuf : public std::streambuf {
 public:
  FailingBuf(std::string data, std::size_t good) : data_(std::move(data)), good_(good) {}

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    if (pos_ >= good_) throw std::runtime_error("disk on fire");
    const std::size_t n = std::min<std::size_t>(16, good_ - pos_);
    char* p = data_.data() + pos_;
    setg(p, p, p + n);
    pos_ += n;
    return traits_type::to_int_type(*p);
  }

 private:
  std::string data_;
  std::size_t good_;
  std::size_t pos_ = 0;
};

PixelFormat ExpectedFormat(const std::string& colorspace) {
  if (colorspace == "422") return PixelFormat::kYuv422;
  if (colorspace == "444") return PixelFormat::kYuv444;
  if (colorspace == "mono") return PixelFormat::kMono;
  return PixelFormat::kYuv420;
}

void ExpectLumas(const Drained& d, const Y4mBuilder& b) {
  ASSERT_EQ(d.items.size(), b.lumas().size());
  for (std::size_t i = 0; i < d.items.size(); ++i) {
    EXPECT_TRUE(d.items[i] == b.lumas()[i]) << "frame " << i << " luma differs";
  }
}

// ---- every chroma layout, odd sizes, batch sizes ----

class Y4mLayoutTest
    : public ::testing::TestWithParam<std::tuple<std::string, std::pair<int, int>>> {};

TEST_P(Y4mLayoutTest, ReturnsExactlyTheLumaPlanes) {
  VIDEO_TEST_RNG(rng);
  const auto& [colorspace, size] = GetParam();
  const auto [w, h] = size;
  Y4mBuilder b(&rng);
  b.Header(w, h, colorspace, " F25:1 Ip A1:1").Frames(7);
  for (std::int64_t batch : {1, 3, 100}) {
    SCOPED_TRACE(::testing::Message() << "batch " << batch);
    std::istringstream in(b.data());
    absl::StatusOr<std::unique_ptr<FrameSource>> src = MakeY4mSource(in);
    ASSERT_TRUE(src.ok()) << src.status();
    EXPECT_EQ((*src)->format(), (FrameFormat{w, h, ExpectedFormat(colorspace)}));
    EXPECT_EQ((*src)->format().stored_bytes(), b.frame_bytes());
    const Drained d = Drain(**src, batch);
    ASSERT_TRUE(d.status.ok()) << d.status;
    EXPECT_TRUE(d.ended);
    EXPECT_TRUE(d.changes.empty());
    ExpectLumas(d, b);
    EXPECT_EQ((*src)->frames_read(), 7);
    for (std::int64_t n : d.batch_sizes) EXPECT_LE(n, batch);
  }
}

std::string LayoutTestName(
    const ::testing::TestParamInfo<std::tuple<std::string, std::pair<int, int>>>& param_info) {
  const std::string& cs = std::get<0>(param_info.param);
  const std::pair<int, int>& size = std::get<1>(param_info.param);
  return (cs.empty() ? std::string("default") : cs) + "_" + std::to_string(size.first) + "x" +
         std::to_string(size.second);
}

INSTANTIATE_TEST_SUITE_P(
    AllLayouts, Y4mLayoutTest,
    ::testing::Combine(::testing::Values("420jpeg", "420paldv", "420mpeg2", "420", "422", "444",
                                         "mono", ""),
                       ::testing::Values(std::pair{33, 17}, std::pair{1, 1},
                                         std::pair{175, 143}, std::pair{2, 3})),
    LayoutTestName);

TEST(Y4mSourceTest, HeaderTagsAndFrameParametersAreAccepted) {
  VIDEO_TEST_RNG(rng);
  Y4mBuilder b(&rng);
  b.Header(31, 9, "422",
           " F30000:1001 It A128:117 XYSCSS=422 XCOLORRANGE=FULL Zfuture I? A0:0");
  b.Frame(" Ixyz XFOO=bar").Frame().Frame(" ").Frame(" Ib");
  std::istringstream in(b.data());
  auto src = MakeY4mSource(in);
  ASSERT_TRUE(src.ok()) << src.status();
  EXPECT_EQ((*src)->format(), (FrameFormat{31, 9, PixelFormat::kYuv422}));
  const Drained d = Drain(**src, 2);
  ASSERT_TRUE(d.status.ok()) << d.status;
  ExpectLumas(d, b);
}

TEST(Y4mSourceTest, InterlaceValuesAreAllAccepted) {
  for (const char* i : {"Ip", "It", "Ib", "Im", "I?"}) {
    std::istringstream in(std::string("YUV4MPEG2 W2 H2 ") + i + "\n");
    auto src = MakeY4mSource(in);
    EXPECT_TRUE(src.ok()) << i << ": " << src.status();
  }
}

// bytes_consumed counts the header, each FRAME line and frame, and a second segment's header:
// what a caller subtracts from a file's size to know what is left (FramesLeftInFile).
TEST(Y4mSourceTest, BytesConsumedCountsHeadersFrameLinesAndFrames) {
  const std::string first = "YUV4MPEG2 W4 H2 Cmono\n";
  const std::string second = "YUV4MPEG2 W8 H8 Cmono\n";
  std::string data = first;
  for (int i = 0; i < 3; ++i) data += "FRAME\n" + std::string(8, static_cast<char>(i));
  data += second + "FRAME\nabc";  // the second segment's frame cut short
  std::istringstream in(data);
  auto src = MakeY4mSource(in);
  ASSERT_TRUE(src.ok()) << src.status();
  EXPECT_EQ((*src)->bytes_consumed(), first.size());
  std::vector<std::byte> buf(8 * 64);
  absl::StatusOr<ReadResult> r = (*src)->Read(buf, 2);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->frames, 2);
  EXPECT_EQ((*src)->bytes_consumed(), first.size() + 2 * (6 + 8));
  r = (*src)->Read(buf, 8);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->frames, 1);
  ASSERT_TRUE(r->format_changed);
  const std::uint64_t at_second = first.size() + 3 * (6 + 8) + second.size();
  EXPECT_EQ((*src)->bytes_consumed(), at_second);
  // What is left of the file (the FRAME line and 3 bytes) holds no 8x8 frame: one is sized, not
  // the 64 asked for, and the source names the frame cut short.
  const FrameFormat big = (*src)->format();
  EXPECT_EQ(FramesLeftInFile(big, data.size(), *(*src)->bytes_consumed(), 64), 1);
  r = (*src)->Read(buf, 1);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kDataLoss) << r.status();
}

TEST(FramesLeftInFileTest, ClampsWhatIsLeftToOneThroughTheBatch) {
  const FrameFormat f{4, 2, PixelFormat::kGray8};  // 8 bytes a frame
  ASSERT_EQ(f.stored_bytes(), 8u);
  EXPECT_EQ(FramesLeftInFile(f, 1000, 0, 64), 64);    // 125 fit: the batch's 64
  EXPECT_EQ(FramesLeftInFile(f, 1000, 900, 64), 12);  // 100 bytes left: 12 frames
  EXPECT_EQ(FramesLeftInFile(f, 1000, 996, 64), 1);   // under a frame: one, to read the end
  EXPECT_EQ(FramesLeftInFile(f, 1000, 1000, 64), 1);
  EXPECT_EQ(FramesLeftInFile(f, 10, 2000, 64), 1);    // consumed past the size (a growing file)
  EXPECT_EQ(FramesLeftInFile(f, 1000, 0, 0), 1);
  // A 2^31-pixel frame claimed by a 47-byte file: one frame, not 64.
  const FrameFormat huge{65536, 32768, PixelFormat::kYuv420};
  EXPECT_EQ(FramesLeftInFile(huge, 47, 34, 64), 1);
}

TEST(Y4mSourceTest, ZeroFramesEndsCleanly) {
  std::istringstream in("YUV4MPEG2 W4 H4 C420jpeg\n");
  auto src = MakeY4mSource(in);
  ASSERT_TRUE(src.ok()) << src.status();
  std::vector<std::byte> buf(16 * 4);
  auto r = (*src)->Read(buf, 4);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->frames, 0);
  EXPECT_TRUE(r->end);
  // And stays ended.
  r = (*src)->Read(buf, 4);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->frames, 0);
  EXPECT_TRUE(r->end);
}

TEST(Y4mSourceTest, EndIsReportedWithoutReadingAhead) {
  VIDEO_TEST_RNG(rng);
  Y4mBuilder b(&rng);
  b.Header(5, 3, "420").Frames(4);
  std::istringstream in(b.data());
  auto src = MakeY4mSource(in);
  ASSERT_TRUE(src.ok());
  std::vector<std::byte> buf(4 * 15);
  auto r = (*src)->Read(buf, 4);  // fills exactly: does not look for the end
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->frames, 4);
  EXPECT_FALSE(r->end);
  r = (*src)->Read(buf, 4);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->frames, 0);
  EXPECT_TRUE(r->end);
}

TEST(Y4mSourceTest, MaxFramesZeroReadsNothing) {
  VIDEO_TEST_RNG(rng);
  Y4mBuilder b(&rng);
  b.Header(5, 3, "420").Frames(2);
  std::istringstream in(b.data());
  auto src = MakeY4mSource(in);
  ASSERT_TRUE(src.ok());
  auto r = (*src)->Read({}, 0);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->frames, 0);
  EXPECT_FALSE(r->end);
  const Drained d = Drain(**src, 5);
  ASSERT_TRUE(d.status.ok());
  ExpectLumas(d, b);
}

TEST(Y4mSourceTest, TooSmallBufferIsInvalidArgumentAndRecoverable) {
  VIDEO_TEST_RNG(rng);
  Y4mBuilder b(&rng);
  b.Header(5, 3, "444").Frames(3);
  std::istringstream in(b.data());
  auto src = MakeY4mSource(in);
  ASSERT_TRUE(src.ok());
  std::vector<std::byte> buf(2 * 15 - 1);
  auto r = (*src)->Read(buf, 2);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(Msg(r.status()), AllOf(HasSubstr("2 frames"), HasSubstr("29 bytes")));
  r = (*src)->Read(buf, -1);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  const Drained d = Drain(**src, 2);
  ASSERT_TRUE(d.status.ok()) << d.status;
  ExpectLumas(d, b);
}

// ---- non-seekable input, files, stdin ----

TEST(Y4mSourceTest, PipeLikeStreamInTinyChunks) {
  VIDEO_TEST_RNG(rng);
  Y4mBuilder b(&rng);
  b.Header(17, 11, "420mpeg2", " XCOMMENT").Frame(" Ip").Frames(5);
  for (std::size_t chunk : {1, 7, 4096}) {
    ChunkyBuf buf(b.data(), chunk, rng());
    std::istream in(&buf);
    auto src = MakeY4mSource(in, "pipe");
    ASSERT_TRUE(src.ok()) << src.status();
    const Drained d = Drain(**src, 4);
    ASSERT_TRUE(d.status.ok()) << d.status;
    ExpectLumas(d, b);
  }
}

TEST(Y4mSourceTest, LargeFramesBypassTheBuffer) {
  VIDEO_TEST_RNG(rng);
  Y4mBuilder b(&rng);
  b.Header(1920, 1081, "420").Frames(3);  // luma 2 MB: bigger than any read buffer
  ChunkyBuf buf(b.data(), 100000, rng());
  std::istream in(&buf);
  auto src = MakeY4mSource(in);
  ASSERT_TRUE(src.ok());
  const Drained d = Drain(**src, 2);
  ASSERT_TRUE(d.status.ok()) << d.status;
  ExpectLumas(d, b);
}

TEST(Y4mSourceTest, OpensFilesAndReportsMissingOnes) {
  VIDEO_TEST_RNG(rng);
  Y4mBuilder b(&rng);
  b.Header(21, 13, "mono").Frames(4);
  const std::string path =
      (std::filesystem::temp_directory_path() / ("y4m_test_" + std::to_string(rng()) + ".y4m"))
          .string();
  {
    std::ofstream out(path, std::ios::binary);
    out << b.data();
  }
  auto src = OpenY4mSource(path);
  ASSERT_TRUE(src.ok()) << src.status();
  const Drained d = Drain(**src, 3);
  ASSERT_TRUE(d.status.ok()) << d.status;
  ExpectLumas(d, b);
  std::filesystem::remove(path);

  auto missing = OpenY4mSource(path);
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(Msg(missing.status()), HasSubstr(path));
  auto dir = OpenY4mSource(std::filesystem::temp_directory_path().string());
  // Not an input, rather than bad data in one (the command line's 66, as for a missing file).
  EXPECT_EQ(dir.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(Msg(dir.status()), HasSubstr("directory"));
}

TEST(Y4mSourceTest, LargeFramesFromAFile) {
  VIDEO_TEST_RNG(rng);
  Y4mBuilder b(&rng);
  b.Header(1501, 799, "422").Frames(4);  // luma 1.2 MB, frame 2.4 MB: past the 1 MiB buffer
  const std::string path =
      (std::filesystem::temp_directory_path() / ("y4m_big_" + std::to_string(rng()) + ".y4m"))
          .string();
  {
    std::ofstream out(path, std::ios::binary);
    out << b.data().substr(0, b.data().size() - 1);  // and the last byte missing
  }
  auto src = OpenY4mSource(path);
  ASSERT_TRUE(src.ok()) << src.status();
  const Drained d = Drain(**src, 3);
  std::filesystem::remove(path);
  EXPECT_EQ(d.status.code(), absl::StatusCode::kDataLoss) << d.status;
  EXPECT_THAT(Msg(d.status), AllOf(HasSubstr(path), HasSubstr("frame 3"), HasSubstr("chroma"),
                                   HasSubstr("expected 2399397 bytes"),
                                   HasSubstr("found 2399396")));
  ASSERT_EQ(d.items.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_TRUE(d.items[i] == b.lumas()[i]) << i;
}

TEST(Y4mSourceTest, ReadsStdinPipe) {
  VIDEO_TEST_RNG(rng);
  Y4mBuilder b(&rng);
  b.Header(64, 33, "420jpeg").Frames(20);  // ~63 KB: more than one pipe buffer's worth
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const int saved_stdin = ::dup(STDIN_FILENO);
  ASSERT_GE(saved_stdin, 0);
  ASSERT_EQ(::dup2(fds[0], STDIN_FILENO), STDIN_FILENO);
  ::close(fds[0]);
  std::thread writer([&] {
    const std::string& data = b.data();
    std::size_t done = 0;
    while (done < data.size()) {
      const std::size_t n = std::min<std::size_t>(1000, data.size() - done);
      const ssize_t w = ::write(fds[1], data.data() + done, n);
      if (w <= 0) break;
      done += static_cast<std::size_t>(w);
    }
    ::close(fds[1]);
  });
  Drained d;
  {
    auto src = OpenY4mSource("-");
    if (src.ok()) d = Drain(**src, 3);
    else d.status = src.status();
  }
  writer.join();
  ::dup2(saved_stdin, STDIN_FILENO);
  ::close(saved_stdin);
  ASSERT_TRUE(d.status.ok()) << d.status;
  ExpectLumas(d, b);
}

// ---- truncation ----

TEST(Y4mSourceTest, TruncatedHeaderIsDataLoss) {
  for (const char* text : {"", "YUV4", "YUV4MPEG2", "YUV4MPEG2 W33 H17"}) {
    std::istringstream in(text);
    auto src = MakeY4mSource(in, "t.y4m");
    EXPECT_EQ(src.status().code(), absl::StatusCode::kDataLoss) << "'" << text << "'";
    EXPECT_THAT(Msg(src.status()), HasSubstr("t.y4m")) << text;
  }
  std::istringstream in("YUV4MPEG2 W33 H17");
  EXPECT_THAT(Msg(MakeY4mSource(in).status()), HasSubstr("header truncated"));
}

// Reads all; expects `good` frames then DataLoss whose message has every `parts`.
void ExpectDataLossAfter(const std::string& data, const Y4mBuilder& b, std::size_t good,
                         const std::vector<std::string>& parts) {
  std::istringstream in(data);
  auto src = MakeY4mSource(in, "cut.y4m");
  ASSERT_TRUE(src.ok()) << src.status();
  const Drained d = Drain(**src, 100);
  EXPECT_EQ(d.status.code(), absl::StatusCode::kDataLoss) << d.status;
  for (const std::string& p : parts) EXPECT_THAT(Msg(d.status), HasSubstr(p));
  ASSERT_EQ(d.items.size(), good);
  for (std::size_t i = 0; i < good; ++i) EXPECT_TRUE(d.items[i] == b.lumas()[i]) << i;
  // The error sticks.
  std::vector<std::byte> buf(src->get()->format().item_bytes());
  auto again = (*src)->Read(buf, 1);
  EXPECT_EQ(again.status(), d.status);
}

TEST(Y4mSourceTest, TruncatedInFrameLineIsDataLoss) {
  VIDEO_TEST_RNG(rng);
  Y4mBuilder b(&rng);
  b.Header(33, 17, "420").Frames(2);
  for (const char* tail : {"F", "FRAM", "FRAME", "FRAME Ixyz"}) {
    ExpectDataLossAfter(b.data() + tail, b, 2,
                        {"cut.y4m", "frame 2", "truncated FRAME line", "expected 867"});
  }
}

TEST(Y4mSourceTest, TruncatedInLumaPlaneIsDataLoss) {
  VIDEO_TEST_RNG(rng);
  Y4mBuilder b(&rng);
  b.Header(33, 17, "420").Frames(3);  // frame: 6 + 561 + 306 bytes
  const std::size_t header = b.data().find('\n') + 1;
  const std::size_t frame = 6 + 867;
  // Frame 2's FRAME line then 100 bytes of its luma.
  std::string cut = b.data().substr(0, header + 2 * frame + 6 + 100);
  ExpectDataLossAfter(cut, b, 2,
                      {"frame 2", absl::StrCat("at byte ", header + 2 * frame), "Y plane",
                       "expected 867 bytes", "found 100"});
  // The FRAME line complete, no data at all.
  cut = b.data().substr(0, header + 2 * frame + 6);
  ExpectDataLossAfter(cut, b, 2, {"frame 2", "Y plane", "found 0"});
}

TEST(Y4mSourceTest, TruncatedInChromaPlaneIsDataLoss) {
  VIDEO_TEST_RNG(rng);
  Y4mBuilder b(&rng);
  b.Header(33, 17, "444").Frames(2);  // frame: 6 + 561 + 1122
  const std::size_t header = b.data().find('\n') + 1;
  const std::string cut = b.data().substr(0, header + 1689 + 6 + 561 + 5);
  ExpectDataLossAfter(cut, b, 1,
                      {"frame 1", "chroma planes", "expected 1683 bytes", "found 566"});
}

// Every cut point gives either a clean end at a frame boundary or DataLoss naming the frame
// the cut fell in; the frames before it always come out intact.
TEST(Y4mSourceTest, EveryTruncationPointIsCleanEndOrDataLoss) {
  VIDEO_TEST_RNG(rng);
  Y4mBuilder b(&rng);
  b.Header(3, 3, "420", " XA").Frames(3).Frame(" Ip");  // frame: 6 + 9 + 8 (or 9 + 9 + 8)
  const std::size_t header = b.data().find('\n') + 1;
  std::vector<std::size_t> frame_start = {header};
  for (std::size_t pos = header; (pos = b.data().find("FRAME", pos + 1)) != std::string::npos;) {
    frame_start.push_back(pos);
  }
  frame_start.push_back(b.data().size());
  ASSERT_EQ(frame_start.size(), 5u);
  for (std::size_t cut = header; cut <= b.data().size(); ++cut) {
    SCOPED_TRACE(::testing::Message() << "cut at " << cut);
    std::istringstream in(b.data().substr(0, cut));
    auto src = MakeY4mSource(in);
    ASSERT_TRUE(src.ok());
    const Drained d = Drain(**src, 1 + static_cast<std::int64_t>(cut % 3));
    const std::size_t complete =
        std::upper_bound(frame_start.begin(), frame_start.end(), cut) - frame_start.begin() - 1;
    ASSERT_EQ(d.items.size(), complete);
    for (std::size_t i = 0; i < complete; ++i) EXPECT_TRUE(d.items[i] == b.lumas()[i]);
    if (cut == frame_start[complete]) {
      EXPECT_TRUE(d.status.ok()) << d.status;
      EXPECT_TRUE(d.ended);
    } else {
      EXPECT_EQ(d.status.code(), absl::StatusCode::kDataLoss) << d.status;
      EXPECT_THAT(Msg(d.status), HasSubstr(absl::StrCat("frame ", complete, " ")));
    }
  }
}

// ---- corrupt and unsupported streams ----

struct BadHeader {
  std::string text;
  absl::StatusCode code;
  std::vector<std::string> parts;
};

class Y4mBadHeaderTest : public ::testing::TestWithParam<BadHeader> {};

TEST_P(Y4mBadHeaderTest, IsRejectedWithAPreciseMessage) {
  const BadHeader& c = GetParam();
  std::istringstream in(c.text + "FRAME\n" + std::string(1000, 'x'));
  auto src = MakeY4mSource(in, "bad.y4m");
  ASSERT_FALSE(src.ok());
  EXPECT_EQ(src.status().code(), c.code) << src.status();
  EXPECT_THAT(Msg(src.status()), HasSubstr("bad.y4m"));
  for (const std::string& p : c.parts) EXPECT_THAT(Msg(src.status()), HasSubstr(p));
}

const absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;
const absl::StatusCode kUnimpl = absl::StatusCode::kUnimplemented;

INSTANTIATE_TEST_SUITE_P(
    Corrupt, Y4mBadHeaderTest,
    ::testing::Values(
        BadHeader{"YUV4MPEG3 W4 H4\n", kInvalid, {"not a YUV4MPEG2 stream", "'YUV4MPEG3'"}},
        BadHeader{"YUV4MPEG2W4 H4\n", kInvalid, {"not a YUV4MPEG2 stream"}},
        BadHeader{"\x89PNG\r\n", kInvalid, {"not a YUV4MPEG2 stream", "\\x89PNG"}},
        BadHeader{"YUV4MPEG2 H4\n", kInvalid, {"W (width) is missing"}},
        BadHeader{"YUV4MPEG2 W4\n", kInvalid, {"H (height) is missing"}},
        BadHeader{"YUV4MPEG2\n", kInvalid, {"W (width) is missing"}},
        BadHeader{"YUV4MPEG2 W0 H4\n", kInvalid, {"field W", "'W0'", "must be positive"}},
        BadHeader{"YUV4MPEG2 W4 H0\n", kInvalid, {"field H", "'H0'", "must be positive"}},
        BadHeader{"YUV4MPEG2 Wabc H4\n", kInvalid, {"field W", "'Wabc'", "not a number"}},
        BadHeader{"YUV4MPEG2 W4 H4x\n", kInvalid, {"field H", "'H4x'", "not a number"}},
        BadHeader{"YUV4MPEG2 W H4\n", kInvalid, {"field W", "no value"}},
        BadHeader{"YUV4MPEG2 W-5 H4\n", kInvalid, {"field W", "'W-5'", "negative"}},
        BadHeader{"YUV4MPEG2 W+5 H4\n", kInvalid, {"field W", "not a number"}},
        BadHeader{"YUV4MPEG2 W4 H99999999999\n", kInvalid, {"field H", "too large"}},
        BadHeader{"YUV4MPEG2 W65536 H32769\n", kInvalid, {"W65536 x H32769", "2^31"}},
        BadHeader{"YUV4MPEG2 W4 W4 H4\n", kInvalid, {"field W", "repeated"}},
        BadHeader{"YUV4MPEG2 W4 H4 F30\n", kInvalid, {"field F", "'F30'", "<num>:<den>"}},
        BadHeader{"YUV4MPEG2 W4 H4 F30:\n", kInvalid, {"field F", "'F30:'"}},
        BadHeader{"YUV4MPEG2 W4 H4 Fa:b\n", kInvalid, {"field F", "'Fa:b'"}},
        BadHeader{"YUV4MPEG2 W4 H4 F99999999999:1\n", kInvalid, {"field F", "out of range"}},
        BadHeader{"YUV4MPEG2 W4 H4 A1\n", kInvalid, {"field A", "'A1'"}},
        BadHeader{"YUV4MPEG2 W4 H4 Ix\n", kInvalid, {"field I", "'Ix'"}},
        BadHeader{"YUV4MPEG2 W4 H4 Ipp\n", kInvalid, {"field I", "'Ipp'"}},
        BadHeader{"YUV4MPEG2 W4 H4 Cfoo\n", kInvalid, {"field C", "'Cfoo'", "420jpeg"}},
        BadHeader{"YUV4MPEG2 W4 H4 C420 C444\n", kInvalid, {"field C", "repeated"}},
        BadHeader{"YUV4MPEG2 W4 H4 X" + std::string(5000, 'x'), kInvalid, {"4096"}},
        BadHeader{"YUV4MPEG2 W4 H4 C420p10\n", kUnimpl,
                  {"C420p10", "not supported", "420jpeg, 420paldv, 420mpeg2, 420, 422, 444, mono"}},
        BadHeader{"YUV4MPEG2 W4 H4 C444alpha\n", kUnimpl, {"C444alpha", "not supported"}},
        BadHeader{"YUV4MPEG2 W4 H4 C411\n", kUnimpl, {"C411"}},
        BadHeader{"YUV4MPEG2 W4 H4 Cmono16\n", kUnimpl, {"Cmono16"}},
        BadHeader{"YUV4MPEG2 W4 H4 C422p12\n", kUnimpl, {"C422p12"}}));

TEST(Y4mSourceTest, BadFrameMarkerIsInvalidArgumentNamingTheFrame) {
  VIDEO_TEST_RNG(rng);
  Y4mBuilder b(&rng);
  b.Header(7, 5, "420").Frames(1);
  const std::size_t frame1 = b.data().size();
  b.Frames(1);
  std::string data = b.data();
  data[frame1 + 4] = 'X';  // FRAMX
  std::istringstream in(data);
  auto src = MakeY4mSource(in, "x.y4m");
  ASSERT_TRUE(src.ok());
  const Drained d = Drain(**src, 4);
  EXPECT_EQ(d.status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(Msg(d.status), AllOf(HasSubstr("x.y4m"), HasSubstr("frame 1"),
                                   HasSubstr(absl::StrCat("at byte ", frame1)),
                                   HasSubstr("expected FRAME, found 'FRAMX'")));
  ASSERT_EQ(d.items.size(), 1u);
  EXPECT_TRUE(d.items[0] == b.lumas()[0]);
}

TEST(Y4mSourceTest, OtherBadMarkers) {
  const std::string header = "YUV4MPEG2 W2 H2 Cmono\n";
  struct Case {
    std::string tail;
    absl::StatusCode code;
    std::string part;
  };
  for (const Case& c : std::vector<Case>{
           {"FRAMES\nabcd", kInvalid, "found 'FRAMES'"},
           {"frame\nabcd", kInvalid, "found 'frame'"},
           {"\nabcd", kInvalid, "found ''"},
           {"garbage", kInvalid, "found 'garbage'"},  // at the end, not a prefix of FRAME
           {"FRAME " + std::string(5000, 'p'), kInvalid, "no '\\n' in 4096"},
           {"YUV4MPEG2 W2", absl::StatusCode::kDataLoss, "segment 2"},
       }) {
    std::istringstream in(header + "FRAME\nabcd" + c.tail);
    auto src = MakeY4mSource(in);
    ASSERT_TRUE(src.ok());
    const Drained d = Drain(**src, 4);
    EXPECT_EQ(d.status.code(), c.code) << c.tail.substr(0, 20) << ": " << d.status;
    EXPECT_THAT(Msg(d.status), HasSubstr(c.part));
    EXPECT_THAT(Msg(d.status), HasSubstr("frame 1"));
    EXPECT_EQ(d.items.size(), 1u);
  }
}

TEST(Y4mSourceTest, StreamErrorsBecomeInternal) {
  VIDEO_TEST_RNG(rng);
  Y4mBuilder b(&rng);
  // A std::istream swallows what a throwing read had read, so the failure is placed in the
  // last of three 1 MiB frames: whole frames come before it.
  b.Header(1024, 1024, "mono").Frames(3);
  FailingBuf buf(b.data(), b.data().size() - 50);
  std::istream in(&buf);
  auto src = MakeY4mSource(in, "flaky");
  ASSERT_TRUE(src.ok()) << src.status();
  const Drained d = Drain(**src, 1);
  EXPECT_EQ(d.status.code(), absl::StatusCode::kInternal) << d.status;
  EXPECT_THAT(Msg(d.status), HasSubstr("flaky"));
  ASSERT_GE(d.items.size(), 1u);
  ASSERT_LE(d.items.size(), 2u);
  for (std::size_t i = 0; i < d.items.size(); ++i) EXPECT_TRUE(d.items[i] == b.lumas()[i]);
}

// ---- concatenated streams ----

TEST(Y4mSourceTest, ConcatenatedSameFormatIsTransparent) {
  VIDEO_TEST_RNG(rng);
  Y4mBuilder b(&rng);
  b.Header(33, 17, "420jpeg", " F25:1").Frames(3);
  b.Header(33, 17, "420mpeg2", " F30:1 XOTHER").Frames(2);  // same FrameFormat
  b.Header(33, 17, "").Frames(0);                             // an empty segment
  b.Header(33, 17, "420").Frames(2);
  for (std::int64_t batch : {1, 2, 100}) {
    std::istringstream in(b.data());
    auto src = MakeY4mSource(in);
    ASSERT_TRUE(src.ok());
    const Drained d = Drain(**src, batch);
    ASSERT_TRUE(d.status.ok()) << d.status;
    EXPECT_TRUE(d.changes.empty());
    ExpectLumas(d, b);
  }
}

TEST(Y4mSourceTest, ConcatenatedDifferentFormatReportsTheChange) {
  VIDEO_TEST_RNG(rng);
  Y4mBuilder b(&rng);
  b.Header(33, 17, "420").Frames(3);
  b.Header(175, 143, "422", " It").Frames(2);
  b.Header(175, 143, "444").Frames(2);  // same size, other layout: still a new FrameFormat
  b.Header(1, 1, "mono").Frames(1);
  const std::vector<FrameFormat> want = {
      {33, 17, PixelFormat::kYuv420},   {33, 17, PixelFormat::kYuv420},
      {33, 17, PixelFormat::kYuv420},   {175, 143, PixelFormat::kYuv422},
      {175, 143, PixelFormat::kYuv422}, {175, 143, PixelFormat::kYuv444},
      {175, 143, PixelFormat::kYuv444}, {1, 1, PixelFormat::kMono}};
  for (std::int64_t batch : {1, 2, 3, 100}) {
    SCOPED_TRACE(::testing::Message() << "batch " << batch);
    std::istringstream in(b.data());
    auto src = MakeY4mSource(in);
    ASSERT_TRUE(src.ok());
    const Drained d = Drain(**src, batch);
    ASSERT_TRUE(d.status.ok()) << d.status;
    ExpectLumas(d, b);
    EXPECT_EQ(d.formats, want);
    EXPECT_EQ(d.changes, (std::vector<std::int64_t>{3, 5, 7}));
    EXPECT_EQ((*src)->format(), (FrameFormat{1, 1, PixelFormat::kMono}));
  }
}

TEST(Y4mSourceTest, ConcatenatedHeaderErrorsNameTheSegment) {
  VIDEO_TEST_RNG(rng);
  Y4mBuilder b(&rng);
  b.Header(4, 4, "420").Frames(2);
  const std::size_t second = b.data().size();
  for (const auto& [header, code, part] :
       std::vector<std::tuple<std::string, absl::StatusCode, std::string>>{
           {"YUV4MPEG2 W4 Habc\n", kInvalid, "field H"},
           {"YUV4MPEG2 W4 H4 C420p10\n", kUnimpl, "C420p10"}}) {
    std::istringstream in(b.data() + header + "FRAME\n");
    auto src = MakeY4mSource(in);
    ASSERT_TRUE(src.ok());
    const Drained d = Drain(**src, 10);
    EXPECT_EQ(d.status.code(), code) << d.status;
    EXPECT_THAT(Msg(d.status), AllOf(HasSubstr("segment 2"),
                                     HasSubstr(absl::StrCat("at byte ", second)),
                                     HasSubstr("before frame 2"), HasSubstr(part)));
    EXPECT_EQ(d.items.size(), 2u);
  }
}

}  // namespace
}  // namespace streampipe::video
