// The sweep's CPU half: CSV round trip and errors, the list syntax of the flags, and the
// summary statistics on hand-computed sweeps.
#include "streampipe/core/sweep.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"

namespace streampipe {
namespace {

using ::testing::ContainsRegex;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

std::size_t ModelIndex(ModelKind kind) {
  for (std::size_t i = 0; i < kSweepModelCount; ++i) {
    if (kAllModelKinds[i] == kind) return i;
  }
  ADD_FAILURE() << "model not in kAllModelKinds";
  return 0;
}

const std::size_t kCurrent = ModelIndex(ModelKind::kCurrent);
const std::size_t k2ce = ModelIndex(ModelKind::kWerkhoven2ce);
const std::size_t kCc1 = ModelIndex(ModelKind::kGomezLunaCc1);

std::string Message(const absl::Status& s) { return std::string(s.message()); }

// Equal as bits, so that NaN == NaN and -0 != 0.
bool Same(double a, double b) {
  if (std::isnan(a) && std::isnan(b)) return true;
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

SweepPoint Point(double intensity, int n, double median_ms) {
  SweepPoint p;
  p.workload = "add-scalar";
  p.grid = "symmetric";
  p.in_bytes = 1 << 20;
  p.out_bytes = 1 << 20;
  p.intensity = intensity;
  p.order = "depth-first";
  p.streams = n;
  p.median_ms = median_ms;
  p.p10_ms = median_ms * 0.9;
  p.p90_ms = median_ms * 1.1;
  p.repetitions = 20;
  return p;
}

// ---------------------------------------------------------------------------------------------
// CSV

TEST(SweepCsvTest, ColumnsFollowTheModelList) {
  const std::vector<std::string> c = SweepCsvColumns();
  ASSERT_EQ(c.size(), 14 + kSweepModelCount + 1 + kSweepModelCount + 13);
  EXPECT_THAT(
      std::vector<std::string>(c.begin(), c.begin() + 14),
      ElementsAre("workload", "grid", "in_bytes", "out_bytes", "intensity", "order", "streams",
                  "median_ms", "p10_ms", "p90_ms", "repetitions", "h2d_ms", "kernel_ms", "d2h_ms"));
  EXPECT_EQ(c[14], "pred_gomez-luna-cc1");
  EXPECT_EQ(c[14 + k2ce], "pred_werkhoven-2ce");
  EXPECT_EQ(c[14 + kCurrent], "pred_current");
  EXPECT_EQ(c[14 + kSweepModelCount], "pred_calibrated");
  EXPECT_EQ(c[15 + kSweepModelCount], "chosen_gomez-luna-cc1");
  EXPECT_EQ(c[15 + kSweepModelCount + ModelIndex(ModelKind::kVenevaRegression)],
            "chosen_veneva-regression");
  EXPECT_EQ(c[c.size() - 13], "chosen_adaptive");
  EXPECT_EQ(c[c.size() - 12], "issue_ms");
  EXPECT_EQ(c[c.size() - 11], "issue");
  EXPECT_EQ(c[c.size() - 10], "halves_ratio");
  EXPECT_EQ(c[c.size() - 9], "held_ms");
  EXPECT_EQ(c[c.size() - 8], "pred_calibrated_device");
  EXPECT_EQ(c[c.size() - 7], "pred_current_device");
  EXPECT_EQ(c[c.size() - 6], "adaptive_runs");
  EXPECT_EQ(c[c.size() - 5], "adaptive_deviation");
  EXPECT_EQ(c[c.size() - 4], "kernel_half_ms");
  EXPECT_EQ(c[c.size() - 3], "adaptive_batches");
  EXPECT_EQ(c[c.size() - 2], "adaptive_calibrated");
  EXPECT_EQ(c.back(), "settings");
  const std::string header = SweepCsvHeader();
  EXPECT_EQ(header.substr(0, 34), "workload,grid,in_bytes,out_bytes,i");
  EXPECT_EQ(header.back(), '\n');
  EXPECT_EQ(std::count(header.begin(), header.end(), ','),
            static_cast<std::ptrdiff_t>(c.size() - 1));
}

TEST(SweepCsvTest, DefaultPointHasOneEntryPerModel) {
  SweepPoint p;
  EXPECT_EQ(p.predicted_ms.size(), kSweepModelCount);
  EXPECT_EQ(p.chosen.size(), kSweepModelCount);
  EXPECT_TRUE(std::isnan(p.predicted_ms[0]));
  EXPECT_TRUE(std::isnan(p.calibrated_ms));
  EXPECT_EQ(p.chosen[0], 0);
}

TEST(SweepCsvTest, RowIsExact) {
  SweepPoint p = Point(10, 4, 1.25);
  p.out_bytes = 2097152;
  p.p10_ms = 1.125;
  p.p90_ms = 1.5;
  p.repetitions = 50;
  p.h2d_ms = 0.5;
  p.kernel_ms = 0.25;
  p.d2h_ms = 0.75;
  p.predicted_ms[kCc1] = 1.1;
  p.predicted_ms[k2ce] = 0.1 + 0.2;  // 0.30000000000000004: needs 17 digits
  p.predicted_ms[kCurrent] = 1e-7;
  p.chosen[k2ce] = 8;
  p.chosen[kCurrent] = 16;
  p.adaptive_n = 8;
  p.issue_ms = 0.0625;
  p.issue = "graph";
  p.halves_ratio = 1.03125;
  p.held_ms = 1.0625;
  p.calibrated_device_ms = 1.09375;
  p.current_device_ms = 1.125;
  p.adaptive_runs = 2;
  p.adaptive_deviation = 0.0625;
  p.kernel_half_ms = 0.1875;
  p.adaptive_batches = 412;
  p.adaptive_calibrated = 1;
  p.settings = "held=2 profile=fnv1a64:00000000000000ff";
  std::vector<std::string> pred(kSweepModelCount, "");
  pred[kCc1] = "1.1";
  pred[k2ce] = "0.30000000000000004";
  pred[kCurrent] = "1e-07";
  std::vector<std::string> chosen(kSweepModelCount, "0");
  chosen[k2ce] = "8";
  chosen[kCurrent] = "16";
  std::string expected =
      "add-scalar,symmetric,1048576,2097152,10,depth-first,4,1.25,1.125,1.5,50,"
      "0.5,0.25,0.75,";
  for (const std::string& s : pred) expected += s + ",";
  expected += ",";  // calibrated: NaN
  for (const std::string& s : chosen) expected += s + ",";
  expected +=
      "8,0.0625,graph,1.03125,1.0625,1.09375,1.125,2,0.0625,0.1875,412,1,"
      "held=2 profile=fnv1a64:00000000000000ff\n";
  EXPECT_EQ(SweepCsvRow(p), expected);
}

TEST(SweepCsvTest, ShortVectorsAreWrittenAsNotComputed) {
  SweepPoint p = Point(10, 4, 1.25);
  p.predicted_ms = {2.5};
  p.chosen = {3};
  absl::StatusOr<std::vector<SweepPoint>> back = ParseSweepCsv(SweepCsvHeader() + SweepCsvRow(p));
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_EQ(back->size(), 1u);
  EXPECT_EQ((*back)[0].predicted_ms[0], 2.5);
  EXPECT_TRUE(std::isnan((*back)[0].predicted_ms[1]));
  EXPECT_EQ((*back)[0].chosen[0], 3);
  EXPECT_EQ((*back)[0].chosen[1], 0);
}

TEST(SweepCsvTest, RoundTripIsExact) {
  std::vector<SweepPoint> points;
  const double awkward[] = {0.1,
                            1.0 / 3,
                            2.0 / 3 * 1e-5,
                            123456789.123456789,
                            5e-324,
                            1.7976931348623157e308,
                            -0.0,
                            kInf,
                            -kInf,
                            kNaN};
  // The columns checked for range (sizes and times >= 0, since session 49) take these; the
  // sizes of a configuration (in_bytes, out_bytes) are never NaN. (They read -0 as 0, since
  // session 50: BadFieldsNameLineColumnAndValue.)
  const double sized[] = {0.1, 1.0 / 3, 2.0 / 3 * 1e-5, 123456789.123456789, 5e-324,
                          1.7976931348623157e308, 0.0, kNaN};
  for (int i = 0; i < 10; ++i) {
    SweepPoint p = Point(sized[i % 7], 1 << i, 1.0 / (i + 3));
    p.workload = i % 2 ? "matmul" : "histogram";
    p.grid = "quick";
    p.order = i % 3 == 0 ? "breadth-first" : "engine-per-stream";
    p.in_bytes = 3.0 * (1LL << 40) + i;  // beyond float precision
    p.out_bytes = sized[(i + 1) % 7];
    p.p10_ms = sized[(i + 2) % 8];
    p.p90_ms = sized[(i + 3) % 8];
    p.repetitions = 1000 + i;
    p.h2d_ms = sized[(i + 4) % 8];
    p.kernel_ms = sized[(i + 5) % 8];
    p.d2h_ms = sized[(i + 6) % 8];
    for (std::size_t m = 0; m < kSweepModelCount; ++m) {
      p.predicted_ms[m] = awkward[(i + m) % 10];
      p.chosen[m] = static_cast<int>(m * 7 + i);
    }
    p.calibrated_ms = awkward[(i + 7) % 10];
    p.adaptive_n = 2 * i;
    p.issue_ms = sized[(i + 8) % 8];
    p.issue = i % 2 ? "graph" : "streams";
    p.halves_ratio = sized[(i + 9) % 8];
    p.held_ms = sized[(i + 3) % 8];
    p.calibrated_device_ms = awkward[(i + 6) % 10];
    p.current_device_ms = awkward[(i + 2) % 10];
    p.adaptive_runs = i % 4;
    p.adaptive_deviation = awkward[(i + 5) % 10];
    p.adaptive_batches = 150 + 37 * i;
    p.adaptive_calibrated = i % 3 - 1;
    p.settings = i % 3 == 0 ? "" : absl::StrCat("held=", i, " probe-ratio=3");
    points.push_back(p);
  }
  std::string csv = SweepCsvHeader();
  for (const SweepPoint& p : points) csv += SweepCsvRow(p);
  absl::StatusOr<std::vector<SweepPoint>> back = ParseSweepCsv(csv);
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_EQ(back->size(), points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    SCOPED_TRACE(i);
    const SweepPoint& a = points[i];
    const SweepPoint& b = (*back)[i];
    EXPECT_EQ(a.workload, b.workload);
    EXPECT_EQ(a.grid, b.grid);
    EXPECT_EQ(a.order, b.order);
    EXPECT_EQ(a.issue, b.issue);
    EXPECT_EQ(a.streams, b.streams);
    EXPECT_EQ(a.repetitions, b.repetitions);
    EXPECT_EQ(a.adaptive_n, b.adaptive_n);
    EXPECT_EQ(a.adaptive_runs, b.adaptive_runs);
    EXPECT_EQ(a.adaptive_batches, b.adaptive_batches);
    EXPECT_EQ(a.adaptive_calibrated, b.adaptive_calibrated);
    EXPECT_EQ(a.settings, b.settings);
    EXPECT_EQ(a.chosen, b.chosen);
    for (auto [x, y] : {std::pair{a.in_bytes, b.in_bytes},
                        {a.out_bytes, b.out_bytes},
                        {a.intensity, b.intensity},
                        {a.median_ms, b.median_ms},
                        {a.p10_ms, b.p10_ms},
                        {a.p90_ms, b.p90_ms},
                        {a.h2d_ms, b.h2d_ms},
                        {a.kernel_ms, b.kernel_ms},
                        {a.d2h_ms, b.d2h_ms},
                        {a.calibrated_ms, b.calibrated_ms},
                        {a.issue_ms, b.issue_ms},
                        {a.halves_ratio, b.halves_ratio},
                        {a.held_ms, b.held_ms},
                        {a.calibrated_device_ms, b.calibrated_device_ms},
                        {a.current_device_ms, b.current_device_ms},
                        {a.adaptive_deviation, b.adaptive_deviation}}) {
      EXPECT_TRUE(Same(x, y)) << x << " came back as " << y;
    }
    ASSERT_EQ(b.predicted_ms.size(), kSweepModelCount);
    for (std::size_t m = 0; m < kSweepModelCount; ++m) {
      EXPECT_TRUE(Same(a.predicted_ms[m], b.predicted_ms[m]))
          << m << ": " << a.predicted_ms[m] << " came back as " << b.predicted_ms[m];
    }
  }
  // And the text itself round-trips.
  std::string again = SweepCsvHeader();
  for (const SweepPoint& p : *back) again += SweepCsvRow(p);
  EXPECT_EQ(again, csv);
}

TEST(SweepCsvTest, AcceptsCrlfBlankLinesAndNoFinalNewline) {
  std::string row = SweepCsvRow(Point(10, 2, 3.5));
  row.pop_back();  // the "\n"
  std::string header = SweepCsvHeader();
  header.pop_back();
  const std::string csv = "\r\n" + header + "\r\n\r\n" + row + "\r\n  \n" + row;
  absl::StatusOr<std::vector<SweepPoint>> back = ParseSweepCsv(csv);
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_EQ(back->size(), 2u);
  EXPECT_EQ((*back)[1].median_ms, 3.5);
  EXPECT_EQ((*back)[1].streams, 2);
  EXPECT_EQ((*back)[1].order, "depth-first");
}

TEST(SweepCsvTest, HeaderOnlyIsAnEmptySweep) {
  absl::StatusOr<std::vector<SweepPoint>> back = ParseSweepCsv(SweepCsvHeader());
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(back->empty());
}

TEST(SweepCsvTest, EmptyTextIsAnError) {
  for (const char* text : {"", "\n\n", "  \r\n"}) {
    absl::StatusOr<std::vector<SweepPoint>> r = ParseSweepCsv(text);
    ASSERT_FALSE(r.ok()) << "'" << text << "'";
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(Message(r.status()), HasSubstr("no header"));
  }
}

TEST(SweepCsvTest, HeaderMismatchNamesExpectedAndFound) {
  std::string header = SweepCsvHeader();
  header.replace(header.find("in_bytes"), 8, "inbytes");
  absl::StatusOr<std::vector<SweepPoint>> r = ParseSweepCsv(header);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(Message(r.status()), HasSubstr("column 3"));
  EXPECT_THAT(Message(r.status()), HasSubstr("expected 'in_bytes', found 'inbytes'"));

  // A renamed model column.
  header = SweepCsvHeader();
  header.replace(header.find("pred_werkhoven-2ce"), 18, "pred_werkhoven_2ce");
  r = ParseSweepCsv(header);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(Message(r.status()),
              HasSubstr("expected 'pred_werkhoven-2ce', found 'pred_werkhoven_2ce'"));
}

TEST(SweepCsvTest, FilesWrittenBeforeTheOptionalColumnsStillParse) {
  // docs/evidence holds sweeps from before issue_ms, issue, halves_ratio, held_ms,
  // pred_calibrated_device, pred_current_device, adaptive_runs, adaptive_deviation and
  // kernel_half_ms, adaptive_batches and adaptive_calibrated, and settings existed: without the
  // last one, three, four, six, nine, ten, eleven or twelve columns they parse, with NaN,
  // "streams", NaN, 0, -1 and "" there; a row as long as the new header is then an error.
  SweepPoint p = Point(10, 4, 2.5);
  p.issue_ms = 0.125;
  p.issue = "graph";
  p.halves_ratio = 0.96875;
  p.held_ms = 2.25;
  p.calibrated_device_ms = 2.375;
  p.current_device_ms = 2.5;
  p.adaptive_runs = 3;
  p.adaptive_deviation = 0.25;
  p.kernel_half_ms = 0.375;
  p.adaptive_batches = 420;
  p.adaptive_calibrated = 0;
  p.settings = "held=2";
  auto drop_last = [](std::string line) {
    line.pop_back();  // '\n'
    return line.substr(0, line.rfind(',')) + "\n";
  };
  const std::string header_s = drop_last(SweepCsvHeader());  // runs 159-207
  const std::string row_s = drop_last(SweepCsvRow(p));
  const std::string header_c = drop_last(drop_last(header_s));  // runs 140-158
  const std::string row_c = drop_last(drop_last(row_s));
  const std::string header_k = drop_last(header_c);  // runs 89-139
  const std::string row_k = drop_last(row_c);
  const std::string header_d = drop_last(drop_last(header_k));  // runs 76-88
  const std::string row_d = drop_last(drop_last(row_k));
  const std::string header_r = drop_last(drop_last(drop_last(header_d)));  // runs 69-74
  const std::string header0 = drop_last(header_r);  // without halves_ratio
  const std::string header1 = drop_last(header0);   // without issue
  const std::string header2 = drop_last(header1);   // without issue_ms
  const std::string row_r = drop_last(drop_last(drop_last(row_d)));
  const std::string row0 = drop_last(row_r);
  absl::StatusOr<std::vector<SweepPoint>> r =
      ParseSweepCsv(header2 + drop_last(drop_last(row0)));
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ((*r)[0].streams, 4);
  EXPECT_EQ((*r)[0].adaptive_n, p.adaptive_n);
  EXPECT_TRUE(std::isnan((*r)[0].issue_ms));
  EXPECT_EQ((*r)[0].issue, "streams");
  EXPECT_TRUE(std::isnan((*r)[0].halves_ratio));
  EXPECT_TRUE(std::isnan((*r)[0].held_ms));
  r = ParseSweepCsv(header1 + drop_last(row0));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].issue_ms, 0.125);
  EXPECT_EQ((*r)[0].issue, "streams");
  EXPECT_TRUE(std::isnan((*r)[0].halves_ratio));
  r = ParseSweepCsv(header0 + row0);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].issue, "graph");
  EXPECT_TRUE(std::isnan((*r)[0].halves_ratio));
  // Run 75's sweeps: held_ms and pred_calibrated_device, no pred_current_device.
  r = ParseSweepCsv(drop_last(header_d) + drop_last(row_d));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].held_ms, 2.25);
  EXPECT_EQ((*r)[0].calibrated_device_ms, 2.375);
  EXPECT_TRUE(std::isnan((*r)[0].current_device_ms));
  r = ParseSweepCsv(header_r + row_r);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].halves_ratio, 0.96875);
  EXPECT_TRUE(std::isnan((*r)[0].held_ms));
  EXPECT_TRUE(std::isnan((*r)[0].calibrated_device_ms));
  r = ParseSweepCsv(SweepCsvHeader() + SweepCsvRow(p));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].issue_ms, 0.125);
  EXPECT_EQ((*r)[0].issue, "graph");
  EXPECT_EQ((*r)[0].halves_ratio, 0.96875);
  EXPECT_EQ((*r)[0].held_ms, 2.25);
  EXPECT_EQ((*r)[0].calibrated_device_ms, 2.375);
  EXPECT_EQ((*r)[0].current_device_ms, 2.5);
  EXPECT_EQ((*r)[0].adaptive_runs, 3);
  EXPECT_EQ((*r)[0].adaptive_deviation, 0.25);
  EXPECT_EQ((*r)[0].kernel_half_ms, 0.375);
  EXPECT_EQ((*r)[0].adaptive_batches, 420);
  EXPECT_EQ((*r)[0].adaptive_calibrated, 0);
  EXPECT_EQ((*r)[0].settings, "held=2");
  // Runs 159-207: everything but the settings.
  r = ParseSweepCsv(header_s + row_s);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].adaptive_calibrated, 0);
  EXPECT_EQ((*r)[0].settings, "");
  // Runs 140-158: everything but the adaptive run's batches and calibration.
  r = ParseSweepCsv(header_c + row_c);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].kernel_half_ms, 0.375);
  EXPECT_EQ((*r)[0].adaptive_batches, 0);
  EXPECT_EQ((*r)[0].adaptive_calibrated, -1);
  // Runs 89-139: everything but the kernel's half.
  r = ParseSweepCsv(header_k + row_k);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].adaptive_deviation, 0.25);
  EXPECT_TRUE(std::isnan((*r)[0].kernel_half_ms));
  // Runs 76-88: everything but the adaptive runs.
  r = ParseSweepCsv(header_d + row_d);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].current_device_ms, 2.5);
  EXPECT_EQ((*r)[0].adaptive_runs, 0);
  EXPECT_TRUE(std::isnan((*r)[0].adaptive_deviation));
  for (const std::string& old :
       {header_s, header_c, header_k, header_d, header_r, header0, header1, header2}) {
    r = ParseSweepCsv(old + SweepCsvRow(p));
    ASSERT_FALSE(r.ok());
    EXPECT_THAT(Message(r.status()), HasSubstr("expected"));
  }
}

