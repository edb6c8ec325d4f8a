// The histogram kernels by name: what `streampipe histogram --kernel`, the sweep's
// `sweep.histogram_kernel` and the benches accept. In the core (no CUDA) so that a plan's check
// and the launcher parse one list; the kernels themselves are in streampipe/cuda/histogram.hpp.
#ifndef STREAMPIPE_CORE_HISTOGRAM_KERNEL_HPP_
#define STREAMPIPE_CORE_HISTOGRAM_KERNEL_HPP_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace streampipe {

enum class HistogramKernel { kShared, kGlobal, kSharedAtomic };

// Every kernel's name, the default (shared) first: shared, shared-atomic, global.
const std::vector<std::string>& HistogramKernelNames();
// One of HistogramKernelNames(); InvalidArgument naming the valid ones otherwise.
absl::StatusOr<HistogramKernel> ParseHistogramKernel(std::string_view name);
const char* HistogramKernelName(HistogramKernel kernel);

}  // namespace streampipe

#endif  // STREAMPIPE_CORE_HISTOGRAM_KERNEL_HPP_
