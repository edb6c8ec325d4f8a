// A child process for the GPU fault tests (fault_test.cpp): a pipeline whose kernel faults in
// batch 5 (trap, or an out-of-bounds read), or never finishes. Prints what the pipeline
// reports, one line per event, and exits 70 (EX_SOFTWARE) on the fault, 0 if none came.
//   fault_child trap|oob|hang
#include <cuda_runtime.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "streampipe/cuda/error.hpp"
#include "streampipe/cuda/pipeline.hpp"
#include "streampipe/cuda/resource_counts.hpp"

namespace {

std::atomic<int> g_batch{0};
int g_fault_batch = 5;

__global__ void AddOne(const float* in, float* out, long long n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] + 1.0f;
}
__global__ void Trap(const float* in, float* out, long long n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i == n / 2) __trap();
  if (i < n) out[i] = in[i] + 1.0f;
}
__global__ void OutOfBounds(const float* in, float* out, long long n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  // Far outside any allocation: an illegal address.
  if (i < n) out[i] = in[i + (1LL << 40)] + 1.0f;
}
__global__ void Forever(const float* in, float* out, long long n, volatile int* release) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  while (*release == 0) {
  }
  if (i < n) out[i] = in[i] + 1.0f;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace streampipe;
  const std::string mode = argc > 1 ? argv[1] : "trap";
  constexpr long long kItems = 1 << 20;
  int* release = nullptr;
  if (const cudaError_t e = cudaMallocManaged(&release, sizeof(int)); e != cudaSuccess) {
    std::fprintf(stderr, "fault_child: cudaMallocManaged: %s\n", cudaGetErrorString(e));
    return 70;
  }
  *release = 0;
  PipelineOptions o;
  o.in_bytes_per_item = o.out_bytes_per_item = sizeof(float);
  o.max_items_per_batch = kItems;
  o.max_streams = 4;
  o.traits = DeviceTraits::H100Anchors();
  o.wait_timeout = std::chrono::milliseconds(mode == "hang" ? 1000 : 20000);
  o.launch = [&](const LaunchArgs& a) -> absl::Status {
    const unsigned blocks = static_cast<unsigned>((a.num_items + 255) / 256);
    const auto* in = static_cast<const float*>(a.in);
    auto* out = static_cast<float*>(a.out);
    if (g_batch.load() != g_fault_batch) {
      AddOne<<<blocks, 256, 0, a.stream>>>(in, out, a.num_items);
    } else if (mode == "trap") {
      Trap<<<blocks, 256, 0, a.stream>>>(in, out, a.num_items);
    } else if (mode == "oob") {
      OutOfBounds<<<blocks, 256, 0, a.stream>>>(in, out, a.num_items);
    } else {
      Forever<<<blocks, 256, 0, a.stream>>>(in, out, a.num_items, release);
    }
    STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaGetLastError());
    return absl::OkStatus();
  };
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  if (!p.ok()) {
    std::printf("create failed: %s\n", std::string(p.status().message()).c_str());
    return 2;
  }
  std::vector<float> in(kItems, 1.0f), out(kItems);
  int code = 0;
  for (int b = 0; b < 8; ++b) {
    g_batch = b;
    absl::StatusOr<BatchStats> st = p->Run({in.data(), out.data(), kItems}, 4);
    if (st.ok()) {
      std::printf("batch %d ok\n", b);
      continue;
    }
    std::printf("batch %d error: code=%d sticky=%d %s\n", b, static_cast<int>(st.status().code()),
                IsStickyCudaError(st.status()) ? 1 : 0,
                std::string(st.status().message()).c_str());
    code = 70;
    if (mode == "hang" && st.status().code() == absl::StatusCode::kDeadlineExceeded) {
      *release = 1;  // let the kernel finish, as a watchdog would
    }
  }
  std::fflush(stdout);
  return code;
}