TEST(SweepCsvTest, HeaderWithMissingOrExtraColumnsIsAnError) {
  std::string header = SweepCsvHeader();
  header = header.substr(0, header.rfind(','));  // drop settings
  header = header.substr(0, header.rfind(','));  // adaptive_calibrated
  header = header.substr(0, header.rfind(','));  // adaptive_batches
  header = header.substr(0, header.rfind(','));  // kernel_half_ms
  header = header.substr(0, header.rfind(','));  // adaptive_deviation
  header = header.substr(0, header.rfind(','));  // adaptive_runs
  header = header.substr(0, header.rfind(','));  // pred_current_device
  header = header.substr(0, header.rfind(','));  // pred_calibrated_device
  header = header.substr(0, header.rfind(','));  // held_ms
  header = header.substr(0, header.rfind(','));  // halves_ratio
  header = header.substr(0, header.rfind(','));  // issue
  header = header.substr(0, header.rfind(','));  // issue_ms
  header = header.substr(0, header.rfind(',')) + "\n";  // and chosen_adaptive
  absl::StatusOr<std::vector<SweepPoint>> r = ParseSweepCsv(header);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(Message(r.status()), HasSubstr("'chosen_adaptive' is missing"));

  header = SweepCsvHeader();
  header.pop_back();
  r = ParseSweepCsv(header + ",notes\n");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(Message(r.status()), HasSubstr("unexpected column"));
  EXPECT_THAT(Message(r.status()), HasSubstr("'notes'"));
}

TEST(SweepCsvTest, WrongFieldCountNamesTheLine) {
  std::string row = SweepCsvRow(Point(10, 2, 3.5));
  const std::string good = row;
  row.insert(0, "extra,");
  absl::StatusOr<std::vector<SweepPoint>> r = ParseSweepCsv(SweepCsvHeader() + good + row);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  const std::size_t n = SweepCsvColumns().size();
  EXPECT_THAT(Message(r.status()), HasSubstr("line 3: " + std::to_string(n + 1) +
                                             " fields, expected " + std::to_string(n)));
}

// A value from a binary or mangled file is shown escaped and cut short: no raw byte, no
// megabyte-long line reaches the terminal through a message.
TEST(SweepCsvTest, AValueShownInAMessageIsEscapedAndCutShort) {
  std::string header = SweepCsvHeader();
  header.replace(header.find("median_ms"), 9, "med\x1b[2J\xff");
  absl::StatusOr<std::vector<SweepPoint>> r = ParseSweepCsv(header);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(Message(r.status()), HasSubstr("found 'med\\x1b[2J\\xff'"));
  EXPECT_EQ(Message(r.status()).find('\x1b'), std::string::npos) << Message(r.status());

  std::string row = SweepCsvRow(Point(10, 2, 3.5));
  const std::size_t at = row.find("3.5");
  ASSERT_NE(at, std::string::npos);
  row.replace(at, 3, "\x01" + std::string(100000, 'z'));
  r = ParseSweepCsv(SweepCsvHeader() + row);
  ASSERT_FALSE(r.ok());
  const std::string m = Message(r.status());
  EXPECT_THAT(m, HasSubstr("line 2, column 8 'median_ms': value '\\x01zzz"));
  EXPECT_THAT(m, HasSubstr("... (100001 bytes)' is not a number"));
  EXPECT_LT(m.size(), 300u) << m;

  // Free text (the workload, grid, order and settings) is printable ASCII: the messages that
  // name a configuration by it carry no raw byte either.
  const std::string good = SweepCsvRow(Point(10, 2, 3.5));
  const std::size_t settings_column = SweepCsvColumns().size() - 1;
  for (std::size_t column : {std::size_t{0}, std::size_t{1}, std::size_t{5}, settings_column}) {
    std::string bad = good;
    std::size_t start = 0;
    for (std::size_t k = 0; k < column; ++k) start = bad.find(',', start) + 1;
    bad.insert(start, "\x1b[2J");
    r = ParseSweepCsv(SweepCsvHeader() + bad);
    ASSERT_FALSE(r.ok()) << column;
    // (The order is one of three names since session 49.)
    EXPECT_THAT(Message(r.status()),
                HasSubstr(column == 5 ? "is not one of: depth-first"
                                      : "holds a byte that is not printable ASCII"));
    EXPECT_THAT(Message(r.status()), HasSubstr("\\x1b[2J"));
    EXPECT_EQ(Message(r.status()).find('\x1b'), std::string::npos) << Message(r.status());
  }
}

// Replaces field `column` (0-based) of a row.
std::string WithField(std::string row, std::size_t column, const std::string& value) {
  std::vector<std::string> f;
  std::stringstream ss(row.substr(0, row.size() - 1));
  for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
  while (f.size() < SweepCsvColumns().size()) f.push_back("");  // trailing empty fields
  f[column] = value;
  std::string out;
  for (std::size_t i = 0; i < f.size(); ++i) out += (i ? "," : "") + f[i];
  return out + "\n";
}

