// RAII types: move, destroy, counts back to zero; CUDA errors as Status; OOM not sticky.
#include <cuda_runtime_api.h>

#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "gpu_test_util.hpp"
#include "streampipe/cuda/buffer.hpp"
#include "streampipe/cuda/error.hpp"
#include "streampipe/cuda/event.hpp"
#include "streampipe/cuda/resource_counts.hpp"
#include "streampipe/cuda/stream.hpp"
#include "streampipe/status_macros.hpp"

namespace streampipe {
namespace {

class ResourcesTest : public ::testing::Test {
 protected:
  void SetUp() override { STREAMPIPE_REQUIRE_GPU(); }
};

TEST_F(ResourcesTest, StreamMoveAndDestroyKeepCountsExact) {
  const ResourceCounts before = LiveResources();
  {
    absl::StatusOr<Stream> a = Stream::Create();
    ASSERT_TRUE(a.ok()) << a.status();
    EXPECT_EQ(LiveResources().streams, before.streams + 1);
    Stream b = std::move(*a);
    EXPECT_FALSE(static_cast<bool>(*a));  // moved-from is empty
    EXPECT_TRUE(static_cast<bool>(b));
    absl::StatusOr<Stream> c = Stream::Create();
    ASSERT_TRUE(c.ok());
    const cudaStream_t raw_c = c->get();
    b = std::move(*c);  // move-assign: b's old stream is destroyed
    EXPECT_EQ(b.get(), raw_c);
    EXPECT_EQ(LiveResources().streams, before.streams + 1);
    EXPECT_TRUE(b.Synchronize().ok());
    StreamRef ref(b);
    EXPECT_EQ(ref.get(), raw_c);
  }
  EXPECT_EQ(LiveResources(), before);
}

TEST_F(ResourcesTest, EventsTimeAndWait) {
  const ResourceCounts before = LiveResources();
  {
    auto s = Stream::Create();
    auto a = TimedEvent::Create();
    auto b = TimedEvent::Create();
    auto dep = Event::Create();
    ASSERT_TRUE(s.ok() && a.ok() && b.ok() && dep.ok());
    EXPECT_EQ(LiveResources().events, before.events + 3);
    ASSERT_TRUE(a->Record(*s).ok());
    ASSERT_TRUE(b->Record(*s).ok());
    ASSERT_TRUE(dep->Record(*s).ok());
    ASSERT_TRUE(b->Wait(std::chrono::milliseconds(5000)).ok());
    ASSERT_TRUE(dep->Wait(std::chrono::milliseconds(5000)).ok());
    absl::StatusOr<float> ms = ElapsedMs(*a, *b);
    ASSERT_TRUE(ms.ok()) << ms.status();
    EXPECT_GE(*ms, 0.0f);
    TimedEvent moved = std::move(*b);
    EXPECT_FALSE(static_cast<bool>(*b));
    // (Timing a non-timing Event cannot be written: ElapsedMs takes TimedEvents only.)
    Event e2 = std::move(*dep);
    EXPECT_TRUE(static_cast<bool>(e2));
  }
  EXPECT_EQ(LiveResources(), before);
}

TEST_F(ResourcesTest, ABufferWhoseSizeWrapsIsAnError) {
  // count * sizeof(T) past 2^64: refused before any allocation (it allocated 0 bytes for a
  // buffer that said 2^62 elements).
  const ResourceCounts before = LiveResources();
  absl::StatusOr<PinnedBuffer<float>> p = PinnedBuffer<float>::Create(std::size_t{1} << 62);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(p.status().message().find("overflows its size"), std::string::npos) << p.status();
  EXPECT_FALSE(DeviceBuffer<double>::Create(std::size_t{1} << 62).ok());
  EXPECT_EQ(LiveResources(), before);
}

TEST_F(ResourcesTest, BuffersCountBytesAndMove) {
  const ResourceCounts before = LiveResources();
  {
    auto d = DeviceBuffer<float>::Create(1000);
    auto h = PinnedBuffer<double>::Create(10);
    ASSERT_TRUE(d.ok() && h.ok());
    EXPECT_EQ(d->size(), 1000u);
    EXPECT_EQ(d->bytes(), 4000u);
    EXPECT_EQ(LiveResources().device_bytes, before.device_bytes + 4000);
    EXPECT_EQ(LiveResources().pinned_bytes, before.pinned_bytes + 80);
    h->span()[9] = 2.5;
    PinnedBuffer<double> h2 = std::move(*h);
    EXPECT_EQ(h2.span()[9], 2.5);
    EXPECT_EQ(h->data(), nullptr);
    // Empty once moved from: its size too (it kept 10, and span() spanned 10 over null).
    EXPECT_EQ(h->size(), 0u);
    EXPECT_TRUE(h->span().empty());
    EXPECT_EQ(h2.size(), 10u);
    DeviceBuffer<float> d2;
    d2 = std::move(*d);
    EXPECT_EQ(d2.size(), 1000u);
    EXPECT_EQ(d->size(), 0u);
    EXPECT_EQ(LiveResources().device_buffers, before.device_buffers + 1);
  }
  EXPECT_EQ(LiveResources(), before);
}

TEST_F(ResourcesTest, OutOfMemoryIsACleanNonStickyStatus) {
  const ResourceCounts before = LiveResources();
  absl::StatusOr<DeviceBuffer<std::byte>> huge =
      DeviceBuffer<std::byte>::Create(std::size_t{1} << 50);  // 1 PiB
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.status().code(), absl::StatusCode::kResourceExhausted) << huge.status();
  EXPECT_FALSE(IsStickyCudaError(huge.status()));
  EXPECT_EQ(CudaErrorOf(huge.status()), cudaErrorMemoryAllocation);
  EXPECT_NE(huge.status().message().find("1125899906842624 bytes of device memory"),
            std::string::npos)
      << huge.status();
  // The context is still usable.
  absl::StatusOr<DeviceBuffer<std::byte>> small = DeviceBuffer<std::byte>::Create(1 << 20);
  EXPECT_TRUE(small.ok()) << small.status();
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  small = absl::StatusOr<DeviceBuffer<std::byte>>(DeviceBuffer<std::byte>());
  EXPECT_EQ(LiveResources(), before);
}

TEST_F(ResourcesTest, CudaErrorStatusNamesCallAndError) {
  absl::Status s = CudaErrorStatus(cudaErrorInvalidValue, "cudaMemcpyAsync(x)", "f.cpp", 12);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("cudaMemcpyAsync(x) failed at f.cpp:12"), std::string::npos);
  EXPECT_NE(s.message().find("cudaErrorInvalidValue"), std::string::npos);
  EXPECT_FALSE(IsStickyCudaError(s));
  absl::Status sticky = CudaErrorStatus(cudaErrorIllegalAddress, "sync", "f.cpp", 1);
  EXPECT_TRUE(IsStickyCudaError(sticky));
  EXPECT_NE(sticky.message().find("sticky"), std::string::npos);
  EXPECT_TRUE(CudaErrorStatus(cudaSuccess, "x", "f", 1).ok());
}

