// The replay tools' check that a sweep is replayed with the profile it was measured with: its
// rows name it (settings' `profile=`, since session 37). Replaying them with another would
// score another controller's start, quietly (run 258's first sweep with the H100's profile
// instead of the H200's it ran with: 1.14 %). `profile=calibrated` (the sweep calibrated
// itself; that profile was not kept) and rows from before the key take the profile as given.
#ifndef STREAMPIPE_BENCH_BENCH_PROFILE_HPP_
#define STREAMPIPE_BENCH_BENCH_PROFILE_HPP_

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "streampipe/core/device_profile.hpp"
#include "streampipe/core/sweep.hpp"

namespace streampipe::bench {

// Empty where every row's `profile=` is `profile`'s fingerprint (or calibrated, or absent);
// else the message: "SWEEP was measured with the profile X (its rows' settings), and PROFILE
// is Y: replay it with the profile the sweep ran with".
inline std::string ProfileMismatch(const std::vector<SweepPoint>& points,
                                   const DeviceProfile& profile, const std::string& sweep_path,
                                   const std::string& profile_path) {
  const std::string fingerprint = DeviceProfileFingerprint(profile);
  for (const SweepPoint& p : points) {
    for (const auto& [key, value] : ParseSweepSettings(p.settings)) {
      if (key != "profile" || value == "calibrated" || value == fingerprint) continue;
      return absl::StrCat(sweep_path, " was measured with the profile ", value,
                          " (its rows' settings), and ", profile_path, " is ", fingerprint,
                          ": replay it with the profile the sweep ran with");
    }
  }
  return "";
}

}  // namespace streampipe::bench

#endif  // STREAMPIPE_BENCH_BENCH_PROFILE_HPP_