TEST(SweepCsvTest, BadFieldsNameLineColumnAndValue) {
  const std::string row = SweepCsvRow(Point(10, 2, 3.5));
  struct Case {
    std::size_t column;
    std::string value;
    std::string want;
  };
  const std::size_t n = SweepCsvColumns().size();
  const Case cases[] = {
      {7, "abc", "line 3, column 8 'median_ms': value 'abc' is not a number"},
      {2, "1MiB", "column 3 'in_bytes': value '1MiB' is not a number"},
      {6, "4.5", "column 7 'streams': value '4.5' is not an integer"},
      {6, "", "column 7 'streams': value '' is empty"},
      {10, "99999999999", "'repetitions': value '99999999999' is not an integer"},
      {14 + kCurrent, "fast", "'pred_current': value 'fast' is not a number"},
      {n - 13, "x", "'chosen_adaptive': value 'x' is not an integer"},
      {n - 12, "2us", "'issue_ms': value '2us' is not a number"},
      {n - 11, "graphs", "'issue': value 'graphs' is not one of: streams, graph"},
      {n - 11, "", "'issue': value '' is not one of: streams, graph"},
      {n - 10, "1.0x", "'halves_ratio': value '1.0x' is not a decimal number"},
      // Hexadecimal (read as 16 before session 50), an empty workload or grid (a configuration
      // of its own, summarized, before session 50).
      {7, "0x10", "'median_ms': value '0x10' is not a decimal number"},
      {14 + kCurrent, "0X1p-3", "'pred_current': value '0X1p-3' is not a decimal number"},
      {0, "", "column 1 'workload': value '' is empty"},
      {1, "", "column 2 'grid': value '' is empty"},
      {n - 9, "1ms", "'held_ms': value '1ms' is not a number"},
      {n - 8, "?", "'pred_calibrated_device': value '?' is not a number"},
      {n - 7, "-", "'pred_current_device': value '-' is not a number"},
      {n - 6, "", "'adaptive_runs': value '' is empty"},
      {n - 6, "2.5", "'adaptive_runs': value '2.5' is not an integer"},
      {n - 5, "10%", "'adaptive_deviation': value '10%' is not a number"},
      {n - 4, "6us", "'kernel_half_ms': value '6us' is not a number"},
      {n - 3, "150.5", "'adaptive_batches': value '150.5' is not an integer"},
      {n - 2, "yes", "'adaptive_calibrated': value 'yes' is not an integer"},
      {n - 1, "held=2 held=3", "'settings': value 'held=2 held=3' names 'held' twice"},
      {n - 1, "held=2 warmup", "'settings': value 'held=2 warmup' has 'warmup', not key=value"},
      {n - 1, "=2", "'settings': value '=2' has '=2', not key=value"},
      // Ranges (since session 49; before, these were summarized as they were).
      {2, "-1048576", "'in_bytes': value '-1048576' is not a finite number >= 0"},
      {3, "inf", "'out_bytes': value 'inf' is not a finite number >= 0"},
      {4, "nan", "'intensity': value 'nan' is not a finite number >= 0"},
      {4, "", "'intensity': value '' is empty"},
      {5, "sideways", "'order': value 'sideways' is not one of: depth-first, breadth-first, "
                      "engine-per-stream"},
      {8, "-0.5", "'p10_ms': value '-0.5' is not a finite number >= 0"},
      {10, "0", "'repetitions': value '0' is below 1"},
      {11, "-1", "'h2d_ms': value '-1' is not a finite number >= 0"},
      {13, "inf", "'d2h_ms': value 'inf' is not a finite number >= 0"},
      {14 + kSweepModelCount + 1, "-4", "value '-4' is below 0"},
      {n - 13, "-1", "'chosen_adaptive': value '-1' is below 0"},
      {n - 12, "-2", "'issue_ms': value '-2' is not a finite number >= 0"},
      {n - 10, "-1", "'halves_ratio': value '-1' is not a finite number >= 0"},
      {n - 9, "inf", "'held_ms': value 'inf' is not a finite number >= 0"},
      {n - 4, "-1", "'kernel_half_ms': value '-1' is not a finite number >= 0"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<std::vector<SweepPoint>> r =
        ParseSweepCsv(SweepCsvHeader() + row + WithField(row, c.column, c.value));
    ASSERT_FALSE(r.ok()) << c.want;
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(Message(r.status()), HasSubstr(c.want));
    EXPECT_THAT(Message(r.status()), HasSubstr("line 3"));
  }
  // An empty double is NaN, not an error.
  absl::StatusOr<std::vector<SweepPoint>> r =
      ParseSweepCsv(SweepCsvHeader() + WithField(row, 12, ""));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(std::isnan((*r)[0].kernel_ms));
  // A model's prediction is kept as the model gave it, negative included (veneva-regression's
  // published regression on tiny batches), and a chosen n of 0 is "not computed".
  r = ParseSweepCsv(SweepCsvHeader() +
                    WithField(WithField(row, 14, "-0.015"), 14 + kSweepModelCount + 1, "0"));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].predicted_ms[0], -0.015);
  EXPECT_EQ((*r)[0].chosen[0], 0);
  // An intensity of -0 is 0: written "-0" it keyed a configuration of its own before session 50.
  r = ParseSweepCsv(SweepCsvHeader() + WithField(row, 4, "-0") +
                    WithField(WithField(row, 4, "0"), 6, "4"));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_FALSE(std::signbit((*r)[0].intensity));
  absl::StatusOr<SweepSummary> sum = Summarize(*r);
  ASSERT_TRUE(sum.ok()) << sum.status();
  EXPECT_EQ(sum->speedups.configs, 1);
}

// ---------------------------------------------------------------------------------------------
// Lists

std::vector<double> Numbers(const std::string& spec) {
  absl::StatusOr<std::vector<double>> r = ParseNumberList(spec);
  EXPECT_TRUE(r.ok()) << spec << ": " << r.status();
  return r.ok() ? *r : std::vector<double>{};
}

std::string NumberError(const std::string& spec) {
  absl::StatusOr<std::vector<double>> r = ParseNumberList(spec);
  EXPECT_FALSE(r.ok()) << spec << " parsed";
  if (r.ok()) return "";
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  return Message(r.status());
}

TEST(SweepListTest, NumbersAndRanges) {
  EXPECT_THAT(Numbers("4"), ElementsAre(4));
  EXPECT_THAT(Numbers(" 1, 2 ,3.5 "), ElementsAre(1, 2, 3.5));
  EXPECT_THAT(Numbers("1e3,-2,+7"), ElementsAre(1000, -2, 7));
  EXPECT_THAT(Numbers("1..5"), ElementsAre(1, 2, 3, 4, 5));
  EXPECT_THAT(Numbers("-2..1"), ElementsAre(-2, -1, 0, 1));
  EXPECT_THAT(Numbers("1.5..4"), ElementsAre(1.5, 2.5, 3.5));
  EXPECT_THAT(Numbers("3..3"), ElementsAre(3));
  EXPECT_THAT(Numbers("1..10+3"), ElementsAre(1, 4, 7, 10));
  EXPECT_THAT(Numbers("1..10+4"), ElementsAre(1, 5, 9));  // 10 not reached
  EXPECT_THAT(Numbers("1..128*2"), ElementsAre(1, 2, 4, 8, 16, 32, 64, 128));
  EXPECT_THAT(Numbers("1..100*2"), ElementsAre(1, 2, 4, 8, 16, 32, 64));
  EXPECT_THAT(Numbers("1..100*3"), ElementsAre(1, 3, 9, 27, 81));
  EXPECT_THAT(Numbers("0.5..4*2"), ElementsAre(0.5, 1, 2, 4));
  EXPECT_THAT(Numbers(" 1 .. 4 * 2 , 10..12 + 2 "), ElementsAre(1, 2, 4, 10, 12));
  // Exponent signs are not steps.
  EXPECT_THAT(Numbers("1..1e+3*10"), ElementsAre(1, 10, 100, 1000));
  EXPECT_THAT(Numbers("0..1e+3+250"), ElementsAre(0, 250, 500, 750, 1000));
  EXPECT_THAT(Numbers("1e-3..4e-3+1e-3").size(), 4u);
  // Order and duplicates kept.
  EXPECT_THAT(Numbers("8,1..2,8"), ElementsAre(8, 1, 2, 8));
}

TEST(SweepListTest, RangeEndsWithinTolerance) {
  // 0.1 + 2 * 0.1 is 0.30000000000000004: the end is reached, and is the end itself.
  const std::vector<double> v = Numbers("0.1..0.3+0.1");
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0], 0.1);
  EXPECT_EQ(v[1], 0.2);
  EXPECT_EQ(v[2], 0.3);
  // 10 * 0.1 accumulates to 0.9999999999999999 when added up; computed as a + i*k it ends on 1.
  const std::vector<double> w = Numbers("0..1+0.1");
  ASSERT_EQ(w.size(), 11u);
  EXPECT_EQ(w.back(), 1.0);
  // Geometric with a factor that is not a power of two.
  const std::vector<double> g = Numbers("1..0.001e6*1.1");
  ASSERT_FALSE(g.empty());
  EXPECT_LE(g.back(), 1000);
  EXPECT_EQ(g.size(), 73u);  // 1.1^72 = 956.6, 1.1^73 = 1052.3
  EXPECT_THAT(Numbers("0.3..0.9*3"), ElementsAre(0.3, 0.9));
}

TEST(SweepListTest, ErrorsNameTheItemAndWhy) {
  EXPECT_THAT(NumberError(""), HasSubstr("empty list"));
  EXPECT_THAT(NumberError("   "), HasSubstr("empty list"));
  EXPECT_THAT(NumberError("1,,2"), HasSubstr("empty item #2"));
  EXPECT_THAT(NumberError("1, "), HasSubstr("empty item #2"));
  EXPECT_THAT(NumberError("abc"), HasSubstr("'abc': value 'abc' is not a number"));
  EXPECT_THAT(NumberError("1,2x"), HasSubstr("'2x'"));
  EXPECT_THAT(NumberError("1..x"), HasSubstr("end 'x' is not a number"));
  EXPECT_THAT(NumberError("..4"), HasSubstr("missing start"));
  EXPECT_THAT(NumberError("1.."), HasSubstr("missing end"));
  EXPECT_THAT(NumberError("1..4+"), HasSubstr("missing step"));
  EXPECT_THAT(NumberError("1..4*y"), HasSubstr("factor 'y' is not a number"));
  EXPECT_THAT(NumberError("5..1"), HasSubstr("'5..1': start 5 is greater than end 1"));
  EXPECT_THAT(NumberError("1..10+0"), HasSubstr("step 0 must be > 0"));
  EXPECT_THAT(NumberError("1..10+-1"), HasSubstr("step -1 must be > 0"));
  EXPECT_THAT(NumberError("1..10*1"), HasSubstr("factor 1 must be > 1"));
  EXPECT_THAT(NumberError("1..10*0.5"), HasSubstr("factor 0.5 must be > 1"));
  EXPECT_THAT(NumberError("0..10*2"), HasSubstr("start > 0"));
  EXPECT_THAT(NumberError("-4..10*2"), HasSubstr("start > 0"));
  EXPECT_THAT(NumberError("nan"), HasSubstr("not finite"));
  EXPECT_THAT(NumberError("1..inf"), HasSubstr("not finite"));
  EXPECT_THAT(NumberError("1..1e999"), HasSubstr("'1..1e999'"));
}

TEST(SweepListTest, AtMostOneHundredThousandValues) {
  EXPECT_EQ(Numbers("1..100000").size(), kMaxListValues);
  EXPECT_EQ(Numbers("1..50000,1..50000").size(), kMaxListValues);
  EXPECT_THAT(NumberError("1..100001"), HasSubstr("more than 100000 values"));
  EXPECT_THAT(NumberError("1..50000,1..50001"), HasSubstr("'1..50001'"));
  EXPECT_THAT(NumberError("1..100000,7"), HasSubstr("'7': the list would have more than"));
  EXPECT_THAT(NumberError("0..1e12"), HasSubstr("more than 100000 values"));
  EXPECT_THAT(NumberError("1..2+1e-300"), HasSubstr("more than 100000 values"));
  EXPECT_THAT(NumberError("1..1e300*1.0000000001"), HasSubstr("more than 100000 values"));
}

TEST(SweepListTest, Ints) {
  absl::StatusOr<std::vector<int>> r = ParseIntList("1..128*2");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(*r, ElementsAre(1, 2, 4, 8, 16, 32, 64, 128));
  r = ParseIntList("-4..-1, 1e3, 6..12+3");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(*r, ElementsAre(-4, -3, -2, -1, 1000, 6, 9, 12));
  r = ParseIntList("2147483647");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(*r, ElementsAre(2147483647));

  r = ParseIntList("1,1.5");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(Message(r.status()), HasSubstr("'1.5': value 1.5 is not an integer"));
  r = ParseIntList("1..2+0.5");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(Message(r.status()), HasSubstr("'1..2+0.5': value 1.5 is not an integer"));
  // Decimal, as every flag's number (`--streams=0x10` was 16 before session 51).
  r = ParseIntList("1,0x10");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(Message(r.status()), HasSubstr("list item '0x10': value '0x10' is not a decimal number"));
  r = ParseIntList("1..0X20*2");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(Message(r.status()), HasSubstr("end '0X20' is not a decimal number"));
  r = ParseIntList("1..3e9*2");  // reaches 2^31
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(Message(r.status()), HasSubstr("out of the range of int"));
  r = ParseIntList("2147483648");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(Message(r.status()), HasSubstr("out of the range of int"));
  r = ParseIntList("4..2");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(Message(r.status()), HasSubstr("greater than"));
}

TEST(SweepListTest, Names) {
  const std::vector<std::string> allowed = {"depth-first", "breadth-first", "engine-per-stream"};
  absl::StatusOr<std::vector<std::string>> r =
      ParseNameList(" breadth-first,depth-first ", allowed);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(*r, ElementsAre("breadth-first", "depth-first"));

  r = ParseNameList("depth-first,depth_first", allowed);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(Message(r.status()), HasSubstr("unknown name 'depth_first'"));
  EXPECT_THAT(Message(r.status()),
              HasSubstr("allowed: depth-first, breadth-first, engine-per-stream"));

  r = ParseNameList("", allowed);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(Message(r.status()), HasSubstr("empty list"));
  r = ParseNameList("depth-first,", allowed);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(Message(r.status()), HasSubstr("empty item #2"));
  r = ParseNameList("Depth-First", allowed);  // case matters
  ASSERT_FALSE(r.ok());
}

// ---------------------------------------------------------------------------------------------
// Summary

// Configuration A (intensity 1): n = 1, 2, 4, 8 take 10, 6, 5, 5.5 ms: best n = 4.
// Configuration B (intensity 2): 20, 12, 9, 8 ms: best n = 8.
// Configuration C (intensity 3): only n = 2 (4 ms) and n = 16 (3 ms): best n = 16.
std::vector<SweepPoint> HandSweep() {
  std::vector<SweepPoint> pts;
  const double a[] = {10, 6, 5, 5.5}, b[] = {20, 12, 9, 8};
  const double a_current[] = {11, 6, 4, 5.5}, b_current[] = {20, 9, 9, 10};
  for (int i = 0; i < 4; ++i) {
    SweepPoint p = Point(1, 1 << i, a[i]);
    p.predicted_ms[kCurrent] = a_current[i];
    p.chosen[kCurrent] = 4;
    p.chosen[k2ce] = 2;
    p.adaptive_n = 8;
    pts.push_back(p);
    SweepPoint q = Point(2, 1 << i, b[i]);
    q.predicted_ms[kCurrent] = b_current[i];
    q.chosen[kCurrent] = 16;  // not measured in B: skipped
    q.chosen[k2ce] = 4;
    q.adaptive_n = 8;
    pts.push_back(q);
  }
  pts[0].predicted_ms[k2ce] = 12;  // A n=1: error 0.2
  pts[2].predicted_ms[k2ce] = 3;   // A n=2: error 0.5
  pts[1].predicted_ms[k2ce] = 22;  // B n=1: error 0.1
  pts[4].calibrated_ms = 5.5;      // A n=4: error 0.1
  for (auto [n, ms] : {std::pair{2, 4.0}, {16, 3.0}}) {
    SweepPoint p = Point(3, n, ms);
    p.chosen[kCurrent] = 16;
    p.chosen[k2ce] = 2;
    p.adaptive_n = 32;  // not measured: skipped
    pts.push_back(p);
  }
  return pts;
}