// Every error after which driver_types.h (CUDA 13.0) says "the process must be terminated and
// relaunched", or that leaves the context unusable, is sticky; errors of a call alone are not.
// cudaErrorMpsClientTerminated and cudaErrorExternalDevice were not, before session 50. No GPU
// needed: runs on CI.
// A wait on GPU work that times out is marked as such; a DeadlineExceeded of another origin
// (a launcher's own) is not (session 51: the pipeline took any for a GPU that did not finish).
TEST(CudaErrorTest, AGpuWaitTimeoutIsMarkedAndOtherDeadlinesAreNot) {
  const absl::Status mine = GpuWaitTimeoutStatus("GPU work did not finish");
  EXPECT_EQ(mine.code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_TRUE(IsGpuWaitTimeout(mine));
  EXPECT_TRUE(IsGpuWaitTimeout(AnnotateStatus(mine, "batch 3")));  // the mark stays
  EXPECT_FALSE(IsGpuWaitTimeout(absl::DeadlineExceededError("the launcher's own wait")));
  EXPECT_FALSE(IsGpuWaitTimeout(absl::InternalError("x")));
}

TEST(CudaErrorTest, TheErrorsThatNeedARestartAreSticky) {
  for (const cudaError_t e :
       {cudaErrorIllegalAddress, cudaErrorLaunchTimeout, cudaErrorAssert,
        cudaErrorHardwareStackError, cudaErrorIllegalInstruction, cudaErrorMisalignedAddress,
        cudaErrorInvalidAddressSpace, cudaErrorInvalidPc, cudaErrorLaunchFailure,
        cudaErrorContained, cudaErrorTensorMemoryLeak, cudaErrorMpsClientTerminated,
        cudaErrorExternalDevice}) {
    EXPECT_TRUE(IsStickyCudaError(e)) << cudaGetErrorName(e);
  }
  for (const cudaError_t e : {cudaSuccess, cudaErrorInvalidValue, cudaErrorMemoryAllocation,
                              cudaErrorNotReady, cudaErrorStreamCaptureInvalidated,
                              cudaErrorInvalidResourceHandle, cudaErrorNoDevice}) {
    EXPECT_FALSE(IsStickyCudaError(e)) << cudaGetErrorName(e);
  }
}

TEST_F(ResourcesTest, WaitIsBoundedByItsTimeout) {
  // A kernel that runs longer than the timeout: the wait returns DeadlineExceeded.
  auto s = Stream::Create();
  auto e = Event::Create();
  ASSERT_TRUE(s.ok() && e.ok());
  // cudaStreamWaitEvent on an event recorded later never blocks; use a host function that
  // sleeps to keep the stream busy.
  ASSERT_EQ(cudaLaunchHostFunc(
                s->get(), [](void*) { std::this_thread::sleep_for(std::chrono::milliseconds(300)); },
                nullptr),
            cudaSuccess);
  ASSERT_TRUE(e->Record(*s).ok());
  absl::Status w = e->Wait(std::chrono::milliseconds(50));
  EXPECT_EQ(w.code(), absl::StatusCode::kDeadlineExceeded) << w;
  EXPECT_TRUE(e->Wait(std::chrono::milliseconds(5000)).ok());
}

// "Wait forever": start + milliseconds::max() overflowed the clock and came out in the past, so
// the wait timed out at its first poll of a busy stream (before session 48).
TEST_F(ResourcesTest, AWaitWithTheLargestTimeoutWaitsForTheWork) {
  auto s = Stream::Create();
  auto e = Event::Create();
  ASSERT_TRUE(s.ok() && e.ok());
  ASSERT_EQ(cudaLaunchHostFunc(
                s->get(), [](void*) { std::this_thread::sleep_for(std::chrono::milliseconds(100)); },
                nullptr),
            cudaSuccess);
  ASSERT_TRUE(e->Record(*s).ok());
  EXPECT_TRUE(e->Wait(std::chrono::milliseconds::max()).ok());
  EXPECT_EQ(cudaEventQuery(e->get()), cudaSuccess);
}

}  // namespace
}  // namespace streampipe
