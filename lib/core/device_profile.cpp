#include "streampipe/core/device_profile.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace streampipe {

const TomlSchema<DeviceProfile>& DeviceProfileSchema() {
  static const TomlSchema<DeviceProfile>* schema = [] {
    auto* s = new TomlSchema<DeviceProfile>();
    using P = DeviceProfile;
    s->String(
        "device.name", [](P& p) -> std::string& { return p.traits.name; }, "a non-empty name",
        [](std::string_view v) {
          return absl::StripAsciiWhitespace(absl::string_view(v.data(), v.size())).empty()
                     ? absl::InvalidArgumentError(
                           "it is empty or blank; the profile names the device it was measured on")
                     : absl::OkStatus();
        },
        "cudaDeviceProp::name; the profile applies to this device only");
    s->Int("device.driver_version", [](P& p) -> int& { return p.driver_version; }, 0, 1e9,
           "cudaDriverGetVersion at calibration; the profile applies to this driver only");
    s->Int("device.runtime_version", [](P& p) -> int& { return p.runtime_version; }, 0, 1e9,
           "cudaRuntimeGetVersion at calibration");
    // No device has compute capability 0.x or no multiprocessor: a profile saying so was edited,
    // and would choose another model (ModelFor) without a word.
    s->Int("device.cc_major", [](P& p) -> int& { return p.traits.cc_major; }, 1, 100,
           "compute capability, major");
    s->Int("device.cc_minor", [](P& p) -> int& { return p.traits.cc_minor; }, 0, 9,
           "compute capability, minor");
    s->Int("device.sm_count", [](P& p) -> int& { return p.traits.sm_count; }, 1, 100000,
           "multiprocessors");
    s->Int("device.copy_engines", [](P& p) -> int& { return p.traits.copy_engines; }, 0, 64,
           "asyncEngineCount");
    s->Bool("device.implicit_sync", [](P& p) -> bool& { return p.traits.implicit_sync; },
            "implicit synchronization (compute capability 2.x, 3.0)");
    s->Bool("device.concurrent_kernels",
            [](P& p) -> bool& { return p.traits.concurrent_kernels; }, "concurrent kernels");
    s->Int("device.hardware_queues", [](P& p) -> int& { return p.traits.hardware_queues; }, 1,
           128, "CUDA_DEVICE_MAX_CONNECTIONS in effect at calibration");
    for (const char* dir : {"h2d", "d2h"}) {
      const bool in = std::string(dir) == "h2d";
      auto link = [in](P& p) -> LinkParams& { return in ? p.traits.h2d : p.traits.d2h; };
      s->Double(absl::StrCat(dir, ".latency_ms"),
                [link](P& p) -> double& { return link(p).latency_ms; }, 0.0, 1e3,
                "L+o: time of a 1-byte copy (ms), median");
      s->Double(absl::StrCat(dir, ".ms_per_byte"),
                [link](P& p) -> double& { return link(p).ms_per_byte; }, 0.0, 1.0,
                "G: inverse bandwidth of a large copy alone (ms/byte), van Werkhoven section V-A");
      s->Double(absl::StrCat(dir, ".gap_ms"), [link](P& p) -> double& { return link(p).gap_ms; },
                0.0, 1e3, "g: added by each back-to-back copy (ms)");
      s->Double(absl::StrCat(dir, ".duplex_ms_per_byte"),
                [link](P& p) -> double& { return link(p).duplex_ms_per_byte; }, 0.0, 1.0,
                "G while the other direction copies at the same time (ms/byte)");
    }
    s->Double("h2d.inline_max_bytes",
              [](P& p) -> double& { return p.traits.inline_h2d_max_bytes; }, 0.0, 1e9,
              "largest copy in the host issues inline, copying its bytes into the GPU's command "
              "queue (bytes); 0: not measured, no inline copies");
    s->Double("h2d.inline_ms_per_byte",
              [](P& p) -> double& { return p.traits.inline_h2d_ms_per_byte; }, 0.0, 1.0,
              "the host's time per byte of an inline copy in, on top of its cost per copy "
              "(ms/byte)");
    s->Double("streams.stream_overhead_ms",
              [](P& p) -> double& { return p.traits.stream_overhead_ms; }, 0.0, 1e3,
              "c: per-stream overhead of the current-GPU model, fitted to a pipeline sweep (ms)");
    s->Double("streams.idle_stream_overhead_ms",
              [](P& p) -> double& { return p.traits.idle_stream_overhead_ms; }, -1.0, 1e3,
              "c0: per-stream overhead where the other direction is idle, from held batches of "
              "tiny sub-chunks (ms); -1: not measured, c applies to every sub-chunk");
    s->Double("streams.sub_chunk_cost_ms",
              [](P& p) -> double& { return p.traits.sub_chunk_cost_ms; }, 0.0, 1e3,
              "s: tiny copy in + empty kernel + copy out per extra stream (ms); the current "
              "model's issue bound");
    s->Double("streams.duplex_gbps", [](P& p) -> double& { return p.duplex_gbps; }, 0.0, 1e6,
              "both directions at once, aggregate (GB/s)");
    s->String("calibration.created", [](P& p) -> std::string& { return p.created; }, {},
              "when the calibration ran (UTC)");
    return s;
  }();
  return *schema;
}

