#include "streampipe/core/histogram_kernel.hpp"

#include <array>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace streampipe {
namespace {

// Every kernel, the default first; HistogramKernelName's switch names each (the compiler warns
// where it misses one), and a test checks that the names differ and parse back.
constexpr std::array<HistogramKernel, 3> kKernels = {
    HistogramKernel::kShared, HistogramKernel::kSharedAtomic, HistogramKernel::kGlobal};

}  // namespace

const char* HistogramKernelName(HistogramKernel kernel) {
  switch (kernel) {
    case HistogramKernel::kShared:
      return "shared";
    case HistogramKernel::kSharedAtomic:
      return "shared-atomic";
    case HistogramKernel::kGlobal:
      return "global";
  }
  return "unknown";
}

const std::vector<std::string>& HistogramKernelNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (HistogramKernel k : kKernels) out.emplace_back(HistogramKernelName(k));
    return out;
  }();
  return names;
}

absl::StatusOr<HistogramKernel> ParseHistogramKernel(std::string_view name) {
  for (HistogramKernel k : kKernels) {
    if (name == HistogramKernelName(k)) return k;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown histogram kernel '", std::string(name),
                   "'; valid: ", absl::StrJoin(HistogramKernelNames(), ", ")));
}

}  // namespace streampipe
