#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "streampipe/cuda/error.hpp"
#include "streampipe/cuda/histogram.hpp"
#include "streampipe/status_macros.hpp"
#include "histogram_internal.hpp"

namespace streampipe {
namespace {

constexpr int kThreads = 256;
constexpr int kPixelsPerThread = 32;  // work per thread before the block's merge
constexpr unsigned kMaxClusterBlocks = 8;  // the portable cluster size

// Blocks a frame of `pixels` wants: kPixelsPerThread pixels a thread of kThreads-thread blocks.
constexpr long long WantedBlocks(long long pixels) {
  return pixels / (static_cast<long long>(kThreads) * kPixelsPerThread);
}

__device__ __forceinline__ unsigned Gray(const unsigned char* p) {
  return (77u * p[0] + 150u * p[1] + 29u * p[2] + 128u) >> 8;
}

// Counts pixels [begin, end) of one frame into the block's shared bins (zeroed, synchronized by
// the caller).
template <bool kRgb>
__device__ __forceinline__ void CountRange(const unsigned char* __restrict__ frame, long long begin,
                                           long long end, unsigned* bins) {
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
}

// This block's share of its frame (grid: x = the frame's blocks, y = frame): bins zeroed, then
// its contiguous range of the frame's pixels counted into them. The caller synchronizes (a
// block or a cluster barrier) before reading the bins.
template <bool kRgb>
__device__ __forceinline__ void CountThisBlocksRange(const unsigned char* __restrict__ in,
                                                     long long pixels, unsigned* bins) {
  for (int i = threadIdx.x; i < 256; i += blockDim.x) bins[i] = 0;
  __syncthreads();
  const unsigned char* frame = in + static_cast<long long>(blockIdx.y) * pixels * (kRgb ? 3 : 1);
  const long long per_block = (pixels + gridDim.x - 1) / gridDim.x;
  const long long begin = static_cast<long long>(blockIdx.x) * per_block;
  CountRange<kRgb>(frame, begin, min(pixels, begin + per_block), bins);
}

// Grid: x = blocks per frame, y = frame within the sub-chunk. Each block counts a contiguous
// range of its frame's pixels into shared memory, then adds its 256 bins to the frame's
// histogram (zeroed beforehand, by a memset the launcher issues).
template <bool kRgb>
__global__ void SharedHistogram(const unsigned char* __restrict__ in, unsigned* __restrict__ out,
                                long long pixels) {
  __shared__ unsigned bins[256];
  CountThisBlocksRange<kRgb>(in, pixels, bins);
  __syncthreads();
  unsigned* hist = out + static_cast<long long>(blockIdx.y) * 256;
  for (int b = threadIdx.x; b < 256; b += blockDim.x) {
    if (bins[b] != 0) atomicAdd(&hist[b], bins[b]);
  }
}

// Grid: x = the frame's blocks, one thread-block cluster (launched with cluster dimension
// gridDim.x; one block a frame is a plain launch, each block a cluster of one), y = frame. Each
// block counts its range into shared memory as above; then, after the cluster's barrier, block
// r sums bin b over every block's shared memory (distributed shared memory) for the bins
// b = r, r + gridDim.x, ... and stores it. Every bin of the frame is written exactly once, with a
// plain store: no zeroed output, so no memset to issue, and no global atomics. The second
// barrier keeps each block's shared memory alive until the others have read it. sm_90 and newer;
// the launcher takes this path only where the device launches clusters (and the build has code
// for it).
template <bool kRgb>
__global__ void ClusterHistogram(const unsigned char* __restrict__ in, unsigned* __restrict__ out,
                                 long long pixels) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  namespace cg = cooperative_groups;
  __shared__ unsigned bins[256];
  CountThisBlocksRange<kRgb>(in, pixels, bins);
  cg::cluster_group cluster = cg::this_cluster();
  cluster.sync();
  const unsigned blocks = cluster.num_blocks();
  const unsigned rank = cluster.block_rank();
  unsigned* hist = out + static_cast<long long>(blockIdx.y) * 256;
  for (unsigned b = rank + threadIdx.x * blocks; b < 256; b += blockDim.x * blocks) {
    unsigned sum = 0;
    for (unsigned q = 0; q < blocks; ++q) sum += cluster.map_shared_rank(bins, q)[b];
    hist[b] = sum;
  }
  cluster.sync();
#endif
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

// Calls launch(frames_in, histograms_out, frames) for the sub-chunk's frames in slices of at
// most 65535 (gridDim.y's limit), checking each launch.
template <typename Launch>
absl::Status LaunchInSlices(const LaunchArgs& a, long long pixels, bool rgb, Launch launch) {
  const unsigned char* in = static_cast<const unsigned char*>(a.in);
  unsigned* out = static_cast<unsigned*>(a.out);
  for (std::int64_t first = 0; first < a.num_items; first += 65535) {
    const unsigned frames =
        static_cast<unsigned>(std::min<std::int64_t>(65535, a.num_items - first));
    STREAMPIPE_RETURN_IF_ERROR(
        launch(in + first * pixels * (rgb ? 3 : 1), out + first * 256, frames));
  }
  return absl::OkStatus();
}

using histogram_internal::ClusterShape;

template <bool kRgb>
cudaLaunchConfig_t ClusterConfig(const ClusterShape& c, unsigned frames, cudaStream_t stream,
                                 cudaLaunchAttribute* attr) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(c.blocks, frames);
  config.blockDim = dim3(c.threads);
  config.dynamicSmemBytes = 0;
  config.stream = stream;
  attr->id = cudaLaunchAttributeClusterDimension;
  attr->val.clusterDim.x = c.blocks;
  attr->val.clusterDim.y = 1;
  attr->val.clusterDim.z = 1;
  config.attrs = attr;
  // One block a frame: a plain launch, whose blocks are clusters of one (no cluster scheduling).
  config.numAttrs = c.blocks > 1 ? 1 : 0;
  return config;
}

// Whether the current device launches ClusterHistogram<kRgb> in shape c: it launches clusters,
// this build has sm_90+ code for the kernel (PTX of an older architecture would compile it
// empty), and at least one such cluster fits on the device. A query that fails means "no" (the
// fallback), and its error is cleared so that it does not surface at the next launch.
template <bool kRgb>
bool ClusterPathRuns(const ClusterShape& c) {
  if (c.blocks < 1 || c.blocks > 16 || c.threads < 32 || c.threads > 1024 || c.threads % 32 != 0) {
    return false;
  }
  int device = 0;
  int cluster_launch = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&cluster_launch, cudaDevAttrClusterLaunch, device) != cudaSuccess ||
      cluster_launch == 0) {
    (void)cudaGetLastError();
    return false;
  }
  cudaFuncAttributes attrs = {};
  if (cudaFuncGetAttributes(&attrs, ClusterHistogram<kRgb>) != cudaSuccess ||
      attrs.binaryVersion < 90 || attrs.ptxVersion < 90 ||
      attrs.maxThreadsPerBlock < static_cast<int>(c.threads)) {
    (void)cudaGetLastError();
    return false;
  }
  if (c.blocks > kMaxClusterBlocks &&
      cudaFuncSetAttribute(ClusterHistogram<kRgb>, cudaFuncAttributeNonPortableClusterSizeAllowed,
                           1) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  if (c.blocks == 1) return true;
  cudaLaunchAttribute attr;
  const cudaLaunchConfig_t config = ClusterConfig<kRgb>(c, 1, nullptr, &attr);
  int clusters = 0;
  if (cudaOccupancyMaxActiveClusters(&clusters, ClusterHistogram<kRgb>, &config) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return clusters > 0;
}

template <bool kRgb>
absl::Status LaunchCluster(const ClusterShape& c, const unsigned char* in, unsigned* out,
                           long long pixels, unsigned frames, cudaStream_t stream) {
  cudaLaunchAttribute attr;
  const cudaLaunchConfig_t config = ClusterConfig<kRgb>(c, frames, stream, &attr);
  STREAMPIPE_CUDA_RETURN_IF_ERROR(
      cudaLaunchKernelEx(&config, ClusterHistogram<kRgb>, in, out, pixels));
  return absl::OkStatus();
}

// The cluster-merge launcher, its shape already checked (ClusterPathRuns).
KernelLauncher MakeClusterLauncher(long long pixels, bool rgb, const ClusterShape& c) {
  return KernelLauncher([pixels, rgb, c](const LaunchArgs& a) -> absl::Status {
    return LaunchInSlices(a, pixels, rgb,
                          [&](const unsigned char* in, unsigned* out, unsigned frames) {
                            return rgb ? LaunchCluster<true>(c, in, out, pixels, frames, a.stream)
                                       : LaunchCluster<false>(c, in, out, pixels, frames, a.stream);
                          });
  });
}

}  // namespace

