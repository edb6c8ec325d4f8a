#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "streampipe/cuda/error.hpp"
#include "streampipe/cuda/histogram.hpp"

namespace streampipe {
namespace {

constexpr int kThreads = 256;
constexpr int kPixelsPerThread = 32;  // work per thread before the block's merge

__device__ __forceinline__ unsigned Gray(const unsigned char* p) {
  return (77u * p[0] + 150u * p[1] + 29u * p[2] + 128u) >> 8;
}

// Grid: x = blocks per frame, y = frame within the sub-chunk. Each block counts a contiguous
// range of its frame's pixels into shared memory, then adds its 256 bins to the frame's
// histogram (zeroed beforehand).
template <bool kRgb>
__global__ void SharedHistogram(const unsigned char* __restrict__ in, unsigned* __restrict__ out,
                                long long pixels) {
  __shared__ unsigned bins[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) bins[i] = 0;
  __syncthreads();
  const unsigned char* frame = in + static_cast<long long>(blockIdx.y) * pixels * (kRgb ? 3 : 1);
  const long long per_block = (pixels + gridDim.x - 1) / gridDim.x;
  const long long begin = static_cast<long long>(blockIdx.x) * per_block;
  const long long end = min(pixels, begin + per_block);
  if (!kRgb) {
    // Bytes: 4 at a time through an aligned middle part, single bytes at the edges.
    long long i = begin;
    const long long head = min(end, (begin + 3) & ~3LL);
    const bool aligned = (reinterpret_cast<std::uintptr_t>(frame) & 3) == 0;
    if (aligned) {
      for (long long k = i + threadIdx.x; k < head; k += blockDim.x) atomicAdd(&bins[frame[k]], 1u);
      i = head;
      const long long words_end = i + ((end - i) & ~3LL);
      const unsigned* w = reinterpret_cast<const unsigned*>(frame + i);
      const long long words = (words_end - i) / 4;
      for (long long k = threadIdx.x; k < words; k += blockDim.x) {
        const unsigned v = w[k];
        atomicAdd(&bins[v & 0xff], 1u);
        atomicAdd(&bins[(v >> 8) & 0xff], 1u);
        atomicAdd(&bins[(v >> 16) & 0xff], 1u);
        atomicAdd(&bins[v >> 24], 1u);
      }
      i = words_end;
    }
    for (long long k = i + threadIdx.x; k < end; k += blockDim.x) atomicAdd(&bins[frame[k]], 1u);
  } else {
    for (long long k = begin + threadIdx.x; k < end; k += blockDim.x) {
      atomicAdd(&bins[Gray(frame + 3 * k)], 1u);
    }
  }
  __syncthreads();
  unsigned* hist = out + static_cast<long long>(blockIdx.y) * 256;
  for (int b = threadIdx.x; b < 256; b += blockDim.x) {
    if (bins[b] != 0) atomicAdd(&hist[b], bins[b]);
  }
}

// One global atomic per pixel (content-dependent cost).
template <bool kRgb>
__global__ void GlobalHistogram(const unsigned char* __restrict__ in, unsigned* __restrict__ out,
                                long long pixels) {
  const unsigned char* frame = in + static_cast<long long>(blockIdx.y) * pixels * (kRgb ? 3 : 1);
  unsigned* hist = out + static_cast<long long>(blockIdx.y) * 256;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long k = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; k < pixels;
       k += stride) {
    atomicAdd(&hist[kRgb ? Gray(frame + 3 * k) : frame[k]], 1u);
  }
}

}  // namespace

absl::StatusOr<HistogramKernel> ParseHistogramKernel(std::string_view name) {
  if (name == "shared") return HistogramKernel::kShared;
  if (name == "global") return HistogramKernel::kGlobal;
  return absl::InvalidArgumentError(
      absl::StrCat("unknown histogram kernel '", std::string(name), "'; valid: shared, global"));
}

const char* HistogramKernelName(HistogramKernel kernel) {
  return kernel == HistogramKernel::kShared ? "shared" : "global";
}

absl::StatusOr<KernelLauncher> HistogramLauncher(const video::FrameFormat& format,
                                                 HistogramKernel kernel) {
  const long long pixels = static_cast<long long>(format.pixels());
  if (pixels <= 0) {
    return absl::InvalidArgumentError(absl::StrCat("cannot histogram frames of ",
                                                   format.width, "x", format.height));
  }
  const bool rgb = format.format == video::PixelFormat::kRgb24;
  // Blocks per frame: enough work per thread to amortise the merge, at least one.
  const long long per_frame = std::clamp<long long>(
      pixels / (static_cast<long long>(kThreads) * kPixelsPerThread), 1, 1024);
  return KernelLauncher([pixels, rgb, kernel, per_frame](const LaunchArgs& a) -> absl::Status {
    STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaMemsetAsync(a.out, 0, a.num_items * kHistogramBytes,
                                                    a.stream));
    const unsigned char* in = static_cast<const unsigned char*>(a.in);
    unsigned* out = static_cast<unsigned*>(a.out);
    // gridDim.y is at most 65535 frames: launch in slices.
    for (std::int64_t first = 0; first < a.num_items; first += 65535) {
      const unsigned frames = static_cast<unsigned>(std::min<std::int64_t>(65535, a.num_items - first));
      const unsigned char* fin = in + first * pixels * (rgb ? 3 : 1);
      unsigned* fout = out + first * 256;
      const dim3 grid(static_cast<unsigned>(per_frame), frames);
      if (kernel == HistogramKernel::kShared) {
        if (rgb) {
          SharedHistogram<true><<<grid, kThreads, 0, a.stream>>>(fin, fout, pixels);
        } else {
          SharedHistogram<false><<<grid, kThreads, 0, a.stream>>>(fin, fout, pixels);
        }
      } else {
        if (rgb) {
          GlobalHistogram<true><<<grid, kThreads, 0, a.stream>>>(fin, fout, pixels);
        } else {
          GlobalHistogram<false><<<grid, kThreads, 0, a.stream>>>(fin, fout, pixels);
        }
      }
      STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaGetLastError());
    }
    return absl::OkStatus();
  });
}

}  // namespace streampipe
