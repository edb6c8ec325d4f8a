// A child process for the GPU fault tests (fault_test.cpp): a pipeline whose kernel faults in
// batch 5 (trap, or an out-of-bounds read), or never finishes. Prints what the pipeline
// reports, one line per event, and exits 70 (EX_SOFTWARE) on the fault, 0 if none came.
// hang-drain: batch 5 (never finishing) is submitted, and the next batch, a re-measurement,
// drains it first and must then be refused, not enqueued.
// trap-continuous: RunContinuous with two batches in flight; batch 8 traps late, met by batch
// 9's drain for a re-measurement.
//   fault_child trap|oob|hang|hang-drain|trap-continuous
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
// Traps after about 200 ms: the batch before it is surely delivered first (trap-continuous).
__global__ void LateTrap(const float* in, float* out, long long n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i == n / 2) {
    const long long start = clock64();
    while (clock64() - start < 400'000'000LL) {
    }
    __trap();
  }
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
  const bool hangs = mode == "hang" || mode == "hang-drain";
  o.wait_timeout = std::chrono::milliseconds(hangs ? 1000 : 20000);
  if (mode == "hang-drain") o.max_in_flight = 3;
  if (mode == "trap-continuous") o.max_in_flight = 2;
  o.launch = [&](const LaunchArgs& a) -> absl::Status {
    const unsigned blocks = static_cast<unsigned>((a.num_items + 255) / 256);
    const auto* in = static_cast<const float*>(a.in);
    auto* out = static_cast<float*>(a.out);
    if (g_batch.load() != g_fault_batch) {
      AddOne<<<blocks, 256, 0, a.stream>>>(in, out, a.num_items);
    } else if (mode == "trap") {
      Trap<<<blocks, 256, 0, a.stream>>>(in, out, a.num_items);
    } else if (mode == "trap-continuous") {
      LateTrap<<<blocks, 256, 0, a.stream>>>(in, out, a.num_items);
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
  if (mode == "trap-continuous") {
    // Two batches in flight; the sink asks for a re-measurement as batch 7 comes out, so batch
    // 9's Submit drains batch 8, which traps: the run returns batch 8's own (sticky) error, not
    // the refusal of batch 9 that follows from it (FailedPrecondition, before session 51).
    g_fault_batch = 8;
    struct Source : BatchSource {
      absl::StatusOr<std::int64_t> Fill(std::span<std::byte>, std::int64_t m) override {
        if (fills == 30) return 0;
        g_batch = fills++;  // the batch the launcher is called for next
        return m;
      }
      int fills = 0;
    } source;
    struct Sink : BatchSink {
      StreamPipeline* p = nullptr;
      int delivered = 0;
      absl::Status Consume(std::span<const std::byte>, const BatchStats& st) override {
        ++delivered;
        if (st.index == 7) p->RequestRemeasure("the test");
        return absl::OkStatus();
      }
    } sink;
    sink.p = &*p;
    absl::StatusOr<ContinuousSummary> r = p->RunContinuous(source, sink);
    std::printf("continuous: code=%d sticky=%d delivered=%d %s\n",
                static_cast<int>(r.status().code()), IsStickyCudaError(r.status()) ? 1 : 0,
                sink.delivered, std::string(r.status().message()).c_str());
    std::fflush(stdout);
    return r.ok() ? 0 : 70;
  }
  if (mode == "hang-drain") {
    for (int b = 0; b < 5; ++b) {
      g_batch = b;
      absl::StatusOr<BatchStats> st = p->Run({in.data(), out.data(), kItems});
      std::printf("batch %d %s\n", b, st.ok() ? "ok" : std::string(st.status().message()).c_str());
    }
    g_batch = 5;
    std::vector<float> out5(kItems), out6(kItems);
    absl::Status s5 = p->Submit({in.data(), out5.data(), kItems}, 4);
    std::printf("submit 5: code=%d\n", static_cast<int>(s5.code()));
    p->RequestRemeasure("the test");
    g_batch = 6;
    // Its measurement drains batch 5 first, which times out: the pipeline stops there.
    absl::Status s6 = p->Submit({in.data(), out6.data(), kItems});
    std::printf("submit 6 after the drain: code=%d %s\n", static_cast<int>(s6.code()),
                std::string(s6.message()).c_str());
    *release = 1;  // let the kernel finish, as a watchdog would
    std::printf("in flight: %d\n", p->in_flight());
    for (int i = 0; i < 3; ++i) {
      absl::StatusOr<BatchStats> st = p->Collect();
      std::printf("collect %d: code=%d\n", i, static_cast<int>(st.status().code()));
    }
    std::fflush(stdout);
    return s6.ok() ? 0 : 70;
  }
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
    if (hangs && st.status().code() == absl::StatusCode::kDeadlineExceeded) {
      *release = 1;  // let the kernel finish, as a watchdog would
    }
  }
  if (hangs) {
    // The stopped pipeline refuses a continuous run before asking its source for a batch (the
    // first Fill took a batch of the caller's input before session 50).
    struct CountingSource : BatchSource {
      int fills = 0;
      absl::StatusOr<std::int64_t> Fill(std::span<std::byte>, std::int64_t m) override {
        ++fills;
        return m;
      }
    } source;
    struct NullSink : BatchSink {
      absl::Status Consume(std::span<const std::byte>, const BatchStats&) override {
        return absl::OkStatus();
      }
    } sink;
    absl::StatusOr<ContinuousSummary> r = p->RunContinuous(source, sink);
    std::printf("continuous after the stop: code=%d fills=%d\n",
                static_cast<int>(r.status().code()), source.fills);
  }
  std::fflush(stdout);
  return code;
}