const ModelAccuracy& AccuracyOf(const SweepSummary& s, const std::string& name) {
  for (const ModelAccuracy& a : s.accuracy) {
    if (a.model == name) return a;
  }
  ADD_FAILURE() << "no accuracy row " << name;
  return s.accuracy.front();
}

const ChoiceQuality& ChoiceOf(const SweepSummary& s, const std::string& name) {
  for (const ChoiceQuality& q : s.choices) {
    if (q.who == name) return q;
  }
  ADD_FAILURE() << "no choice row " << name;
  return s.choices.front();
}

TEST(SweepSummaryTest, RowsFollowTheModelList) {
  absl::StatusOr<SweepSummary> s = Summarize(HandSweep());
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_EQ(s->accuracy.size(), kSweepModelCount + 1);
  ASSERT_EQ(s->choices.size(), kSweepModelCount + 1);
  for (std::size_t m = 0; m < kSweepModelCount; ++m) {
    EXPECT_EQ(s->accuracy[m].model, std::string(ModelName(kAllModelKinds[m])));
    EXPECT_EQ(s->choices[m].who, std::string(ModelName(kAllModelKinds[m])));
  }
  EXPECT_EQ(s->accuracy.back().model, "calibrated");
  EXPECT_EQ(s->choices.back().who, "adaptive");
}

TEST(SweepSummaryTest, Accuracy) {
  absl::StatusOr<SweepSummary> s = Summarize(HandSweep());
  ASSERT_TRUE(s.ok()) << s.status();
  // current: errors 0.1, 0, 0.2, 0 (A) and 0, 0.25, 0, 0.25 (B); sorted 0 0 0 0 0.1 0.2 0.25
  // 0.25: median of an even count (0 + 0.1) / 2.
  const ModelAccuracy& cur = AccuracyOf(*s, "current");
  EXPECT_EQ(cur.points, 8);
  EXPECT_DOUBLE_EQ(cur.median_rel_error, 0.05);
  EXPECT_DOUBLE_EQ(cur.max_rel_error, 0.25);
  // werkhoven-2ce: 0.2, 0.5, 0.1: median of an odd count.
  const ModelAccuracy& w = AccuracyOf(*s, "werkhoven-2ce");
  EXPECT_EQ(w.points, 3);
  EXPECT_DOUBLE_EQ(w.median_rel_error, 0.2);
  EXPECT_DOUBLE_EQ(w.max_rel_error, 0.5);
  const ModelAccuracy& cal = AccuracyOf(*s, "calibrated");
  EXPECT_EQ(cal.points, 1);
  EXPECT_DOUBLE_EQ(cal.median_rel_error, 0.1);
  EXPECT_DOUBLE_EQ(cal.max_rel_error, 0.1);
  const ModelAccuracy& none = AccuracyOf(*s, "gomez-luna-cc1");
  EXPECT_EQ(none.points, 0);
  EXPECT_TRUE(std::isnan(none.median_rel_error));
  EXPECT_TRUE(std::isnan(none.max_rel_error));
}

TEST(SweepSummaryTest, InfinitePredictionsAreNotCounted) {
  std::vector<SweepPoint> pts = HandSweep();
  pts[3].predicted_ms[kCurrent] = kInf;  // B n=2 (error 0.25) drops out
  absl::StatusOr<SweepSummary> s = Summarize(pts);
  ASSERT_TRUE(s.ok()) << s.status();
  const ModelAccuracy& cur = AccuracyOf(*s, "current");
  EXPECT_EQ(cur.points, 7);
  EXPECT_DOUBLE_EQ(cur.median_rel_error, 0);  // 0 0 0 0 0.1 0.2 0.25
}

TEST(SweepSummaryTest, ChoiceQuality) {
  absl::StatusOr<SweepSummary> s = Summarize(HandSweep());
  ASSERT_TRUE(s.ok()) << s.status();
  // current: A n=4 is the best (1); B n=16 not measured (skipped); C n=16 is the best (1).
  const ChoiceQuality& cur = ChoiceOf(*s, "current");
  EXPECT_EQ(cur.configs, 2);
  EXPECT_DOUBLE_EQ(cur.mean_ratio, 1.0);
  EXPECT_DOUBLE_EQ(cur.worst_ratio, 1.0);
  // werkhoven-2ce: A n=2: 6/5; B n=4: 9/8; C n=2: 4/3.
  const ChoiceQuality& w = ChoiceOf(*s, "werkhoven-2ce");
  EXPECT_EQ(w.configs, 3);
  EXPECT_DOUBLE_EQ(w.mean_ratio, (1.2 + 1.125 + 4.0 / 3) / 3);
  EXPECT_DOUBLE_EQ(w.worst_ratio, 4.0 / 3);
  // adaptive: A n=8: 5.5/5; B n=8: 1; C n=32 not measured.
  const ChoiceQuality& ad = ChoiceOf(*s, "adaptive");
  EXPECT_EQ(ad.configs, 2);
  EXPECT_DOUBLE_EQ(ad.mean_ratio, 1.05);
  EXPECT_DOUBLE_EQ(ad.worst_ratio, 1.1);
  // Its speeds, the inverse ratios: 5 / 5.5 and 1; the mean of those, not 1 / 1.05.
  EXPECT_DOUBLE_EQ(ad.mean_speed, (5.0 / 5.5 + 1.0) / 2);
  EXPECT_DOUBLE_EQ(ad.worst_speed, 5.0 / 5.5);
  EXPECT_DOUBLE_EQ(w.mean_speed, (1 / 1.2 + 1 / 1.125 + 0.75) / 3);
  EXPECT_DOUBLE_EQ(w.worst_speed, 0.75);
  // Never computed.
  const ChoiceQuality& none = ChoiceOf(*s, "gomez-luna-cc1");
  EXPECT_EQ(none.configs, 0);
  EXPECT_TRUE(std::isnan(none.mean_ratio));
  EXPECT_TRUE(std::isnan(none.worst_ratio));
  EXPECT_TRUE(std::isnan(none.mean_speed));
  EXPECT_TRUE(std::isnan(none.worst_speed));
}

TEST(SweepSummaryTest, SpeedUps) {
  absl::StatusOr<SweepSummary> s = Summarize(HandSweep());
  ASSERT_TRUE(s.ok()) << s.status();
  const SpeedUps& u = s->speedups;
  EXPECT_EQ(u.configs, 3);
  // Adaptive n = 8 in A (5.5 ms) and B (8 ms); C has no n = 1, 4, 8 and no measured adaptive n.
  EXPECT_EQ(u.vs_non_streamed_configs, 2);
  EXPECT_DOUBLE_EQ(u.vs_non_streamed_mean, (10 / 5.5 + 20.0 / 8) / 2);
  EXPECT_EQ(u.vs_fixed4_configs, 2);
  EXPECT_DOUBLE_EQ(u.vs_fixed4_mean, (5 / 5.5 + 9.0 / 8) / 2);
  EXPECT_EQ(u.vs_fixed8_configs, 2);
  EXPECT_DOUBLE_EQ(u.vs_fixed8_mean, 1.0);
  // Best n: 4 in A (5 ms), 8 in B (8 ms).
  EXPECT_EQ(u.best_vs_non_streamed_configs, 2);
  EXPECT_DOUBLE_EQ(u.best_vs_non_streamed_mean, (10.0 / 5 + 20.0 / 8) / 2);
  EXPECT_EQ(u.best_vs_fixed4_configs, 2);
  EXPECT_DOUBLE_EQ(u.best_vs_fixed4_mean, (1 + 9.0 / 8) / 2);
  EXPECT_EQ(u.best_vs_fixed8_configs, 2);
  EXPECT_DOUBLE_EQ(u.best_vs_fixed8_mean, (5.5 / 5 + 1) / 2);
}

TEST(SweepSummaryTest, BestSpeedUpCountsConfigurationsWithoutAMeasuredAdaptiveN) {
  std::vector<SweepPoint> pts = HandSweep();
  for (SweepPoint& p : pts) {
    if (p.intensity == 1) p.adaptive_n = 3;  // not measured in A
  }
  absl::StatusOr<SweepSummary> s = Summarize(pts);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->speedups.vs_non_streamed_configs, 1);
  EXPECT_DOUBLE_EQ(s->speedups.vs_non_streamed_mean, 20.0 / 8);
  EXPECT_EQ(s->speedups.best_vs_non_streamed_configs, 2);
  EXPECT_EQ(ChoiceOf(*s, "adaptive").configs, 1);
}

TEST(SweepSummaryTest, OrderOfPointsDoesNotMatter) {
  std::vector<SweepPoint> pts = HandSweep();
  absl::StatusOr<SweepSummary> s1 = Summarize(pts);
  std::reverse(pts.begin(), pts.end());
  absl::StatusOr<SweepSummary> s2 = Summarize(pts);
  ASSERT_TRUE(s1.ok() && s2.ok());
  EXPECT_EQ(SummaryMarkdown(*s1), SummaryMarkdown(*s2));
  EXPECT_DOUBLE_EQ(s2->speedups.vs_fixed4_mean, s1->speedups.vs_fixed4_mean);
}

TEST(SweepSummaryTest, ConfigurationsDifferInEveryKeyField) {
  // Two points that differ only in one key field are two configurations: each has a single
  // n, so every chooser of that n has ratio 1 in both.
  SweepPoint base = Point(1, 4, 2.0);
  base.adaptive_n = 4;
  using Change = std::function<void(SweepPoint*)>;
  const Change changes[] = {
      [](SweepPoint* p) { p->workload = "matmul"; },
      [](SweepPoint* p) { p->grid = "quick"; },
      [](SweepPoint* p) { p->in_bytes += 1; },
      [](SweepPoint* p) { p->out_bytes += 1; },
      [](SweepPoint* p) { p->intensity += 1; },
      [](SweepPoint* p) { p->order = "breadth-first"; },
      [](SweepPoint* p) { p->issue = "graph"; },
  };
  for (std::size_t i = 0; i < std::size(changes); ++i) {
    SweepPoint other = base;
    other.median_ms = 3.0;
    changes[i](&other);
    absl::StatusOr<SweepSummary> s = Summarize({base, other});
    ASSERT_TRUE(s.ok()) << i << ": " << s.status();
    EXPECT_EQ(s->speedups.configs, 2) << i;
    EXPECT_EQ(ChoiceOf(*s, "adaptive").configs, 2) << i;
  }
  // Equal keys with the same n: one configuration with a duplicate.
  EXPECT_FALSE(Summarize({base, base}).ok());
}

// From a CSV, a point's bad value is named by the line it is on (blank lines and the header
// counted), as a malformed field is; in memory, by its index.
TEST(SweepCsvTest, SummarizeNamesTheLineOfAPointFromACsv) {
  std::vector<SweepPoint> pts = HandSweep();
  std::string csv = SweepCsvHeader() + "\n";  // a blank line 2
  for (const SweepPoint& p : pts) csv += SweepCsvRow(p);
  std::vector<int> lines;
  absl::StatusOr<std::vector<SweepPoint>> back = ParseSweepCsv(csv, &lines);
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_EQ(lines.size(), pts.size());
  EXPECT_EQ(lines.front(), 3);
  EXPECT_EQ(lines.back(), static_cast<int>(pts.size()) + 2);
  (*back)[5].median_ms = 0.0;
  absl::StatusOr<SweepSummary> s = Summarize(*back, &lines);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(Message(s.status()), HasSubstr("line 8 (add-scalar/symmetric"));
  EXPECT_THAT(Message(s.status()), HasSubstr("median_ms must be finite and > 0"));
  EXPECT_THAT(Message(s.status()), Not(HasSubstr("points[")));
  (*back)[5].median_ms = pts[5].median_ms;
  (*back)[3].chosen[kCurrent] = 8;  // B n=2 disagrees with B n=1
  s = Summarize(*back, &lines);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(Message(s.status()),
              HasSubstr("chosen_current is 16 on line 4 (streams=1) but 8 on line 6 (streams=2)"));
  (*back)[3].chosen[kCurrent] = pts[3].chosen[kCurrent];
  (*back)[4].adaptive_batches = (*back)[2].adaptive_batches + 1;  // A n=4 against A n=1
  s = Summarize(*back, &lines);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(Message(s.status()), HasSubstr(" on line 3 (streams=1) but "));
  EXPECT_THAT(Message(s.status()), HasSubstr(" on line 7 (streams=4)"));
  EXPECT_THAT(Message(s.status()), Not(HasSubstr("the row")));
  // A point twice: both lines named.
  std::vector<SweepPoint> twice = pts;
  twice.push_back(pts[2]);
  std::vector<int> twice_lines = lines;
  twice_lines.push_back(40);
  s = Summarize(twice, &twice_lines);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(Message(s.status()), HasSubstr("two points with streams=2 (lines 5 and 40)"));
  std::vector<int> short_lines(2, 1);
  EXPECT_FALSE(Summarize(pts, &short_lines).ok());
}

