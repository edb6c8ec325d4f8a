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

void AsymmetricReference(std::span<const float> in, std::span<float> out, int in_floats,
                         int out_floats, int iters) {
  const std::size_t items = in_floats > 0 ? in.size() / static_cast<std::size_t>(in_floats)
                                          : out.size() / static_cast<std::size_t>(out_floats);
  for (std::size_t i = 0; i < items; ++i) {
    float v = 0.0f;
    for (int k = 0; k < in_floats; ++k) v = v + in[i * in_floats + k];
    for (int k = 0; k < iters; ++k) v = v * 0.999f + 1.0f;
    for (int j = 0; j < out_floats; ++j) out[i * out_floats + j] = v + static_cast<float>(j);
  }
}

}  // namespace streampipe
