// The GPU histogram kernels through the pipeline against the CPU reference: random frames of
// odd sizes, gray/luma and RGB, degenerate frames, every kernel, several n. The sizes cover the
// cluster merge's shapes: one block a frame of 256 and 1024 threads (plain launches), clusters
// of 5, 7 and 8 blocks, 256 to 1024 threads a block.
#include "streampipe/cuda/histogram.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstring>
#include <random>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "gpu_test_util.hpp"
#include "histogram_internal.hpp"
#include "streampipe/cuda/buffer.hpp"
#include "streampipe/cuda/graph.hpp"
#include "streampipe/cuda/pipeline.hpp"
#include "streampipe/cuda/resource_counts.hpp"
#include "streampipe/cuda/stream.hpp"
#include "streampipe/video/histogram_cpu.hpp"

namespace streampipe {
namespace {

using video::FrameFormat;
using video::PixelFormat;

class HistogramGpuTest : public ::testing::Test {
 protected:
  void SetUp() override { STREAMPIPE_REQUIRE_GPU(); }
};

constexpr HistogramKernel kKernels[] = {HistogramKernel::kShared, HistogramKernel::kSharedAtomic,
                                        HistogramKernel::kGlobal};

void Check(const FrameFormat& f, HistogramKernel kernel, std::int64_t frames, bool degenerate,
           std::mt19937_64& rng) {
  std::vector<std::byte> in(frames * f.item_bytes());
  // Other frames, run before each checked batch, leave the device's output buffer holding other
  // histograms: a bin the kernel does not write shows as a mismatch.
  std::vector<std::byte> other(in.size());
  for (std::byte& b : other) b = static_cast<std::byte>(rng());
  if (degenerate) {
    for (std::int64_t i = 0; i < frames; ++i) {
      std::memset(in.data() + i * f.item_bytes(), static_cast<int>(rng() & 0xff), f.item_bytes());
    }
  } else {
    for (std::byte& b : in) b = static_cast<std::byte>(rng());
  }
  std::vector<video::Histogram> ref(static_cast<std::size_t>(frames));
  video::HistogramsOfItems(f, in, frames, ref);
  PipelineOptions o;
  o.in_bytes_per_item = static_cast<std::int64_t>(f.item_bytes());
  o.out_bytes_per_item = static_cast<std::int64_t>(kHistogramBytes);
  o.max_items_per_batch = frames;
  absl::StatusOr<KernelLauncher> l = HistogramLauncher(f, kernel);
  ASSERT_TRUE(l.ok()) << l.status();
  o.launch = *l;
  o.max_streams = 8;
  o.traits = testing::CalibratedTraits();
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  ASSERT_TRUE(p.ok()) << p.status();
  std::vector<video::Histogram> out(static_cast<std::size_t>(frames));
  for (int n : {1, 3, static_cast<int>(std::min<std::int64_t>(8, frames))}) {
    testing::Poison(out.data(), out.size() * sizeof(video::Histogram));
    absl::StatusOr<BatchStats> st = p->Run({other.data(), out.data(), frames}, n);
    ASSERT_TRUE(st.ok()) << st.status();
    testing::Poison(out.data(), out.size() * sizeof(video::Histogram));
    st = p->Run({in.data(), out.data(), frames}, n);
    ASSERT_TRUE(st.ok()) << st.status();
    for (std::int64_t i = 0; i < frames; ++i) {
      ASSERT_EQ(out[i], ref[i]) << video::FrameFormatToString(f) << " "
                                << HistogramKernelName(kernel) << " frame " << i << " n=" << n;
    }
  }
}

TEST_F(HistogramGpuTest, RandomFramesOfOddSizesMatchTheCpu) {
  auto rng = testing::TestRng();
  const FrameFormat formats[] = {
      {.width = 176, .height = 144, .format = PixelFormat::kGray8},
      {.width = 33, .height = 17, .format = PixelFormat::kYuv420},  // item = luma, odd size
      {.width = 1, .height = 1, .format = PixelFormat::kMono},
      {.width = 351, .height = 287, .format = PixelFormat::kGray8},
      {.width = 65, .height = 31, .format = PixelFormat::kRgb24},
      {.width = 704, .height = 576, .format = PixelFormat::kRgb24},
      {.width = 256, .height = 161, .format = PixelFormat::kGray8},  // 5 blocks a frame
      {.width = 239, .height = 241, .format = PixelFormat::kRgb24},  // 7 blocks a frame
      {.width = 1920, .height = 1080, .format = PixelFormat::kGray8},  // 8 of 1024 threads
  };
  for (const FrameFormat& f : formats) {
    for (HistogramKernel k : kKernels) {
      Check(f, k, 13, false, rng);
    }
  }
}

TEST_F(HistogramGpuTest, DegenerateFramesMatchTheCpu) {
  auto rng = testing::TestRng();
  const FrameFormat f{.width = 704, .height = 576, .format = PixelFormat::kGray8};
  for (HistogramKernel k : kKernels) {
    Check(f, k, 16, true, rng);
  }
}

// What a launcher enqueues for `items` frames, captured into a graph: its nodes' types.
std::vector<cudaGraphNodeType> CapturedNodes(const KernelLauncher& launch, std::int64_t items,
                                             const FrameFormat& f) {
  absl::StatusOr<DeviceBuffer<std::byte>> in =
      DeviceBuffer<std::byte>::Create(items * f.item_bytes());
  absl::StatusOr<DeviceBuffer<std::byte>> out =
      DeviceBuffer<std::byte>::Create(items * kHistogramBytes);
  absl::StatusOr<Stream> stream = Stream::Create();
  EXPECT_TRUE(in.ok() && out.ok() && stream.ok());
  if (!in.ok() || !out.ok() || !stream.ok()) return {};
  EXPECT_EQ(cudaStreamBeginCapture(stream->get(), cudaStreamCaptureModeThreadLocal), cudaSuccess);
  const absl::Status st = launch({.in = in->data(), .out = out->data(), .first_item = 0,
                                  .num_items = items, .stream = stream->get()});
  absl::StatusOr<Graph> graph = Graph::EndCapture(*stream);
  EXPECT_TRUE(st.ok()) << st;
  EXPECT_TRUE(graph.ok()) << graph.status();
  std::vector<cudaGraphNodeType> types;
  std::size_t count = 0;
  if (graph.ok() && cudaGraphGetNodes(graph->get(), nullptr, &count) == cudaSuccess) {
    std::vector<cudaGraphNode_t> nodes(count);
    EXPECT_EQ(cudaGraphGetNodes(graph->get(), nodes.data(), &count), cudaSuccess);
    for (cudaGraphNode_t n : nodes) {
      cudaGraphNodeType t{};
      EXPECT_EQ(cudaGraphNodeGetType(n, &t), cudaSuccess);
      types.push_back(t);
    }
  }
  return types;
}

// Where the device launches clusters, kShared enqueues one kernel and nothing else (no memset),
// whatever the shape; kSharedAtomic a memset and a kernel.
TEST_F(HistogramGpuTest, SharedKernelIssuesOnlyItsKernelWhereClustersMerge) {
  for (const FrameFormat& f : {FrameFormat{.width = 176, .height = 144},
                               FrameFormat{.width = 256, .height = 161},
                               FrameFormat{.width = 704, .height = 576}}) {
    absl::StatusOr<KernelLauncher> shared = HistogramLauncher(f, HistogramKernel::kShared);
    absl::StatusOr<KernelLauncher> atomic = HistogramLauncher(f, HistogramKernel::kSharedAtomic);
    ASSERT_TRUE(shared.ok() && atomic.ok());
    const std::vector<cudaGraphNodeType> a = CapturedNodes(*atomic, 16, f);
    EXPECT_EQ(a, (std::vector<cudaGraphNodeType>{cudaGraphNodeTypeMemset,
                                                 cudaGraphNodeTypeKernel}))
        << video::FrameFormatToString(f);
    if (!HistogramMergesInClusters(f)) continue;
    EXPECT_EQ(CapturedNodes(*shared, 16, f),
              std::vector<cudaGraphNodeType>{cudaGraphNodeTypeKernel})
        << video::FrameFormatToString(f);
  }
}

// On a device that launches clusters (the H100), kShared takes the cluster merge, so the tests
// above check it; elsewhere they check its fallback twice.
TEST_F(HistogramGpuTest, SharedKernelMergesInClustersWhereTheDeviceCan) {
  int device = 0;
  int cluster_launch = 0;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetAttribute(&cluster_launch, cudaDevAttrClusterLaunch, device), cudaSuccess);
  for (const FrameFormat& f : {FrameFormat{.width = 1, .height = 1, .format = PixelFormat::kMono},
                               FrameFormat{.width = 176, .height = 144},
                               FrameFormat{.width = 704, .height = 576,
                                           .format = PixelFormat::kRgb24},
                               FrameFormat{.width = 3840, .height = 2160}}) {
    EXPECT_EQ(HistogramMergesInClusters(f), cluster_launch != 0) << video::FrameFormatToString(f);
  }
  EXPECT_FALSE(HistogramMergesInClusters({.width = 0, .height = 5}));
}

// The cluster merge's shape (no device needed): up to 4 x 8192 pixels one block (256-1024
// threads), then one block per 8192 pixels up to the portable 8, then wider blocks in powers of
// two up to 1024 threads (runs 132 and 134's fastest shapes).
TEST(HistogramClusterShapeTest, FollowsTheFrameSize) {
  struct Case {
    long long pixels;
    unsigned blocks, threads;
  };
  for (const Case& c : {Case{1, 1, 256}, Case{8191, 1, 256}, Case{2 * 8192, 1, 512},
                        Case{176 * 144, 1, 1024}, Case{5 * 8192 - 1, 1, 1024},
                        Case{5 * 8192, 5, 256}, Case{8 * 8192, 8, 256}, Case{352 * 288, 8, 256},
                        Case{16 * 8192, 8, 512},
                        Case{704 * 576, 8, 1024}, Case{1920 * 1080, 8, 1024},
                        Case{3840LL * 2160, 8, 1024}}) {
    const histogram_internal::ClusterShape s = histogram_internal::DefaultClusterShape(c.pixels);
    EXPECT_EQ(s.blocks, c.blocks) << c.pixels;
    EXPECT_EQ(s.threads, c.threads) << c.pixels;
  }
}

TEST_F(HistogramGpuTest, BadFormatIsRejected) {
  EXPECT_FALSE(HistogramLauncher({.width = 0, .height = 5}, HistogramKernel::kShared).ok());
  EXPECT_FALSE(HistogramLauncher({.width = 0, .height = 5}, HistogramKernel::kSharedAtomic).ok());
  EXPECT_FALSE(HistogramLauncher({.width = 0, .height = 5}, HistogramKernel::kGlobal).ok());
  // The kernels' names: test/core/histogram_kernel_test.cpp.
}

}  // namespace
}  // namespace streampipe