TEST(SweepSummaryTest, Errors) {
  absl::StatusOr<SweepSummary> s = Summarize({});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(Message(s.status()), HasSubstr("no sweep points"));

  for (double bad : {0.0, -1.0, kNaN, kInf}) {
    std::vector<SweepPoint> pts = HandSweep();
    pts[5].median_ms = bad;
    s = Summarize(pts);
    ASSERT_FALSE(s.ok()) << bad;
    EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(Message(s.status()), HasSubstr("points[5]"));
    EXPECT_THAT(Message(s.status()), HasSubstr("median_ms must be finite and > 0"));
    EXPECT_THAT(Message(s.status()), HasSubstr("intensity=2"));
  }

  std::vector<SweepPoint> pts = HandSweep();
  pts[3].chosen[kCurrent] = 8;  // B n=2 disagrees with B n=1 (16)
  s = Summarize(pts);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(Message(s.status()),
              HasSubstr("configuration add-scalar/symmetric in_bytes=1048576 out_bytes=1048576 "
                        "intensity=2 order=depth-first"));
  EXPECT_THAT(Message(s.status()),
              HasSubstr("chosen_current is 16 on the row streams=1 but 8 on the row streams=2"));

  pts = HandSweep();
  pts[6].adaptive_n = 4;  // A n=8
  s = Summarize(pts);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(Message(s.status()), HasSubstr("intensity=1"));
  EXPECT_THAT(Message(s.status()),
              HasSubstr("chosen_adaptive is 8 on the row streams=1 but 4 on the row streams=8"));

  pts = HandSweep();
  pts.push_back(pts[2]);
  s = Summarize(pts);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(Message(s.status()), HasSubstr("two points with streams=2"));

  pts = HandSweep();
  pts[1].streams = 0;
  s = Summarize(pts);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(Message(s.status()), HasSubstr("streams must be >= 1"));

  pts = HandSweep();
  pts[0].predicted_ms.pop_back();
  s = Summarize(pts);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(Message(s.status()), HasSubstr("points[0]"));
  EXPECT_THAT(Message(s.status()), HasSubstr("one per model"));

  for (double bad : {0.0, -2.0, kInf}) {
    pts = HandSweep();
    pts[4].held_ms = bad;
    s = Summarize(pts);
    ASSERT_FALSE(s.ok()) << bad;
    EXPECT_THAT(Message(s.status()), HasSubstr("points[4]"));
    EXPECT_THAT(Message(s.status()),
                HasSubstr("held_ms must be empty (not held) or finite and > 0, got "));
  }
}

// The line of `text` that starts with `prefix`.
std::string LineStarting(const std::string& text, const std::string& prefix) {
  std::stringstream ss(text);
  for (std::string line; std::getline(ss, line);) {
    if (line.rfind(prefix, 0) == 0) return line;
  }
  return "(no line starting with '" + prefix + "')";
}

// HandSweep with the measurement's halves on four points: A n=1 (no calibrated prediction),
// A n=4 (repeats within 5 %, calibrated error 0.1), B n=4 (halves 25 % apart, error 0.25) and
// A n=8 (6.25 % apart, error 0).
std::vector<SweepPoint> HandSweepMeasuredTwice() {
  std::vector<SweepPoint> pts = HandSweep();
  pts[0].halves_ratio = 1.015625;  // A n=1
  pts[4].halves_ratio = 0.96875;   // A n=4, calibrated 5.5 against 5
  pts[5].halves_ratio = 1.25;      // B n=4
  pts[5].calibrated_ms = 11.25;    // against 9
  pts[6].halves_ratio = 1.0625;    // A n=8
  pts[6].calibrated_ms = 5.5;      // against 5.5
  return pts;
}

TEST(SweepSummaryTest, Repeatability) {
  absl::StatusOr<SweepSummary> s = Summarize(HandSweepMeasuredTwice());
  ASSERT_TRUE(s.ok()) << s.status();
  const Repeatability& r = s->repeatability;
  EXPECT_EQ(r.measurement.points, 4);
  EXPECT_DOUBLE_EQ(r.measurement.median_rel_error, (0.03125 + 0.0625) / 2);  // of .016, .031, .063, .25
  EXPECT_DOUBLE_EQ(r.measurement.max_rel_error, 0.25);
  EXPECT_EQ(r.measurement.over_10_percent, 1);
  EXPECT_EQ(r.calibrated_all.points, 3);
  EXPECT_DOUBLE_EQ(r.calibrated_all.median_rel_error, 0.1);
  EXPECT_DOUBLE_EQ(r.calibrated_all.max_rel_error, 0.25);
  EXPECT_EQ(r.calibrated_all.over_10_percent, 1);
  EXPECT_EQ(r.calibrated_repeatable.points, 1);
  EXPECT_DOUBLE_EQ(r.calibrated_repeatable.max_rel_error, 0.1);
  EXPECT_EQ(r.calibrated_repeatable.over_10_percent, 0);
  EXPECT_EQ(r.calibrated_repeatable.model, "calibrated, repeating within 5.0%");
  // The calibrated row over every point is unchanged by the halves.
  EXPECT_EQ(AccuracyOf(*s, "calibrated").points, 3);

  // Without halves (sweeps before the column): nothing measured twice, NaN.
  s = Summarize(HandSweep());
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->repeatability.measurement.points, 0);
  EXPECT_TRUE(std::isnan(s->repeatability.measurement.max_rel_error));
  EXPECT_EQ(s->repeatability.calibrated_all.points, 0);
  EXPECT_TRUE(std::isnan(s->repeatability.calibrated_repeatable.max_rel_error));
}

// The calibrated prediction counted from the nearer edge of each point's p10-p90 (Point gives
// 0.9x and 1.1x the median): inside or at an edge 0; the band widened to take in the median
// where a p10 lies above it; points without a spread left out.
TEST(SweepSummaryTest, CalibratedBeyondTheBatchesSpread) {
  std::vector<SweepPoint> pts = HandSweep();
  pts[4].calibrated_ms = 5.5;    // A n=4: median 5, p90 5.5: at the edge, 0
  pts[5].calibrated_ms = 11.25;  // B n=4: median 9, p90 9.9: (11.25 - 9.9) / 9 = 0.15
  pts[6].calibrated_ms = 4.675;  // A n=8: median 5.5, p10 4.95: 0.275 / 5.5 = 0.05
  pts[7].calibrated_ms = 7.6;    // B n=8: median 8, its p10 8.5 above it: (8 - 7.6) / 8 = 0.05,
  pts[7].p10_ms = 8.5;           // not (8.5 - 7.6) / 8 = 0.1125
  pts[7].p90_ms = 9;
  pts[3].calibrated_ms = 13;  // B n=2: no spread recorded, left out
  pts[3].p90_ms = 0;
  absl::StatusOr<SweepSummary> s = Summarize(pts);
  ASSERT_TRUE(s.ok()) << s.status();
  const ModelAccuracy& b = s->repeatability.calibrated_beyond_spread;
  EXPECT_EQ(b.model, "calibrated, beyond the batches' p10-p90");
  EXPECT_EQ(b.points, 4);
  EXPECT_NEAR(b.median_rel_error, 0.05, 1e-12);
  EXPECT_NEAR(b.max_rel_error, 0.15, 1e-12);
  EXPECT_EQ(b.over_10_percent, 1);
  // Against the median the same predictions miss by 0.1, 0.25, 0.15, 0.05 and 1/12.
  const ModelAccuracy& c = AccuracyOf(*s, "calibrated");
  EXPECT_EQ(c.points, 5);
  EXPECT_DOUBLE_EQ(c.max_rel_error, 0.25);
  EXPECT_EQ(c.over_10_percent, 2);

  const std::string text = SummaryText(*s);
  EXPECT_THAT(LineStarting(text, "  calibrated, beyond the batches' p10-p90"),
              ContainsRegex("4 +5.0% +15.0% +1$"));
  EXPECT_THAT(SummaryMarkdown(*s),
              HasSubstr("| calibrated, beyond the batches' p10-p90 | 4 | 5.0% | 15.0% | 1 |"));

  // Without a spread on any point the row is empty.
  for (SweepPoint& p : pts) p.p10_ms = p.p90_ms = 0;
  s = Summarize(pts);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->repeatability.calibrated_beyond_spread.points, 0);
  EXPECT_TRUE(std::isnan(s->repeatability.calibrated_beyond_spread.max_rel_error));
}

// HandSweep with its adaptive runs recorded: A kept its first run (deviation 0.3125 of the
// tolerances), B ran three times and is still off (2.5), C ran twice (0.625). B's n = 1 gets a calibrated
// prediction 50 % off, which the row over agreeing runs leaves out; C's n = 2 one 5 % off, which
// it keeps.
std::vector<SweepPoint> HandSweepWithAdaptiveRuns() {
  std::vector<SweepPoint> pts = HandSweep();
  for (SweepPoint& p : pts) {
    const int config = static_cast<int>(p.intensity);  // 1 = A, 2 = B, 3 = C
    p.adaptive_runs = config == 1 ? 1 : config == 2 ? 3 : 2;
    p.adaptive_deviation = config == 1 ? 0.3125 : config == 2 ? 2.5 : 0.625;
    // A's kept run stopped at 150 batches, complete; B's at the cap of 600, incomplete; C's
    // went on to 310 to complete.
    p.adaptive_batches = config == 1 ? 150 : config == 2 ? 600 : 310;
    p.adaptive_calibrated = config == 2 ? 0 : 1;
  }
  pts[1].calibrated_ms = 30;   // B n = 1, measured 20
  pts[8].calibrated_ms = 4.2;  // C n = 2, measured 4
  return pts;
}

TEST(SweepSummaryTest, AdaptiveRuns) {
  absl::StatusOr<SweepSummary> s = Summarize(HandSweepWithAdaptiveRuns());
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->adaptive_runs.configs, 3);
  EXPECT_EQ(s->adaptive_runs.repeated, 2);
  EXPECT_EQ(s->adaptive_runs.off, 1);
  EXPECT_EQ(s->adaptive_runs.calibration_recorded, 3);
  EXPECT_EQ(s->adaptive_runs.incomplete, 1);
  EXPECT_EQ(s->adaptive_runs.median_batches, 310);
  EXPECT_EQ(s->adaptive_runs.max_batches, 600);
  // Every calibrated prediction: A n = 4 (0.1), B n = 1 (0.5), C n = 2 (0.05); over agreeing
  // runs A's and C's.
  EXPECT_EQ(AccuracyOf(*s, "calibrated").points, 3);
  EXPECT_DOUBLE_EQ(AccuracyOf(*s, "calibrated").max_rel_error, 0.5);
  const ModelAccuracy& agreeing = s->repeatability.calibrated_agreeing;
  EXPECT_EQ(agreeing.model, "calibrated, adaptive run agreeing with the rounds");
  EXPECT_EQ(agreeing.points, 2);
  EXPECT_DOUBLE_EQ(agreeing.median_rel_error, 0.075);
  EXPECT_DOUBLE_EQ(agreeing.max_rel_error, 0.1);
  const std::string md = SummaryMarkdown(*s);
  EXPECT_EQ(LineStarting(md, "| calibrated, adaptive run agreeing with the rounds "),
            "| calibrated, adaptive run agreeing with the rounds | 2 | 7.5% | 10.0% | 0 |");
  EXPECT_THAT(md, HasSubstr("Adaptive runs: 2 of 3 configurations ran theirs again"));
  EXPECT_THAT(md, HasSubstr("; 1 still off after the last run"));
  EXPECT_THAT(md, HasSubstr(" Kept runs took 310 batches (median; at most 600); 1 of 3 ended "
                            "with their calibration incomplete"));
  EXPECT_THAT(SummaryText(*s), HasSubstr("  Adaptive runs: 2 of 3 configurations"));
  EXPECT_THAT(LineStarting(SummaryText(*s), "  calibrated, adaptive run agreeing"),
              testing::MatchesRegex(
                  " +calibrated, adaptive run agreeing with the rounds +2 +7\\.5% +10\\.0% +0"));

  // At the tolerance a run agrees; a run that compared nothing (+inf), or a deviation not
  // recorded (NaN) with runs counted, is off.
  std::vector<SweepPoint> pts = HandSweepWithAdaptiveRuns();
  for (SweepPoint& p : pts) {
    const int config = static_cast<int>(p.intensity);
    p.adaptive_deviation = config == 1 ? 1.0 : config == 2 ? kInf : kNaN;
  }
  s = Summarize(pts);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->adaptive_runs.off, 2);
  EXPECT_EQ(s->repeatability.calibrated_agreeing.points, 1);  // A's n = 4

  // Sweeps before the columns: nothing recorded, no row and no sentence.
  s = Summarize(HandSweep());
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->adaptive_runs.configs, 0);
  EXPECT_EQ(s->repeatability.calibrated_agreeing.points, 0);
  EXPECT_THAT(SummaryMarkdown(*s), Not(HasSubstr("adaptive run agreeing")));
  EXPECT_THAT(SummaryMarkdown(*s), Not(HasSubstr("Adaptive runs:")));
  // Sweeps of runs 140-158: adaptive runs recorded, their batches and calibration not.
  pts = HandSweepWithAdaptiveRuns();
  for (SweepPoint& p : pts) {
    p.adaptive_batches = 0;
    p.adaptive_calibrated = -1;
  }
  s = Summarize(pts);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->adaptive_runs.configs, 3);
  EXPECT_EQ(s->adaptive_runs.calibration_recorded, 0);
  EXPECT_THAT(SummaryMarkdown(*s), HasSubstr("Adaptive runs: 2 of 3"));
  EXPECT_THAT(SummaryMarkdown(*s), Not(HasSubstr("Kept runs took")));
  s = Summarize(HandSweepWithAdaptiveRuns());
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_THAT(SummaryText(*s), HasSubstr("Kept runs took 310 batches (median; at most 600)"));
  // Of an even count, the mean of the two middle ones (it was the lower, 150, before session 47).
  std::vector<SweepPoint> two;
  for (const SweepPoint& p : HandSweepWithAdaptiveRuns()) {
    if (p.intensity != 2) two.push_back(p);  // A (150) and C (310)
  }
  s = Summarize(two);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->adaptive_runs.median_batches, 230);
  EXPECT_THAT(SummaryText(*s), HasSubstr("Kept runs took 230 batches (median; at most 310)"));
}

