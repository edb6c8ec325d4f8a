// End-to-end tests of `streampipe advise`: output, JSON, and exit codes for bad arguments.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "run_command.hpp"
#include "streampipe/core/sweep.hpp"

namespace streampipe::testing {
namespace {

const std::string kBin = STREAMPIPE_BIN;

// `command` succeeds and chooses `streams`.
void ExpectChosen(const std::string& command, int streams) {
  CommandResult r = RunCommand(command);
  ASSERT_EQ(r.exit_code, 0) << command << ": " << r.err;
  EXPECT_NE(r.out.find("chosen: " + std::to_string(streams) + " streams"), std::string::npos)
      << command << ": " << r.out;
}

TEST(AdviseCliTest, AnchorsChooseSixteen) {
  CommandResult r = RunCommand(kBin +
                               " advise --h2d-ms=1.230 --kernel-ms=0.064 --d2h-ms=1.222 "
                               "--max-streams=128 --powers-of-two");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("model:  current (auto)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("chosen: 16 streams"), std::string::npos) << r.out;
}

// 2 MiB each way under a 0.5 ms kernel: without the issue bound the model splits into 64
// sub-chunks; with s = 11.8 us each (run 24's calibration) 64 costs 0.74 ms and it stops at 32.
TEST(AdviseCliTest, SubChunkCostBoundsTheSplit) {
  const std::string base = kBin +
                           " advise --h2d-ms=0.047 --kernel-ms=0.5 --d2h-ms=0.046 "
                           "--h2d-bytes=2097152 --d2h-bytes=2097152 --max-streams=128 "
                           "--powers-of-two";
  ExpectChosen(base, 64);
  ExpectChosen(base + " --sub-chunk-ms=0.0118", 32);
}

// The same 2 MiB each way under a 0.2 ms kernel with c = 3.8 us: small sub-chunks beside a
// link their other direction barely uses cost c0 = 1 us instead, and the split goes further.
TEST(AdviseCliTest, IdleStreamOverheadLetsSmallSubChunksSplitFurther) {
  const std::string base = kBin +
                           " advise --h2d-ms=0.047 --kernel-ms=0.2 --d2h-ms=0.046 "
                           "--h2d-bytes=2097152 --d2h-bytes=2097152 --max-streams=128 "
                           "--powers-of-two --stream-overhead-ms=0.0038";
  ExpectChosen(base, 16);
  ExpectChosen(base + " --idle-stream-overhead-ms=0.001", 32);
  // Negative switches c0 off (a profile's too): the model as without it.
  ExpectChosen(base + " --idle-stream-overhead-ms=-1", 16);
  CommandResult bad = RunCommand(base + " --idle-stream-overhead-ms=nan");
  EXPECT_EQ(bad.exit_code, 64);
  EXPECT_NE(bad.err.find("--idle-stream-overhead-ms=nan: must be a finite number (negative: off)"),
            std::string::npos)
      << bad.err;
}

// The 1.5 MiB histogram of run 136 with run 117's profile: kernel / n puts n = 2 first; its
// kernel takes as long over half the frames (--kernel-half-ms), and n = 1 is chosen.
TEST(AdviseCliTest, TheKernelsHalfKeepsItsFixedPart) {
  const std::string base =
      kBin +
      " advise --h2d-ms=0.034576 --kernel-ms=0.012256 --d2h-ms=0.009856 --h2d-bytes=1622016 "
      "--d2h-bytes=65536 --items=64 --max-streams=64 --powers-of-two --profile=" +
      STREAMPIPE_SOURCE_DIR "/docs/evidence/run117/h100.toml";
  ExpectChosen(base, 2);
  ExpectChosen(base + " --kernel-half-ms=0.012256", 1);
  ExpectChosen(base + " --kernel-half-ms=0.006128", 2);  // halves with the work: kernel / n
  CommandResult bad = RunCommand(base + " --kernel-half-ms=-1");
  EXPECT_EQ(bad.exit_code, 64);
  EXPECT_NE(bad.err.find("--kernel-half-ms=-1: must be a finite number >= 0"), std::string::npos)
      << bad.err;
}

// Veneva's published regression predicts -0.03 ms at n = 1 for a 0.03 ms batch: the table is
// printed as the model gives it, and stderr says it is not a time (before session 49, silently).
TEST(AdviseCliTest, APredictionOfZeroOrLessIsNoted) {
  const std::string base =
      kBin + " advise --h2d-ms=0.01 --kernel-ms=0.01 --d2h-ms=0.01 --items=1000";
  CommandResult r = RunCommand(base + " --model=veneva-regression");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("-0.0303"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("streampipe advise: note: veneva-regression predicts -0.0303 ms at n = 1, "
                       "not a time"),
            std::string::npos)
      << r.err;
  CommandResult json = RunCommand(base + " --model=veneva-regression --json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_NE(json.err.find("not a time"), std::string::npos) << json.err;
  // A model whose predictions are times says nothing.
  CommandResult current = RunCommand(base + " --model=current");
  ASSERT_EQ(current.exit_code, 0) << current.err;
  EXPECT_EQ(current.err, "");
}

// A closed form below 1 (the paper's sqrt(tE / tsc) with no kernel time: 0) is printed as the
// formula gives it and said to mean one stream (printed bare, "0.00", before session 50).
TEST(AdviseCliTest, AClosedFormBelowOneSaysOneStream) {
  CommandResult r = RunCommand(kBin + " advise --model=gomez-luna-cc2 --h2d-ms=1 --kernel-ms=0 "
                                      "--d2h-ms=1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("; closed-form optimum 0.00 (below 1: one stream)"), std::string::npos)
      << r.out;
  r = RunCommand(kBin + " advise --model=gomez-luna-cc2 --h2d-ms=3 --kernel-ms=2 --d2h-ms=1 "
                        "--stream-overhead-ms=0.03");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("; closed-form optimum 8.16\n"), std::string::npos) << r.out;
}

// A kernel half over the whole kernel is clamped by the model (all of it fixed), and said
// (before session 49, silently); a half within the kernel says nothing.
TEST(AdviseCliTest, AKernelHalfOverTheKernelIsNoted) {
  const std::string base = kBin + " advise --h2d-ms=1 --kernel-ms=1 --d2h-ms=1";
  CommandResult r = RunCommand(base + " --kernel-half-ms=5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("note: --kernel-half-ms=5 is more than --kernel-ms=1: taken as a kernel "
                       "whose whole time is fixed"),
            std::string::npos)
      << r.err;
  // The same choice as a half equal to the kernel (all fixed), which the note says it is.
  CommandResult equal = RunCommand(base + " --kernel-half-ms=1");
  ASSERT_EQ(equal.exit_code, 0) << equal.err;
  EXPECT_EQ(equal.err, "");
  EXPECT_EQ(r.out, equal.out);
}

TEST(AdviseCliTest, JsonHasTheDocumentedKeys) {
  CommandResult r = RunCommand(kBin +
                               " advise --json --model=gomez-luna-cc2 --h2d-ms=6 --kernel-ms=3 "
                               "--d2h-ms=6 --stream-overhead-ms=0.03 --max-streams=64");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"optimal_streams\":10,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"optimal_streams_closed_form\":10,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"predictions\":[{\"streams\":1,\"ms\":"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"regime\":\"dominant-transfers\""), std::string::npos);
}

TEST(AdviseCliTest, BytesWithDeviceParameters) {
  // 64 MiB each way at 50 GB/s, kernel 0.1 ms, werkhoven-2ce.
  CommandResult r = RunCommand(kBin +
                               " advise --json --model=werkhoven-2ce --h2d-bytes=67108864 "
                               "--d2h-bytes=67108864 --kernel-ms=0.1 --h2d-gbps=50 --d2h-gbps=50 "
                               "--gap-ms=0.0025 --h2d-latency-ms=0.004 --d2h-latency-ms=0.004");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"optimal_streams\":"), std::string::npos);
}

