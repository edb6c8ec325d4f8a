// Frame geometry and pixel layouts of the video input, and how many bytes a frame takes in the
// file (stored_bytes) versus how many the histogram kernel gets (item_bytes). The two differ
// because YUV chroma is read and dropped on the host: a luminance histogram only needs luma,
// and not copying chroma to the device saves a third (4:2:0) to two thirds (4:4:4) of the
// transfer.
//
//   streampipe::video::FrameFormat f{.width = 33, .height = 17,
//                                    .format = streampipe::video::PixelFormat::kYuv420};
//   f.stored_bytes();  // 33*17 + 2 * 17*9 = 867: Y, Cb, Cr planes
//   f.item_bytes();    // 33*17 = 561: the Y plane only
//   absl::StatusOr<PixelFormat> p = streampipe::video::ParsePixelFormat("rgb24");
#ifndef STREAMPIPE_VIDEO_FRAME_FORMAT_HPP_
#define STREAMPIPE_VIDEO_FRAME_FORMAT_HPP_

#include <cstddef>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace streampipe::video {

// Planar YUV layouts are 8-bit, planes in the order Y, Cb, Cr. kMono is Y4M's "Cmono" (a luma
// plane only); it is byte-for-byte kGray8 but kept apart so a format read from a file
// describes the file.
enum class PixelFormat { kGray8, kRgb24, kYuv420, kYuv422, kYuv444, kMono };

struct FrameFormat {
  int width = 0;
  int height = 0;
  PixelFormat format = PixelFormat::kGray8;

  // Bytes of one frame in the file or stream, all planes. Chroma planes of subsampled layouts
  // round up, so odd sizes work: 4:2:0 has two planes of ((W+1)/2)*((H+1)/2), 4:2:2 two of
  // ((W+1)/2)*H, 4:4:4 two of W*H. 0 when width or height is not positive.
  std::size_t stored_bytes() const;
  // Bytes the histogram kernel gets per frame (an "item"): W*H (the luma plane) for YUV, mono
  // and gray8; 3*W*H interleaved R,G,B for rgb24, which the kernel converts to gray. 0 when
  // width or height is not positive.
  std::size_t item_bytes() const;
  // W*H as a size_t; 0 when width or height is not positive.
  std::size_t pixels() const;

  bool operator==(const FrameFormat&) const = default;
};

// "gray8", "rgb24", "yuv420", "yuv422", "yuv444", "mono".
const char* PixelFormatName(PixelFormat format);

// The names PixelFormatName returns, plus ffmpeg's -pix_fmt spellings "gray", "yuv420p",
// "yuv422p", "yuv444p" so a raw stream can be described the way it was produced.
// InvalidArgument (listing the accepted names) for anything else.
absl::StatusOr<PixelFormat> ParsePixelFormat(std::string_view name);

// "704x576 yuv420", for messages and logs.
std::string FrameFormatToString(const FrameFormat& format);

}  // namespace streampipe::video

#endif  // STREAMPIPE_VIDEO_FRAME_FORMAT_HPP_