absl::StatusOr<DeviceProfile> ParseDeviceProfile(std::string_view text, std::string_view name) {
  DeviceProfile p;
  std::vector<std::string> present;
  absl::Status s = DeviceProfileSchema().Read(text, name, &p, &present);
  if (!s.ok()) return s;
  // Every key the calibration writes, but those later versions added (a profile of an earlier
  // one reads them as not measured): a profile cut short read its missing values as 0 (no
  // latency, no overhead) and was used, before session 48.
  static const std::set<std::string> kAddedLater = {
      "h2d.inline_max_bytes", "h2d.inline_ms_per_byte", "streams.idle_stream_overhead_ms"};
  for (const TomlKey& key : DeviceProfileSchema().keys()) {
    if (kAddedLater.count(key.path) == 0 &&
        std::find(present.begin(), present.end(), key.path) == present.end()) {
      return absl::InvalidArgumentError(absl::StrCat(
          std::string(name), ": key '", key.path,
          "' is missing (a profile cut short, or not one streampipe calibrate wrote: calibrate "
          "again)"));
    }
  }
  if (p.traits.name.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(name), ": key 'device.name' is empty"));
  }
  // A copy's time per byte is what calibration measures first; 0 is no measurement (a profile
  // edited by hand): before session 51 it loaded and every prediction failed later, "bytes but
  // no time and no G", naming neither the profile nor the key.
  // (A duplex time per byte of 0 is "as G": DeviceTraits.)
  for (const auto& [key, v] : {std::pair<const char*, double>{"h2d.ms_per_byte",
                                                              p.traits.h2d.ms_per_byte},
                               {"d2h.ms_per_byte", p.traits.d2h.ms_per_byte}}) {
    if (!(v > 0.0)) {
      return absl::InvalidArgumentError(absl::StrCat(
          std::string(name), ": key '", key, "' = ", v,
          " is no measured time per byte (calibrate writes one > 0)"));
    }
  }
  return p;
}

absl::StatusOr<DeviceProfile> ReadDeviceProfile(const std::string& path) {
  std::string text;
  absl::Status s = detail::ReadTextFile(path, &text);
  if (!s.ok()) return s;
  return ParseDeviceProfile(text, path);
}

std::string DeviceProfileToml(const DeviceProfile& profile) {
  return "# streampipe device profile (streampipe calibrate); docs/config.md\n" +
         DeviceProfileSchema().Write(profile);
}

std::string DeviceProfileFingerprint(const DeviceProfile& profile) {
  DeviceProfile values = profile;
  values.created.clear();
  values.traits.hardware_queues = 0;  // the loader's, from the runtime, not the file's
  // The values alone, without the help comments (another build may word them otherwise), hashed
  // with FNV-1a, 64 bits: stable across builds and runs (absl::Hash is not).
  std::uint64_t h = 0xcbf29ce484222325ULL;
  // Numbers with 17 digits, as profiles were written before session 47: the fingerprints that
  // sweeps' rows record (and --resume and bench/trace_replay compare) stay what they were.
  for (const unsigned char c : DeviceProfileSchema().Write(values, /*with_help=*/false,
                                                           detail::TomlNumbers::kSeventeenDigits)) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return absl::StrFormat("fnv1a64:%016x", h);
}

absl::Status ValidateDeviceProfile(const DeviceProfile& profile) {
  absl::StatusOr<DeviceProfile> back =
      ParseDeviceProfile(DeviceProfileToml(profile), "the calibrated profile");
  if (!back.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(back.status().message(), " (a busy or cold GPU? calibrate again)"));
  }
  return absl::OkStatus();
}

absl::Status WriteDeviceProfile(const std::string& path, const DeviceProfile& profile) {
  // A profile its own loader rejects would fail every later run that reads it.
  if (absl::Status v = ValidateDeviceProfile(profile); !v.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": not written: ", v.message()));
  }
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return absl::PermissionDeniedError(absl::StrCat(path, ": cannot write"));
    out << DeviceProfileToml(profile);
    if (!out.flush()) return absl::DataLossError(absl::StrCat(path, ": write failed"));
  }
  // Atomic replace: a crash never leaves a half-written profile.
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return absl::PermissionDeniedError(absl::StrCat(path, ": cannot replace"));
  }
  return absl::OkStatus();
}

absl::Status CheckProfileMatches(const DeviceProfile& profile, const std::string& device_name,
                                 int driver_version) {
  if (profile.traits.name != device_name || profile.driver_version != driver_version) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the profile was made on '", profile.traits.name, "' with driver ",
        profile.driver_version, "; this is '", device_name, "' with driver ", driver_version,
        ": run streampipe calibrate again"));
  }
  return absl::OkStatus();
}

}  // namespace streampipe
