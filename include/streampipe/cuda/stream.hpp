// An owning CUDA stream (move-only RAII) and a non-owning reference to one.
//
//   absl::StatusOr<streampipe::Stream> s = streampipe::Stream::Create();
//   launch<<<grid, block, 0, s->get()>>>(...);
//   STREAMPIPE_RETURN_IF_ERROR(s->Synchronize());
//
// Streams are created non-blocking (no implicit synchronization with the legacy default
// stream). Not thread-safe to destroy while another thread uses it; otherwise as CUDA streams.
#ifndef STREAMPIPE_CUDA_STREAM_HPP_
#define STREAMPIPE_CUDA_STREAM_HPP_

#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace streampipe {

class Stream;

// A view of a stream someone else owns. Cheap to copy. Never built from 0 or nullptr (which
// would silently mean the legacy default stream).
class StreamRef {
 public:
  explicit StreamRef(cudaStream_t stream) : stream_(stream) {}
  StreamRef(const Stream& stream);  // NOLINT(google-explicit-constructor): a view of an owner
  StreamRef(int) = delete;
  StreamRef(std::nullptr_t) = delete;

  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_;
};

class Stream {
 public:
  // cudaStreamCreateWithFlags(cudaStreamNonBlocking). ResourceExhausted / Internal on failure.
  static absl::StatusOr<Stream> Create();

  Stream() = default;  // empty: owns nothing
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  Stream(Stream&& other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}
  Stream& operator=(Stream&& other) noexcept {
    Stream tmp(std::move(other));
    std::swap(stream_, tmp.stream_);
    return *this;
  }
  ~Stream();

  cudaStream_t get() const { return stream_; }
  explicit operator bool() const { return stream_ != nullptr; }

  absl::Status Synchronize() const;

 private:
  explicit Stream(cudaStream_t s) : stream_(s) {}
  cudaStream_t stream_ = nullptr;
};

inline StreamRef::StreamRef(const Stream& stream) : stream_(stream.get()) {}

}  // namespace streampipe

#endif  // STREAMPIPE_CUDA_STREAM_HPP_
