#include "streampipe/video/histogram_writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "video_test_util.hpp"

namespace streampipe::video {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

std::string Msg(const absl::Status& s) { return std::string(s.message()); }

class HistogramWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("hist_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  static std::string Slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  static void Spit(const std::string& path, const std::string& data) {
    std::ofstream out(path, std::ios::binary);
    out << data;
  }

  std::filesystem::path dir_;
};

Histogram Sample() {
  Histogram h{};
  h[0] = 2;
  h[7] = 3;
  h[255] = 1;
  return h;
}

TEST_F(HistogramWriterTest, ExactCsvText) {
  auto w = OpenHistogramWriter(Path("a.csv"), HistogramFormat::kCsv);
  ASSERT_TRUE(w.ok()) << w.status();
  ASSERT_TRUE((*w)->Write(5, Sample()).ok());
  Histogram big{};
  big[1] = 4294967295u;
  ASSERT_TRUE((*w)->Write(9223372036854775807, big).ok());
  ASSERT_TRUE((*w)->Close().ok());
  std::string want = "5,2";
  for (int i = 1; i <= 6; ++i) want += ",0";
  want += ",3";
  for (int i = 8; i <= 254; ++i) want += ",0";
  want += ",1\n";
  want += "9223372036854775807,0,4294967295";
  for (int i = 2; i <= 255; ++i) want += ",0";
  want += "\n";
  EXPECT_EQ(Slurp(Path("a.csv")), want);
}

TEST_F(HistogramWriterTest, ExactBinaryBytes) {
  auto w = OpenHistogramWriter(Path("a.bin"), HistogramFormat::kBinary);
  ASSERT_TRUE(w.ok());
  Histogram h = Sample();
  h[1] = 0x04030201;
  ASSERT_TRUE((*w)->Write(0x0102030405, h).ok());
  ASSERT_TRUE((*w)->Close().ok());
  const std::string got = Slurp(Path("a.bin"));
  ASSERT_EQ(got.size(), 16u + 1032u);
  EXPECT_EQ(got.substr(0, 16), std::string("SPHIST01\x01\0\0\0\0\x01\0\0", 16));
  EXPECT_EQ(got.substr(16, 8), std::string("\x05\x04\x03\x02\x01\0\0\0", 8));
  EXPECT_EQ(got.substr(24, 4), std::string("\x02\0\0\0", 4));             // bin 0
  EXPECT_EQ(got.substr(28, 4), std::string("\x01\x02\x03\x04", 4));       // bin 1
  EXPECT_EQ(got.substr(24 + 7 * 4, 4), std::string("\x03\0\0\0", 4));     // bin 7
  EXPECT_EQ(got.substr(24 + 255 * 4, 4), std::string("\x01\0\0\0", 4));   // bin 255
  EXPECT_EQ(got.substr(24 + 8 * 4, 4), std::string("\0\0\0\0", 4));
}

TEST_F(HistogramWriterTest, EmptyFiles) {
  for (HistogramFormat f : {HistogramFormat::kCsv, HistogramFormat::kBinary}) {
    const std::string path = Path(std::string("e.") + HistogramFormatName(f));
    auto w = OpenHistogramWriter(path, f);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->Close().ok());
    EXPECT_EQ(std::filesystem::file_size(path), f == HistogramFormat::kCsv ? 0u : 16u);
    auto back = ReadHistogramFile(path, f);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_TRUE(back->empty());
  }
}

TEST_F(HistogramWriterTest, RandomRoundTripBothFormats) {
  VIDEO_TEST_RNG(rng);
  std::uniform_int_distribution<std::uint32_t> count(0, std::numeric_limits<std::uint32_t>::max());
  std::uniform_int_distribution<std::int64_t> index(0, std::numeric_limits<std::int64_t>::max());
  std::vector<std::pair<std::int64_t, Histogram>> want(2500);  // > 1 MiB in both formats
  for (auto& [i, h] : want) {
    i = index(rng) >> (rng() % 64);
    for (auto& c : h) c = rng() % 4 == 0 ? count(rng) : (rng() % 3 == 0 ? 0 : count(rng) % 1000);
  }
  for (HistogramFormat f : {HistogramFormat::kCsv, HistogramFormat::kBinary}) {
    SCOPED_TRACE(HistogramFormatName(f));
    const std::string path = Path("r");
    auto w = OpenHistogramWriter(path, f);
    ASSERT_TRUE(w.ok());
    for (const auto& [i, h] : want) ASSERT_TRUE((*w)->Write(i, h).ok());
    EXPECT_EQ((*w)->frames_written(), 2500);
    ASSERT_TRUE((*w)->Close().ok());
    EXPECT_TRUE((*w)->Close().ok());  // idempotent
    auto back = ReadHistogramFile(path, f);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_TRUE(*back == want);
  }
}

