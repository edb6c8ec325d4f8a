// 256-bin luminance histograms of video frames on the GPU, as StreamPipeline launchers: an
// item is one frame (format.item_bytes() bytes in), the output 256 uint32 counts (1 KiB).
//
//   o.in_bytes_per_item = format.item_bytes();
//   o.out_bytes_per_item = streampipe::kHistogramBytes;
//   o.launch = streampipe::HistogramLauncher(format, streampipe::HistogramKernel::kShared);
//
// Two kernels (seed 000, sections 4.2-4.4):
//  - kShared: a shared-memory privatized histogram per block, merged into the frame's
//    histogram with one global atomic per bin; cost nearly independent of content.
//  - kGlobal: one global atomic per pixel; frames whose pixels share a value serialize on one
//    address, so the cost depends on content the way the 2012 paper's did (section 4.4).
// rgb24 frames are converted to gray on the GPU as video::RgbToGray does (section 4.3).
// Both are exact for any frame size (odd widths too).
#ifndef STREAMPIPE_CUDA_HISTOGRAM_HPP_
#define STREAMPIPE_CUDA_HISTOGRAM_HPP_

#include <cstddef>
#include <string_view>

#include "absl/status/statusor.h"
#include "streampipe/cuda/pipeline_types.hpp"
#include "streampipe/video/frame_format.hpp"

namespace streampipe {

inline constexpr std::size_t kHistogramBins = 256;
inline constexpr std::size_t kHistogramBytes = kHistogramBins * sizeof(std::uint32_t);

enum class HistogramKernel { kShared, kGlobal };
absl::StatusOr<HistogramKernel> ParseHistogramKernel(std::string_view name);  // shared, global
const char* HistogramKernelName(HistogramKernel kernel);

// InvalidArgument for a format the kernels do not take (non-positive size).
absl::StatusOr<KernelLauncher> HistogramLauncher(const video::FrameFormat& format,
                                                 HistogramKernel kernel);

}  // namespace streampipe

#endif  // STREAMPIPE_CUDA_HISTOGRAM_HPP_
