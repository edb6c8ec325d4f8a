// A worked example of wrapping a kernel in a StreamPipeline: C = A x B with A streamed by rows
// and B resident on the GPU (the 2012 paper's section 4.1). The pipeline splits the rows of A
// over n streams, so that copying rows in and results out overlaps the multiplication.
//
//   matmul [P]     # m = 2P, p = P, n = P (the paper's shapes); default 1024
#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "matmul_kernel.hpp"
#include "streampipe/cuda/buffer.hpp"
#include "streampipe/cuda/device.hpp"
#include "streampipe/cuda/pipeline.hpp"

int main(int argc, char** argv) {
  using namespace streampipe;
  if (argc > 2) {
    std::fprintf(stderr, "matmul: usage: matmul [P]: one argument, not %d\n", argc - 1);
    return 64;
  }
  char* end = nullptr;
  const long p_arg = argc > 1 ? std::strtol(argv[1], &end, 10) : 1024;
  if ((argc > 1 && (end == argv[1] || *end != '\0')) || p_arg < 1 || p_arg > 16384) {
    std::fprintf(stderr, "matmul: usage: matmul [P], P an integer in [1, 16384], not '%s'\n",
                 argv[1]);
    return 64;
  }
  const int p = static_cast<int>(p_arg);
  const int m = 2 * p;
  const int n = p;
  if (CudaDeviceCount() == 0) {
    std::fprintf(stderr, "matmul: no CUDA device (%s)\n", NoDeviceReason().c_str());
    return 69;
  }
  // 1. The data: A and C in pinned host memory (so copies overlap), B on the device.
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  auto a = PinnedBuffer<float>::Create(static_cast<std::size_t>(m) * p);
  auto c = PinnedBuffer<float>::Create(static_cast<std::size_t>(m) * n);
  auto d_b = DeviceBuffer<float>::Create(static_cast<std::size_t>(p) * n);
  if (!a.ok() || !c.ok() || !d_b.ok()) {
    std::fprintf(stderr, "matmul: out of memory\n");
    return 70;
  }
  for (float& x : a->span()) x = u(rng);
  std::vector<float> b(static_cast<std::size_t>(p) * n);
  for (float& x : b) x = u(rng);
  if (const cudaError_t e =
          cudaMemcpy(d_b->data(), b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice);
      e != cudaSuccess) {
    std::fprintf(stderr, "matmul: copying B to the device: %s\n", cudaGetErrorString(e));
    return 70;
  }

  // 2. The pipeline: an item is a row of A in (p floats) and a row of C out (n floats); the
  //    launcher multiplies the rows of its sub-chunk by the resident B, on the stream it gets.
  PipelineOptions o;
  o.in_bytes_per_item = static_cast<std::int64_t>(p) * sizeof(float);
  o.out_bytes_per_item = static_cast<std::int64_t>(n) * sizeof(float);
  o.max_items_per_batch = m;
  o.launch = examples::MatmulRowsLauncher(d_b->data(), p, n);
  absl::StatusOr<StreamPipeline> pipeline = StreamPipeline::Create(std::move(o));
  if (!pipeline.ok()) {
    std::fprintf(stderr, "matmul: %s\n", std::string(pipeline.status().message()).c_str());
    return 70;
  }

  // 3. Run: the first call measures the batch without streams and chooses n; later calls stream.
  for (int i = 0; i < 4; ++i) {
    absl::StatusOr<BatchStats> st = pipeline->Run({a->data(), c->data(), m});
    if (!st.ok()) {
      std::fprintf(stderr, "matmul: %s\n", std::string(st.status().message()).c_str());
      return 70;
    }
    std::printf("batch %d: %-8s n=%-3d %.3f ms (predicted %.3f ms)\n", i, PlanKindName(st->kind),
                st->streams, st->elapsed_ms, st->predicted_ms);
  }

  // 4. Check some rows against the CPU.
  double worst = 0.0;
  for (int row = 0; row < m; row += std::max(1, m / 8)) {
    for (int col = 0; col < n; col += std::max(1, n / 8)) {
      double ref = 0.0;
      for (int k = 0; k < p; ++k) ref += double(a->data()[static_cast<std::size_t>(row) * p + k]) * b[static_cast<std::size_t>(k) * n + col];
      const double got = c->data()[static_cast<std::size_t>(row) * n + col];
      worst = std::max(worst, std::abs(got - ref) / (std::abs(ref) + 1.0));
    }
  }
  std::printf("C = A x B, %d x %d x %d: worst relative error %.2e against the CPU\n", m, p, n, worst);
  return worst < 1e-3 ? 0 : 70;
}
