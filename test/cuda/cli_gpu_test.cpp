// `streampipe calibrate`, `sweep` and `histogram` on a GPU, end to end, for what they write: the
// outputs whole where the command completes, an earlier file of the same name untouched until
// then, the rows measured kept in `<output>.partial` where a sweep is stopped part way, and a
// path that cannot be written refused before any work.
#include <unistd.h>

#include <climits>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpu_test_util.hpp"
#include "run_command.hpp"

namespace streampipe {
namespace {

// The streampipe program: beside this test in the device bundle, else the build tree's.
std::string ProgramPath() {
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  const std::string self = n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : "";
  const std::string sibling = self.substr(0, self.rfind('/') + 1) + "streampipe";
  return std::filesystem::exists(sibling) ? sibling : STREAMPIPE_BIN;
}
const std::string kBin = ProgramPath();

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

// A few batches per point: the test is about the files, not the figures.
constexpr char kSmall[] =
    " --streams=1,2 --repetitions=2 --per-visit=1 --held=0 --warmup=1 --adaptive-batches=12";

class SweepCliGpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    STREAMPIPE_REQUIRE_GPU();
    dir_ = ::testing::TempDir() + "/sweep_cli_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    // The profile: calibrate's own output, over an earlier file it must replace whole.
    profile_ = dir_ + "/gpu.toml";
    std::ofstream(profile_) << "not a profile\n";
    testing::CommandResult r = testing::RunCommand(kBin + " calibrate --quick --output=" + profile_);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    ASSERT_NE(testing::ReadFile(profile_).find("# streampipe device profile"), std::string::npos);
    ASSERT_FALSE(std::filesystem::exists(profile_ + ".partial"));
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  std::string dir_;
  std::string profile_;
};

TEST_F(SweepCliGpuTest, ACompleteSweepWritesEveryOutputWhole) {
  const std::string csv = dir_ + "/sweep.csv", md = dir_ + "/summary.md";
  std::ofstream(csv) << "an earlier sweep\n";
  testing::CommandResult r = testing::RunCommand(
      "timeout 300 " + kBin + " sweep --grid=quick --profile=" + profile_ + kSmall +
      " --output=" + csv + " --summary=" + md + " --trace-dir=" + dir_ + "/traces");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The quick grid: add-scalar at two intensities, depth-first, call by call; two n each.
  const std::vector<std::string> rows = Lines(testing::ReadFile(csv));
  ASSERT_EQ(rows.size(), 5u) << testing::ReadFile(csv);
  EXPECT_EQ(rows[0].rfind("workload,grid,in_bytes,out_bytes,intensity,order,streams,", 0), 0u);
  for (std::size_t i = 1; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].rfind("add-scalar,quick,", 0), 0u) << rows[i];
  }
  EXPECT_FALSE(std::filesystem::exists(csv + ".partial"));
  EXPECT_FALSE(std::filesystem::exists(md + ".partial"));
  EXPECT_NE(testing::ReadFile(md).find("### Choice of n"), std::string::npos);
  // The summary says how the rows were measured: the sweep's flags and the profile.
  EXPECT_NE(testing::ReadFile(md).find("### Settings\n\nMeasured with `per-visit=1 held=0 "
                                       "warmup=1 adaptive-batches=12 adaptive-max-batches=48 "),
            std::string::npos)
      << testing::ReadFile(md);
  for (const char* order : {"depth-first", "breadth-first", "engine-per-stream"}) {
    const std::string trace = dir_ + "/traces/trace_" + std::string(order) + ".json";
    EXPECT_NE(testing::ReadFile(trace).find("\"traceEvents\""), std::string::npos) << trace;
    EXPECT_FALSE(std::filesystem::exists(trace + ".partial")) << trace;
  }
  // A configuration listed twice is measured once (its rows would not say which was which).
  r = testing::RunCommand("timeout 300 " + kBin + " sweep --grid=quick --profile=" + profile_ +
                          kSmall + " --orders=depth-first,depth-first --output=" + csv);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("2 configurations listed twice, measured once"), std::string::npos) << r.err;
  EXPECT_EQ(Lines(testing::ReadFile(csv)).size(), 5u);
  // The same CSV on stdout: the header once, the rows as each configuration completes.
  r = testing::RunCommand("timeout 300 " + kBin + " sweep --grid=quick --profile=" + profile_ +
                          kSmall + " --output=-");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> out = Lines(r.out);
  ASSERT_EQ(out.size(), 5u) << r.out;
  EXPECT_EQ(out[0], rows[0]);
}

