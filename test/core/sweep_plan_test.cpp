#include "streampipe/core/sweep_plan.hpp"

#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "streampipe/core/config.hpp"
#include "streampipe/core/sweep.hpp"

#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace streampipe {
namespace {

// Whether `text` holds `part` (printed on failure).
::testing::AssertionResult Holds(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << text << "' does not hold '" << part << "'";
}

TEST(SweepPlanTest, DefaultsWriteAndReadBackAsThemselves) {
  const SweepPlan defaults;
  const std::string text = SweepPlanToml(defaults);
  absl::StatusOr<SweepPlan> back = ParseSweepPlan(text, "defaults.toml");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(SweepPlanToml(*back), text);
  // Every key is written, each once, under [sweep].
  for (const TomlKey& k : SweepPlanSchema().keys()) {
    ASSERT_EQ(k.path.rfind("sweep.", 0), 0u) << k.path;
    const std::string line = absl::StrCat("\n", k.path.substr(6), " = ");
    EXPECT_NE(text.find(line), std::string::npos) << k.path;
    EXPECT_EQ(text.find(line), text.rfind(line)) << k.path;
  }
}

TEST(SweepPlanTest, AFileSetsItsKeysAndLeavesTheRestAtTheirDefaults) {
  const std::string text =
      "# the matmul and symmetric grids, both issue modes\n"
      "[sweep]\n"
      "grid = \"symmetric,matmul\"\n"
      "streams = \"1..64*2\"\n"
      "issue = \"streams,graph\"\n"
      "size_mib = 16\n"               // an integer where a float is asked: 16.0
      "iters = \"1,3000\"\n"
      "matmul_p = \"512\"\n"
      "repetitions = 9\n"
      "judge_anchor = false\n"
      "drift_threshold = 0.2\n"
      "summary = \"out/summary.md\"\n";
  absl::StatusOr<SweepPlan> p = ParseSweepPlan(text, "plan.toml");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->grid, "symmetric,matmul");
  EXPECT_EQ(p->streams, "1..64*2");
  EXPECT_EQ(p->issue, "streams,graph");
  EXPECT_EQ(p->size_mib, 16.0);
  EXPECT_EQ(p->iters, "1,3000");
  EXPECT_EQ(p->matmul_p, "512");
  EXPECT_EQ(p->repetitions, 9);
  EXPECT_FALSE(p->judge_anchor);
  EXPECT_EQ(p->drift_threshold, 0.2);
  EXPECT_EQ(p->summary, "out/summary.md");
  const SweepPlan d;
  EXPECT_EQ(p->per_visit, d.per_visit);
  EXPECT_EQ(p->total_mib, d.total_mib);
  EXPECT_EQ(p->frames, d.frames);
  EXPECT_EQ(p->output, d.output);
  EXPECT_EQ(p->adaptive_batches, d.adaptive_batches);
}

TEST(SweepPlanTest, TheKeysAFileSetsAreListed) {
  const std::string path = ::testing::TempDir() + "/sweep_plan_present.toml";
  {
    FILE* f = std::fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("[sweep]\nheld = 0\ngrid = \"all\"\n", f);
    std::fclose(f);
  }
  std::vector<std::string> present;
  absl::StatusOr<SweepPlan> p = LoadSweepPlan(path, &present);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->held, 0);
  EXPECT_EQ(p->grid, "all");
  EXPECT_EQ(std::set<std::string>(present.begin(), present.end()),
            (std::set<std::string>{"sweep.grid", "sweep.held"}));
  std::remove(path.c_str());
  // A missing file is NotFound, named.
  absl::StatusOr<SweepPlan> missing = LoadSweepPlan(path);
  EXPECT_TRUE(absl::IsNotFound(missing.status())) << missing.status();
  EXPECT_TRUE(Holds(std::string(missing.status().message()), path));
}

struct BadFile {
  std::string text;
  std::string message;
};