TEST(SweepSummaryTest, AdaptiveRunsAreOnePerConfiguration) {
  std::vector<SweepPoint> pts = HandSweepWithAdaptiveRuns();
  pts[2].adaptive_runs = 2;  // A n = 2; A's other rows say 1
  absl::StatusOr<SweepSummary> s = Summarize(pts);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(Message(s.status()), HasSubstr("adaptive_runs / adaptive_deviation are 1 / 0.3125 "
                                             "on the row streams=1 but 2 / 0.3125 on the row "
                                             "streams=2"));
  pts = HandSweepWithAdaptiveRuns();
  pts[2].adaptive_deviation = kNaN;
  s = Summarize(pts);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(Message(s.status()), HasSubstr("but 1 /  on the row streams=2"));
  pts = HandSweepWithAdaptiveRuns();
  for (SweepPoint& p : pts) {
    if (p.intensity == 3) p.adaptive_runs = -1;
  }
  s = Summarize(pts);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(Message(s.status()), HasSubstr("adaptive_runs is -1"));
  // The kept run's batches and calibration, one per configuration too, and in range.
  pts = HandSweepWithAdaptiveRuns();
  pts[2].adaptive_batches = 151;  // A n = 2; A's other rows say 150
  s = Summarize(pts);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(Message(s.status()), HasSubstr("adaptive_batches / adaptive_calibrated are 150 / 1 "
                                             "on the row streams=1 but 151 / 1 on the row "
                                             "streams=2"));
  pts = HandSweepWithAdaptiveRuns();
  pts[2].adaptive_calibrated = 0;
  s = Summarize(pts);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(Message(s.status()), HasSubstr("but 150 / 0 on the row streams=2"));
  for (const auto& [batches, calibrated] : {std::pair{-1, 1}, {150, 2}, {150, -2}}) {
    pts = HandSweepWithAdaptiveRuns();
    for (SweepPoint& p : pts) {
      if (p.intensity == 3) {
        p.adaptive_batches = batches;
        p.adaptive_calibrated = calibrated;
      }
    }
    s = Summarize(pts);
    ASSERT_FALSE(s.ok()) << batches << " / " << calibrated;
    EXPECT_THAT(Message(s.status()),
                HasSubstr(absl::StrCat("adaptive_batches / adaptive_calibrated are ", batches,
                                       " / ", calibrated, " on the row streams=")));
  }
}

MeasuredN Seen(int n, int samples, double ms) {
  MeasuredN m;
  m.streams = n;
  m.samples = samples;
  m.median_ms = ms;
  return m;
}

TEST(AdaptiveAgreementTest, ARunThatSawTheRoundsCardAgrees) {
  const std::map<int, double> rounds = {{1, 8.0}, {2, 4.0}, {4, 2.0}, {8, 4.0}};
  // Own medians 3 % over, equal and 6.25 % under: the median ratio is 1, the farthest n 6.25 %
  // off, a quarter of its tolerance. The non-streamed measurement, 25 % over n = 1's rounds, is
  // reported (2.5 of its tolerance), not judged here.
  const AdaptiveAgreement a = CompareAdaptiveRun(
      {Seen(2, 4, 4.125), Seen(4, 32, 2.0), Seen(8, 2, 3.75)}, 10.0, rounds,
      /*judge_reference=*/false);
  EXPECT_EQ(a.compared, 3);
  EXPECT_DOUBLE_EQ(a.samples_ratio, 1.0);
  EXPECT_DOUBLE_EQ(a.worst_ratio, 0.9375);
  EXPECT_EQ(a.worst_n, 8);
  EXPECT_DOUBLE_EQ(a.reference_ratio, 1.25);
  EXPECT_DOUBLE_EQ(a.reference_deviation, 2.5);
  EXPECT_DOUBLE_EQ(a.deviation, 0.25);
  EXPECT_TRUE(a.agrees());
}

TEST(AdaptiveAgreementTest, ABurstOnTheRunIsSeen) {
  const std::map<int, double> rounds = {{1, 8.0}, {2, 4.0}, {4, 2.0}, {8, 4.0}};
  // Run 88's first kind: the run's own batches 1.5-1.75x the rounds' (no reference given).
  AdaptiveAgreement a = CompareAdaptiveRun({Seen(4, 20, 3.5), Seen(8, 2, 6.0)}, 0.0, rounds, true);
  EXPECT_EQ(a.compared, 2);
  EXPECT_DOUBLE_EQ(a.samples_ratio, 1.625);
  EXPECT_TRUE(std::isnan(a.reference_ratio));
  EXPECT_DOUBLE_EQ(a.deviation, 6.25);  // 62.5 % over all n, in units of 10 %
  EXPECT_FALSE(a.agrees());
  // Runs 89 and 92: one visit of two batches 1.8x the rounds', the others as the rounds; their
  // median agrees, the visit does not (80 % in units of 25 %).
  a = CompareAdaptiveRun({Seen(2, 8, 4.0), Seen(4, 32, 2.0), Seen(8, 2, 7.2)}, 0.0, rounds, true);
  EXPECT_DOUBLE_EQ(a.samples_ratio, 1.0);
  EXPECT_DOUBLE_EQ(a.worst_ratio, 1.8);
  EXPECT_EQ(a.worst_n, 8);
  EXPECT_DOUBLE_EQ(a.deviation, 3.2);
  EXPECT_FALSE(a.agrees());
  // One n at its tolerance (25 % over, exactly): agrees.
  a = CompareAdaptiveRun({Seen(2, 8, 4.25), Seen(4, 32, 2.125), Seen(8, 2, 5.0)}, 0.0, rounds, true);
  EXPECT_DOUBLE_EQ(a.samples_ratio, 1.0625);
  EXPECT_EQ(a.deviation, 1.0);
  EXPECT_TRUE(a.agrees());
  // Its second kind: nothing sampled in the last derivation (the non-streamed measurement
  // 2.2x): nothing to compare, not trusted.
  a = CompareAdaptiveRun({}, 17.6, rounds, true);
  EXPECT_EQ(a.compared, 0);
  EXPECT_TRUE(std::isnan(a.samples_ratio));
  EXPECT_NEAR(a.reference_ratio, 2.2, 1e-12);
  EXPECT_TRUE(std::isinf(a.deviation));
  // Faster than the rounds counts as much as slower.
  a = CompareAdaptiveRun({Seen(4, 8, 1.5), Seen(8, 8, 3.0)}, 8.0, rounds, true);
  EXPECT_DOUBLE_EQ(a.samples_ratio, 0.75);
  EXPECT_DOUBLE_EQ(a.deviation, 2.5);
}

TEST(AdaptiveAgreementTest, OnlyComparableMeasurementsCount) {
  const std::map<int, double> rounds = {{2, 4.0}, {4, 2.0}, {8, kNaN}, {16, 0.0}};
  // A single sample, n the rounds did not measure, a rounds' time not finite or zero, and an
  // empty median do not compare; n = 1 is not in the rounds, so the reference is not compared.
  const AdaptiveAgreement a = CompareAdaptiveRun(
      {Seen(2, 1, 40.0), Seen(32, 8, 40.0), Seen(8, 8, 40.0), Seen(16, 8, 40.0), Seen(4, 8, 0.0),
       Seen(4, 3, 2.25)},
      8.0, rounds, true);
  EXPECT_EQ(a.compared, 1);
  EXPECT_DOUBLE_EQ(a.samples_ratio, 1.125);
  EXPECT_EQ(a.worst_n, 4);
  EXPECT_TRUE(std::isnan(a.reference_ratio));
  EXPECT_DOUBLE_EQ(a.deviation, 1.25);
  // Nothing to compare: not trusted, whatever the reference says.
  const AdaptiveAgreement none = CompareAdaptiveRun({Seen(2, 1, 4.0)}, 8.0, rounds, true);
  EXPECT_EQ(none.compared, 0);
  EXPECT_TRUE(std::isinf(none.deviation));
  EXPECT_EQ(none.worst_n, 0);
  EXPECT_FALSE(none.agrees());
}

TEST(AdaptiveAgreementTest, ASlowAnchorIsABurstOnTheRunWhereJudged) {
  // Run 191's slow anchor: the rounds at n = 1 5.78 ms, the run's non-streamed batch 8.63 ms
  // (its copies 2.1x), its streamed visits as the rounds.
  const std::map<int, double> rounds = {{1, 5.78}, {2, 4.57}, {4, 3.97}, {8, 3.5}};
  const std::vector<MeasuredN> visits = {Seen(4, 8, 3.97), Seen(8, 32, 3.5)};
  AdaptiveAgreement a = CompareAdaptiveRun(visits, 8.63, rounds, true);
  EXPECT_DOUBLE_EQ(a.samples_ratio, 1.0);
  EXPECT_NEAR(a.reference_ratio, 8.63 / 5.78, 1e-12);
  // 2.85 ms over, in units of 10 % of 5.78 ms.
  EXPECT_NEAR(a.reference_deviation, 2.85 / 0.578, 1e-9);
  EXPECT_NEAR(a.deviation, 2.85 / 0.578, 1e-9);
  EXPECT_DOUBLE_EQ(a.samples_deviation, 0.0);  // the check before session 35: agrees
  EXPECT_FALSE(a.agrees());
  // Not judged: reported alike, the run agrees.
  a = CompareAdaptiveRun(visits, 8.63, rounds, false);
  EXPECT_NEAR(a.reference_deviation, 2.85 / 0.578, 1e-9);
  EXPECT_DOUBLE_EQ(a.deviation, 0.0);
  EXPECT_TRUE(a.agrees());
  // 8 % slower: within its tolerance, and the larger of the two deviations counts.
  a = CompareAdaptiveRun({Seen(4, 8, 4.1685), Seen(8, 32, 3.5)}, 5.78 * 1.08, rounds, true);
  EXPECT_NEAR(a.reference_deviation, 0.8, 1e-9);
  EXPECT_NEAR(a.samples_ratio, 1.025, 1e-9);  // the median of 1.05 and 1: 0.25 of 10 %
  EXPECT_NEAR(a.samples_deviation, 0.25, 1e-9);
  EXPECT_NEAR(a.deviation, 0.8, 1e-9);
  EXPECT_TRUE(a.agrees());
  // Faster than the rounds is no burst on the run (one on the rounds, if any): not counted.
  a = CompareAdaptiveRun(visits, 4.0, rounds, true);
  EXPECT_DOUBLE_EQ(a.reference_deviation, 0.0);
  EXPECT_DOUBLE_EQ(a.deviation, 0.0);
}

TEST(AdaptiveAgreementTest, ATinyBatchsTimingEventsAreNoBurst) {
  // Run 192's 0.5 MiB matrix product on a quiet lease: the rounds at n = 1 46.6 us, its one
  // non-streamed batch with timing events 56.6 us (21 % over, 10 us): under the 25 us floor.
  const std::map<int, double> rounds = {{1, 0.0466}, {2, 0.046}};
  AdaptiveAgreement a = CompareAdaptiveRun({Seen(2, 32, 0.046)}, 0.0566, rounds, true);
  EXPECT_NEAR(a.reference_ratio, 0.0566 / 0.0466, 1e-12);
  EXPECT_NEAR(a.reference_deviation, 0.4, 1e-9);  // 10 us of 25
  EXPECT_NEAR(a.deviation, 0.4, 1e-9);
  EXPECT_TRUE(a.agrees());
  // 35 us over (1.75x): beyond the floor, a burst.
  a = CompareAdaptiveRun({Seen(2, 32, 0.046)}, 0.0816, rounds, true);
  EXPECT_NEAR(a.reference_deviation, 1.4, 1e-9);
  EXPECT_FALSE(a.agrees());
}

// HandSweep with the device's time alone on three points of A: n = 1 (held 10, current 11:
// error 0.1; calibrated device part 10), n = 4 (held 4, current 4: 0; device part 5: 0.25),
// n = 8 (held 5, current 5.5: 0.1; no device part).
std::vector<SweepPoint> HandSweepHeld() {
  std::vector<SweepPoint> pts = HandSweep();
  pts[0].held_ms = 10;
  pts[0].calibrated_device_ms = 10;
  pts[4].held_ms = 4;
  pts[4].calibrated_device_ms = 5;
  pts[6].held_ms = 5;
  pts[6].current_device_ms = 4.5;  // error 0.1
  pts[5].current_device_ms = 9;    // not held: not counted
  return pts;
}