// --config: the file's plan is measured, a flag beside it winning over its key.
TEST_F(SweepCliGpuTest, AConfigFileGivesThePlanAndAFlagWinsOverIt) {
  const std::string csv = dir_ + "/from-file.csv", plan = dir_ + "/plan.toml";
  std::ofstream(plan) << "[sweep]\ngrid = \"matmul\"\nmatmul_p = \"256\"\nstreams = \"1,2\"\n"
                         "repetitions = 2\nper_visit = 1\nheld = 0\nwarmup = 1\n"
                         "adaptive_batches = 12\noutput = \"" + csv + "\"\n";
  testing::CommandResult r = testing::RunCommand("timeout 300 " + kBin + " sweep --config=" +
                                                 plan + " --profile=" + profile_ + " --streams=1,4");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> rows = Lines(testing::ReadFile(csv));
  ASSERT_EQ(rows.size(), 3u) << testing::ReadFile(csv);
  for (std::size_t i = 1; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].rfind("matmul,matmul,", 0), 0u) << rows[i];
    // The file's settings, recorded by each row.
    EXPECT_NE(rows[i].find("per-visit=1 held=0 warmup=1 adaptive-batches=12 "), std::string::npos)
        << rows[i];
  }
  // n from the flag (1, 4), not the file (1, 2): the column after the order.
  EXPECT_NE(rows[1].find(",depth-first,1,"), std::string::npos) << rows[1];
  EXPECT_NE(rows[2].find(",depth-first,4,"), std::string::npos) << rows[2];
}

// A profile's failures each with their code (every one was 78 before session 51): one that
// cannot be read (a directory) 66, a broken one 78, one that cannot be written after the
// calibration 74; and a device the machine lacks is the configuration's (64 from a flag).
TEST(ProfileCliGpuTest, AProfilesFailuresHaveTheirOwnExitCodes) {
  STREAMPIPE_REQUIRE_GPU();
  const std::string dir = ::testing::TempDir() + "/profile_codes";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir + "/a-directory.toml");
  std::ofstream(dir + "/broken.toml") << "not a profile\n";
  const std::string run = "timeout 300 " + kBin +
                          " histogram --quiet --synthetic=section44 --frames=4 --width=64 "
                          "--height=64 --output=" + dir + "/h.csv --pipeline.profile=";
  testing::CommandResult r = testing::RunCommand(run + dir + "/a-directory.toml");
  EXPECT_EQ(r.exit_code, 66) << r.err;
  EXPECT_NE(r.err.find("pipeline.profile: "), std::string::npos) << r.err;
  r = testing::RunCommand(run + dir + "/broken.toml");
  EXPECT_EQ(r.exit_code, 78) << r.err;
  EXPECT_EQ(testing::ReadFile(dir + "/broken.toml"), "not a profile\n");
  r = testing::RunCommand(run + dir + "/no-such-dir/p.toml");
  EXPECT_EQ(r.exit_code, 74) << r.err;
  EXPECT_NE(r.err.find("pipeline.profile: "), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/h.csv"));
  r = testing::RunCommand("timeout 300 " + kBin + " sweep --grid=quick --output=" + dir +
                          "/s.csv --profile=" + dir + "/a-directory.toml");
  EXPECT_EQ(r.exit_code, 66) << r.err;
  r = testing::RunCommand(kBin + " histogram --quiet --synthetic=section44 --frames=4 "
                          "--pipeline.device=63 --output=" + dir + "/h.csv");
  EXPECT_EQ(r.exit_code, 64) << r.err;
  EXPECT_NE(r.err.find("--pipeline.device=63: this machine has "), std::string::npos) << r.err;
  std::filesystem::remove_all(dir);
}