TEST(SweepPlanTest, ABadValueNamesTheFileTheLineAndTheKey) {
  const std::vector<BadFile> cases = {
      {"[sweep]\n\nsize = 3\n", "plan.toml:3: unknown key 'sweep.size' (known keys in [sweep]: "},
      {"[sweep]\nstreams = [1, 2, 4]\n",
       "plan.toml:2: key 'sweep.streams' must be a string, got an array"},
      {"[sweep]\nstreams = \"1,2000\"\n",
       "plan.toml:2: key 'sweep.streams' = \"1,2000\" is not valid: value 2000 is out of range "
       "[1, 1024]"},
      {"[sweep]\nstreams = \"0..64*2\"\n",
       "key 'sweep.streams' = \"0..64*2\" is not valid: list item '0..64*2'"},
      {"[sweep]\ngrid = \"symmetric,paper\"\n",
       "plan.toml:2: key 'sweep.grid' = \"symmetric,paper\" is not valid: unknown name 'paper'; "
       "allowed: quick, symmetric, asymmetric, matmul, histogram, all"},
      {"[sweep]\norders = \"depth-first,\"\n", "key 'sweep.orders' = \"depth-first,\" is not valid"},
      {"[sweep]\nin_24ths = \"1..24\"\n", "value 24 is out of range [1, 23]"},
      {"[sweep]\niters = \"-1,5\"\n", "value -1 is out of range [0, 2147483647]"},
      {"[sweep]\nmatmul_p = \"0\"\n", "value 0 is out of range [1, 16384]"},
      {"[sweep]\nframes = \"704x576,3x\"\n",
       "key 'sweep.frames' = \"704x576,3x\" is not valid: '3x' is not WxH"},
      {"[sweep]\nhistogram_kernel = \"private\"\n",
       "key 'sweep.histogram_kernel' = \"private\" is not one of: shared, shared-atomic, global"},
      {"[sweep]\nadaptive_retries = 11\n",
       "plan.toml:2: key 'sweep.adaptive_retries' = 11 is out of range [0, 10]"},
      {"[sweep]\ndrift_threshold = 0.0\n",
       "key 'sweep.drift_threshold' = 0.0 is out of range [0.001, 10]"},
      {"[sweep]\nsize_mib = 0\n", "key 'sweep.size_mib' = 0 is out of range [0.0009765625, 65536]"},
      {"[sweep]\nrepetitions = 2.5\n", "plan.toml:2: key 'sweep.repetitions' must be an integer, got a number 2.5"},
      {"[sweep]\njudge_anchor = \"no\"\n", "plan.toml:2: key 'sweep.judge_anchor' must be a boolean, got a string \"no\""},
      {"[pipeline]\nissue = \"graph\"\n", "plan.toml:1: unknown table [pipeline]"},
      {"[sweep\n", "plan.toml:1:"},
  };
  for (const BadFile& c : cases) {
    absl::StatusOr<SweepPlan> p = ParseSweepPlan(c.text, "plan.toml");
    ASSERT_FALSE(p.ok()) << c.text;
    EXPECT_TRUE(absl::IsInvalidArgument(p.status())) << p.status();
    EXPECT_TRUE(Holds(std::string(p.status().message()), c.message)) << c.text;
  }
}

TEST(SweepPlanTest, EmptyOrdersMeanThePerGridDefaults) {
  absl::StatusOr<SweepPlan> p = ParseSweepPlan("[sweep]\norders = \"\"\n", "plan.toml");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->orders, "");
  // An empty list elsewhere is an error.
  p = ParseSweepPlan("[sweep]\nissue = \"\"\n", "plan.toml");
  EXPECT_FALSE(p.ok());
}

