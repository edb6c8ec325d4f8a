// The configuration file: every key round-trips; each kind of bad file gets its message.
#include "streampipe/core/config.hpp"

#include <cstdio>
#include <fstream>

#include <gtest/gtest.h>

#include "streampipe/core/device_profile.hpp"

namespace streampipe {
namespace {

// A valid non-default value for each key, by type and range.
TomlValue OtherValue(const TomlKey& k) {
  switch (k.type) {
    case TomlType::kDouble:
      return TomlValue(k.min + 0.37 * (std::min(k.max, k.min + 1.0) - k.min));
    case TomlType::kInt:
      return TomlValue(static_cast<std::int64_t>(k.min) + 1);
    case TomlType::kBool:
      return TomlValue(true);
    case TomlType::kString:
      return TomlValue(k.choices.empty() ? std::string("some/path \"quoted\".toml")
                                         : k.choices.back());
  }
  return TomlValue(0.0);
}

TEST(ConfigTest, EveryKeyRoundTrips) {
  const auto& keys = PipelineConfigSchema().keys();
  EXPECT_GE(keys.size(), 30u);
  PipelineConfig c;
  for (const TomlKey& k : keys) k.set(&c, OtherValue(k));
  // Keep the cross-key rules satisfied.
  c.max_streams = 64;
  c.adaptive.candidates.min_streams = 2;
  c.adaptive.candidates.max_streams = 32;
  c.adaptive.detector.window = 40;
  const std::string text = PipelineConfigToml(c);
  absl::StatusOr<PipelineConfig> back = ParsePipelineConfig(text, "roundtrip.toml");
  ASSERT_TRUE(back.ok()) << back.status() << "\n" << text;
  for (const TomlKey& k : keys) {
    EXPECT_EQ(k.get(&c), k.get(&*back)) << k.path;
  }
  EXPECT_EQ(PipelineConfigToml(*back), text);
}

TEST(ConfigTest, DefaultsAreValidAndPrintEveryKey) {
  PipelineConfig c;
  ASSERT_TRUE(ValidatePipelineConfig(c, "defaults").ok());
  const std::string text = PipelineConfigToml(c);
  for (const TomlKey& k : PipelineConfigSchema().keys()) {
    const std::string leaf = k.path.substr(k.path.rfind('.') + 1);
    EXPECT_NE(text.find("\n" + leaf + " = "), std::string::npos) << k.path;
  }
  absl::StatusOr<PipelineConfig> empty = ParsePipelineConfig("", "empty.toml");
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(PipelineConfigToml(*empty), text);
}

TEST(ConfigTest, EachKindOfBadFileGetsItsMessage) {
  struct Case {
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {"[detector\nthreshold = 0.1\n", "bad.toml:1:"},                     // syntax
      {"[detector]\ntreshold = 0.1\n", "bad.toml:2: unknown key 'detector.treshold'"},
      {"[detector]\ntreshold = 0.1\n", "known keys in [detector]: "},
      {"[colours]\nred = 1\n", "bad.toml:1: unknown table [colours]"},
      {"[detector]\nthreshold = \"high\"\n",
       "bad.toml:2: key 'detector.threshold' must be a number, got a string \"high\""},
      {"[detector]\nwindow = 2.5\n", "key 'detector.window' must be an integer, got a number"},
      {"[pipeline]\nrecord_timeline = 1\n", "must be a boolean, got an integer"},
      {"[detector]\nthreshold = 50.0\n",
       "bad.toml:2: key 'detector.threshold' = 50.0 is out of range [0.001, 10]"},
      {"[pipeline]\nmax_in_flight = 9\n", "key 'pipeline.max_in_flight' = 9 is out of range [1, 8]"},
      {"[pipeline]\norder = \"sideways\"\n",
       "key 'pipeline.order' = \"sideways\" is not one of: depth-first, breadth-first, "
       "engine-per-stream"},
      {"[pipeline]\nmodel = \"werkhoven-3ce\"\n", "is not one of: auto, gomez-luna-cc1"},
      {"[streams]\nmin = 9\nmax = 8\n", "bad.toml: streams.min (9) exceeds streams.max (8)"},
      {"[detector]\nwindow = 4\nmin_samples = 8\n", "must not exceed detector.window (4)"},
      {"pipeline = 3\n", "'pipeline' must be a table"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<PipelineConfig> r = ParsePipelineConfig(c.text, "bad.toml");
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << c.text;
    EXPECT_NE(r.status().message().find(c.message), std::string::npos)
        << c.text << " -> " << r.status().message();
  }
}

// Regressions from test/fuzz/config_fuzz: toml++ 3.3.0 reaches __builtin_unreachable on these
// (upstream #190, #295); GuardToml refuses them first with a message naming line and column.
TEST(ConfigTest, NonAsciiOutsideStringsIsAClearErrorNotUndefinedBehaviour) {
  const std::string crash = "\xc7\xa4pipelihed\nm]oel = \"werkxo\x0b\x0b\x0b\x0b\x0b";
  absl::StatusOr<PipelineConfig> r = ParsePipelineConfig(crash + std::string("\0\0" "0\n", 4),
                                                         "crash.toml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "crash.toml:1:1: parse error: non-ASCII byte 0xc7 outside a string or comment");
  r = ParsePipelineConfig("\xcc\xaa", "issue295.toml");
  EXPECT_FALSE(r.ok());
  r = ParsePipelineConfig("s = \"\"\"\\\n\xc2\xa7\"\"\"\n", "issue190.toml");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("line-ending backslash"), std::string::npos);
  // Non-ASCII where TOML allows it still works: in comments and in strings.
  absl::StatusOr<PipelineConfig> ok = ParsePipelineConfig(
      "# Gómez-Luna et al., §4.4\n[pipeline]\nevent_log = \"/tmp/événements.jsonl\"\n",
      "utf8.toml");
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(ok->event_log, "/tmp/événements.jsonl");
  // An escaped quote does not end a string.
  ok = ParsePipelineConfig("[pipeline]\nprofile = \"a\\\"é\"\n", "escape.toml");
  ASSERT_TRUE(ok.ok()) << ok.status();
}

TEST(ConfigTest, MissingAndUnreadableFiles) {
  absl::StatusOr<PipelineConfig> missing = LoadPipelineConfig("/nonexistent/p.toml");
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("/nonexistent/p.toml: no such file"),
            std::string::npos);
  absl::StatusOr<PipelineConfig> dir = LoadPipelineConfig("/tmp");
  EXPECT_EQ(dir.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_NE(dir.status().message().find("directory"), std::string::npos);
}

TEST(ConfigTest, LoadsAFile) {
  const std::string path = ::testing::TempDir() + "/streampipe_config_test.toml";
  std::ofstream(path) << "[detector]\nthreshold = 0.25\n[streams]\npowers_of_two = true\n";
  absl::StatusOr<PipelineConfig> c = LoadPipelineConfig(path);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->adaptive.detector.threshold, 0.25);
  EXPECT_TRUE(c->adaptive.candidates.powers_of_two);
  EXPECT_EQ(c->max_streams, 32);  // untouched keys keep their defaults
  std::remove(path.c_str());
}

TEST(ConfigTest, FlagsOverrideSingleKeysWithTheSameChecks) {
  PipelineConfig c;
  ASSERT_TRUE(ApplyConfigOverride(&c, "detector.threshold", "0.3").ok());
  EXPECT_EQ(c.adaptive.detector.threshold, 0.3);
  ASSERT_TRUE(ApplyConfigOverride(&c, "pipeline.order", "breadth-first").ok());  // bare string
  EXPECT_EQ(c.order, "breadth-first");
  ASSERT_TRUE(ApplyConfigOverride(&c, "pipeline.event_log", "/tmp/events.jsonl").ok());
  EXPECT_EQ(c.event_log, "/tmp/events.jsonl");

  absl::Status s = ApplyConfigOverride(&c, "detector.threshold", "-1");
  EXPECT_EQ(s.message(),
            "--detector.threshold=-1: key 'detector.threshold' = -1 is out of range [0.001, 10]");
  s = ApplyConfigOverride(&c, "detector.thresold", "0.1");
  EXPECT_NE(s.message().find("unknown configuration key 'detector.thresold'"), std::string::npos);
  EXPECT_EQ(c.adaptive.detector.threshold, 0.3);  // a failed override changes nothing
  // The order of flags does not matter: rules between keys are checked after all of them.
  ASSERT_TRUE(ApplyConfigOverride(&c, "streams.min", "16").ok());
  ASSERT_TRUE(ApplyConfigOverride(&c, "streams.max", "16").ok());
  EXPECT_TRUE(ValidatePipelineConfig(c, "flags").ok());
  ASSERT_TRUE(ApplyConfigOverride(&c, "streams.max", "8").ok());
  EXPECT_NE(ValidatePipelineConfig(c, "flags").message().find("streams.min (16) exceeds"),
            std::string::npos);
}

TEST(DeviceProfileTest, RoundTripsAndChecksTheDevice) {
  DeviceProfile p;
  p.traits = DeviceTraits::H100Anchors();
  p.driver_version = 13000;
  p.created = "2026-11-22T12:00:00Z";
  p.duplex_gbps = 96.5;
  p.traits.sub_chunk_cost_ms = 0.0118;
  absl::StatusOr<DeviceProfile> back = ParseDeviceProfile(DeviceProfileToml(p), "p.toml");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->traits.h2d.ms_per_byte, p.traits.h2d.ms_per_byte);  // exact round trip
  EXPECT_EQ(back->traits.stream_overhead_ms, p.traits.stream_overhead_ms);
  EXPECT_EQ(back->traits.sub_chunk_cost_ms, p.traits.sub_chunk_cost_ms);
  EXPECT_EQ(back->traits.name, p.traits.name);
  EXPECT_TRUE(CheckProfileMatches(*back, p.traits.name, 13000).ok());
  absl::Status other = CheckProfileMatches(*back, "NVIDIA H200", 13000);
  EXPECT_EQ(other.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(other.message().find("run streampipe calibrate again"), std::string::npos);
  EXPECT_FALSE(CheckProfileMatches(*back, p.traits.name, 12080).ok());
  EXPECT_FALSE(ParseDeviceProfile("[h2d]\nlatency_ms = 0.1\n", "p.toml").ok());  // no name
}

}  // namespace
}  // namespace streampipe
