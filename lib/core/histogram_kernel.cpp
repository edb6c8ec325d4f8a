#include "streampipe/core/histogram_kernel.hpp"

#include <array>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace streampipe {
namespace {

constexpr std::array<std::pair<HistogramKernel, const char*>, 3> kKernels = {{
    {HistogramKernel::kShared, "shared"},
    {HistogramKernel::kSharedAtomic, "shared-atomic"},
    {HistogramKernel::kGlobal, "global"},
}};

}  // namespace

const std::vector<std::string>& HistogramKernelNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& [kernel, name] : kKernels) out.emplace_back(name);
    return out;
  }();
  return names;
}

absl::StatusOr<HistogramKernel> ParseHistogramKernel(std::string_view name) {
  for (const auto& [kernel, kernel_name] : kKernels) {
    if (name == kernel_name) return kernel;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown histogram kernel '", std::string(name),
                   "'; valid: ", absl::StrJoin(HistogramKernelNames(), ", ")));
}

const char* HistogramKernelName(HistogramKernel kernel) {
  for (const auto& [k, name] : kKernels) {
    if (k == kernel) return name;
  }
  return "unknown";
}

}  // namespace streampipe