TEST(SweepPlanTest, EachKeyIsAFlagOfTheSameName) {
  std::set<std::string> flags;
  for (const TomlKey& k : SweepPlanSchema().keys()) {
    const std::string flag = SweepPlanFlag(k);
    EXPECT_EQ(flag.find('_'), std::string::npos) << flag;
    EXPECT_TRUE(flags.insert(flag).second) << flag;
    // Bindable: every integer key is an int, every key has an address.
    ASSERT_TRUE(k.address) << k.path;
    if (k.type == TomlType::kInt) {
      EXPECT_EQ(k.int_bytes, static_cast<int>(sizeof(int))) << k.path;
    }
  }
  EXPECT_TRUE(flags.count("size-mib"));
  EXPECT_TRUE(flags.count("in-24ths"));
  EXPECT_TRUE(flags.count("adaptive-max-batches"));
  EXPECT_TRUE(flags.count("trace-dir"));
  // The field a key's address gives is the one the key reads and writes.
  SweepPlan plan;
  const TomlKey* warmup = SweepPlanSchema().Find("sweep.warmup");
  const TomlKey* frames = SweepPlanSchema().Find("sweep.frames");
  ASSERT_NE(warmup, nullptr);
  ASSERT_NE(frames, nullptr);
  *static_cast<int*>(warmup->address(&plan)) = 7;
  *static_cast<std::string*>(frames->address(&plan)) = "8x8";
  EXPECT_EQ(plan.warmup, 7);
  EXPECT_EQ(plan.frames, "8x8");
}

TEST(SweepPlanTest, FindGivesTheKeyAtAPathAndNothingElsewhere) {
  const TomlSchema<SweepPlan>& schema = SweepPlanSchema();
  for (const TomlKey& k : schema.keys()) {
    const TomlKey* found = schema.Find(k.path);
    ASSERT_NE(found, nullptr) << k.path;
    EXPECT_EQ(found, &k) << k.path;
  }
  EXPECT_EQ(schema.Find("sweep.no_such_key"), nullptr);
  EXPECT_EQ(schema.Find("output"), nullptr);  // the path, not the name under [sweep]
  EXPECT_EQ(schema.Find(""), nullptr);
}

TEST(SweepPlanTest, CheckValueJudgesAValueAsTheFileWould) {
  const TomlKey* retries = SweepPlanSchema().Find("sweep.adaptive_retries");
  const TomlKey* streams = SweepPlanSchema().Find("sweep.streams");
  ASSERT_NE(retries, nullptr);
  ASSERT_NE(streams, nullptr);
  EXPECT_TRUE(detail::CheckValue(*retries, TomlValue(std::int64_t{10})).ok());
  absl::Status s = detail::CheckValue(*retries, TomlValue(std::int64_t{11}));
  EXPECT_EQ(s.message(), "is out of range [0, 10]");
  EXPECT_TRUE(detail::CheckValue(*streams, TomlValue(std::string("1,3,1024"))).ok());
  s = detail::CheckValue(*streams, TomlValue(std::string("1,1025")));
  EXPECT_EQ(s.message(), "is not valid: value 1025 is out of range [1, 1024]");
}

TEST(SweepPlanTest, FrameSizes) {
  absl::StatusOr<std::vector<std::pair<int, int>>> f = ParseFrameSizes(" 704x576, 1920x1080 ");
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(*f, (std::vector<std::pair<int, int>>{{704, 576}, {1920, 1080}}));
  for (const char* bad : {"", "704", "704x", "x576", "704x576x2", "0x576", "704x-1", "70000x1",
                          "704x576,", "a x b"}) {
    EXPECT_FALSE(ParseFrameSizes(bad).ok()) << bad;
  }
}

TEST(SweepPlanTest, TheReferenceTableHasARowPerKey) {
  const std::string md = SweepPlanMarkdown();
  for (const TomlKey& k : SweepPlanSchema().keys()) {
    EXPECT_NE(md.find("| `" + k.path + "` |"), std::string::npos) << k.path;
  }
  EXPECT_TRUE(Holds(md, "| `sweep.streams` | string | `\"1..128*2\"` | list of n in [1, 1024] |"));
  EXPECT_TRUE(Holds(md, "| `sweep.adaptive_retries` | integer | `2` | 0 to 10 |"));
}

