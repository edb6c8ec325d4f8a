// Which copies make the host's issue time step at small sizes? Host time (steady clock) to
// enqueue 32 sub-chunks in several shapes; medians of 21 after 5 warm-ups.
#include <cuda_runtime.h>
#include <chrono>
#include <cstdio>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { std::printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
__global__ void empty() {}
int main() {
  const int kN = 32; const size_t kMax = 64 << 10;
  char *h_in, *h_out, *d_in, *d_out;
  CK(cudaMallocHost(&h_in, kN * kMax)); CK(cudaMallocHost(&h_out, kN * kMax));
  CK(cudaMalloc(&d_in, kN * kMax)); CK(cudaMalloc(&d_out, kN * kMax));
  for (size_t i = 0; i < kN * kMax; i += 4096) h_in[i] = 1;
  std::vector<cudaStream_t> s(kN); for (auto& x : s) CK(cudaStreamCreateWithFlags(&x, cudaStreamNonBlocking));
  cudaStream_t origin; CK(cudaStreamCreateWithFlags(&origin, cudaStreamNonBlocking));
  std::vector<cudaEvent_t> ev(kN + 1); for (auto& evt : ev) CK(cudaEventCreateWithFlags(&evt, cudaEventDisableTiming));
  const char* names[] = {"1stream-h2d", "nstreams-h2d", "nstreams-h2d+k+d2h4K", "nstreams-h2d+k+d2hB", "nstreams-h2d4K+k+d2hB", "graph-h2d+k+d2hB", "graph-h2d+k+d2h4K"};
  const int sizes_kib[] = {4, 8, 16, 20, 22, 24, 26, 28, 32, 48, 64};
  std::printf("variant");
  for (int kib : sizes_kib) std::printf(" %d", kib);
  std::printf("   (host us per sub-chunk)\n");
  for (int v = 0; v < 7; ++v) {
    std::printf("%-24s", names[v]);
    for (int kib : sizes_kib) {
      const size_t b = size_t(kib) << 10;
      auto enqueue = [&](bool capture) -> int {
        for (int k = 0; k < kN; ++k) {
          cudaStream_t st = v == 0 ? s[0] : s[k];
          if (capture) { CK(cudaEventRecord(ev[kN], origin)); CK(cudaStreamWaitEvent(st, ev[kN])); }
          size_t in = (v == 4) ? 4096 : b, out = (v == 2 || v == 6) ? 4096 : b;
          CK(cudaMemcpyAsync(d_in + k * kMax, h_in + k * kMax, in, cudaMemcpyHostToDevice, st));
          if (v >= 2) {
            empty<<<1, 32, 0, st>>>();
            CK(cudaGetLastError());
            CK(cudaMemcpyAsync(h_out + k * kMax, d_out + k * kMax, out, cudaMemcpyDeviceToHost, st));
          }
          if (capture) { CK(cudaEventRecord(ev[k], st)); CK(cudaStreamWaitEvent(origin, ev[k])); }
        }
        return 0;
      };
      std::vector<double> t;
      cudaGraphExec_t exec = nullptr;
      if (v >= 5) {
        cudaGraph_t g;
        CK(cudaStreamBeginCapture(origin, cudaStreamCaptureModeGlobal));
        if (enqueue(true)) return 1;
        CK(cudaStreamEndCapture(origin, &g));
        CK(cudaGraphInstantiate(&exec, g, 0));
        CK(cudaGraphUpload(exec, origin));
        CK(cudaGraphDestroy(g));
      }
      for (int r = 0; r < 26; ++r) {
        auto t0 = std::chrono::steady_clock::now();
        if (v >= 5) { CK(cudaGraphLaunch(exec, origin)); } else if (enqueue(false)) return 1;
        auto t1 = std::chrono::steady_clock::now();
        CK(cudaDeviceSynchronize());
        if (r >= 5) t.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / kN);
      }
      if (exec) CK(cudaGraphExecDestroy(exec));
      std::sort(t.begin(), t.end());
      std::printf(" %.2f", t[t.size() / 2]);
    }
    std::printf("\n");
  }
  return 0;
}
