// One deliberately broken kernel per compute-sanitizer tool, so that a clean run of the GPU
// tests under that tool means something (docs/results.md):
//   sanitizer_canaries memcheck   # a write one element past the end of an allocation
//   sanitizer_canaries leak       # device memory never freed (memcheck --leak-check full)
//   sanitizer_canaries racecheck  # two threads write one shared-memory word unsynchronized
//   sanitizer_canaries initcheck  # a kernel reads device memory nothing wrote
//   sanitizer_canaries synccheck  # __syncthreads() in divergent code
//   sanitizer_canaries clean      # none of the above (must pass every tool)
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

__global__ void WritePastEnd(int* a, int n) { a[threadIdx.x] = threadIdx.x; (void)n; }

// Thread 0 writes a shared word that every thread (two warps) then reads, with no barrier in
// between: a read-after-write hazard across warps.
__global__ void SharedRace(int* out) {
  __shared__ volatile int s[1];
  if (threadIdx.x == 0) s[0] = 42;
  out[threadIdx.x] = s[0];
}

__global__ void ReadUninitialized(const int* in, int* out) { out[threadIdx.x] = in[threadIdx.x] + 1; }

__global__ void DivergentBarrier(int* out) {
  if (threadIdx.x < 16) __syncthreads();
  out[threadIdx.x] = 1;
}

__global__ void Clean(int* out) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[63 - threadIdx.x];
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "clean";
  int* a = nullptr;
  int* b = nullptr;
  // The set-up must work, so that what a tool reports is the broken kernel's fault.
  for (cudaError_t e : {cudaMalloc(&a, 64 * sizeof(int)), cudaMalloc(&b, 64 * sizeof(int)),
                        cudaMemset(b, 0, 64 * sizeof(int))}) {
    if (e != cudaSuccess) {
      std::fprintf(stderr, "set-up failed: %s\n", cudaGetErrorString(e));
      return 70;
    }
  }
  if (std::strcmp(mode, "memcheck") == 0) {
    WritePastEnd<<<1, 65>>>(a, 64);
  } else if (std::strcmp(mode, "racecheck") == 0) {
    SharedRace<<<1, 64>>>(b);
  } else if (std::strcmp(mode, "initcheck") == 0) {
    ReadUninitialized<<<1, 64>>>(a, b);
  } else if (std::strcmp(mode, "synccheck") == 0) {
    DivergentBarrier<<<1, 64>>>(b);
  } else {
    Clean<<<1, 64>>>(b);
  }
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s: %s\n", mode, cudaGetErrorString(e));
  // The leak canary leaks `a` on purpose; a failed free is reported like a failed kernel.
  if (std::strcmp(mode, "leak") != 0 && cudaFree(a) != cudaSuccess) return 70;
  if (cudaFree(b) != cudaSuccess) return 70;
  return 0;
}
