// libFuzzer target: the configuration file and device profile parsers (TOML via toml++, then
// the schema checks). Beyond not crashing, a property: whatever parses is written back out as
// TOML that parses to the same text again (the round trip the config tests check).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "streampipe/core/config.hpp"
#include "streampipe/core/device_profile.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > (1 << 16)) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<streampipe::PipelineConfig> c = streampipe::ParsePipelineConfig(text, "fuzz.toml");
  if (c.ok()) {
    const std::string once = streampipe::PipelineConfigToml(*c);
    absl::StatusOr<streampipe::PipelineConfig> again =
        streampipe::ParsePipelineConfig(once, "roundtrip.toml");
    if (!again.ok() || streampipe::PipelineConfigToml(*again) != once) std::abort();
  }
  absl::StatusOr<streampipe::DeviceProfile> p = streampipe::ParseDeviceProfile(text, "fuzz.toml");
  if (p.ok()) {
    const std::string once = streampipe::DeviceProfileToml(*p);
    absl::StatusOr<streampipe::DeviceProfile> again =
        streampipe::ParseDeviceProfile(once, "roundtrip.toml");
    if (!again.ok() || streampipe::DeviceProfileToml(*again) != once) std::abort();
  }
  return 0;
}