TEST(AdviseCliTest, BadArgumentsExitWithUsageAndNameTheProblem) {
  struct Case {
    std::string args;
    std::string message;
  };
  const Case cases[] = {
      {"--h2d-ms=1 --model=nope", "unknown model 'nope'"},
      {"--kernel-ms=-2", "--kernel-ms=-2: must be a finite number >= 0"},
      {"--kernel-ms=nan", "--kernel-ms=nan: must be a finite number >= 0"},
      {"--kernel-ms=inf", "--kernel-ms=inf: must be a finite number >= 0"},
      {"--h2d-ms=1 --sub-chunk-ms=-0.01", "--sub-chunk-ms=-0.01: must be a finite number >= 0"},
      {"--h2d-ms=abc", "--h2d-ms=abc: not a number"},
      {"--h2d-ms=1 --frobnicate", "unknown flag --frobnicate"},
      {"", "give the component times"},
      {"--h2d-ms=1 --min-streams=0", "--min-streams=0 and --max-streams=32: must satisfy"},
      {"--h2d-ms=1 --cc=nine", "--cc=nine"},
      // Trailing or inner garbage in --cc, and an empty --profile (an unset variable), passed
      // before session 49 (the last as the built-in H100 anchors).
      {"--h2d-ms=1 --cc=9.0x", "--cc=9.0x: expected a compute capability like 9.0"},
      {"--h2d-ms=1 --cc='9. 0'", "expected a compute capability like 9.0"},
      {"--h2d-ms=1 --cc=+9.0", "--cc=+9.0: expected"},
      {"--h2d-ms=1 --profile=", "--profile is empty; name a device profile"},
      {"--h2d-ms=1 extra", "unexpected argument 'extra'"},
  };
  for (const Case& c : cases) {
    CommandResult r = RunCommand(kBin + " advise " + c.args);
    EXPECT_EQ(r.exit_code, 64) << c.args;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << " -> " << r.err;
  }
}

TEST(AdviseCliTest, EveryCommandWithoutInputsRejectsAStrayArgument) {
  for (const std::string command : {"advise", "calibrate", "config", "devices", "sweep"}) {
    CommandResult r = RunCommand(kBin + " " + command + " stray");
    EXPECT_EQ(r.exit_code, 64) << command;
    EXPECT_NE(r.err.find("streampipe " + command + ": unexpected argument 'stray'"),
              std::string::npos)
        << command << " -> " << r.err;
  }
}

TEST(AdviseCliTest, SweepRejectsVisitsWithoutTimedBatches) {
  for (const std::string flag : {"--per-visit=0", "--per-visit=-3", "--repetitions=0"}) {
    CommandResult r = RunCommand(kBin + " sweep " + flag);
    EXPECT_EQ(r.exit_code, 64) << flag;
    EXPECT_NE(r.err.find(flag + " is out of range [1, 1000000]"), std::string::npos)
        << flag << " -> " << r.err;
  }
}

TEST(AdviseCliTest, SweepBoundsItsAdaptiveRetries) {
  for (const std::string flag : {"--adaptive-retries=-1", "--adaptive-retries=11"}) {
    CommandResult r = RunCommand(kBin + " sweep " + flag);
    EXPECT_EQ(r.exit_code, 64) << flag;
    EXPECT_NE(r.err.find(flag + " is out of range [0, 10]"), std::string::npos)
        << flag << " -> " << r.err;
  }
}

TEST(AdviseCliTest, CalibrateWithoutAGpuIsUnavailable) {
  // 69 as for every command that needs a device (it was 70, an internal error).
  if (RunCommand(kBin + " devices").exit_code == 0) GTEST_SKIP() << "a GPU is present";
  CommandResult r = RunCommand(kBin + " calibrate --quick --output=/tmp/streampipe_no.toml");
  EXPECT_EQ(r.exit_code, 69) << r.err;
  EXPECT_NE(r.err.find("streampipe calibrate: no CUDA device ("), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("nothing to calibrate"), std::string::npos) << r.err;
  // The profile's file, opened before the device is looked for, is not left behind.
  EXPECT_FALSE(std::filesystem::exists("/tmp/streampipe_no.toml.partial"));
  EXPECT_FALSE(std::filesystem::exists("/tmp/streampipe_no.toml"));
  // An output that is a FIFO no reader has opened: 69 too (before session 49 the open waited
  // for a reader, and the command hung; `timeout` makes a hang 124).
  const std::string fifo = ::testing::TempDir() + "/streampipe_no_gpu.fifo";
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& cmd : {" calibrate --quick --output=" + fifo, " sweep --output=" + fifo,
                                 " sweep --output=/dev/null --summary=" + fifo}) {
    r = RunCommand("timeout 20 " + kBin + cmd);
    EXPECT_EQ(r.exit_code, 69) << cmd << ": " << r.err;
  }
  std::filesystem::remove(fifo);
  // Nor is a sweep's, and an earlier CSV of that name stays as it was.
  const std::string csv = ::testing::TempDir() + "/streampipe_no_gpu_sweep.csv";
  std::ofstream(csv) << "an earlier sweep\n";
  r = RunCommand(kBin + " sweep --output=" + csv);
  EXPECT_EQ(r.exit_code, 69) << r.err;
  EXPECT_EQ(streampipe::testing::ReadFile(csv), "an earlier sweep\n");
  EXPECT_FALSE(std::filesystem::exists(csv + ".partial"));
  // A --trace-dir the sweep had to create is gone again, its missing parents with it; one that
  // was there stays, with what it held.
  const std::string made = ::testing::TempDir() + "/streampipe_no_gpu_traces";
  std::filesystem::remove_all(made);
  r = RunCommand(kBin + " sweep --output=" + csv + " --trace-dir=" + made + "/deeper/");
  EXPECT_EQ(r.exit_code, 69) << r.err;
  EXPECT_FALSE(std::filesystem::exists(made)) << "left behind: " << made;
  std::filesystem::create_directories(made);
  std::ofstream(made + "/kept.txt") << "kept\n";
  r = RunCommand(kBin + " sweep --output=" + csv + " --trace-dir=" + made + "/deeper");
  EXPECT_EQ(r.exit_code, 69) << r.err;
  EXPECT_EQ(streampipe::testing::ReadFile(made + "/kept.txt"), "kept\n");
  EXPECT_FALSE(std::filesystem::exists(made + "/deeper"));
  r = RunCommand(kBin + " sweep --output=" + csv + " --trace-dir=" + made);
  EXPECT_EQ(r.exit_code, 69) << r.err;
  EXPECT_TRUE(std::filesystem::is_directory(made));
  EXPECT_FALSE(std::filesystem::exists(made + "/trace_depth-first.json.partial"));
  // An empty directory that was there stays, and so does an empty parent.
  std::filesystem::remove_all(made);
  std::filesystem::create_directories(made + "/empty");
  r = RunCommand(kBin + " sweep --output=" + csv + " --trace-dir=" + made + "/empty");
  EXPECT_EQ(r.exit_code, 69) << r.err;
  EXPECT_TRUE(std::filesystem::is_directory(made + "/empty"));
  r = RunCommand(kBin + " sweep --output=" + csv + " --trace-dir=" + made + "/empty/new");
  EXPECT_EQ(r.exit_code, 69) << r.err;
  EXPECT_TRUE(std::filesystem::is_directory(made + "/empty"));
  EXPECT_FALSE(std::filesystem::exists(made + "/empty/new"));
  // Through "..": the directories it walks through are made, and removed again.
  r = RunCommand(kBin + " sweep --output=" + csv + " --trace-dir=" + made + "/empty/a/../b");
  EXPECT_EQ(r.exit_code, 69) << r.err;
  EXPECT_FALSE(std::filesystem::exists(made + "/empty/a"));
  EXPECT_FALSE(std::filesystem::exists(made + "/empty/b"));
  EXPECT_TRUE(std::filesystem::is_directory(made + "/empty"));
  // And "x/../empty", with x missing, names the empty directory that was there: it stays.
  r = RunCommand(kBin + " sweep --output=" + csv + " --trace-dir=" + made + "/x/../empty");
  EXPECT_EQ(r.exit_code, 69) << r.err;
  EXPECT_TRUE(std::filesystem::is_directory(made + "/empty"));
  EXPECT_FALSE(std::filesystem::exists(made + "/x"));
  std::filesystem::remove_all(made);
  std::remove(csv.c_str());
}

