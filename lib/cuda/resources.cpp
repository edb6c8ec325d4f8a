// RAII resources, live counts and bounded waits.
#include <atomic>
#include <chrono>
#include <thread>

#include "absl/strings/str_cat.h"
#include "streampipe/status_macros.hpp"
#include "streampipe/cuda/buffer.hpp"
#include "streampipe/cuda/error.hpp"
#include "streampipe/cuda/event.hpp"
#include "streampipe/cuda/graph.hpp"
#include "streampipe/cuda/resource_counts.hpp"
#include "streampipe/cuda/stream.hpp"

namespace streampipe {
namespace {

std::atomic<std::int64_t> g_streams{0};
std::atomic<std::int64_t> g_events{0};
std::atomic<std::int64_t> g_pinned_buffers{0};
std::atomic<std::int64_t> g_pinned_bytes{0};
std::atomic<std::int64_t> g_device_buffers{0};
std::atomic<std::int64_t> g_device_bytes{0};
std::atomic<std::int64_t> g_graphs{0};

}  // namespace

ResourceCounts LiveResources() {
  return {g_streams.load(), g_events.load(), g_pinned_buffers.load(), g_pinned_bytes.load(),
          g_device_buffers.load(), g_device_bytes.load(), g_graphs.load()};
}

namespace detail {
void CountStreams(std::int64_t d) { g_streams += d; }
void CountGraphs(std::int64_t d) { g_graphs += d; }
void CountEvents(std::int64_t d) { g_events += d; }
void CountPinned(std::int64_t buffers, std::int64_t bytes) {
  g_pinned_buffers += buffers;
  g_pinned_bytes += bytes;
}
void CountDevice(std::int64_t buffers, std::int64_t bytes) {
  g_device_buffers += buffers;
  g_device_bytes += bytes;
}
}  // namespace detail

// ---- Stream ----
absl::StatusOr<Stream> Stream::Create() {
  cudaStream_t s = nullptr;
  STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  detail::CountStreams(1);
  return Stream(s);
}

Stream::~Stream() {
  if (stream_ != nullptr) {
    STREAMPIPE_CUDA_CHECK_NOTHROW(cudaStreamDestroy(stream_));
    detail::CountStreams(-1);
  }
}

absl::Status Stream::Synchronize() const {
  STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream_));
  return absl::OkStatus();
}

// ---- Graphs ----
absl::StatusOr<Graph> Graph::EndCapture(StreamRef stream) {
  cudaGraph_t g = nullptr;
  const cudaError_t e = cudaStreamEndCapture(stream.get(), &g);
  if (e != cudaSuccess) {
    if (g != nullptr) STREAMPIPE_CUDA_CHECK_NOTHROW(cudaGraphDestroy(g));
    (void)cudaGetLastError();  // an invalidated capture leaves a non-sticky error behind
    return CudaErrorStatus(e, "cudaStreamEndCapture (a call not allowed while capturing?)",
                           __FILE__, __LINE__);
  }
  if (g != nullptr) detail::CountGraphs(1);  // the destructor uncounts only a graph it owns
  return Graph(g);
}

Graph::~Graph() {
  if (graph_ != nullptr) {
    STREAMPIPE_CUDA_CHECK_NOTHROW(cudaGraphDestroy(graph_));
    detail::CountGraphs(-1);
  }
}

absl::StatusOr<GraphExec> GraphExec::Instantiate(const Graph& graph) {
  cudaGraphExec_t x = nullptr;
  STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaGraphInstantiate(&x, graph.get(), 0));
  detail::CountGraphs(1);
  return GraphExec(x);
}

GraphExec::~GraphExec() {
  if (exec_ != nullptr) {
    STREAMPIPE_CUDA_CHECK_NOTHROW(cudaGraphExecDestroy(exec_));
    detail::CountGraphs(-1);
  }
}

absl::Status GraphExec::Launch(StreamRef stream) const {
  STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaGraphLaunch(exec_, stream.get()));
  return absl::OkStatus();
}

// ---- Events ----
namespace detail {

EventHandle::~EventHandle() {
  if (event_ != nullptr) {
    STREAMPIPE_CUDA_CHECK_NOTHROW(cudaEventDestroy(event_));
    CountEvents(-1);
  }
}

absl::StatusOr<EventHandle> CreateEvent(unsigned flags) {
  cudaEvent_t e = nullptr;
  STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaEventCreateWithFlags(&e, flags));
  CountEvents(1);
  return EventHandle(e);
}

}  // namespace detail

