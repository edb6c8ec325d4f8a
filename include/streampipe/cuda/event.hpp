// Owning CUDA events (move-only RAII): `Event` has timing disabled (for dependencies between
// streams: cheaper to record and wait on); `TimedEvent` records timestamps (~0.5 us resolution).
//
//   auto start = streampipe::TimedEvent::Create();  auto end = ...;
//   start->Record(stream); ...; end->Record(stream);
//   end->Wait(timeout);  // ElapsedMs does not wait: both events must have completed
//   absl::StatusOr<float> ms = streampipe::ElapsedMs(*start, *end);
#ifndef STREAMPIPE_CUDA_EVENT_HPP_
#define STREAMPIPE_CUDA_EVENT_HPP_

#include <cuda_runtime_api.h>

#include <chrono>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "streampipe/cuda/stream.hpp"

namespace streampipe {

namespace detail {
// Owning handle shared by both event kinds.
class EventHandle {
 public:
  EventHandle() = default;
  explicit EventHandle(cudaEvent_t e) : event_(e) {}
  EventHandle(const EventHandle&) = delete;
  EventHandle& operator=(const EventHandle&) = delete;
  EventHandle(EventHandle&& o) noexcept : event_(std::exchange(o.event_, nullptr)) {}
  EventHandle& operator=(EventHandle&& o) noexcept {
    EventHandle tmp(std::move(o));
    std::swap(event_, tmp.event_);
    return *this;
  }
  ~EventHandle();
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

absl::StatusOr<EventHandle> CreateEvent(unsigned flags);
}  // namespace detail

class Event {
 public:
  static absl::StatusOr<Event> Create();  // cudaEventDisableTiming
  Event() = default;

  cudaEvent_t get() const { return h_.get(); }
  explicit operator bool() const { return get() != nullptr; }
  // cudaEventRecord on `stream`; cudaStreamWaitEvent makes `stream` wait for this event.
  absl::Status Record(StreamRef stream) const;
  absl::Status MakeStreamWait(StreamRef stream) const;
  // Waits on the host until the event completed, for at most `timeout` (polling); a kernel that
  // never finishes yields DeadlineExceeded instead of a hang.
  absl::Status Wait(std::chrono::milliseconds timeout) const;

 private:
  explicit Event(detail::EventHandle h) : h_(std::move(h)) {}
  detail::EventHandle h_;
};

class TimedEvent {
 public:
  static absl::StatusOr<TimedEvent> Create();  // timing enabled
  TimedEvent() = default;

  cudaEvent_t get() const { return h_.get(); }
  explicit operator bool() const { return get() != nullptr; }
  absl::Status Record(StreamRef stream) const;
  absl::Status MakeStreamWait(StreamRef stream) const;
  absl::Status Wait(std::chrono::milliseconds timeout) const;

 private:
  explicit TimedEvent(detail::EventHandle h) : h_(std::move(h)) {}
  detail::EventHandle h_;
};

// cudaEventElapsedTime(start, end) in ms; both must have completed.
absl::StatusOr<float> ElapsedMs(const TimedEvent& start, const TimedEvent& end);

// Polls `event` until it completes or `timeout` passes (DeadlineExceeded). Spins briefly, then
// yields, then sleeps, so that short waits stay low-latency and long ones do not burn a core.
absl::Status WaitForEvent(cudaEvent_t event, std::chrono::milliseconds timeout);

}  // namespace streampipe

#endif  // STREAMPIPE_CUDA_EVENT_HPP_