TEST(AdviseCliTest, CalibrateChecksItsOutputBeforeItMeasures) {
  // With or without a GPU: the path fails before the card is calibrated.
  CommandResult r = RunCommand(kBin + " calibrate --quick --output=/nonexistent-dir/gpu.toml");
  EXPECT_EQ(r.exit_code, 74) << r.err;
  EXPECT_NE(r.err.find("--output: cannot create '/nonexistent-dir/gpu.toml.partial'"),
            std::string::npos)
      << r.err;
  // An empty --output (an unset variable) printed the profile instead, before session 49.
  r = RunCommand(kBin + " calibrate --quick --output=");
  EXPECT_EQ(r.exit_code, 64) << r.err;
  EXPECT_NE(r.err.find("--output is empty; name a file, or - for stdout"), std::string::npos)
      << r.err;
}

TEST(AdviseCliTest, SweepBoundsItsMeasureBatches) {
  // As adaptive.measure_batches: 1 to 15; checked before the GPU is looked for.
  for (const std::string flag : {"--measure-batches=0", "--measure-batches=16"}) {
    CommandResult r = RunCommand(kBin + " sweep " + flag);
    EXPECT_EQ(r.exit_code, 64) << flag;
    EXPECT_NE(r.err.find(flag + " is out of range [1, 15]"), std::string::npos)
        << flag << " -> " << r.err;
  }
}

TEST(AdviseCliTest, SweepBoundsItsDriftThreshold) {
  // As detector.threshold: 0.001 to 10; checked before the GPU is looked for.
  for (const std::string value : {"0", "-0.1", "10.5", "nan", "0.0009"}) {
    CommandResult r = RunCommand(kBin + " sweep --drift-threshold=" + value);
    EXPECT_EQ(r.exit_code, 64) << value;
    EXPECT_NE(r.err.find(" is out of range [0.001, 10]"), std::string::npos)
        << value << " -> " << r.err;
    EXPECT_NE(r.err.find("--drift-threshold="), std::string::npos) << value << " -> " << r.err;
  }
}

TEST(AdviseCliTest, SweepBoundsItsAdaptiveMaxBatches) {
  // At least --adaptive-batches (0: four times it); checked before the GPU is looked for.
  for (const std::string flag :
       {"--adaptive-max-batches=149", "--adaptive-batches=300 --adaptive-max-batches=200"}) {
    CommandResult r = RunCommand(kBin + " sweep " + flag);
    EXPECT_EQ(r.exit_code, 64) << flag;
    EXPECT_NE(r.err.find(": must be 0 (4 x adaptive batches) or at least "), std::string::npos)
        << flag << " -> " << r.err;
  }
  CommandResult r = RunCommand(kBin + " sweep --adaptive-max-batches=149");
  EXPECT_NE(r.err.find("--adaptive-max-batches=149: must be 0"), std::string::npos) << r.err;
  // The default is named as one.
  EXPECT_NE(r.err.find("at least the default --adaptive-batches=150"), std::string::npos) << r.err;
  r = RunCommand(kBin + " sweep --adaptive-batches=300 --adaptive-max-batches=200");
  EXPECT_NE(r.err.find("at least --adaptive-batches=300"), std::string::npos) << r.err;
  r = RunCommand(kBin + " sweep --adaptive-max-batches=-1");
  EXPECT_EQ(r.exit_code, 64);
  EXPECT_NE(r.err.find("--adaptive-max-batches=-1 is out of range [0, 4000000]"),
            std::string::npos)
      << r.err;
  // 0 and --adaptive-batches itself are accepted: without a GPU the sweep then stops for that.
  if (RunCommand(kBin + " devices").exit_code == 0) GTEST_SKIP() << "a GPU is present";
  for (const std::string flag : {"--adaptive-max-batches=0", "--adaptive-max-batches=150"}) {
    r = RunCommand(kBin + " sweep " + flag);
    EXPECT_EQ(r.exit_code, 69) << flag << " -> " << r.err;
    EXPECT_EQ(r.err.find("adaptive-max-batches"), std::string::npos) << flag << " -> " << r.err;
  }
}

TEST(AdviseCliTest, SweepNamesAnUnknownHistogramKernel) {
  CommandResult r = RunCommand(kBin + " sweep --histogram-kernel=private");
  EXPECT_EQ(r.exit_code, 64);
  EXPECT_NE(r.err.find("--histogram-kernel=private is not one of: shared, shared-atomic, global"),
            std::string::npos)
      << r.err;
}

TEST(AdviseCliTest, SweepSaysWhenItCannotWriteItsAdaptiveTrace) {
  // Checked before the GPU is looked for: the same answer with and without one.
  CommandResult r = RunCommand(kBin + " sweep --adaptive-trace=/nonexistent-dir/trace.csv");
  EXPECT_EQ(r.exit_code, 74);
  EXPECT_NE(r.err.find("--adaptive-trace: cannot write '/nonexistent-dir/trace.csv'"),
            std::string::npos)
      << r.err;
  // Asked of the file system, not by opening the file (before session 51): a FIFO no reader
  // has opened hung a sweep without a GPU, and a link to a file not made yet was removed (an
  // empty target left in its place). A read-only file and a directory are refused.
  const std::string dir = ::testing::TempDir() + "/sp_sweep_adaptive_trace";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  // (Where there is a GPU these two would pass the checks and measure: without one, 69.)
  if (RunCommand(kBin + " devices").exit_code != 0) {
    ASSERT_EQ(::mkfifo((dir + "/fifo").c_str(), 0600), 0);
    r = RunCommand("timeout 20 " + kBin + " sweep --output=" + dir + "/x.csv --adaptive-trace=" +
                   dir + "/fifo");
    EXPECT_EQ(r.exit_code, 69) << "124: the FIFO's open waited for a reader; " << r.err;
    std::filesystem::create_symlink("target.csv", dir + "/link.csv");
    r = RunCommand(kBin + " sweep --output=" + dir + "/x.csv --adaptive-trace=" + dir +
                   "/link.csv");
    EXPECT_EQ(r.exit_code, 69) << r.err;
    EXPECT_TRUE(std::filesystem::is_symlink(std::filesystem::symlink_status(dir + "/link.csv")));
    EXPECT_FALSE(std::filesystem::exists(dir + "/target.csv"));
  }
  std::ofstream(dir + "/ro.csv") << "an earlier trace\n";
  std::filesystem::permissions(dir + "/ro.csv", std::filesystem::perms::owner_read);
  // Root writes any file: there, the command runs as nobody (setpriv), where it can (the
  // check could not fail as root before session 51).
  std::string as_user;
  if (::geteuid() == 0 && RunCommand("setpriv --reuid=65534 --regid=65534 --clear-groups " +
                                     kBin + " help").exit_code == 0) {
    as_user = "setpriv --reuid=65534 --regid=65534 --clear-groups ";
    std::filesystem::permissions(dir, std::filesystem::perms::all);
  }
  if (::access((dir + "/ro.csv").c_str(), W_OK) != 0 || !as_user.empty()) {
    r = RunCommand(as_user + kBin + " sweep --output=" + dir + "/x.csv --adaptive-trace=" + dir +
                   "/ro.csv");
    EXPECT_EQ(r.exit_code, 74) << r.err;
    EXPECT_NE(r.err.find("ro.csv': Permission denied"), std::string::npos) << r.err;
  } else {
    std::cerr << "(a read-only file's check not run: root, and no setpriv to run as another "
                 "user)\n";
  }
  r = RunCommand(kBin + " sweep --output=" + dir + "/x.csv --adaptive-trace=" + dir);
  EXPECT_EQ(r.exit_code, 74) << r.err;
  EXPECT_NE(r.err.find("': a directory"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/x.csv"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/x.csv.partial"));
  std::filesystem::remove_all(dir);
}