TEST_F(HistogramWriterTest, DestructorFlushes) {
  {
    auto w = OpenHistogramWriter(Path("d.csv"), HistogramFormat::kCsv);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->Write(1, Sample()).ok());
  }
  auto back = ReadHistogramFile(Path("d.csv"), HistogramFormat::kCsv);
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_EQ(back->size(), 1u);
  EXPECT_EQ((*back)[0].second, Sample());
}

TEST_F(HistogramWriterTest, WritesToStdout) {
  const std::string path = Path("stdout.bin");
  std::fflush(stdout);
  const int saved = ::dup(STDOUT_FILENO);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(fd, 0);
  ::dup2(fd, STDOUT_FILENO);
  ::close(fd);
  absl::Status s;
  {
    auto w = OpenHistogramWriter("-", HistogramFormat::kBinary);
    s = w.ok() ? (*w)->Write(3, Sample()) : w.status();
    if (s.ok()) s = (*w)->Close();
    if (w.ok()) {
      EXPECT_EQ((*w)->path(), "stdout");
    }
  }
  ::dup2(saved, STDOUT_FILENO);
  ::close(saved);
  ASSERT_TRUE(s.ok()) << s;
  auto back = ReadHistogramFile(path, HistogramFormat::kBinary);
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_EQ(back->size(), 1u);
  EXPECT_EQ((*back)[0].first, 3);
}

TEST_F(HistogramWriterTest, DiskFullIsReportedNamingThePath) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  // Buffered: the error shows up at Close.
  auto w = OpenHistogramWriter("/dev/full", HistogramFormat::kCsv);
  ASSERT_TRUE(w.ok()) << w.status();
  ASSERT_TRUE((*w)->Write(0, Sample()).ok());
  absl::Status s = (*w)->Close();
  EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(Msg(s), AllOf(HasSubstr("/dev/full"), HasSubstr("No space left")));
  EXPECT_EQ((*w)->Close(), s);
  EXPECT_EQ((*w)->Write(1, Sample()).code(), absl::StatusCode::kFailedPrecondition);
  // More than a buffer: the error shows up at Write and sticks.
  w = OpenHistogramWriter("/dev/full", HistogramFormat::kBinary);
  ASSERT_TRUE(w.ok());
  absl::Status first;
  for (int i = 0; i < 2000 && first.ok(); ++i) first = (*w)->Write(i, Sample());
  EXPECT_EQ(first.code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ((*w)->Write(5000, Sample()), first);
  EXPECT_EQ((*w)->Close(), first);
}

