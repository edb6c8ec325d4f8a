#include "streampipe/video/frame_format.hpp"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace streampipe::video {

std::size_t FrameFormat::pixels() const {
  if (width <= 0 || height <= 0) return 0;
  return static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
}

std::size_t FrameFormat::stored_bytes() const {
  const std::size_t luma = pixels();
  if (luma == 0) return 0;
  const std::size_t w = static_cast<std::size_t>(width);
  const std::size_t h = static_cast<std::size_t>(height);
  const std::size_t half_w = (w + 1) / 2;
  const std::size_t half_h = (h + 1) / 2;
  switch (format) {
    case PixelFormat::kGray8:
    case PixelFormat::kMono:
      return luma;
    case PixelFormat::kRgb24:
    case PixelFormat::kYuv444:
      return 3 * luma;
    case PixelFormat::kYuv420:
      return luma + 2 * half_w * half_h;
    case PixelFormat::kYuv422:
      return luma + 2 * half_w * h;
  }
  return 0;
}

std::size_t FrameFormat::item_bytes() const {
  return format == PixelFormat::kRgb24 ? 3 * pixels() : pixels();
}

const char* PixelFormatName(PixelFormat format) {
  switch (format) {
    case PixelFormat::kGray8:
      return "gray8";
    case PixelFormat::kRgb24:
      return "rgb24";
    case PixelFormat::kYuv420:
      return "yuv420";
    case PixelFormat::kYuv422:
      return "yuv422";
    case PixelFormat::kYuv444:
      return "yuv444";
    case PixelFormat::kMono:
      return "mono";
  }
  return "unknown";
}

absl::StatusOr<PixelFormat> ParsePixelFormat(std::string_view name) {
  struct Entry {
    std::string_view name;
    PixelFormat format;
  };
  static constexpr Entry kNames[] = {
      {"gray8", PixelFormat::kGray8},    {"gray", PixelFormat::kGray8},
      {"rgb24", PixelFormat::kRgb24},    {"yuv420", PixelFormat::kYuv420},
      {"yuv420p", PixelFormat::kYuv420}, {"yuv422", PixelFormat::kYuv422},
      {"yuv422p", PixelFormat::kYuv422}, {"yuv444", PixelFormat::kYuv444},
      {"yuv444p", PixelFormat::kYuv444}, {"mono", PixelFormat::kMono},
  };
  for (const Entry& e : kNames) {
    if (e.name == name) return e.format;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown pixel format '", std::string(name),
                   "'; expected one of gray8 (gray), rgb24, yuv420 (yuv420p), yuv422 (yuv422p), "
                   "yuv444 (yuv444p), mono"));
}

std::string FrameFormatToString(const FrameFormat& format) {
  return absl::StrCat(format.width, "x", format.height, " ", PixelFormatName(format.format));
}

}  // namespace streampipe::video
