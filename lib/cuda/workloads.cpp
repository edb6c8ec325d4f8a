// CPU references of lib/cuda/workloads.cu. Compiled as ISO C++ (-std=c++20: no FP contraction),
// so the results match the kernels bit for bit.
#include "streampipe/cuda/workloads.hpp"

namespace streampipe {

void AddScalarReference(std::span<const float> in, std::span<float> out, int iters) {
  for (std::size_t i = 0; i < in.size(); ++i) {
    float v = in[i];
    for (int k = 0; k < iters; ++k) v = v * 0.999f + 1.0f;
    out[i] = v;
  }
}

}  // namespace streampipe