// --profile naming another card's profile: refused with both cards named, before anything is
// measured, and the file left byte for byte (before session 46 the sweep calibrated this card
// and wrote over it).
TEST_F(SweepCliGpuTest, AnotherCardsProfileIsRefusedAndKept) {
  const std::string profile_text = testing::ReadFile(profile_);
  const std::size_t name = profile_text.find("\nname = \"");
  ASSERT_NE(name, std::string::npos) << profile_text;
  std::string theirs = profile_text;
  theirs.replace(name, profile_text.find('\n', name + 1) - name,
                 "\nname = \"NVIDIA Imaginary X1\"");
  const std::string card = dir_ + "/another-card.toml", csv = dir_ + "/sweep.csv";
  std::ofstream(card) << theirs;
  testing::CommandResult r = testing::RunCommand("timeout 300 " + kBin +
                                                 " sweep --grid=quick --profile=" + card + kSmall +
                                                 " --output=" + csv);
  EXPECT_EQ(r.exit_code, 78) << r.err;
  EXPECT_NE(r.err.find(card + ": the profile of 'NVIDIA Imaginary X1', and device 0 is '"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("a profile of another card is not written over"), std::string::npos)
      << r.err;
  EXPECT_EQ(testing::ReadFile(card), theirs);
  EXPECT_FALSE(std::filesystem::exists(csv));
  EXPECT_FALSE(std::filesystem::exists(csv + ".partial"));
  // This card's profile from another driver: calibrated again and written over, and said.
  const std::size_t driver = profile_text.find("\ndriver_version = ");
  ASSERT_NE(driver, std::string::npos) << profile_text;
  std::string stale = profile_text;
  stale.replace(driver, profile_text.find('\n', driver + 1) - driver, "\ndriver_version = 1");
  const std::string old_driver = dir_ + "/old-driver.toml";
  std::ofstream(old_driver) << stale;
  r = testing::RunCommand("timeout 300 " + kBin + " sweep --grid=quick --profile=" + old_driver +
                          kSmall + " --output=" + csv);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("streampipe sweep: --profile: " + old_driver +
                       ": this card's profile from driver 1 (the driver now is "),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("): calibrated again and written over\n"), std::string::npos) << r.err;
  EXPECT_EQ(testing::ReadFile(old_driver).find("\ndriver_version = 1\n"), std::string::npos)
      << "the stale profile was not written over";
}

