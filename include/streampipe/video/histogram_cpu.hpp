// The CPU luminance histogram: the reference the GPU kernel is tested against, and the
// --device=cpu path. Deliberately plain, so that it is obviously right.
//
//   streampipe::video::FrameFormat f{.width = 3, .height = 2,
//                                    .format = streampipe::video::PixelFormat::kGray8};
//   const std::uint8_t px[6] = {0, 7, 7, 255, 7, 0};
//   streampipe::video::Histogram h;
//   streampipe::video::HistogramOfItem(f, std::as_bytes(std::span(px)), h);
//   // h[0] == 2, h[7] == 3, h[255] == 1, every other bin 0
#ifndef STREAMPIPE_VIDEO_HISTOGRAM_CPU_HPP_
#define STREAMPIPE_VIDEO_HISTOGRAM_CPU_HPP_

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "streampipe/video/frame_format.hpp"

namespace streampipe::video {

using Histogram = std::array<std::uint32_t, 256>;

// Gray value of an RGB pixel exactly as the GPU kernel computes it: BT.601 luma weights
// (0.299, 0.587, 0.114) in 8.8 fixed point, rounded. The weights sum to 256, so white stays
// 255 and the result always fits a byte.
constexpr std::uint8_t RgbToGray(std::uint8_t r, std::uint8_t g, std::uint8_t b) {
  return static_cast<std::uint8_t>((77 * r + 150 * g + 29 * b + 128) >> 8);
}

// Overwrites `out` with the histogram of one frame's item bytes (f.item_bytes(): the gray or
// luma values, or interleaved R,G,B for kRgb24). Precondition: item.size() >= f.item_bytes();
// a shorter item (a caller bug) is counted only as far as it goes rather than overrun.
void HistogramOfItem(const FrameFormat& f, std::span<const std::byte> item, Histogram& out);

// HistogramOfItem for `frames` items back to back in `items`, into out[0, frames).
// Preconditions: items.size() >= frames * f.item_bytes(), out.size() >= frames; frames are
// clamped to what both hold.
void HistogramsOfItems(const FrameFormat& f, std::span<const std::byte> items,
                       std::int64_t frames, std::span<Histogram> out);

}  // namespace streampipe::video

#endif  // STREAMPIPE_VIDEO_HISTOGRAM_CPU_HPP_