namespace histogram_internal {

ClusterShape DefaultClusterShape(long long pixels) {
  const long long wanted = WantedBlocks(pixels);
  ClusterShape c;
  if (wanted <= 4) {
    // One block a frame, a plain launch: its threads in a power of two from 256 up to 1024
    // (176x144: 1 x 1024 measured 9.3 us for 64 frames against 10.3 as a cluster of 3 x 256,
    // run 134).
    while (c.threads < 1024 && c.threads < wanted * kThreads) c.threads *= 2;
    return c;
  }
  if (wanted <= kMaxClusterBlocks) {
    c.blocks = static_cast<unsigned>(wanted);
    return c;
  }
  // About kPixelsPerThread a thread over the cluster, rounded down to a power of two and at most
  // 1024: among the fastest shapes of runs 132 and 134 (bench/histogram_shapes), 352x288 to
  // 1920x1080.
  c.blocks = kMaxClusterBlocks;
  const long long threads = wanted * kThreads / kMaxClusterBlocks;
  c.threads = kThreads;
  while (c.threads < 1024 && 2LL * c.threads <= threads) c.threads *= 2;
  return c;
}

bool ClusterShapeRuns(const video::FrameFormat& format, const ClusterShape& c) {
  return format.format == video::PixelFormat::kRgb24 ? ClusterPathRuns<true>(c)
                                                     : ClusterPathRuns<false>(c);
}

absl::StatusOr<KernelLauncher> ClusterLauncher(const video::FrameFormat& format,
                                               const ClusterShape& c) {
  const long long pixels = static_cast<long long>(format.pixels());
  if (pixels <= 0) {
    return absl::InvalidArgumentError(absl::StrCat("cannot histogram frames of ",
                                                   format.width, "x", format.height));
  }
  if (!ClusterShapeRuns(format, c)) {
    return absl::FailedPreconditionError(
        absl::StrCat("the current device cannot launch the histogram's cluster merge in ",
                     c.blocks, " blocks of ", c.threads, " threads"));
  }
  return MakeClusterLauncher(pixels, format.format == video::PixelFormat::kRgb24, c);
}

}  // namespace histogram_internal

