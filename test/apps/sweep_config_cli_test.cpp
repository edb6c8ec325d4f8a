// End-to-end tests of `streampipe sweep --config=FILE`: the plan a file gives, flags over it,
// and the errors of a bad file, all before a GPU is looked for.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <string>

#include "run_command.hpp"

namespace streampipe::testing {
namespace {

const std::string kBin = STREAMPIPE_BIN;
const std::string kSource = STREAMPIPE_SOURCE_DIR;

// A file under the test's temporary directory holding `text`; its path.
std::string WritePlan(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path, std::ios::trunc) << text;
  return path;
}

// The value line `key = ...` of a printed plan ("" if absent).
std::string Line(const std::string& toml, const std::string& key) {
  const std::size_t at = toml.find("\n" + key + " = ");
  if (at == std::string::npos) return "";
  return toml.substr(at + 1, toml.find('\n', at + 1) - at - 1);
}

TEST(SweepConfigCliTest, TheFileSetsThePlanAndAFlagWinsOverIt) {
  const std::string plan = WritePlan("sweep_plan_flags.toml",
                                     "[sweep]\n"
                                     "grid = \"symmetric,matmul\"\n"
                                     "streams = \"1..32*2\"\n"
                                     "held = 0\n"
                                     "drift_threshold = 0.25\n"
                                     "output = \"from-file.csv\"\n");
  CommandResult r = RunCommand(kBin + " sweep --config=" + plan + " --print-config");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Line(r.out, "grid"), "grid = \"symmetric,matmul\"");
  EXPECT_EQ(Line(r.out, "streams"), "streams = \"1..32*2\"");
  EXPECT_EQ(Line(r.out, "held"), "held = 0");
  EXPECT_EQ(Line(r.out, "drift_threshold"), "drift_threshold = 0.25");
  EXPECT_EQ(Line(r.out, "output"), "output = \"from-file.csv\"");
  EXPECT_EQ(Line(r.out, "repetitions"), "repetitions = 15");  // the default
  // Flags, before or after --config, win over the file's keys; the rest stays the file's.
  r = RunCommand(kBin + " sweep --held=2 --config=" + plan +
                 " --streams=1,2,4 --output=from-flag.csv --print-config");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Line(r.out, "held"), "held = 2");
  EXPECT_EQ(Line(r.out, "streams"), "streams = \"1,2,4\"");
  EXPECT_EQ(Line(r.out, "output"), "output = \"from-flag.csv\"");
  EXPECT_EQ(Line(r.out, "grid"), "grid = \"symmetric,matmul\"");
  // A flag set to the default's value still wins over the file.
  r = RunCommand(kBin + " sweep --config=" + plan + " --drift-threshold=0.1 --print-config");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Line(r.out, "drift_threshold"), "drift_threshold = 0.1");
}

TEST(SweepConfigCliTest, APrintedPlanReadsBackToItself) {
  CommandResult first = RunCommand(kBin + " sweep --grid=all --issue=streams,graph --held=1 "
                                   "--frames=704x576 --print-config");
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const std::string plan = WritePlan("sweep_plan_printed.toml", first.out);
  CommandResult again = RunCommand(kBin + " sweep --config=" + plan + " --print-config");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out, first.out);
}

TEST(SweepConfigCliTest, TheExamplePlansAreValid) {
  for (const std::string name : {"paper", "symmetric", "smoke"}) {
    const std::string path = kSource + "/bench/sweeps/" + name + ".toml";
    ASSERT_TRUE(std::filesystem::exists(path)) << path;
    CommandResult r = RunCommand(kBin + " sweep --config=" + path + " --print-config");
    EXPECT_EQ(r.exit_code, 0) << name << ": " << r.err;
  }
}

struct BadPlan {
  std::string text;
  std::string flags;
  int exit_code;
  std::string message;
};