// A plan whose every controller key differs from the library's default.
SweepPlan NonDefaultAdaptivePlan() {
  SweepPlan p;
  p.kernel_halves = !p.kernel_halves;
  p.probe_ratio = 3.0000001;  // written as the shortest text that reads back exactly
  p.check_anchor = !p.check_anchor;
  p.cap_slow_visits = !p.cap_slow_visits;
  p.carry_far_visits = !p.carry_far_visits;
  p.measure_batches = 5;
  p.drift_threshold = 0.1234567;
  p.second_visit_batches = 40;
  p.breadth_first_issue_share = 0.333;
  return p;
}

TEST(SweepPlanTest, ThePlansControllerKeysSetTheAdaptiveOptions) {
  const SweepPlan p = NonDefaultAdaptivePlan();
  const AdaptiveOptions o = SweepAdaptiveOptions(p);
  EXPECT_EQ(o.measure_kernel_halves, p.kernel_halves);
  EXPECT_EQ(o.exploration.probe_ratio, 3.0000001);
  EXPECT_EQ(o.check_anchor, p.check_anchor);
  EXPECT_EQ(o.cap_slow_visits, p.cap_slow_visits);
  EXPECT_EQ(o.carry_far_visits, p.carry_far_visits);
  EXPECT_EQ(o.measure_batches, 5);
  EXPECT_EQ(o.detector.threshold, 0.1234567);
  EXPECT_EQ(o.exploration.second_visit_batches, 40);
  EXPECT_EQ(o.breadth_first_issue_share, 0.333);
  // The rest is the library's default (a sample of it checked here): the n to choose from are
  // the sweep's.
  const AdaptiveOptions d;
  EXPECT_EQ(o.candidates.min_streams, d.candidates.min_streams);
  EXPECT_EQ(o.candidates.max_streams, d.candidates.max_streams);
  EXPECT_EQ(o.exploration.samples_per_candidate, d.exploration.samples_per_candidate);
  EXPECT_EQ(o.detector.consecutive, d.detector.consecutive);
}

TEST(SweepPlanTest, TheDefaultSettingsAreTheOnesRowsHaveWritten) {
  // A row of run 238's sweep (docs/evidence/run238/sweep-1.csv.gz), between judge-anchor and
  // hardware-queues: --resume compares settings, so the text must not move.
  absl::StatusOr<std::string> text =
      FormatSweepSettings(SweepAdaptiveSettings(SweepAdaptiveOptions(SweepPlan{})));
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(*text,
            "kernel-halves=true probe-ratio=3 check-anchor=false cap-slow-visits=true "
            "carry-far-visits=false measure-batches=1 drift-threshold=0.1");
  // second-visit-batches and breadth-first-issue-share appear where set, last.
  text = FormatSweepSettings(SweepAdaptiveSettings(SweepAdaptiveOptions(NonDefaultAdaptivePlan())));
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(*text,
            "kernel-halves=false probe-ratio=3.0000001 check-anchor=true cap-slow-visits=false "
            "carry-far-visits=true measure-batches=5 drift-threshold=0.1234567 "
            "second-visit-batches=40 breadth-first-issue-share=0.333");
}