// A sweep measures for minutes: where an output cannot be written it says so before measuring
// (with or without a GPU), not after.
TEST(AdviseCliTest, SweepChecksEveryOutputBeforeItMeasures) {
  const std::string dir = ::testing::TempDir() + "/sweep_outputs";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/a-file") << "x";
  struct Case {
    std::string flags;
    std::string message;
  };
  for (const Case& c : {
           Case{"--output=/nonexistent-dir/sweep.csv",
                "--output: cannot create '/nonexistent-dir/sweep.csv.partial'"},
           Case{"--output=" + dir, "--output: '" + dir + "' is a directory"},
           Case{"--summary=/nonexistent-dir/summary.md",
                "--summary: cannot create '/nonexistent-dir/summary.md.partial'"},
           Case{"--trace-dir=" + dir + "/a-file",
                "--trace-dir: cannot create the directory '" + dir + "/a-file'"},
       }) {
    CommandResult r = RunCommand(kBin + " sweep --output=" + dir + "/sweep.csv " + c.flags);
    EXPECT_EQ(r.exit_code, 74) << c.flags << ": " << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.flags << ": " << r.err;
  }
  // Nothing was left behind: the CSV opened before the failing --summary held no rows.
  EXPECT_FALSE(std::filesystem::exists(dir + "/sweep.csv.partial"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/sweep.csv"));
  // The traces too are opened first: one an earlier run left cut short is named now, not
  // after the sweep, and kept; the files opened beside it are gone again.
  std::filesystem::create_directories(dir + "/traces");
  std::ofstream(dir + "/traces/trace_breadth-first.json.partial") << "{\"traceEv";
  CommandResult r = RunCommand(kBin + " sweep --output=" + dir + "/sweep.csv --trace-dir=" + dir +
                               "/traces");
  EXPECT_EQ(r.exit_code, 74) << r.err;
  EXPECT_NE(r.err.find("--trace-dir: '" + dir +
                       "/traces/trace_breadth-first.json.partial' is there from an earlier run"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(streampipe::testing::ReadFile(dir + "/traces/trace_breadth-first.json.partial"),
            "{\"traceEv");
  EXPECT_FALSE(std::filesystem::exists(dir + "/traces/trace_depth-first.json.partial"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/sweep.csv.partial"));
  std::filesystem::remove_all(dir);
}

// The adaptive trace of an earlier sweep survives a sweep refused before it measures (it was
// truncated before the outputs were checked), and an issue mode named twice is one set of
// traces (the second set of files clashed with the first's locks).
TEST(AdviseCliTest, SweepKeepsAnEarlierAdaptiveTraceAndNamesEachTraceOnce) {
  const std::string dir = ::testing::TempDir() + "/sweep_adaptive_trace";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string trace = dir + "/adaptive.csv", earlier = "workload,grid\nan,earlier trace\n";
  std::ofstream(trace) << earlier;
  std::ofstream(dir + "/sweep.csv.partial") << "workload,grid\nrows,measured\n";
  CommandResult r = RunCommand(kBin + " sweep --output=" + dir + "/sweep.csv --adaptive-trace=" +
                               trace);
  EXPECT_EQ(r.exit_code, 74) << r.err;
  EXPECT_NE(r.err.find("is there from an earlier run"), std::string::npos) << r.err;
  EXPECT_EQ(streampipe::testing::ReadFile(trace), earlier);
  std::filesystem::remove(dir + "/sweep.csv.partial");
  // Refused after the traces were opened (an adaptive trace that cannot be written): the
  // repeated mode opened each trace once, and the files opened are gone again, and with them
  // the directory the sweep made for them.
  r = RunCommand(kBin + " sweep --issue=streams,graph,streams --output=" + dir +
                 "/sweep.csv --trace-dir=" + dir + "/traces --adaptive-trace=/nonexistent-dir/a.csv");
  EXPECT_EQ(r.exit_code, 74) << r.err;
  EXPECT_NE(r.err.find("--adaptive-trace: cannot write '/nonexistent-dir/a.csv'"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/traces"));
  EXPECT_TRUE(std::filesystem::is_directory(dir));  // there before: stays
  std::filesystem::remove_all(dir);
}

// An earlier sweep's CSV is replaced only by a whole new one: a sweep that stops before it has
// measured anything leaves it as it was.
TEST(AdviseCliTest, SweepLeavesAnEarlierOutputWhereItStopsEarly) {
  const std::string dir = ::testing::TempDir() + "/sweep_earlier";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string earlier = "workload,grid\nan,earlier sweep\n";
  std::ofstream(dir + "/sweep.csv") << earlier;
  CommandResult r = RunCommand(kBin + " sweep --output=" + dir +
                               "/sweep.csv --summary=/nonexistent-dir/summary.md");
  EXPECT_EQ(r.exit_code, 74) << r.err;
  EXPECT_EQ(streampipe::testing::ReadFile(dir + "/sweep.csv"), earlier);
  EXPECT_FALSE(std::filesystem::exists(dir + "/sweep.csv.partial"));
  // An earlier sweep stopped part way left its rows in sweep.csv.partial: a new sweep of that
  // name refuses to start rather than wipe them, and leaves them.
  const std::string rows = "workload,grid\nrows,measured\n";
  std::ofstream(dir + "/sweep.csv.partial") << rows;
  r = RunCommand(kBin + " sweep --output=" + dir + "/sweep.csv");
  EXPECT_EQ(r.exit_code, 74) << r.err;
  EXPECT_NE(r.err.find("--output: '" + dir + "/sweep.csv.partial' is there from an earlier run"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("or continue that sweep: the same command with --resume"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(streampipe::testing::ReadFile(dir + "/sweep.csv.partial"), rows);
  std::filesystem::remove(dir + "/sweep.csv.partial");
  // --from's summary too is checked before the CSV is read.
  r = RunCommand(kBin + " sweep --from=" + dir + "/sweep.csv --summary=" + dir);
  EXPECT_EQ(r.exit_code, 74) << r.err;
  EXPECT_NE(r.err.find("--summary: '" + dir + "' is a directory"), std::string::npos) << r.err;
  std::filesystem::remove_all(dir);
}

// --resume takes up a .partial file a stopped sweep left; what it cannot continue is refused
// before the GPU is looked for, the file left as it was.
TEST(AdviseCliTest, SweepResumeSaysWhatItCannotContinue) {
  const std::string dir = ::testing::TempDir() + "/sweep_resume";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  for (const std::string output : {"-", "/dev/stdout", "/dev/fd/1"}) {
    CommandResult r = RunCommand(kBin + " sweep --resume --output=" + output);
    EXPECT_EQ(r.exit_code, 64) << r.err;
    EXPECT_NE(r.err.find("--resume continues an output file's .partial, not stdout or a "
                         "descriptor (--output is " + output + ")"),
              std::string::npos)
        << r.err;
  }
  CommandResult r;
  r = RunCommand(kBin + " sweep --resume --output=" + dir + "/sweep.csv");
  EXPECT_EQ(r.exit_code, 66) << r.err;
  EXPECT_NE(r.err.find("--resume: no '" + dir + "/sweep.csv.partial' to resume"),
            std::string::npos)
      << r.err;
  // A row cut short by a kill in the middle of a write.
  const std::string cut = SweepCsvHeader() + "add-scalar,symmetric,1048576";
  std::ofstream(dir + "/sweep.csv.partial") << cut;
  r = RunCommand(kBin + " sweep --resume --output=" + dir + "/sweep.csv");
  EXPECT_EQ(r.exit_code, 65) << r.err;
  EXPECT_NE(r.err.find("ends in a line cut short"), std::string::npos) << r.err;
  EXPECT_EQ(streampipe::testing::ReadFile(dir + "/sweep.csv.partial"), cut);
  // Rows of an older version's columns (the test sample's): not this sweep's to continue.
  const std::string older =
      streampipe::testing::ReadFile(STREAMPIPE_SOURCE_DIR "/test/core/data/sweep_sample.csv");
  std::ofstream(dir + "/sweep.csv.partial", std::ios::trunc) << older;
  r = RunCommand(kBin + " sweep --resume --output=" + dir + "/sweep.csv");
  EXPECT_EQ(r.exit_code, 65) << r.err;
  EXPECT_NE(r.err.find("does not start with the header this run writes"), std::string::npos)
      << r.err;
  std::filesystem::remove_all(dir);
}

// `sweep --from` summarizes a CSV measured before, without a GPU: the test sample with its
// second configuration moved to another grid, so the per-grid table shows.
TEST(AdviseCliTest, SweepSummarizesACsvWrittenBefore) {
  std::string csv = streampipe::testing::ReadFile(STREAMPIPE_SOURCE_DIR
                                                  "/test/core/data/sweep_sample.csv");
  ASSERT_FALSE(csv.empty());
  const std::string from = ",symmetric,67108864,67108864,100,";
  const std::string to = ",asymmetric,67108864,67108864,100,";
  int moved = 0;
  for (std::size_t pos = 0; (pos = csv.find(from, pos)) != std::string::npos; ++moved) {
    csv.replace(pos, from.size(), to);
  }
  ASSERT_EQ(moved, 4);
  const std::string dir = ::testing::TempDir();
  const std::string path = dir + "/sweep_from.csv", summary = dir + "/sweep_from.md";
  std::ofstream(path) << csv;
  std::remove(summary.c_str());
  CommandResult r = RunCommand(kBin + " sweep --from=" + path + " --summary=" + summary);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("Prediction accuracy per grid"), std::string::npos) << r.err;
  const std::string md = streampipe::testing::ReadFile(summary);
  EXPECT_NE(md.find("| predictor | symmetric (4) | asymmetric (4) |"), std::string::npos) << md;
  EXPECT_NE(md.find("### Choice of n"), std::string::npos) << md;
}

// A summary to a device is written as it is (no .partial file beside /dev/null).
TEST(AdviseCliTest, SweepFromWritesItsSummaryToADevice) {
  CommandResult r = RunCommand(kBin + " sweep --from=" STREAMPIPE_SOURCE_DIR
                                      "/test/core/data/sweep_sample.csv --summary=/dev/null");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::is_character_file("/dev/null"));
  EXPECT_FALSE(std::filesystem::exists("/dev/null.partial"));
}

// `--summary=-` wrote a file named "-" (before session 47), where `--output=-` is stdout.
TEST(AdviseCliTest, SweepSummaryDashIsStdout) {
  const std::string dir = ::testing::TempDir() + "/sp_summary_dash";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  CommandResult r = RunCommand("cd " + dir + " && " + kBin + " sweep --from=" STREAMPIPE_SOURCE_DIR
                               "/test/core/data/sweep_sample.csv --summary=-");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("### Prediction accuracy\n", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("### Choice of n"), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(dir + "/-"));
  // --from=- reads stdin (zcat sweep.csv.gz | streampipe sweep --from=-), named so.
  r = RunCommand("cat " STREAMPIPE_SOURCE_DIR "/test/core/data/sweep_sample.csv | " + kBin +
                 " sweep --from=- --summary=-");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("### Prediction accuracy\n", 0), 0u) << r.out;
  r = RunCommand("printf 'not a sweep\\n' | " + kBin + " sweep --from=-");
  EXPECT_EQ(r.exit_code, 65) << r.err;
  EXPECT_EQ(r.err.rfind("streampipe sweep: stdin: ", 0), 0u) << r.err;
  // The CSV and the summary cannot both go to stdout.
  r = RunCommand("cd " + dir + " && " + kBin + " sweep --output=- --summary=-");
  EXPECT_EQ(r.exit_code, 64) << r.err;
  EXPECT_NE(r.err.find("--output and --summary are both - (stdout)"), std::string::npos) << r.err;
  std::filesystem::remove_all(dir);
}

TEST(AdviseCliTest, SweepFromNamesWhatItCannotRead) {
  CommandResult r = RunCommand(kBin + " sweep --from=/nonexistent-dir/sweep.csv");
  EXPECT_EQ(r.exit_code, 66);
  EXPECT_NE(r.err.find("--from: cannot read '/nonexistent-dir/sweep.csv': no such file"),
            std::string::npos)
      << r.err;
  r = RunCommand(kBin + " sweep --from=" + ::testing::TempDir());
  EXPECT_EQ(r.exit_code, 66);
  EXPECT_NE(r.err.find("a directory"), std::string::npos) << r.err;

  // A row cut short: data error naming the file and the line.
  std::string csv = streampipe::testing::ReadFile(STREAMPIPE_SOURCE_DIR
                                                  "/test/core/data/sweep_sample.csv");
  const std::string path = ::testing::TempDir() + "/sweep_cut.csv";
  std::ofstream(path) << csv << "add-scalar,symmetric,1,2\n";
  r = RunCommand(kBin + " sweep --from=" + path);
  EXPECT_EQ(r.exit_code, 65);
  EXPECT_NE(r.err.find(path + ": line 10: 4 fields"), std::string::npos) << r.err;
  // A last line without its newline: cut short, whatever it parses to (cut in its settings
  // column it parsed: exit 0 before session 48, where --resume refused it).
  ASSERT_EQ(csv.back(), '\n');
  std::ofstream(path, std::ios::trunc) << csv.substr(0, csv.size() - 1);
  r = RunCommand(kBin + " sweep --from=" + path);
  EXPECT_EQ(r.exit_code, 65) << r.err;
  EXPECT_NE(r.err.find("--from: '" + path + "': line 9 ends without a newline: a line cut short"),
            std::string::npos)
      << r.err;
}

TEST(AdviseCliTest, SweepFromRejectsWhatIsNotASweepCsv) {
  const std::string dir = ::testing::TempDir();
  const std::string csv = streampipe::testing::ReadFile(STREAMPIPE_SOURCE_DIR
                                                        "/test/core/data/sweep_sample.csv");
  const std::string header = csv.substr(0, csv.find('\n') + 1);
  struct Case {
    std::string name, content, message;
  };
  const Case cases[] = {
      {"empty.csv", "", "no header line"},
      {"header_only.csv", header, "no sweep points to summarize"},
      {"foreign.csv", "a,b,c\n1,2,3\n", "column"},
      {"packed.csv.gz", std::string("\x1f\x8b\x08\x00", 4) + "rest", "gzip-compressed"},
  };
  for (const Case& c : cases) {
    const std::string path = dir + "/" + c.name;
    std::ofstream(path, std::ios::binary) << c.content;
    CommandResult r = RunCommand(kBin + " sweep --from=" + path);
    EXPECT_EQ(r.exit_code, 65) << c.name << " -> " << r.err;
    EXPECT_NE(r.err.find(path), std::string::npos) << c.name << " -> " << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.name << " -> " << r.err;
  }
}

TEST(AdviseCliTest, SweepFromTakesNoMeasuringFlag) {
  for (const std::string flag : {"--grid=all", "--output=x.csv", "--issue=graph"}) {
    CommandResult r = RunCommand(kBin + " sweep --from=whatever.csv " + flag);
    EXPECT_EQ(r.exit_code, 64) << flag;
    EXPECT_NE(r.err.find("is for measuring a sweep; with --from only --summary applies"),
              std::string::npos)
        << flag << " -> " << r.err;
  }
}

// `--summary` naming the `--from` file replaced the sweep with its summary (exit 0); two
// outputs of a measuring sweep naming one file were refused with a misleading message about an
// earlier run's .partial; an empty --from started measuring, an empty --output wrote ".partial".
TEST(AdviseCliTest, SweepRefusesOutputsThatNameOneFileAndEmptyPaths) {
  const std::string dir = ::testing::TempDir() + "/sweep_same_file";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string csv = dir + "/s.csv";
  std::ofstream(csv) << "not read\n";
  CommandResult r = RunCommand(kBin + " sweep --from=" + csv + " --summary=" + dir + "/../" +
                               std::filesystem::path(dir).filename().string() + "/s.csv");
  EXPECT_EQ(r.exit_code, 64) << r.err;
  EXPECT_NE(r.err.find("is the --from file itself"), std::string::npos) << r.err;
  EXPECT_EQ(ReadFile(csv), "not read\n");
  // The same file on stdin (exit 0, the CSV replaced by its summary, before session 50), and a
  // --from file that is the summary's staging file.
  r = RunCommand(kBin + " sweep --from=- --summary=" + csv + " < " + csv);
  EXPECT_EQ(r.exit_code, 64) << r.err;
  EXPECT_NE(r.err.find("--summary=" + csv + " is the file on stdin (--from=-) itself"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(ReadFile(csv), "not read\n");
  std::ofstream(dir + "/m.md.partial") << "not read\n";
  r = RunCommand(kBin + " sweep --from=" + dir + "/m.md.partial --summary=" + dir + "/m.md");
  EXPECT_EQ(r.exit_code, 64) << r.err;
  EXPECT_NE(r.err.find("is staged in the --from file itself"), std::string::npos) << r.err;
  EXPECT_EQ(ReadFile(dir + "/m.md.partial"), "not read\n");
  r = RunCommand(kBin + " sweep --output=" + dir + "/x.csv --summary=" + dir + "/./x.csv");
  EXPECT_EQ(r.exit_code, 64) << r.err;
  EXPECT_NE(r.err.find("--output and --summary name one file"), std::string::npos) << r.err;
  // Relative names of files that do not exist yet (libstdc++'s weakly_canonical left "y.csv"
  // as it was and made "./y.csv" absolute: not caught before session 47).
  r = RunCommand("cd " + dir + " && " + kBin + " sweep --output=y.csv --summary=./y.csv");
  EXPECT_EQ(r.exit_code, 64) << r.err;
  EXPECT_NE(r.err.find("--output and --summary name one file"), std::string::npos) << r.err;
  r = RunCommand(kBin + " sweep --output=" + dir + "/x.csv --adaptive-trace=" + dir + "/x.csv");
  EXPECT_EQ(r.exit_code, 64) << r.err;
  EXPECT_NE(r.err.find("--output and --adaptive-trace name one file"), std::string::npos)
      << r.err;
  // The plan file and the profile (written where the sweep calibrates) passed every check
  // before session 48, on to the GPU's: the CSV would have replaced them.
  const std::string plan = dir + "/plan.toml";
  std::ofstream(plan) << "[sweep]\ngrid = \"quick\"\n";
  r = RunCommand(kBin + " sweep --config=" + plan + " --output=" + plan);
  EXPECT_EQ(r.exit_code, 64) << r.err;
  EXPECT_NE(r.err.find("--config and --output name one file, '" + plan +
                       "'; writing it would replace the plan file"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(ReadFile(plan), "[sweep]\ngrid = \"quick\"\n");
  // Where the plan file names itself as an output, it is the file's error (78; before session
  // 49, 64 as for a flag).
  const std::string self = dir + "/self.toml";
  const std::string self_text = "[sweep]\ngrid = \"quick\"\nsummary = \"" + self + "\"\n";
  std::ofstream(self) << self_text;
  r = RunCommand(kBin + " sweep --config=" + self);
  EXPECT_EQ(r.exit_code, 78) << r.err;
  EXPECT_NE(r.err.find(self + ": key 'sweep.summary' names the plan file itself, '" + self +
                       "'; writing it would replace the plan file"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(ReadFile(self), self_text);
  r = RunCommand("cd " + dir + " && " + kBin + " sweep --profile=p.toml --summary=./p.toml");
  EXPECT_EQ(r.exit_code, 64) << r.err;
  EXPECT_NE(r.err.find("--profile and --summary name one file"), std::string::npos) << r.err;
  r = RunCommand(kBin + " sweep --from=");
  EXPECT_EQ(r.exit_code, 64) << r.err;
  EXPECT_NE(r.err.find("--from is empty"), std::string::npos) << r.err;
  r = RunCommand("cd " + dir + " && " + kBin + " sweep --output=");
  EXPECT_EQ(r.exit_code, 64) << r.err;
  EXPECT_NE(r.err.find("--output is empty"), std::string::npos) << r.err;
  // The outputs' staging files (`<output>.partial`, `<summary>.partial`, `<profile>.tmp`) and
  // the --trace-dir files, each against another output: all passed every check before
  // session 51 (exit 69 here, without a GPU), and on a GPU the adaptive trace went into the
  // CSV's staging file, the CSV's commit lost the summary, the trace-dir's rename replaced the
  // adaptive trace.
  for (const auto& [flags, said] : std::vector<std::pair<std::string, std::string>>{
           {"--output=x.csv --adaptive-trace=x.csv.partial",
            "--adaptive-trace and --output's staging file name one file, 'x.csv.partial'"},
           {"--output=x.csv.partial --summary=x.csv",
            "--output and --summary's staging file name one file, 'x.csv.partial'"},
           {"--output=x.csv --profile=x.csv.partial",
            "--profile and --output's staging file name one file, 'x.csv.partial'"},
           {"--output=x.csv --profile=p.toml --summary=p.toml.tmp",
            "--summary and --profile's staging file name one file, 'p.toml.tmp'"},
           {"--output=x.csv --trace-dir=td --adaptive-trace=td/trace_depth-first.json",
            "--adaptive-trace and --trace-dir's file name one file, 'td/trace_depth-first.json'"},
           {"--output=td/trace_breadth-first_graph.json.partial --trace-dir=td --issue=graph",
            "--output and --trace-dir's staging file name one file"}}) {
    r = RunCommand("cd " + dir + " && " + kBin + " sweep " + flags);
    EXPECT_EQ(r.exit_code, 64) << flags << ": " << r.err;
    EXPECT_NE(r.err.find(said), std::string::npos)
        << flags << ": " << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(dir + "/td"));
  // "-" is the file stdout has open: beside /dev/stdout, into one file (a regular file here),
  // the CSV and the summary would interleave (both passed before session 51's review).
  r = RunCommand(kBin + " sweep --output=- --summary=/dev/stdout");
  EXPECT_EQ(r.exit_code, 64) << r.err;
  EXPECT_NE(r.err.find("--output and --summary name one file, '-'"), std::string::npos) << r.err;
  // A descriptor output's header waits for its first row: a sweep refused before leaves the
  // shell's file as it was (it gained the CSV's header line before session 51's review).
  std::ofstream(dir + "/shell.txt") << "the line before\n";
  r = RunCommand("(" + kBin + " sweep --output=/dev/stdout --adaptive-trace=/nonexistent-dir/t.csv"
                 " >> " + dir + "/shell.txt)");
  EXPECT_EQ(r.exit_code, 74) << r.err;
  EXPECT_EQ(ReadFile(dir + "/shell.txt"), "the line before\n");
  // Named twice, a device loses nothing: /dev/null as the CSV and as the summary is no clash.
  // (The adaptive trace's directory is missing: 74 after that check, with or without a GPU.)
  r = RunCommand(kBin + " sweep --output=/dev/null --summary=/dev/null "
                 "--adaptive-trace=/nonexistent-dir/t.csv");
  EXPECT_EQ(r.exit_code, 74) << r.err;
  EXPECT_EQ(r.err.find("name one file"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/.partial"));
  std::filesystem::remove_all(dir);
}

// What a command prints on stdout must reach it: to a full disk or a closed descriptor, the
// command exited 0 having written nothing.
TEST(AdviseCliTest, AStdoutThatCannotBeWrittenIsAnIoError) {
  for (const std::string& cmd :
       {std::string(" config"), std::string(" config --markdown"),
        std::string(" advise --h2d-ms=1 --kernel-ms=1 --d2h-ms=1"),
        std::string(" sweep --print-config"), std::string(" help")}) {
    // (In a shell of its own: RunCommand redirects the outer command's stdout.)
    CommandResult r = RunCommand("bash -c '" + kBin + cmd + " >/dev/full'");
    EXPECT_EQ(r.exit_code, 74) << cmd << ": " << r.err;
    EXPECT_NE(r.err.find("writing to stdout failed"), std::string::npos) << cmd << ": " << r.err;
    r = RunCommand("bash -c '" + kBin + cmd + " >&-'");
    EXPECT_EQ(r.exit_code, 74) << cmd << " (closed): " << r.err;
  }
  EXPECT_EQ(RunCommand("bash -c '" + kBin + " config >/dev/null'").exit_code, 0);
}

// Terms so large that every prediction overflows gave exit 0 and "inf ms predicted (-nanx)".
TEST(AdviseCliTest, PredictionsThatOverflowAreRefused) {
  for (const std::string& flags :
       {std::string(" --kernel-ms=1e308 --h2d-ms=1e308 --d2h-ms=1e308"),
        std::string(" --kernel-ms=1 --h2d-ms=1 --d2h-ms=1 --gap-ms=1e308 "
                    "--stream-overhead-ms=1e308")}) {
    CommandResult r = RunCommand(kBin + " advise" + flags);
    EXPECT_EQ(r.exit_code, 64) << flags << ": " << r.out << r.err;
    EXPECT_NE(r.err.find("not finite at any n"), std::string::npos) << r.err;
  }
}

// A TOML key of 100,000 dotted parts overflowed toml++'s stack (SIGSEGV); a path that never
// ends (/dev/zero) was read until memory ran out.
TEST(AdviseCliTest, AKeyOfEndlessPartsAndAnEndlessFileAreClearErrors) {
  const std::string f = ::testing::TempDir() + "/deep.toml";
  std::string key = "a";
  for (int i = 0; i < 100000; ++i) key += ".a";
  std::ofstream(f) << key << " = 1\n";
  for (const std::string& cmd :
       {" config --config=" + f, " sweep --print-config --config=" + f}) {
    CommandResult r = RunCommand(kBin + cmd);
    EXPECT_EQ(r.exit_code, 78) << cmd << ": " << r.err;
    EXPECT_NE(r.err.find("dotted parts"), std::string::npos) << r.err;
  }
  CommandResult r = RunCommand(kBin + " config --config=/dev/zero");
  EXPECT_EQ(r.exit_code, 78) << r.err;
  EXPECT_NE(r.err.find("over 16 MiB"), std::string::npos) << r.err;
  // The keys of an inline table are keys too: 150000 parts there crashed every command that
  // reads a config or a profile (SIGSEGV, exit 139, before session 49).
  std::string inline_key = "x = {a";
  for (int i = 0; i < 150000; ++i) inline_key += ".a";
  std::ofstream(f) << inline_key << " = 1}\n";
  for (const std::string& cmd : {" config --config=" + f, " advise --kernel-ms=1 --profile=" + f}) {
    r = RunCommand(kBin + cmd);
    EXPECT_EQ(r.exit_code, 78) << cmd << ": " << r.err;
    EXPECT_NE(r.err.find("a key of more than 65 dotted parts"), std::string::npos) << r.err;
  }
  // An array's values are no key: 100 floats on each line of an array over lines were said to
  // be "a key of more than 65 dotted parts" (the file is refused for its unknown key).
  std::string floats = "x = [\n";
  for (int line = 0; line < 2; ++line) {
    for (int i = 0; i < 100; ++i) floats += "1.5, ";
    floats += "\n";
  }
  std::ofstream(f) << floats << "]\n";
  r = RunCommand(kBin + " config --config=" + f);
  EXPECT_EQ(r.exit_code, 78) << r.err;
  EXPECT_EQ(r.err.find("dotted parts"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("unknown key 'x'"), std::string::npos) << r.err;
  // A line of 16 MB of single-quoted strings: each looked for the line's end before session 49,
  // 9.5 minutes in all (4 MB: 28 s); one pass now. The bound is a hang's, not a speed goal.
  {
    std::ofstream big(f);
    big << "x = [";
    for (int i = 0; i < 3'900'000; ++i) big << "'a',";
    big << "'a']\n";
  }
  r = RunCommand("timeout 120 " + kBin + " config --config=" + f);
  EXPECT_EQ(r.exit_code, 78) << r.err;
  EXPECT_NE(r.err.find("unknown key 'x'"), std::string::npos) << r.err;
  std::filesystem::remove(f);
}

// A message that quotes a file name is one line with no byte that acts on the terminal: a name
// holding a line break and an escape sequence printed two lines, the second red (before
// session 49).
TEST(AdviseCliTest, AMessageIsOneLineWithoutTerminalControls) {
  // (printf in /bin/sh: \n a line break, \033 ESC, \302\233 the C1 control CSI.)
  CommandResult r = RunCommand(kBin + " config --config=\"$(printf '/nonexistent/x\\n" +
                               "\\033[31mred\\302\\233')\"");
  EXPECT_EQ(r.exit_code, 66) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("/nonexistent/x\\x0a\\x1b[31mred\\xc2\\x9b"), std::string::npos)
      << r.err;
}

// A config key's flag: given twice, its last value (the first was refused for range before
// session 51); a boolean spelled as the other flags' (yes, 0); a number in decimal (0x10 was 16).
TEST(AdviseCliTest, AConfigKeysFlagIsReadAsTheOtherFlags) {
  CommandResult r = RunCommand(kBin + " config --no-comments --detector.window=1 "
                               "--detector.window=5 --streams.powers_of_two=yes");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("window = 5\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("powers_of_two = true\n"), std::string::npos) << r.out;
  r = RunCommand(kBin + " config --no-comments --streams.powers_of_two=0");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("powers_of_two = false\n"), std::string::npos) << r.out;
  r = RunCommand(kBin + " config --detector.window=0x10");
  EXPECT_EQ(r.exit_code, 64) << r.err;
  EXPECT_NE(r.err.find("--detector.window=0x10: key 'detector.window' takes an integer, written "
                       "in decimal"),
            std::string::npos)
      << r.err;
}

// A grid's flag where that grid does not run, and --config-markdown beside a plan or a flag:
// each changed nothing and exited 0 before session 51.
TEST(AdviseCliTest, SweepRefusesFlagsThatWouldChangeNothing) {
  for (const auto& [flags, said] : std::vector<std::pair<std::string, std::string>>{
           {"--size-mib=128", "--size-mib is for the symmetric grid, which --grid=quick does not run"},
           {"--grid=symmetric --asym-iters=5",
            "--asym-iters is for the asymmetric grid, which --grid=symmetric does not run"},
           {"--grid=matmul,asymmetric --frames=64x64",
            "--frames is for the histogram grid, which --grid=matmul,asymmetric does not run"},
           {"--config-markdown --repetitions=3",
            "--config-markdown prints the reference of every key; it checks no plan and takes "
            "no other flag (--repetitions;"}}) {
    const std::string print = flags.starts_with("--config-markdown") ? "" : " --print-config";
    CommandResult r = RunCommand(kBin + " sweep " + flags + print);
    EXPECT_EQ(r.exit_code, 64) << flags << ": " << r.err;
    EXPECT_NE(r.err.find(said), std::string::npos) << flags << ": " << r.err;
  }
  for (const std::string flags : {"--grid=symmetric --size-mib=128", "--grid=all --frames=64x64",
                                  "--grid=histogram,quick --histogram-kernel=global"}) {
    CommandResult r = RunCommand(kBin + " sweep --print-config " + flags);
    EXPECT_EQ(r.exit_code, 0) << flags << ": " << r.err;
  }
}

// Flags that did nothing where they were given, each said now (exit 0 before session 51), and
// `help help`, which was an unknown command.
TEST(AdviseCliTest, FlagsThatDidNothingAreRefusedAndHelpHelpIsHelp) {
  for (const auto& [command, said] : std::vector<std::pair<std::string, std::string>>{
           {"advise --kernel-ms=1 --h2d-ms=1 --d2h-ms=1 --min-items-per-stream=1000",
            "--min-items-per-stream needs --items > 0"},
           {"histogram --device=cpu --synthetic=section44 --frames=2 --scene-length=5",
            "--scene-length: --synthetic=section44 has no scenes"},
           {"histogram --device=cpu --synthetic= in.y4m",
            "--synthetic is empty; name a pattern"},
           {"calibrate --quick --repetitions=21", "--repetitions=21: --quick measures at most 7"},
           {"calibrate --quick --max-mib=256", "--max-mib=256: --quick measures at most 7 "
                                               "repetitions of copies up to 64 MiB"}}) {
    CommandResult r = RunCommand(kBin + " " + command);
    EXPECT_EQ(r.exit_code, 64) << command << ": " << r.err;
    EXPECT_NE(r.err.find(said), std::string::npos) << command << ": " << r.err;
  }
  CommandResult r = RunCommand(kBin + " advise --kernel-ms=0 --kernel-half-ms=5 --h2d-ms=1 "
                               "--d2h-ms=1");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("note: --kernel-half-ms=5 is more than --kernel-ms=0"), std::string::npos)
      << r.err;
  for (const std::string help : {"help help", "help --help", "help -h"}) {
    r = RunCommand(kBin + " " + help);
    EXPECT_EQ(r.exit_code, 0) << help << ": " << r.err;
    EXPECT_NE(r.out.find("usage: streampipe <command>"), std::string::npos) << help;
  }
}

// What a mutation audit found no test held (session 51): the duplex bandwidth split between
// the directions, compute capability 3.5's model, the flags' rule between keys checked before
// any device, an unreadable --config or --profile (a directory, a path through a file) as no
// input (66), and --no-comments.
TEST(AdviseCliTest, EdgesAMutationAuditFoundUnheld) {
  CommandResult r = RunCommand(kBin + " advise --h2d-bytes=1e9 --d2h-bytes=1e9 --kernel-ms=50 "
                               "--duplex-gbps=40 --model=current --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"optimal_streams_closed_form\":83.108"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"predicted_ms\":51.303"), std::string::npos) << r.out;
  r = RunCommand(kBin + " advise --h2d-ms=1 --kernel-ms=2 --d2h-ms=1 --cc=3.5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("model:  werkhoven-2ce (auto)", 0), 0u) << r.out;
  r = RunCommand(kBin + " config --streams.min=9 --streams.max=4");
  EXPECT_EQ(r.exit_code, 64) << r.err;
  EXPECT_NE(r.err.find("flags: streams.min (9) exceeds streams.max (4)"), std::string::npos)
      << r.err;
  r = RunCommand(kBin + " histogram --synthetic=section44 --detector.min_samples=50 "
                 "--detector.window=10");
  EXPECT_EQ(r.exit_code, 64) << r.err;
  for (const std::string command : {"config --config=/tmp", "config --config=/etc/passwd/x",
                                    "advise --kernel-ms=1 --h2d-ms=1 --profile=/tmp"}) {
    r = RunCommand(kBin + " " + command);
    EXPECT_EQ(r.exit_code, 66) << command << ": " << r.err;
    EXPECT_NE(r.err.find("cannot read"), std::string::npos) << command << ": " << r.err;
  }
  r = RunCommand(kBin + " config --no-comments");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find('#'), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("window = 32"), std::string::npos) << r.out;
}

TEST(AdviseCliTest, UnknownCommandIsUsage) {
  CommandResult r = RunCommand(kBin + " frobnicate");
  EXPECT_EQ(r.exit_code, 64);
  EXPECT_NE(r.err.find("unknown command 'frobnicate'"), std::string::npos);
  EXPECT_EQ(RunCommand(kBin + " help").exit_code, 0);
  // `help CMD` is `CMD --help`; `help bogus` printed the general help, exit 0, before 49.
  r = RunCommand(kBin + " help bogus");
  EXPECT_EQ(r.exit_code, 64);
  EXPECT_NE(r.err.find("unknown command 'bogus'"), std::string::npos) << r.err;
  r = RunCommand(kBin + " help advise");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("usage: streampipe advise"), std::string::npos) << r.out;
  EXPECT_EQ(RunCommand(kBin + " help advise sweep").exit_code, 64);
}

// Plans and files the commands would refuse were printed (exit 0) before session 47:
// `sweep --print-config` with an empty --output or two outputs of one file (a file --config then
// refused with 78); `config --config=` (an unset variable) printed the defaults as if a file
// passed; `config --markdown --config=bad.toml` ignored the file.
TEST(AdviseCliTest, WhatWouldBeRefusedIsNotPrinted) {
  CommandResult r = RunCommand(kBin + " sweep --print-config --output=");
  EXPECT_EQ(r.exit_code, 64) << r.out << r.err;
  EXPECT_NE(r.err.find("--output is empty"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  r = RunCommand(kBin + " sweep --print-config --output=x.csv --summary=./x.csv");
  EXPECT_EQ(r.exit_code, 64) << r.out << r.err;
  EXPECT_NE(r.err.find("--output and --summary name one file"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  r = RunCommand(kBin + " config --config=");
  EXPECT_EQ(r.exit_code, 64) << r.out << r.err;
  EXPECT_NE(r.err.find("--config is empty"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  r = RunCommand(kBin + " config --markdown --config=/nonexistent/bad.toml");
  EXPECT_EQ(r.exit_code, 64) << r.out << r.err;
  EXPECT_NE(r.err.find("--markdown prints the reference of every key"), std::string::npos)
      << r.err;
  r = RunCommand(kBin + " config --markdown --detector.threshold=0.2");
  EXPECT_EQ(r.exit_code, 64) << r.out << r.err;
  r = RunCommand(kBin + " sweep --config=");
  EXPECT_EQ(r.exit_code, 64) << r.out << r.err;
  EXPECT_NE(r.err.find("--config is empty"), std::string::npos) << r.err;
  // Two outputs of one file named by the plan file alone are the file's error (78), as its
  // other values are; a flag among them, the command line's (64).
  const std::string dir = ::testing::TempDir() + "/sp_plan_clash";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/p.toml") << "[sweep]\noutput = \"a.csv\"\nsummary = \"./a.csv\"\n";
  r = RunCommand("cd " + dir + " && " + kBin + " sweep --config=p.toml --print-config");
  EXPECT_EQ(r.exit_code, 78) << r.err;
  EXPECT_NE(r.err.find("p.toml: key 'sweep.output' and p.toml: key 'sweep.summary' name one file"),
            std::string::npos)
      << r.err;
  r = RunCommand("cd " + dir + " && " + kBin + " sweep --config=p.toml --summary=a.csv --print-config");
  EXPECT_EQ(r.exit_code, 64) << r.err;
  std::filesystem::remove_all(dir);
}

// Floats are shown as written: 0.05, not 0.050000000000000003 (17 digits, before session 47),
// in what config prints and in the messages that quote a value.
TEST(AdviseCliTest, FloatsAreShownInTheirShortestForm) {
  const std::string dir = ::testing::TempDir() + "/sp_floats";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/c.toml") << "[detector]\nthreshold = 0.05\n";
  CommandResult r = RunCommand(kBin + " config --no-comments --config=" + dir + "/c.toml");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\nthreshold = 0.05\n"), std::string::npos) << r.out;
  std::ofstream(dir + "/p.toml") << "[device]\nname = \"X\"\n[streams]\n"
                                    "stream_overhead_ms = 2201.1\n";
  r = RunCommand(kBin + " advise --profile=" + dir + "/p.toml --h2d-ms=1 --kernel-ms=1 --d2h-ms=1");
  EXPECT_EQ(r.exit_code, 78) << r.err;
  EXPECT_NE(r.err.find("key 'streams.stream_overhead_ms' = 2201.1 is out of range [0, 1000]"),
            std::string::npos)
      << r.err;
  // A bound too: 1/1024 MiB, not 0.000976562 (below the bound it names).
  r = RunCommand(kBin + " sweep --size-mib=0.0009 --print-config");
  EXPECT_EQ(r.exit_code, 64) << r.err;
  EXPECT_NE(r.err.find("--size-mib=0.0009 is out of range [0.0009765625, 65536]"),
            std::string::npos)
      << r.err;
  std::filesystem::remove_all(dir);
}

// The candidates' flags are named as flags (the core's fields were: "min_items_per_stream (0)
// >= 1", before session 48).
TEST(AdviseCliTest, TheCandidatesFlagsAreNamedAsFlags) {
  const std::string run = kBin + " advise --kernel-ms=1 --h2d-ms=1 --d2h-ms=1 ";
  struct Case {
    std::string flags, message;
  };
  for (const Case& c : {
           Case{"--min-items-per-stream=0", "--min-items-per-stream=0: must be >= 1"},
           Case{"--min-streams=0", "--min-streams=0 and --max-streams=32: must satisfy 1 <= min "
                                   "<= max <= 4096"},
           Case{"--min-streams=8 --max-streams=4", "--min-streams=8 and --max-streams=4"},
           Case{"--max-streams=5000", "--max-streams=5000: must satisfy"},
           Case{"--items=0 --divisors-only", "--divisors-only needs --items > 0"},
       }) {
    CommandResult r = RunCommand(run + c.flags);
    EXPECT_EQ(r.exit_code, 64) << c.flags << ": " << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.flags << ": " << r.err;
  }
}

// A profile cut short (a copy stopped part way) read its missing values as 0 and was used: exit
// 0, every overhead 0 (before session 48). Refused (78), naming the first key it lacks.
TEST(AdviseCliTest, AProfileCutShortIsRefusedNamingTheKeyItLacks) {
  const std::string dir = ::testing::TempDir() + "/sp_cut_profile";
  std::filesystem::create_directories(dir);
  const std::string whole =
      streampipe::testing::ReadFile(STREAMPIPE_SOURCE_DIR "/docs/evidence/run117/h100.toml");
  const std::size_t cut = whole.find("\nlatency_ms = ");
  ASSERT_NE(cut, std::string::npos);
  std::ofstream(dir + "/cut.toml") << whole.substr(0, cut) << "\nlatency_ms = 0.00";
  CommandResult r = RunCommand(kBin + " advise --kernel-ms=1 --h2d-ms=1 --d2h-ms=1 --profile=" +
                               dir + "/cut.toml");
  EXPECT_EQ(r.exit_code, 78) << r.err;
  EXPECT_NE(r.err.find(dir + "/cut.toml: key 'h2d.ms_per_byte' is missing (a profile cut short"),
            std::string::npos)
      << r.err;
  // The whole profile is read as it is.
  r = RunCommand(kBin + " advise --kernel-ms=1 --h2d-ms=1 --d2h-ms=1 --profile=" STREAMPIPE_SOURCE_DIR
                 "/docs/evidence/run117/h100.toml");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace streampipe::testing
