#include "config_flags.hpp"

#include "streampipe/core/toml_schema.hpp"

namespace streampipe::cli {

ConfigResult LoadConfig(const std::string& command, const std::string& path, const FlagSet& flags) {
  ConfigResult r;
  if (flags.WasSet("config") && path.empty()) {
    // (An unset variable in `--config=$FILE` ran with the defaults, as if a file had passed.)
    r.exit_code = Fail(command, kExitUsage, "--config is empty; give the configuration file");
    return r;
  }
  if (!path.empty()) {
    absl::StatusOr<PipelineConfig> c = LoadPipelineConfig(path);
    if (!c.ok()) {
      const bool missing = c.status().code() == absl::StatusCode::kNotFound ||
                           c.status().code() == absl::StatusCode::kPermissionDenied;
      r.exit_code = Fail(command, missing ? kExitNoInput : kExitConfig, c.status());
      return r;
    }
    r.config = *c;
  }
  for (const auto& [key, given] : flags.overrides()) {
    // A boolean key's flag is spelled as the other boolean flags: yes, no, 1, 0 too.
    std::string value = given;
    const TomlKey* spec = PipelineConfigSchema().Find(key);
    if (spec != nullptr && spec->type == TomlType::kBool) {
      if (value == "yes" || value == "1") value = "true";
      if (value == "no" || value == "0") value = "false";
    }
    absl::Status s = ApplyConfigOverride(&r.config, key, value);
    if (!s.ok()) {
      r.exit_code = Fail(command, kExitUsage, s);
      return r;
    }
  }
  if (!flags.overrides().empty()) {
    absl::Status s = ValidatePipelineConfig(r.config, "flags");
    if (!s.ok()) r.exit_code = Fail(command, kExitUsage, s);
  }
  return r;
}

}  // namespace streampipe::cli