TEST(SweepConfigCliTest, ABadPlanIsNamedAndMeasuresNothing) {
  const std::vector<BadPlan> cases = {
      // A file's value: the file, the line and the key (78).
      {"[sweep]\nstreams = \"1,2000\"\n", "", 78,
       ":2: key 'sweep.streams' = \"1,2000\" is not valid: value 2000 is out of range [1, 1024]"},
      {"[sweep]\ngrid = \"quick\"\nsize = 4\n", "", 78, ":3: unknown key 'sweep.size'"},
      {"[sweep]\nrepetitions = \"9\"\n", "", 78, ":2: key 'sweep.repetitions' must be an integer"},
      {"[sweep\n", "", 78, ":1:"},
      // Between keys, all the file's or the defaults: the file and the key (78).
      {"[sweep]\nadaptive_batches = 300\nadaptive_max_batches = 200\n", "", 78,
       ": key 'sweep.adaptive_max_batches' = 200: must be 0 (4 x adaptive batches) or at least "
       "key 'sweep.adaptive_batches' = 300 beside it"},
      {"[sweep]\nadaptive_max_batches = 100\n", "", 78,
       ": key 'sweep.adaptive_max_batches' = 100: must be 0 (4 x adaptive batches) or at least "
       "the default --adaptive-batches=150"},
      // One of them a flag: the flag, 64.
      {"[sweep]\nadaptive_max_batches = 100\n", "--adaptive-batches=120", 64,
       "key 'sweep.adaptive_max_batches' = 100: must be 0 (4 x adaptive batches) or at least "
       "--adaptive-batches=120"},
      // A bad flag beside a good file: the flag, 64.
      {"[sweep]\ngrid = \"symmetric\"\n", "--orders=sideways", 64,
       "--orders=sideways is not valid: unknown name 'sideways'"},
  };
  const std::string csv = ::testing::TempDir() + "/sweep_bad_plan.csv";
  for (const BadPlan& c : cases) {
    const std::string plan = WritePlan("sweep_bad_plan.toml", c.text);
    CommandResult r =
        RunCommand(kBin + " sweep --config=" + plan + " " + c.flags + " --output=" + csv);
    EXPECT_EQ(r.exit_code, c.exit_code) << c.text << " " << c.flags << " -> " << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.text << " -> " << r.err;
    if (c.exit_code == 78 && c.message.size() > 1 && c.message[0] == ':' &&
        std::isdigit(static_cast<unsigned char>(c.message[1]))) {  // a line: read by --config
      EXPECT_NE(r.err.find("--config: " + plan + c.message), std::string::npos) << r.err;
    }
    EXPECT_FALSE(std::filesystem::exists(csv + ".partial")) << c.text;
    EXPECT_FALSE(std::filesystem::exists(csv)) << c.text;
  }
  // A missing file is no input (66).
  CommandResult r = RunCommand(kBin + " sweep --config=/nonexistent-dir/plan.toml");
  EXPECT_EQ(r.exit_code, 66) << r.err;
  EXPECT_NE(r.err.find("--config: /nonexistent-dir/plan.toml: no such file"), std::string::npos)
      << r.err;
  // --config is for measuring: with --from it is refused as the other flags are.
  r = RunCommand(kBin + " sweep --from=whatever.csv --config=" + kSource +
                 "/bench/sweeps/smoke.toml");
  EXPECT_EQ(r.exit_code, 64) << r.err;
  EXPECT_NE(r.err.find("--config is for measuring a sweep"), std::string::npos) << r.err;
}

// The file's paths are the sweep's outputs, opened before anything is measured (with or without
// a GPU), and a message about one names the file's key, not a flag the line does not have.
TEST(SweepConfigCliTest, TheFilesOutputsAreUsedAndNamedAsItsKeys) {
  const std::string plan = WritePlan("sweep_outputs_plan.toml",
                                     "[sweep]\ngrid = \"matmul\"\n"
                                     "output = \"/nonexistent-dir/s.csv\"\n");
  CommandResult r = RunCommand(kBin + " sweep --config=" + plan);
  EXPECT_EQ(r.exit_code, 74) << r.err;
  EXPECT_NE(r.err.find(plan + ": key 'sweep.output': cannot create '/nonexistent-dir/s.csv.partial'"),
            std::string::npos)
      << r.err;
  // A flag beside it is named as the flag.
  const std::string dir = ::testing::TempDir() + "/sweep_outputs_flags";
  std::filesystem::create_directories(dir);
  r = RunCommand(kBin + " sweep --config=" + plan + " --output=" + dir +
                 "/s.csv --summary=/nonexistent-dir/s.md");
  EXPECT_EQ(r.exit_code, 74) << r.err;
  EXPECT_NE(r.err.find("--summary: cannot create '/nonexistent-dir/s.md.partial'"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/s.csv.partial"));
  const std::string with_summary =
      WritePlan("sweep_outputs_summary.toml", "[sweep]\noutput = \"" + dir +
                                                  "/s.csv\"\nsummary = \"/nonexistent-dir/s.md\"\n"
                                                  "trace_dir = \"" + dir + "/traces\"\n");
  r = RunCommand(kBin + " sweep --config=" + with_summary);
  EXPECT_EQ(r.exit_code, 74) << r.err;
  EXPECT_NE(r.err.find(with_summary + ": key 'sweep.summary': cannot create"), std::string::npos)
      << r.err;
  // --resume with stdout names where the - came from.
  const std::string to_stdout = WritePlan("sweep_outputs_stdout.toml", "[sweep]\noutput = \"-\"\n");
  r = RunCommand(kBin + " sweep --config=" + to_stdout + " --resume");
  EXPECT_EQ(r.exit_code, 64) << r.err;
  EXPECT_NE(r.err.find("not stdout or a descriptor (" + to_stdout + ": key 'sweep.output' is -)"),
            std::string::npos)
      << r.err;
  // A flag's value in a message reads back as itself, not rounded.
  r = RunCommand(kBin + " sweep --size-mib=65536.0001");
  EXPECT_EQ(r.exit_code, 64) << r.err;
  EXPECT_NE(r.err.find("--size-mib=65536.0001 is out of range"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace streampipe::testing