TEST_F(HistogramWriterTest, OpenAndWriteErrors) {
  auto w = OpenHistogramWriter(Path("no/such/dir/x.csv"), HistogramFormat::kCsv);
  EXPECT_EQ(w.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(Msg(w.status()), HasSubstr("no/such/dir/x.csv"));
  w = OpenHistogramWriter(dir_.string(), HistogramFormat::kCsv);
  EXPECT_EQ(w.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(Msg(w.status()), HasSubstr(dir_.string()));

  w = OpenHistogramWriter(Path("n.csv"), HistogramFormat::kCsv);
  ASSERT_TRUE(w.ok());
  absl::Status s = (*w)->Write(-1, Sample());
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(Msg(s), HasSubstr("-1"));
  EXPECT_TRUE((*w)->Write(0, Sample()).ok());  // still usable
  EXPECT_TRUE((*w)->Close().ok());
}

TEST_F(HistogramWriterTest, ParseHistogramFormat) {
  EXPECT_EQ(*ParseHistogramFormat("csv"), HistogramFormat::kCsv);
  EXPECT_EQ(*ParseHistogramFormat("binary"), HistogramFormat::kBinary);
  for (const char* bad : {"", "CSV", "bin", "json"}) {
    auto f = ParseHistogramFormat(bad);
    EXPECT_EQ(f.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(Msg(f.status()), HasSubstr(std::string("'") + bad + "'"));
  }
}

std::string CsvLine(const std::string& index, int zero_fields = 256) {
  std::string s = index;
  for (int i = 0; i < zero_fields; ++i) s += ",0";
  return s + "\n";
}

TEST_F(HistogramWriterTest, ReadRejectsMalformedCsv) {
  struct Case {
    std::string text;
    absl::StatusCode code;
    std::vector<std::string> parts;
  };
  const std::string good = CsvLine("0");
  const auto kInvalid = absl::StatusCode::kInvalidArgument;
  for (const Case& c : std::vector<Case>{
           {good + CsvLine("1", 255), kInvalid, {"line 2", "256 fields, expected 257"}},
           {good + CsvLine("1", 257), kInvalid, {"line 2", "more than 257"}},
           {CsvLine("abc"), kInvalid, {"line 1, field 0", "'abc'", "frame index"}},
           {CsvLine("-1"), kInvalid, {"line 1, field 0", "'-1'"}},
           {CsvLine("9223372036854775808"), kInvalid, {"field 0"}},
           {"0,4294967296" + CsvLine("", 255), kInvalid, {"line 1, field 1", "'4294967296'", "count"}},
           {"0,,1" + CsvLine("", 254), kInvalid, {"field 1", "''"}},
           {"0, 1" + CsvLine("", 255), kInvalid, {"field 1", "' 1'"}},
           {"0,+1" + CsvLine("", 255), kInvalid, {"field 1", "'+1'"}},
           {good + "\n", kInvalid, {"line 2", "field 0", "''"}},
           {good + good.substr(0, good.size() - 1), absl::StatusCode::kDataLoss,
            {"line 2", "no final"}},
       }) {
    const std::string path = Path("bad.csv");
    Spit(path, c.text);
    auto back = ReadHistogramFile(path, HistogramFormat::kCsv);
    EXPECT_EQ(back.status().code(), c.code) << back.status();
    EXPECT_THAT(Msg(back.status()), HasSubstr(path));
    for (const std::string& p : c.parts) EXPECT_THAT(Msg(back.status()), HasSubstr(p));
  }
}

TEST_F(HistogramWriterTest, ReadRejectsMalformedBinary) {
  const std::string header("SPHIST01\x01\0\0\0\0\x01\0\0", 16);
  const std::string record(1032, '\0');
  std::string huge_index = record;
  huge_index[7] = '\x80';
  struct Case {
    std::string data;
    absl::StatusCode code;
    std::vector<std::string> parts;
  };
  const auto kInvalid = absl::StatusCode::kInvalidArgument;
  for (const Case& c : std::vector<Case>{
           {"", kInvalid, {"0 bytes", "16-byte header"}},
           {header.substr(0, 15), kInvalid, {"15 bytes"}},
           {"SPHIST02" + header.substr(8), kInvalid, {"magic", "'SPHIST02'"}},
           {header.substr(0, 8) + std::string("\x02\0\0\0", 4) + header.substr(12), kInvalid,
            {"version", "is 2"}},
           {header.substr(0, 12) + std::string("\x80\0\0\0", 4), kInvalid, {"bins", "is 128"}},
           {header + record + record.substr(0, 100), absl::StatusCode::kDataLoss,
            {"100 trailing bytes", "after frame record 1"}},
           {header + record + huge_index, kInvalid, {"record 1", "byte 1048", "2^63"}},
       }) {
    const std::string path = Path("bad.bin");
    Spit(path, c.data);
    auto back = ReadHistogramFile(path, HistogramFormat::kBinary);
    EXPECT_EQ(back.status().code(), c.code) << back.status();
    EXPECT_THAT(Msg(back.status()), HasSubstr(path));
    for (const std::string& p : c.parts) EXPECT_THAT(Msg(back.status()), HasSubstr(p));
  }
  auto missing = ReadHistogramFile(Path("missing.bin"), HistogramFormat::kBinary);
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace streampipe::video