TEST_F(SweepCliGpuTest, ASweepStoppedPartWayKeepsTheRowsItMeasured) {
  const std::string csv = dir_ + "/sweep.csv", partial = csv + ".partial";
  std::ofstream(csv) << "an earlier sweep\n";
  // Six configurations of 64 MiB each way; stopped (SIGTERM, as `timeout` does) once the first
  // configuration's rows are on disk, long before the last.
  const std::string adaptive = dir_ + "/adaptive.csv";
  const std::string sweep = kBin + " sweep --grid=symmetric --orders=depth-first --profile=" +
                            profile_ + kSmall + " --output=" + csv + " --adaptive-trace=" + adaptive;
  const std::string err = dir_ + "/sweep.err";
  testing::CommandResult r = testing::RunCommand(
      "sh -c '" + sweep + " 2>" + err + " & pid=$!; i=0; "
      "while [ \"$(wc -l < " + partial + " 2>/dev/null || echo 0)\" -lt 3 ] && [ $i -lt 2400 ]; "
      "do sleep 0.05; i=$((i + 1)); done; kill -TERM $pid; wait $pid; echo \"rc=$?\"'");
  ASSERT_NE(r.out.find("rc=143"), std::string::npos)
      << "not stopped part way: " << r.out << r.err << testing::ReadFile(err);
  EXPECT_EQ(testing::ReadFile(csv), "an earlier sweep\n");
  const std::vector<std::string> rows = Lines(testing::ReadFile(partial));
  ASSERT_GE(rows.size(), 3u);
  EXPECT_LT(rows.size(), 1u + 6 * 2);
  EXPECT_EQ((rows.size() - 1) % 2, 0u) << "a configuration's rows cut short";
  // What was measured is a sweep CSV: --from summarizes it.
  r = testing::RunCommand(kBin + " sweep --from=" + partial);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("Prediction accuracy"), std::string::npos) << r.err;
  // Every row records how it was measured: the flags its columns do not say, and the profile.
  const std::vector<std::string> first = Lines(testing::ReadFile(partial));
  EXPECT_EQ(first[0].substr(first[0].rfind(',')), ",settings");
  EXPECT_NE(first[1].find(",per-visit=1 held=0 warmup=1 adaptive-batches=12 "), std::string::npos)
      << first[1];
  EXPECT_NE(first[1].find(" hardware-queues="), std::string::npos) << first[1];
  EXPECT_NE(first[1].find(" profile=fnv1a64:"), std::string::npos) << first[1];
  // --resume with another flag than the stopped sweep's, or another profile, is refused with
  // what differs named, the file left as it was (and the adaptive trace).
  const std::string stopped = testing::ReadFile(partial);
  const std::string stopped_trace = testing::ReadFile(adaptive);
  ASSERT_EQ(stopped_trace.rfind("workload,grid,", 0), 0u) << stopped_trace;
  r = testing::RunCommand("timeout 300 " + sweep + " --resume --repetitions=3");
  EXPECT_EQ(r.exit_code, 65) << r.err;
  EXPECT_NE(r.err.find("was measured with --repetitions=2, this sweep's is 3"), std::string::npos)
      << r.err;
  r = testing::RunCommand("timeout 300 " + sweep + " --resume --held=1 --probe-ratio=2");
  EXPECT_EQ(r.exit_code, 65) << r.err;
  EXPECT_NE(r.err.find("(its -> this sweep's: held: 0 -> 1; probe-ratio: 3 -> 2)"),
            std::string::npos)
      << r.err;
  // The profile: the same values made at another time are the same profile; another value is
  // another one. (--profile given twice: the last one counts.)
  const std::string profile_text = testing::ReadFile(profile_);
  const std::size_t created = profile_text.find("\ncreated = \"");
  const std::size_t gap = profile_text.find("\ngap_ms = ");
  ASSERT_NE(created, std::string::npos) << profile_text;
  ASSERT_NE(gap, std::string::npos) << profile_text;
  std::string redated = profile_text;
  redated.replace(created, profile_text.find('\n', created + 1) - created,
                  "\ncreated = \"2000-01-01T00:00:00Z\"");
  std::string other = profile_text;
  other.replace(gap, profile_text.find('\n', gap + 1) - gap, "\ngap_ms = 0.0123");
  std::ofstream(dir_ + "/redated.toml") << redated;
  std::ofstream(dir_ + "/other.toml") << other;
  r = testing::RunCommand("timeout 300 " + sweep + " --resume --profile=" + dir_ + "/other.toml");
  EXPECT_EQ(r.exit_code, 65) << r.err;
  EXPECT_NE(r.err.find("(its -> this sweep's: profile: fnv1a64:"), std::string::npos) << r.err;
  // A profile that is not there is not calibrated (and written) only to be refused.
  r = testing::RunCommand("timeout 300 " + sweep + " --resume --profile=" + dir_ + "/none.toml");
  EXPECT_EQ(r.exit_code, 66) << r.err;
  EXPECT_NE(r.err.find("--resume: --profile: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("no such file; but a resumed sweep reads its profile as it is and does "
                       "not calibrate one"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/none.toml"));
  // Nor is one made on another driver calibrated over: refused as it is, and left as it was.
  const std::size_t driver = profile_text.find("\ndriver_version = ");
  ASSERT_NE(driver, std::string::npos) << profile_text;
  std::string foreign = profile_text;
  foreign.replace(driver, profile_text.find('\n', driver + 1) - driver, "\ndriver_version = 1");
  std::ofstream(dir_ + "/foreign.toml") << foreign;
  r = testing::RunCommand("timeout 300 " + sweep + " --resume --profile=" + dir_ +
                          "/foreign.toml");
  EXPECT_EQ(r.exit_code, 78) << r.err;
  EXPECT_NE(r.err.find("with driver 1; this is '"), std::string::npos) << r.err;
  EXPECT_EQ(testing::ReadFile(dir_ + "/foreign.toml"), foreign);
  EXPECT_EQ(testing::ReadFile(partial), stopped);
  EXPECT_EQ(testing::ReadFile(adaptive), stopped_trace);
  // A trace of another version (other columns) is not appended to: refused, and left as it
  // was (and so is the stopped sweep).
  const std::string old_trace = dir_ + "/old-trace.csv";
  std::ofstream(old_trace) << "workload,grid,in_bytes,out_bytes\nadd-scalar,symmetric,1,1\n";
  r = testing::RunCommand("timeout 300 " + sweep + " --resume --profile=" + dir_ +
                          "/redated.toml --adaptive-trace=" + old_trace);
  EXPECT_EQ(r.exit_code, 65) << r.err;
  EXPECT_NE(r.err.find("holds a trace whose columns are not this version's"), std::string::npos)
      << r.err;
  EXPECT_EQ(testing::ReadFile(old_trace),
            "workload,grid,in_bytes,out_bytes\nadd-scalar,symmetric,1,1\n");
  EXPECT_EQ(testing::ReadFile(partial), stopped);
  // And --resume continues it: the configurations held whole are kept as they are, the rest
  // measured and appended, and the whole replaces the earlier file.
  r = testing::RunCommand("timeout 300 " + sweep + " --resume --profile=" + dir_ +
                          "/redated.toml");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("streampipe sweep: resuming '"), std::string::npos) << r.err;
  const std::string whole = testing::ReadFile(csv);
  EXPECT_EQ(whole.rfind(stopped, 0), 0u) << "the kept rows are not the file's first";
  EXPECT_EQ(Lines(whole).size(), 1u + 6 * 2);
  EXPECT_FALSE(std::filesystem::exists(partial));
  // The adaptive trace goes on after the stopped sweep's batches, under its one header.
  const std::string trace = testing::ReadFile(adaptive);
  EXPECT_EQ(trace.rfind(stopped_trace, 0), 0u) << "the stopped sweep's batches are not first";
  EXPECT_GT(trace.size(), stopped_trace.size());
  std::size_t headers = 0;
  for (const std::string& line : Lines(trace)) headers += line.rfind("workload,", 0) == 0;
  EXPECT_EQ(headers, 1u);
}