TEST(SweepSummaryTest, DeviceTime) {
  absl::StatusOr<SweepSummary> s = Summarize(HandSweepHeld());
  ASSERT_TRUE(s.ok()) << s.status();
  const std::vector<ModelAccuracy>& d = s->device_accuracy;
  ASSERT_EQ(d.size(), kSweepModelCount + 2);
  for (std::size_t m = 0; m < kSweepModelCount; ++m) {
    EXPECT_EQ(d[m].model, std::string(ModelName(kAllModelKinds[m])));
  }
  EXPECT_EQ(d[kSweepModelCount].model, "current, device paths");
  EXPECT_EQ(d[kSweepModelCount].points, 1);
  EXPECT_DOUBLE_EQ(d[kSweepModelCount].max_rel_error, 0.1);
  EXPECT_EQ(d.back().model, "calibrated, device part");
  // current against held: 0.1, 0, 0.1.
  EXPECT_EQ(d[kCurrent].points, 3);
  EXPECT_DOUBLE_EQ(d[kCurrent].median_rel_error, 0.1);
  EXPECT_DOUBLE_EQ(d[kCurrent].max_rel_error, 0.1);
  EXPECT_EQ(d[kCurrent].over_10_percent, 0);
  // werkhoven-2ce predicts A n=1 only (12 against 10).
  EXPECT_EQ(d[k2ce].points, 1);
  EXPECT_DOUBLE_EQ(d[k2ce].max_rel_error, 0.2);
  EXPECT_EQ(d.back().points, 2);
  EXPECT_DOUBLE_EQ(d.back().median_rel_error, 0.125);
  EXPECT_DOUBLE_EQ(d.back().max_rel_error, 0.25);
  EXPECT_EQ(d.back().over_10_percent, 1);
  // The wall-time rows are unchanged by the held times.
  EXPECT_EQ(AccuracyOf(*s, "current").points, 8);
  EXPECT_DOUBLE_EQ(AccuracyOf(*s, "calibrated").max_rel_error, 0.1);

  const std::string md = SummaryMarkdown(*s);
  EXPECT_THAT(md, HasSubstr("### Device time (the host's issue hidden)"));
  EXPECT_EQ(LineStarting(md.substr(md.find("### Device time")), "| current "),
            "| current | 3 | 10.0% | 10.0% | 0 |");
  EXPECT_EQ(LineStarting(md, "| calibrated, device part "),
            "| calibrated, device part | 2 | 12.5% | 25.0% | 1 |");
  const std::string text = SummaryText(*s);
  EXPECT_THAT(text, HasSubstr("Device time (against batches held until issued):"));
  EXPECT_THAT(LineStarting(text, "  calibrated, device part"),
              testing::MatchesRegex(" +calibrated, device part +2 +12\\.5% +25\\.0% +1"));

  // Without held points: rows of 0 points, no table.
  s = Summarize(HandSweep());
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_EQ(s->device_accuracy.size(), kSweepModelCount + 2);
  EXPECT_EQ(s->device_accuracy.back().points, 0);
  EXPECT_TRUE(std::isnan(s->device_accuracy.back().max_rel_error));
  EXPECT_THAT(SummaryText(*s), Not(HasSubstr("Device time")));
}

TEST(SweepSummaryTest, Markdown) {
  absl::StatusOr<SweepSummary> s = Summarize(HandSweep());
  ASSERT_TRUE(s.ok()) << s.status();
  const std::string md = SummaryMarkdown(*s);
  const std::string choices = md.substr(md.find("### Choice of n"));
  EXPECT_EQ(LineStarting(md, "| current "), "| current | 8 | 5.0% | 25.0% |");
  EXPECT_EQ(LineStarting(md, "| calibrated "), "| calibrated | 1 | 10.0% | 10.0% |");
  EXPECT_EQ(LineStarting(md, "| gomez-luna-cc1 "), "| gomez-luna-cc1 | 0 | n/a | n/a |");
  EXPECT_EQ(LineStarting(md, "| werkhoven-2ce "), "| werkhoven-2ce | 3 | 20.0% | 50.0% |");
  // Speeds: adaptive 5 / 5.5 and 1 (mean 0.955, the lowest 0.909); werkhoven-2ce 1 / 1.2,
  // 1 / 1.125 and 0.75 (mean 0.824).
  EXPECT_EQ(LineStarting(choices, "| adaptive "),
            "| adaptive | 2 | 1.050 | 1.100 | 0.955 | 0.909 |");
  EXPECT_EQ(LineStarting(choices, "| werkhoven-2ce "),
            "| werkhoven-2ce | 3 | 1.219 | 1.333 | 0.824 | 0.750 |");
  EXPECT_EQ(LineStarting(choices, "| current "), "| current | 2 | 1.000 | 1.000 | 1.000 | 1.000 |");
  // One issue mode: no table per mode.
  EXPECT_THAT(md, Not(HasSubstr("Per issue mode")));
  EXPECT_EQ(LineStarting(md, "| best n vs n=1 "), "| best n vs n=1 | 2.25x | 2 |");
  EXPECT_EQ(LineStarting(md, "| adaptive n vs n=8 "), "| adaptive n vs n=8 | 1.00x | 2 |");
  EXPECT_EQ(LineStarting(md, "| measurement, after / before "),
            "| measurement, after / before | 0 | n/a | n/a | 0 |");
  // Four tables, each with a header separator row; no device-time table where nothing was held.
  std::size_t tables = 0;
  for (std::size_t pos = 0; (pos = md.find("| --- |", pos)) != std::string::npos; ++pos) ++tables;
  EXPECT_EQ(tables, 4u);
  EXPECT_THAT(md, Not(HasSubstr("Device time")));

  s = Summarize(HandSweepMeasuredTwice());
  ASSERT_TRUE(s.ok()) << s.status();
  const std::string twice = SummaryMarkdown(*s);
  EXPECT_EQ(LineStarting(twice, "| measurement, after / before "),
            "| measurement, after / before | 4 | 4.7% | 25.0% | 1 |");
  EXPECT_EQ(LineStarting(twice, "| calibrated, measured twice "),
            "| calibrated, measured twice | 3 | 10.0% | 25.0% | 1 |");
  EXPECT_EQ(LineStarting(twice, "| calibrated, repeating within 5.0% "),
            "| calibrated, repeating within 5.0% | 1 | 10.0% | 10.0% | 0 |");
}

// HandSweep with configuration C on a second grid: the per-grid rows split the errors.
TEST(SweepSummaryTest, AccuracyPerGrid) {
  std::vector<SweepPoint> pts = HandSweep();
  pts[8].grid = pts[9].grid = "matmul";  // C: n = 2 (4 ms), n = 16 (3 ms)
  pts[8].calibrated_ms = 5;              // error 0.25
  pts[9].predicted_ms[kCurrent] = 3.75;  // error 0.25
  absl::StatusOr<SweepSummary> s = Summarize(pts);
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_EQ(s->grid_accuracy.size(), 2u);
  const GridAccuracy& sym = s->grid_accuracy[0];
  const GridAccuracy& mat = s->grid_accuracy[1];
  EXPECT_EQ(sym.grid, "symmetric");
  EXPECT_EQ(sym.points, 8);
  EXPECT_EQ(mat.grid, "matmul");
  EXPECT_EQ(mat.points, 2);
  ASSERT_EQ(sym.accuracy.size(), kSweepModelCount + 1);
  ASSERT_EQ(mat.accuracy.size(), kSweepModelCount + 1);
  const std::size_t current = kCurrent;
  // symmetric: current 0.1 0 0.2 0 / 0 0.25 0 0.25 as in Accuracy; the calibrated A n=4 (0.1).
  EXPECT_EQ(sym.accuracy[current].points, 8);
  EXPECT_DOUBLE_EQ(sym.accuracy[current].median_rel_error, 0.05);
  EXPECT_DOUBLE_EQ(sym.accuracy[current].max_rel_error, 0.25);
  EXPECT_EQ(sym.accuracy[current].over_10_percent, 3);
  EXPECT_EQ(sym.accuracy.back().model, "calibrated");
  EXPECT_EQ(sym.accuracy.back().points, 1);
  EXPECT_DOUBLE_EQ(sym.accuracy.back().max_rel_error, 0.1);
  // matmul: only C's own predictions.
  EXPECT_EQ(mat.accuracy[current].points, 1);
  EXPECT_DOUBLE_EQ(mat.accuracy[current].max_rel_error, 0.25);
  EXPECT_EQ(mat.accuracy[current].over_10_percent, 1);
  EXPECT_EQ(mat.accuracy.back().points, 1);
  EXPECT_DOUBLE_EQ(mat.accuracy.back().max_rel_error, 0.25);
  EXPECT_EQ(mat.accuracy.back().over_10_percent, 1);
  // Over every grid, the calibrated row has both points.
  EXPECT_EQ(AccuracyOf(*s, "calibrated").points, 2);

  const std::string md = SummaryMarkdown(*s);
  const std::string per_grid = md.substr(md.find("### Prediction accuracy per grid"));
  EXPECT_EQ(LineStarting(per_grid, "| predictor "), "| predictor | symmetric (8) | matmul (2) |");
  EXPECT_EQ(LineStarting(per_grid, "| current "),
            "| current | 5.0% / 25.0% (3) | 25.0% / 25.0% (1) |");
  EXPECT_EQ(LineStarting(per_grid, "| werkhoven-2ce "),
            "| werkhoven-2ce | 20.0% / 50.0% (2) | n/a |");
  EXPECT_EQ(LineStarting(per_grid, "| calibrated "),
            "| calibrated | 10.0% / 10.0% (0) | 25.0% / 25.0% (1) |");
  const std::string text = SummaryText(*s);
  const std::string text_grid = text.substr(text.find("Prediction accuracy per grid"));
  EXPECT_THAT(LineStarting(text_grid, "  calibrated "),
              testing::MatchesRegex(" +calibrated +10\\.0% / 10\\.0% \\(0\\) +"
                                    "25\\.0% / 25\\.0% \\(1\\)"));

  // One grid: no per-grid rows, no per-grid table.
  s = Summarize(HandSweep());
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_TRUE(s->grid_accuracy.empty());
  EXPECT_THAT(SummaryMarkdown(*s), Not(HasSubstr("per grid")));
  EXPECT_THAT(SummaryText(*s), Not(HasSubstr("per grid")));
}

// HandSweep with configuration C issued as graphs: each mode's accuracy and choices are those
// of its own points, as its own sweep would give them.
TEST(SweepSummaryTest, PerIssueMode) {
  std::vector<SweepPoint> pts = HandSweep();
  pts[8].issue = pts[9].issue = "graph";  // C: n = 2 (4 ms), n = 16 (3 ms, the best)
  pts[8].calibrated_ms = 5;              // error 0.25
  pts[9].predicted_ms[kCurrent] = 3.75;  // error 0.25
  pts[8].adaptive_n = pts[9].adaptive_n = 2;  // ratio 4 / 3
  absl::StatusOr<SweepSummary> s = Summarize(pts);
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_EQ(s->issue_modes.size(), 2u);
  const IssueModeSummary& calls = s->issue_modes[0];
  const IssueModeSummary& graphs = s->issue_modes[1];
  EXPECT_EQ(calls.issue, "streams");
  EXPECT_EQ(calls.points, 8);
  EXPECT_EQ(calls.configs, 2);
  EXPECT_EQ(graphs.issue, "graph");
  EXPECT_EQ(graphs.points, 2);
  EXPECT_EQ(graphs.configs, 1);
  const std::size_t current = kCurrent;
  EXPECT_EQ(calls.accuracy[current].points, 8);
  EXPECT_DOUBLE_EQ(calls.accuracy[current].median_rel_error, 0.05);
  EXPECT_DOUBLE_EQ(calls.accuracy[current].max_rel_error, 0.25);
  EXPECT_EQ(graphs.accuracy[current].points, 1);
  EXPECT_DOUBLE_EQ(graphs.accuracy.back().max_rel_error, 0.25);  // calibrated
  EXPECT_EQ(calls.accuracy.back().points, 1);                     // A n = 4
  EXPECT_DOUBLE_EQ(calls.accuracy.back().max_rel_error, 0.1);
  // The adaptive choice: A 5.5 / 5 and B 1 by call; C 4 / 3 as graphs.
  const ChoiceQuality& ad_calls = calls.choices.back();
  const ChoiceQuality& ad_graphs = graphs.choices.back();
  EXPECT_EQ(ad_calls.who, "adaptive");
  EXPECT_EQ(ad_calls.configs, 2);
  EXPECT_DOUBLE_EQ(ad_calls.mean_ratio, 1.05);
  EXPECT_DOUBLE_EQ(ad_calls.worst_speed, 5.0 / 5.5);
  EXPECT_EQ(ad_graphs.configs, 1);
  EXPECT_DOUBLE_EQ(ad_graphs.mean_ratio, 4.0 / 3);
  EXPECT_DOUBLE_EQ(ad_graphs.worst_speed, 0.75);
  // Over both modes, all three.
  EXPECT_EQ(ChoiceOf(*s, "adaptive").configs, 3);
  EXPECT_DOUBLE_EQ(ChoiceOf(*s, "adaptive").worst_speed, 0.75);

  const std::string md = SummaryMarkdown(*s);
  const std::string per_mode = md.substr(md.find("### Per issue mode"));
  EXPECT_EQ(LineStarting(per_mode, "| predictor "),
            "| predictor | streams (8 points, 2 configurations) | graph (2 points, 1 "
            "configurations) |");
  EXPECT_EQ(LineStarting(per_mode, "| calibrated "),
            "| calibrated | 10.0% / 10.0% (0) | 25.0% / 25.0% (1) |");
  EXPECT_EQ(LineStarting(per_mode, "| adaptive "),
            "| adaptive | 1.050 / 1.100 (0.955 / 0.909) | 1.333 / 1.333 (0.750 / 0.750) |");
  EXPECT_EQ(LineStarting(per_mode, "| gomez-luna-cc1 "), "| gomez-luna-cc1 | n/a | n/a |");
  const std::string text = SummaryText(*s);
  const std::string text_mode = text.substr(text.find("Per issue mode"));
  EXPECT_THAT(LineStarting(text_mode, "  adaptive "),
              testing::MatchesRegex(" +adaptive +1\\.050 / 1\\.100 \\(0\\.955 / 0\\.909\\) +"
                                    "1\\.333 / 1\\.333 \\(0\\.750 / 0\\.750\\)"));
}

TEST(SweepSummaryTest, Text) {
  absl::StatusOr<SweepSummary> s = Summarize(HandSweep());
  ASSERT_TRUE(s.ok()) << s.status();
  const std::string text = SummaryText(*s);
  EXPECT_THAT(LineStarting(text, "  current "),
              testing::MatchesRegex(" +current +8 +5\\.0% +25\\.0%"));
  EXPECT_THAT(LineStarting(text, "  adaptive "),
              testing::MatchesRegex(" +adaptive +2 +1\\.050 +1\\.100 +0\\.955 +0\\.909"));
  EXPECT_THAT(text, Not(HasSubstr("Per issue mode")));
  EXPECT_THAT(LineStarting(text, "  best n vs n=4"),
              testing::MatchesRegex(" +best n vs n=4 +2 +1\\.06x"));
  EXPECT_THAT(text, HasSubstr("3 in the sweep"));
  s = Summarize(HandSweepMeasuredTwice());
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_THAT(LineStarting(SummaryText(*s), "  measurement, after / before"),
              testing::MatchesRegex(" +measurement, after / before +4 +4\\.7% +25\\.0% +1"));
}

