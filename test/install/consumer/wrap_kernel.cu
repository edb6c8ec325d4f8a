// A user of the installed library wrapping a kernel of their own in a .cu file, as README's
// example does: the public headers must compile under nvcc (C++20) with the flags
// find_package(streampipe) gives. Without a GPU, Create says so (Unavailable) and this exits 3;
// with one, one batch of random data is checked against the CPU.
#include <cstdlib>
#include <iostream>
#include <random>
#include <vector>

#include "streampipe/cuda/error.hpp"
#include "streampipe/cuda/pipeline.hpp"

namespace {

__global__ void AddOne(const float* in, float* out, std::int64_t n) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = in[i] + 1.0f;
}

}  // namespace

int main() {
  streampipe::PipelineOptions o;
  o.in_bytes_per_item = sizeof(float);
  o.out_bytes_per_item = sizeof(float);
  o.max_items_per_batch = 1 << 20;
  o.launch = [](const streampipe::LaunchArgs& a) -> absl::Status {
    AddOne<<<static_cast<unsigned>((a.num_items + 255) / 256), 256, 0, a.stream>>>(
        static_cast<const float*>(a.in), static_cast<float*>(a.out), a.num_items);
    return streampipe::CudaErrorStatus(cudaGetLastError(), "AddOne", __FILE__, __LINE__);
  };
  absl::StatusOr<streampipe::StreamPipeline> p = streampipe::StreamPipeline::Create(std::move(o));
  if (!p.ok()) {
    std::cout << "no pipeline: " << p.status() << "\n";
    return absl::IsUnavailable(p.status()) ? 3 : 1;
  }
  const std::int64_t items = 1 << 20;
  std::vector<float> in(items), out(items);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1000.0f, 1000.0f);
  for (float& x : in) x = u(rng);
  for (int batch = 0; batch < 3; ++batch) {
    absl::StatusOr<streampipe::BatchStats> st = p->Run({in.data(), out.data(), items});
    if (!st.ok()) {
      std::cout << "batch " << batch << ": " << st.status() << "\n";
      return 1;
    }
  }
  for (std::int64_t i = 0; i < items; ++i) {
    if (out[i] != in[i] + 1.0f) {
      std::cout << "item " << i << ": " << out[i] << ", expected " << in[i] + 1.0f << "\n";
      return 1;
    }
  }
  std::cout << "wrapped a kernel: " << items << " items right\n";
  return 0;
}
