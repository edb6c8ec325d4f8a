#include "streampipe/video/frame_source.hpp"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace streampipe::video {

absl::Status CheckReadRequest(std::string_view source, std::size_t item_bytes,
                              std::size_t dst_bytes, std::int64_t max_frames) {
  if (item_bytes > 0 && max_frames >= 0 &&
      static_cast<std::uint64_t>(max_frames) <= dst_bytes / item_bytes) {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat(std::string(source), ": Read of ", max_frames,
                                                 " frames of ", item_bytes,
                                                 " bytes into a buffer of ", dst_bytes, " bytes"));
}

std::int64_t FramesLeftInFile(const FrameFormat& f, std::uint64_t file_bytes,
                              std::uint64_t consumed, std::int64_t max_frames) {
  const std::uint64_t left = file_bytes > consumed ? file_bytes - consumed : 0;
  const std::uint64_t fit = left / std::max<std::uint64_t>(1, f.stored_bytes());
  if (max_frames < 1) return 1;
  return fit >= static_cast<std::uint64_t>(max_frames)
             ? max_frames
             : std::max<std::int64_t>(1, static_cast<std::int64_t>(fit));
}

}  // namespace streampipe::video