TEST(SweepPlanTest, ARowsSettingsReadBackToTheOptionsItRanWith) {
  const AdaptiveOptions ran = SweepAdaptiveOptions(NonDefaultAdaptivePlan());
  absl::StatusOr<std::string> text = FormatSweepSettings(SweepAdaptiveSettings(ran));
  ASSERT_TRUE(text.ok()) << text.status();
  // Among the sweep's other settings, which are not the controller's and are ignored.
  const std::string row = "per-visit=3 held=2 " + *text + " hardware-queues=8 profile=calibrated";
  AdaptiveOptions back;
  ASSERT_TRUE(ApplySweepAdaptiveSettings(row, &back).ok());
  EXPECT_EQ(SweepAdaptiveSettings(back), SweepAdaptiveSettings(ran));
  EXPECT_EQ(back.exploration.probe_ratio, 3.0000001);
  EXPECT_EQ(back.detector.threshold, 0.1234567);
  EXPECT_EQ(back.exploration.second_visit_batches, 40);
  EXPECT_EQ(back.breadth_first_issue_share, 0.333);
  EXPECT_EQ(back.measure_kernel_halves, ran.measure_kernel_halves);
  EXPECT_EQ(back.carry_far_visits, ran.carry_far_visits);
  // A key the settings do not name is left as it was: the caller says what older sweeps ran.
  AdaptiveOptions before;
  before.carry_far_visits = true;
  before.exploration.probe_ratio = 7;
  before.exploration.second_visit_batches = 9;
  before.breadth_first_issue_share = 0.5;
  ASSERT_TRUE(ApplySweepAdaptiveSettings("held=2 check-anchor=true", &before).ok());
  EXPECT_TRUE(before.carry_far_visits);
  EXPECT_EQ(before.exploration.probe_ratio, 7);
  EXPECT_TRUE(before.check_anchor);
  // But a key the writer leaves out at a value reads as that value where a row omits it.
  EXPECT_EQ(before.exploration.second_visit_batches, 0);
  EXPECT_EQ(before.breadth_first_issue_share, 0.0);  // rows before session 47 ran without it
}

TEST(SweepPlanTest, ABadSettingNamesItsKeyAndValueAndChangesNothing) {
  for (const char* bad : {"check-anchor=true probe-ratio=abc", "check-anchor=true probe-ratio=-1",
                          "check-anchor=true measure-batches=2.5",
                          "check-anchor=true cap-slow-visits=yes",
                          "check-anchor=true drift-threshold="}) {
    AdaptiveOptions o;
    absl::Status s = ApplySweepAdaptiveSettings(bad, &o);
    EXPECT_TRUE(absl::IsInvalidArgument(s)) << bad << ": " << s;
    const std::string text(bad);
    const std::string pair = text.substr(text.find(' ') + 1);
    EXPECT_TRUE(Holds(std::string(s.message()), "the sweep's setting " + pair)) << s;
    // Named as the row names it, not as a flag the user did not give.
    EXPECT_FALSE(Holds(std::string(s.message()), "--")) << s;
    EXPECT_EQ(o.check_anchor, AdaptiveOptions{}.check_anchor) << bad;  // all or nothing
  }
}

TEST(SweepPlanTest, EveryKeyThatNamesAControllerOptionIsInTheTable) {
  // A sweep key whose meaning names a configuration key (sweep.probe_ratio: "the adaptive
  // pipeline's exploration.probe_ratio") must be one of the controller keys, or what the sweep
  // runs and what its rows record would part.
  const std::vector<std::pair<std::string, std::string>> table = SweepAdaptiveKeys();
  const std::map<std::string, std::string> keys(table.begin(), table.end());
  EXPECT_EQ(keys.size(), table.size());
  int named = 0;
  for (const TomlKey& k : SweepPlanSchema().keys()) {
    bool names_option = false;
    for (const TomlKey& c : PipelineConfigSchema().keys()) {
      names_option = names_option || k.help.find(c.path) != std::string::npos;
    }
    named += names_option;
    EXPECT_EQ(names_option, keys.count(k.path) == 1) << k.path;
  }
  EXPECT_EQ(named, static_cast<int>(table.size()));
  // Each entry pairs a sweep key with the configuration key its meaning names, of one type.
  for (const auto& [path, option] : table) {
    const TomlKey* sweep = SweepPlanSchema().Find(path);
    const TomlKey* config = PipelineConfigSchema().Find(option);
    ASSERT_NE(sweep, nullptr) << path;
    ASSERT_NE(config, nullptr) << option;
    EXPECT_EQ(sweep->type, config->type) << path;
    EXPECT_TRUE(Holds(sweep->help, option)) << path;
  }
}

}  // namespace
}  // namespace streampipe