absl::StatusOr<Event> Event::Create() {
  absl::StatusOr<detail::EventHandle> h = detail::CreateEvent(cudaEventDisableTiming);
  if (!h.ok()) return h.status();
  return Event(std::move(*h));
}

absl::StatusOr<TimedEvent> TimedEvent::Create() {
  absl::StatusOr<detail::EventHandle> h = detail::CreateEvent(cudaEventDefault);
  if (!h.ok()) return h.status();
  return TimedEvent(std::move(*h));
}

absl::Status Event::Record(StreamRef stream) const {
  STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaEventRecord(get(), stream.get()));
  return absl::OkStatus();
}
absl::Status Event::MakeStreamWait(StreamRef stream) const {
  STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaStreamWaitEvent(stream.get(), get(), 0));
  return absl::OkStatus();
}
absl::Status Event::Wait(std::chrono::milliseconds timeout) const {
  return WaitForEvent(get(), timeout);
}
absl::Status TimedEvent::Record(StreamRef stream) const {
  STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaEventRecord(get(), stream.get()));
  return absl::OkStatus();
}
absl::Status TimedEvent::MakeStreamWait(StreamRef stream) const {
  STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaStreamWaitEvent(stream.get(), get(), 0));
  return absl::OkStatus();
}
absl::Status TimedEvent::Wait(std::chrono::milliseconds timeout) const {
  return WaitForEvent(get(), timeout);
}

absl::StatusOr<float> ElapsedMs(const TimedEvent& start, const TimedEvent& end) {
  float ms = 0.0f;
  STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaEventElapsedTime(&ms, start.get(), end.get()));
  return ms;
}

absl::Status WaitForEvent(cudaEvent_t event, std::chrono::milliseconds timeout) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  // Saturated: start + milliseconds::max() overflowed the clock's nanoseconds and came out in
  // the past, so "wait forever" timed out at once.
  const auto room =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::time_point::max() - start);
  const auto deadline = timeout >= room ? Clock::time_point::max() : start + timeout;
  for (int polls = 0;; ++polls) {
    const cudaError_t e = cudaEventQuery(event);
    if (e == cudaSuccess) return absl::OkStatus();
    if (e != cudaErrorNotReady) {
      return CudaErrorStatus(e, "cudaEventQuery (waiting for GPU work)", __FILE__, __LINE__);
    }
    const auto now = Clock::now();
    if (now >= deadline) {
      return GpuWaitTimeoutStatus(absl::StrCat(
          "GPU work did not finish within ", timeout.count(),
          " ms; a kernel may be stuck (the wait is bounded so that the caller is not hung)"));
    }
    // Spin for the first 200 us (low latency for short batches), then yield, then sleep.
    if (now - start < std::chrono::microseconds(200)) continue;
    if (now - start < std::chrono::milliseconds(5)) {
      std::this_thread::yield();
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  }
}

// ---- Buffers ----
namespace detail {

absl::StatusOr<RawBuffer> RawBuffer::Allocate(MemoryKind kind, std::size_t bytes) {
  if (bytes == 0) return RawBuffer();
  void* p = nullptr;
  cudaError_t e = kind == MemoryKind::kDevice ? cudaMalloc(&p, bytes) : cudaMallocHost(&p, bytes);
  if (e != cudaSuccess) {
    // Clear the (non-sticky) error so that it does not surface in a later cudaGetLastError.
    (void)cudaGetLastError();
    return AnnotateStatus(
        CudaErrorStatus(e, kind == MemoryKind::kDevice ? "cudaMalloc" : "cudaMallocHost",
                        __FILE__, __LINE__),
        absl::StrCat("allocating ", bytes, " bytes of ",
                     kind == MemoryKind::kDevice ? "device" : "pinned", " memory"));
  }
  if (kind == MemoryKind::kDevice) {
    CountDevice(1, static_cast<std::int64_t>(bytes));
  } else {
    CountPinned(1, static_cast<std::int64_t>(bytes));
  }
  return RawBuffer(p, bytes, kind);
}

RawBuffer::~RawBuffer() {
  if (ptr_ == nullptr) return;
  if (kind_ == MemoryKind::kDevice) {
    STREAMPIPE_CUDA_CHECK_NOTHROW(cudaFree(ptr_));
    CountDevice(-1, -static_cast<std::int64_t>(bytes_));
  } else {
    STREAMPIPE_CUDA_CHECK_NOTHROW(cudaFreeHost(ptr_));
    CountPinned(-1, -static_cast<std::int64_t>(bytes_));
  }
}

}  // namespace detail
}  // namespace streampipe
