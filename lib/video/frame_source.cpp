#include "streampipe/video/frame_source.hpp"

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

}  // namespace streampipe::video
