// The pipeline's configuration file (TOML, toml++): every tunable of the pipeline, the choice
// of n, drift detection, exploration and on-line calibration. docs/config.md lists every key.
//
//   absl::StatusOr<streampipe::PipelineConfig> c = streampipe::LoadPipelineConfig("p.toml");
//   STREAMPIPE_RETURN_IF_ERROR(
//       streampipe::ApplyConfigOverride(&*c, "detector.threshold", "0.2"));   // a flag
//   std::cout << streampipe::PipelineConfigToml(*c);                          // every key
//
// Errors name the file (or the flag), the line and the key: unknown keys, wrong types,
// values out of range (with the allowed range) and inconsistent combinations.
#ifndef STREAMPIPE_CORE_CONFIG_HPP_
#define STREAMPIPE_CORE_CONFIG_HPP_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "streampipe/core/stream_controller.hpp"
#include "streampipe/core/toml_schema.hpp"

namespace streampipe {

struct PipelineConfig {
  // [pipeline]
  int device = 0;
  int max_streams = 32;
  int max_in_flight = 2;
  std::string order = "depth-first";
  std::string issue = "streams";  // "streams" or "graph" (IssueMode)
  std::string model = "auto";
  int staging_threads = 8;
  bool record_timeline = false;
  std::int64_t wait_timeout_ms = 60000;
  std::string profile;    // device profile from streampipe calibrate; "" = quick calibration
  std::string event_log;  // JSON-lines log of re-derivations; "" = none
  // [streams], [adaptive], [detector], [exploration]
  AdaptiveOptions adaptive;
};

const TomlSchema<PipelineConfig>& PipelineConfigSchema();

// Defaults, then the file. NotFound / PermissionDenied for a missing or unreadable file;
// InvalidArgument naming file, line and key otherwise.
absl::StatusOr<PipelineConfig> LoadPipelineConfig(const std::string& path);
absl::StatusOr<PipelineConfig> ParsePipelineConfig(std::string_view text, std::string_view name);

// Sets one key ("detector.threshold") from its text ("0.2"; strings may be bare, taken as
// written) with the same range checks as the file; a number is decimal as every flag's (not
// TOML's 0x10, 0o20 or 1_6; leading zeros and ".5" read as elsewhere), a boolean true or
// false; errors name the flag --key=value and the type it wants. Rules between keys
// are checked by ValidatePipelineConfig once all flags are applied (so that their order does
// not matter).
absl::Status ApplyConfigOverride(PipelineConfig* config, std::string_view key,
                                 std::string_view value);

// Checks that keys agree with each other (streams.min <= streams.max; detector.min_samples and
// detector.consecutive <= detector.window). streams.max is capped by pipeline.max_streams.
absl::Status ValidatePipelineConfig(const PipelineConfig& config, std::string_view name);

// Every key with its value, as TOML that ParsePipelineConfig reads back to the same config.
std::string PipelineConfigToml(const PipelineConfig& config, bool with_help = true);

// The reference table of docs/config.md: key, type, default, allowed values, meaning.
std::string PipelineConfigMarkdown();

}  // namespace streampipe

#endif  // STREAMPIPE_CORE_CONFIG_HPP_