// histogram --trace: the trace's file is checked before any frame is read, and written whole.
TEST(HistogramCliGpuTest, TheTraceIsCheckedFirstAndWrittenWhole) {
  STREAMPIPE_REQUIRE_GPU();
  const std::string dir = ::testing::TempDir() + "/histogram_cli_trace";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string run = kBin + " histogram --synthetic=section44 --frames=256 --quiet";
  std::ofstream(dir + "/h.csv") << "an earlier output\n";
  testing::CommandResult r =
      testing::RunCommand(run + " --output=" + dir + "/h.csv --trace=/nonexistent-dir/t.json");
  EXPECT_EQ(r.exit_code, 74) << r.err;
  EXPECT_NE(r.err.find("--trace: cannot create '/nonexistent-dir/t.json.partial'"),
            std::string::npos)
      << r.err;
  // Refused before the output was opened: an earlier output stays.
  EXPECT_EQ(testing::ReadFile(dir + "/h.csv"), "an earlier output\n");
  r = testing::RunCommand(run + " --output=" + dir + "/h.csv --trace=" + dir + "/t.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(testing::ReadFile(dir + "/t.json").find("\"traceEvents\""), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir + "/t.json.partial"));
  EXPECT_EQ(Lines(testing::ReadFile(dir + "/h.csv")).size(), 256u);
  std::filesystem::remove_all(dir);
}

// A fixed number of streams and a video whose last batch is short (70 frames in batches of 64:
// the second has 6, fewer than 16 streams) failed the run at that batch and lost the histograms
// of the batch before it. Now it runs and every histogram is the CPU's.
TEST(HistogramCliGpuTest, AFixedNStreamsAShortLastBatch) {
  STREAMPIPE_REQUIRE_GPU();
  const std::string dir = ::testing::TempDir() + "/histogram_cli_short";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string run =
      kBin + " histogram --synthetic=section44 --frames=70 --batch-frames=64 --quiet";
  testing::CommandResult r =
      testing::RunCommand(run + " --streams=16 --output=" + dir + "/gpu.csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = testing::RunCommand(run + " --device=cpu --output=" + dir + "/cpu.csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string gpu = testing::ReadFile(dir + "/gpu.csv");
  EXPECT_EQ(Lines(gpu).size(), 70u);
  EXPECT_EQ(gpu, testing::ReadFile(dir + "/cpu.csv"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace streampipe