// ---------------------------------------------------------------------------------------------
// The sample CSV that bench/plot.py is tried on.

TEST(SweepSampleTest, ParsesAndSummarizes) {
  const std::filesystem::path path =
      std::filesystem::path(__FILE__).parent_path() / "data" / "sweep_sample.csv";
  std::ifstream in(path);
  ASSERT_TRUE(in) << "cannot open " << path;
  std::stringstream ss;
  ss << in.rdbuf();
  absl::StatusOr<std::vector<SweepPoint>> pts = ParseSweepCsv(ss.str());
  ASSERT_TRUE(pts.ok()) << pts.status();
  ASSERT_EQ(pts->size(), 8u);
  EXPECT_EQ((*pts)[0].workload, "add-scalar");
  EXPECT_EQ((*pts)[0].in_bytes, 67108864);
  EXPECT_TRUE(std::isnan((*pts)[0].predicted_ms[ModelIndex(ModelKind::kWerkhovenMapped)]));
  absl::StatusOr<SweepSummary> s = Summarize(*pts);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->speedups.configs, 2);
  // Adaptive: n = 8 in the intensity-10 configuration (the best), n = 4 (7.104 ms) in the
  // intensity-100 one, whose best is n = 8 (6.521 ms).
  const ChoiceQuality& ad = ChoiceOf(*s, "adaptive");
  EXPECT_EQ(ad.configs, 2);
  EXPECT_DOUBLE_EQ(ad.worst_ratio, 7.104 / 6.521);
  EXPECT_DOUBLE_EQ(s->speedups.vs_non_streamed_mean, (6.553 / 3.584 + 11.362 / 7.104) / 2);
  // The sample's current model chooses n = 16, which it did not measure.
  EXPECT_EQ(ChoiceOf(*s, "current").configs, 0);
  EXPECT_EQ(AccuracyOf(*s, "werkhoven-mapped").points, 0);
  EXPECT_EQ(AccuracyOf(*s, "current").points, 8);
}

// ---------------------------------------------------------------------------------------------
// --resume: which configurations of a stopped sweep's rows are kept

TEST(SweepResumeTest, KeepsTheConfigurationsHeldWholeAndNamesWhatDoesNotBelong) {
  // The stopped sweep measured intensity 1 whole and 50 whole, through a CSV round trip (what
  // --resume reads); the resuming one measures 1, 50 and 200 at n = 1, 2, 4.
  const std::string settings = "held=2 warmup=3 profile=fnv1a64:0123456789abcdef";
  std::string csv = SweepCsvHeader();
  for (double it : {1.0, 50.0}) {
    for (int n : {1, 2, 4}) {
      SweepPoint p = Point(it, n, 10.0 / n);
      p.settings = settings;
      csv += SweepCsvRow(p);
    }
  }
  absl::StatusOr<std::vector<SweepPoint>> rows = ParseSweepCsv(csv);
  ASSERT_TRUE(rows.ok()) << rows.status();
  SweepResume resume;
  resume.repetitions = 20;
  resume.settings = settings;
  for (double it : {1.0, 50.0, 200.0}) resume.streams[ConfigKeyOf(Point(it, 1, 1.0))] = {1, 2, 4};
  absl::StatusOr<std::set<SweepConfigKey>> kept = KeptConfigurations(*rows, resume);
  ASSERT_TRUE(kept.ok()) << kept.status();
  EXPECT_EQ(*kept, (std::set<SweepConfigKey>{ConfigKeyOf(Point(1.0, 1, 1.0)),
                                             ConfigKeyOf(Point(50.0, 1, 1.0))}));
  // Another issue mode is another configuration.
  SweepPoint graph = Point(1.0, 1, 1.0);
  graph.issue = "graph";
  EXPECT_NE(ConfigKeyOf(graph), ConfigKeyOf(Point(1.0, 1, 1.0)));

  // A configuration cut short (n = 4 missing), and one with an n this sweep does not measure.
  std::vector<SweepPoint> cut(rows->begin(), rows->end() - 1);
  absl::Status c = KeptConfigurations(cut, resume).status();
  EXPECT_TRUE(absl::IsInvalidArgument(c)) << c;
  EXPECT_NE(c.message().find("the rows hold n = 1,2 of add-scalar symmetric, 1048576 B in, "
                             "1048576 B out, intensity 50, depth-first, streams, where this "
                             "sweep measures n = 1,2,4"),
            std::string::npos)
      << c;
  std::vector<SweepPoint> extra = *rows;
  extra.push_back(extra.front());
  extra.back().streams = 8;
  EXPECT_FALSE(KeptConfigurations(extra, resume).ok());
  // Nothing stopped yet: nothing kept.
  kept = KeptConfigurations({}, resume);
  ASSERT_TRUE(kept.ok());
  EXPECT_TRUE(kept->empty());
  // A configuration this sweep does not measure at all.
  SweepResume fewer = resume;
  fewer.streams.erase(ConfigKeyOf(Point(1.0, 1, 1.0)));
  c = KeptConfigurations(*rows, fewer).status();
  EXPECT_NE(c.message().find("a configuration this sweep does not measure (add-scalar symmetric, "
                             "1048576 B in, 1048576 B out, intensity 1, depth-first, streams)"),
            std::string::npos)
      << c;
}

TEST(SweepResumeTest, RowsOfOtherRepetitionsOrSettingsAreNotKept) {
  const std::string settings = "held=2 warmup=3 profile=fnv1a64:0123456789abcdef";
  std::vector<SweepPoint> rows;
  for (int n : {1, 2}) {
    rows.push_back(Point(1.0, n, 1.0 / n));
    rows.back().settings = settings;
  }
  SweepResume resume;
  resume.repetitions = 20;
  resume.settings = settings;
  resume.streams[ConfigKeyOf(rows[0])] = {1, 2};
  ASSERT_TRUE(KeptConfigurations(rows, resume).ok());

  SweepResume other = resume;
  other.repetitions = 30;
  absl::Status c = KeptConfigurations(rows, other).status();
  EXPECT_TRUE(absl::IsInvalidArgument(c)) << c;
  EXPECT_THAT(Message(c), HasSubstr("the row n = 1 of add-scalar symmetric"));
  EXPECT_THAT(Message(c), HasSubstr("was measured with --repetitions=20, this sweep's is 30: "
                                    "resume with the stopped sweep's flags"));

  // Another value, a setting only one side has, another profile: named, each.
  other = resume;
  other.settings = "held=0 warmup=3 profile=fnv1a64:fedcba9876543210 probe-ratio=3";
  c = KeptConfigurations(rows, other).status();
  EXPECT_TRUE(absl::IsInvalidArgument(c)) << c;
  EXPECT_THAT(Message(c),
              HasSubstr("was measured with other settings than this sweep's (its -> this "
                        "sweep's: held: 2 -> 0; profile: fnv1a64:0123456789abcdef -> "
                        "fnv1a64:fedcba9876543210; probe-ratio: not set -> 3): resume with the "
                        "stopped sweep's flags"));
  // One row of another sweep among the kept ones is enough.
  std::vector<SweepPoint> mixed = rows;
  mixed[1].settings = "held=0 warmup=3 profile=fnv1a64:0123456789abcdef";
  c = KeptConfigurations(mixed, resume).status();
  EXPECT_THAT(Message(c), HasSubstr("the row n = 2 of add-scalar symmetric"));
  EXPECT_THAT(Message(c), HasSubstr("(its -> this sweep's: held: 0 -> 2)"));
  // Rows written before the column existed record no settings: not this sweep's.
  std::vector<SweepPoint> unrecorded = rows;
  for (SweepPoint& p : unrecorded) p.settings.clear();
  c = KeptConfigurations(unrecorded, resume).status();
  EXPECT_THAT(Message(c), HasSubstr("held: not set -> 2"));
  // The same pairs in another order are the same settings.
  other = resume;
  other.settings = "profile=fnv1a64:0123456789abcdef warmup=3 held=2";
  EXPECT_TRUE(KeptConfigurations(rows, other).ok());
}

TEST(SweepSettingsTest, FormatsPairsAndRefusesWhatWouldNotReadBack) {
  absl::StatusOr<std::string> s =
      FormatSweepSettings({{"held", "2"}, {"drift-threshold", "0.1"}, {"note", ""}});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(*s, "held=2 drift-threshold=0.1 note=");
  EXPECT_EQ(*FormatSweepSettings({}), "");
  for (const auto& [key, value, want] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"", "1", "sweep setting '=1'"},
           {"he ld", "1", "sweep setting 'he ld=1'"},
           {"held", "1,2", "sweep setting 'held=1,2'"},
           {"held", "a=b", "sweep setting 'held=a=b'"},
           {"a=b", "1", "sweep setting 'a=b=1'"},
           {"held", "1\n", "sweep setting 'held=1\n'"}}) {
    absl::StatusOr<std::string> bad = FormatSweepSettings({{key, value}});
    ASSERT_FALSE(bad.ok()) << key << "=" << value;
    EXPECT_TRUE(absl::IsInvalidArgument(bad.status()));
    EXPECT_THAT(Message(bad.status()), HasSubstr(want));
  }
  absl::StatusOr<std::string> twice = FormatSweepSettings({{"held", "1"}, {"held", "2"}});
  ASSERT_FALSE(twice.ok());
  EXPECT_THAT(Message(twice.status()), HasSubstr("sweep setting 'held' is given twice"));
}

TEST(SweepSettingsTest, NumbersAreWrittenExactly) {
  EXPECT_EQ(SweepSettingNumber(0.1), "0.1");
  EXPECT_EQ(SweepSettingNumber(3.0), "3");
  EXPECT_EQ(SweepSettingNumber(150.0), "150");
  // Six significant digits (absl::StrCat's) would make each pair one value.
  EXPECT_NE(SweepSettingNumber(0.1234564), SweepSettingNumber(0.1234562));
  EXPECT_NE(SweepSettingNumber(3.0000001), SweepSettingNumber(3.0));
  for (double v : {0.1 + 0.2, 1.0 / 3, 1e-300, 12345678.9}) {
    EXPECT_EQ(std::stod(SweepSettingNumber(v)), v) << SweepSettingNumber(v);
  }
}

TEST(SweepSettingsTest, DifferenceNamesEachKeyThatDiffers) {
  EXPECT_EQ(SweepSettingsDifference("a=1 b=2", "a=1 b=2"), "");
  EXPECT_EQ(SweepSettingsDifference("a=1 b=2", "b=2 a=1"), "");
  EXPECT_EQ(SweepSettingsDifference("", ""), "");
  EXPECT_EQ(SweepSettingsDifference("a=1 b=2 c=3", "c=4 a=1 d=5"),
            "c: 3 -> 4; b: 2 -> not set; d: not set -> 5");
  EXPECT_EQ(SweepSettingsDifference("a b=", "a= b"), "");  // a key alone: an empty value
  EXPECT_EQ(SweepSettingsDifference("a=1", ""), "a: 1 -> not set");
}

TEST(SweepSummaryTest, NamesTheSettingsTheRowsWereMeasuredWith) {
  std::vector<SweepPoint> pts;
  for (double it : {1.0, 50.0}) {
    for (int n : {1, 2}) {
      pts.push_back(Point(it, n, 4.0 / n));
      pts.back().settings = "held=2 warmup=3";
    }
  }
  absl::StatusOr<SweepSummary> s = Summarize(pts);
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_EQ(s->settings.size(), 1u);
  EXPECT_EQ(s->settings[0], (std::pair<std::string, int>{"held=2 warmup=3", 4}));
  EXPECT_THAT(SummaryMarkdown(*s), HasSubstr("\n### Settings\n\nMeasured with `held=2 warmup=3`.\n"));
  EXPECT_THAT(SummaryText(*s), HasSubstr("Settings: held=2 warmup=3\n"));

  // Rows of two sweeps put together: each named, with its rows and what differs.
  pts[2].settings = pts[3].settings = "held=0 warmup=3";
  s = Summarize(pts);
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_EQ(s->settings.size(), 2u);
  EXPECT_EQ(s->settings[1], (std::pair<std::string, int>{"held=0 warmup=3", 2}));
  const std::string md = SummaryMarkdown(*s);
  EXPECT_THAT(md, HasSubstr("The rows were measured with 2 settings, and the tables above mix "
                            "them:\n\n- 2 rows: `held=2 warmup=3`\n- 2 rows: `held=0 warmup=3` "
                            "(from the first: held: 2 -> 0)\n"));
  EXPECT_THAT(SummaryText(*s), HasSubstr("Warning: the rows were measured with 2 settings"));

  // The same pairs in another order are the same settings (a resume accepts them too).
  pts[2].settings = pts[3].settings = "warmup=3 held=2";
  s = Summarize(pts);
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_EQ(s->settings.size(), 1u);
  EXPECT_EQ(s->settings[0], (std::pair<std::string, int>{"held=2 warmup=3", 4}));
  // Rows that record none beside rows that do: named as such.
  pts[3].settings.clear();
  s = Summarize(pts);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_THAT(SummaryMarkdown(*s),
              HasSubstr("- 1 row: (not recorded) (from the first: held: 2 -> not set; warmup: "
                        "3 -> not set)\n"));
  // CSVs from before the column: nothing said.
  for (SweepPoint& p : pts) p.settings.clear();
  s = Summarize(pts);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(SummaryMarkdown(*s).find("### Settings"), std::string::npos);
  EXPECT_EQ(SummaryText(*s).find("Settings"), std::string::npos);
}

}  // namespace
}  // namespace streampipe