bool HistogramMergesInClusters(const video::FrameFormat& format) {
  const long long pixels = static_cast<long long>(format.pixels());
  if (pixels <= 0) return false;
  return histogram_internal::ClusterShapeRuns(format,
                                              histogram_internal::DefaultClusterShape(pixels));
}

absl::StatusOr<KernelLauncher> HistogramLauncher(const video::FrameFormat& format,
                                                 HistogramKernel kernel) {
  const long long pixels = static_cast<long long>(format.pixels());
  if (pixels <= 0) {
    return absl::InvalidArgumentError(absl::StrCat("cannot histogram frames of ",
                                                   format.width, "x", format.height));
  }
  const bool rgb = format.format == video::PixelFormat::kRgb24;
  if (kernel == HistogramKernel::kShared) {
    const ClusterShape c = histogram_internal::DefaultClusterShape(pixels);
    if (histogram_internal::ClusterShapeRuns(format, c)) return MakeClusterLauncher(pixels, rgb, c);
  }
  // Blocks per frame: enough work per thread to amortise the merge, at least one.
  const long long per_frame = std::clamp<long long>(WantedBlocks(pixels), 1, 1024);
  const bool global = kernel == HistogramKernel::kGlobal;
  return KernelLauncher([pixels, rgb, global, per_frame](const LaunchArgs& a) -> absl::Status {
    STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaMemsetAsync(a.out, 0, a.num_items * kHistogramBytes,
                                                    a.stream));
    return LaunchInSlices(a, pixels, rgb, [&](const unsigned char* in, unsigned* out,
                                              unsigned frames) {
      const dim3 grid(static_cast<unsigned>(per_frame), frames);
      if (!global) {
        if (rgb) {
          SharedHistogram<true><<<grid, kThreads, 0, a.stream>>>(in, out, pixels);
        } else {
          SharedHistogram<false><<<grid, kThreads, 0, a.stream>>>(in, out, pixels);
        }
      } else {
        if (rgb) {
          GlobalHistogram<true><<<grid, kThreads, 0, a.stream>>>(in, out, pixels);
        } else {
          GlobalHistogram<false><<<grid, kThreads, 0, a.stream>>>(in, out, pixels);
        }
      }
      STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaGetLastError());
      return absl::OkStatus();
    });
  });
}

}  // namespace streampipe
