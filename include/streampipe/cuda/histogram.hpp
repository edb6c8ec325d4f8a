// 256-bin luminance histograms of video frames on the GPU, as StreamPipeline launchers: an
// item is one frame (format.item_bytes() bytes in), the output 256 uint32 counts (1 KiB).
//
//   o.in_bytes_per_item = format.item_bytes();
//   o.out_bytes_per_item = streampipe::kHistogramBytes;
//   o.launch = streampipe::HistogramLauncher(format, streampipe::HistogramKernel::kShared);
//
// Kernels (seed 000, sections 4.2-4.4):
//  - kShared: a shared-memory privatized histogram per block; cost nearly independent of
//    content. Where the device launches thread-block clusters (sm_90 and newer, and a build with
//    code for them), a frame's blocks (at most 8) form one cluster and merge their bins through
//    distributed shared memory, each bin stored once (frames of fewer than 40960 pixels, 5 x
//    8192: one block a frame, stored directly): the launcher issues nothing but the kernel. Elsewhere it is
//    kSharedAtomic.
//  - kSharedAtomic: the same count, merged into the frame's histogram with one global atomic
//    per bin, into an output the launcher zeroes first with cudaMemsetAsync (1 KiB a frame).
//    That memset costs the host 1.4-1.8 us a call up to 4 KiB and 4-6 us from 5 KiB (run 122),
//    a step in the sub-chunk's issue time no model of the batch sees.
//  - kGlobal: one global atomic per pixel (zeroed output too); frames whose pixels share a
//    value serialize on one address, so the cost depends on content the way the 2012 paper's
//    did (section 4.4).
// rgb24 frames are converted to gray on the GPU as video::RgbToGray does (section 4.3).
// Every kernel is exact for any frame size (odd widths too).
#ifndef STREAMPIPE_CUDA_HISTOGRAM_HPP_
#define STREAMPIPE_CUDA_HISTOGRAM_HPP_

#include <cstddef>
#include <string_view>

#include "absl/status/statusor.h"
#include "streampipe/core/histogram_kernel.hpp"  // HistogramKernel, its names
#include "streampipe/cuda/pipeline_types.hpp"
#include "streampipe/video/frame_format.hpp"

namespace streampipe {

inline constexpr std::size_t kHistogramBins = 256;
inline constexpr std::size_t kHistogramBytes = kHistogramBins * sizeof(std::uint32_t);

// Whether kShared merges frames of `format` in clusters on the current device (false for a
// format the kernels do not take).
bool HistogramMergesInClusters(const video::FrameFormat& format);

// InvalidArgument for a format the kernels do not take (non-positive size). The kShared path is
// chosen for the current device when the launcher is made: make it with the pipeline's device
// current (a cluster launcher run on a device that cannot launch clusters fails its batches with
// the CUDA error; it never computes a wrong histogram).
absl::StatusOr<KernelLauncher> HistogramLauncher(const video::FrameFormat& format,
                                                 HistogramKernel kernel);

}  // namespace streampipe

#endif  // STREAMPIPE_CUDA_HISTOGRAM_HPP_
