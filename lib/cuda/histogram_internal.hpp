// Internals of the GPU histogram that benchmarks reach (not installed): the shape of the cluster
// merge, and a launcher in a shape chosen by the caller.
#ifndef STREAMPIPE_LIB_CUDA_HISTOGRAM_INTERNAL_HPP_
#define STREAMPIPE_LIB_CUDA_HISTOGRAM_INTERNAL_HPP_

#include "absl/status/statusor.h"
#include "streampipe/cuda/pipeline_types.hpp"
#include "streampipe/video/frame_format.hpp"

namespace streampipe::histogram_internal {

// One frame's thread-block cluster: `blocks` blocks (the cluster, 1-16; above 8 needs the
// device's non-portable cluster sizes) of `threads` threads (a multiple of 32, at most 1024).
struct ClusterShape {
  unsigned blocks = 1;
  unsigned threads = 256;
};

// The shape kShared takes for frames of `pixels` (> 0).
ClusterShape DefaultClusterShape(long long pixels);

// Whether the current device launches the cluster kernel in shape `c` for this pixel format.
bool ClusterShapeRuns(const video::FrameFormat& format, const ClusterShape& c);

// The cluster-merge launcher in shape `c`; InvalidArgument for a bad format,
// FailedPrecondition for a shape out of range or one the current device cannot launch.
absl::StatusOr<KernelLauncher> ClusterLauncher(const video::FrameFormat& format,
                                               const ClusterShape& c);

}  // namespace streampipe::histogram_internal

#endif  // STREAMPIPE_LIB_CUDA_HISTOGRAM_INTERNAL_HPP_
