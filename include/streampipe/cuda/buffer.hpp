// Owning host-pinned and device buffers (move-only RAII), typed by element.
//
//   auto host = streampipe::PinnedBuffer<float>::Create(n);   // cudaMallocHost
//   auto dev = streampipe::DeviceBuffer<float>::Create(n);    // cudaMalloc
//   std::span<float> h = host->span();
//
// Out-of-memory is a ResourceExhausted Status (not sticky: smaller buffers can be created
// afterwards). Destruction never throws.
#ifndef STREAMPIPE_CUDA_BUFFER_HPP_
#define STREAMPIPE_CUDA_BUFFER_HPP_

#include <cstddef>
#include <limits>
#include <span>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"

namespace streampipe {
namespace detail {

enum class MemoryKind { kPinnedHost, kDevice };

// Untyped owning allocation.
class RawBuffer {
 public:
  static absl::StatusOr<RawBuffer> Allocate(MemoryKind kind, std::size_t bytes);
  RawBuffer() = default;
  RawBuffer(const RawBuffer&) = delete;
  RawBuffer& operator=(const RawBuffer&) = delete;
  RawBuffer(RawBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)), kind_(o.kind_) {}
  RawBuffer& operator=(RawBuffer&& o) noexcept {
    RawBuffer tmp(std::move(o));
    std::swap(ptr_, tmp.ptr_);
    std::swap(bytes_, tmp.bytes_);
    std::swap(kind_, tmp.kind_);
    return *this;
  }
  ~RawBuffer();

  void* data() const { return ptr_; }
  std::size_t bytes() const { return bytes_; }
  // Gives up ownership without freeing: for memory a kernel that never finishes may still use
  // (cudaFree would wait for it forever). It stays allocated, and counted, until the process
  // exits.
  void Abandon() {
    ptr_ = nullptr;
    bytes_ = 0;
  }

 private:
  RawBuffer(void* p, std::size_t b, MemoryKind k) : ptr_(p), bytes_(b), kind_(k) {}
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
  MemoryKind kind_ = MemoryKind::kDevice;
};

template <typename T, MemoryKind Kind>
class TypedBuffer {
 public:
  static absl::StatusOr<TypedBuffer> Create(std::size_t count) {
    if (count > std::numeric_limits<std::size_t>::max() / sizeof(T)) {
      // count * sizeof(T) would wrap: a few bytes allocated for a buffer that says `count`.
      return absl::InvalidArgumentError(absl::StrCat("a buffer of ", count, " elements of ",
                                                     sizeof(T), " bytes overflows its size"));
    }
    absl::StatusOr<RawBuffer> raw = RawBuffer::Allocate(Kind, count * sizeof(T));
    if (!raw.ok()) return raw.status();
    return TypedBuffer(std::move(*raw), count);
  }
  TypedBuffer() = default;
  // A moved-from buffer is empty: size() 0 as well as data() null (the implicit move kept the
  // count, so span() spanned N elements over null).
  TypedBuffer(TypedBuffer&& other) noexcept
      : raw_(std::move(other.raw_)), count_(std::exchange(other.count_, 0)) {}
  TypedBuffer& operator=(TypedBuffer&& other) noexcept {
    if (this != &other) {
      raw_ = std::move(other.raw_);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }
  TypedBuffer(const TypedBuffer&) = delete;
  TypedBuffer& operator=(const TypedBuffer&) = delete;

  T* data() const { return static_cast<T*>(raw_.data()); }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return raw_.bytes(); }
  std::span<T> span() const { return {data(), count_}; }
  explicit operator bool() const { return data() != nullptr; }
  void Abandon() {
    raw_.Abandon();
    count_ = 0;
  }

 private:
  TypedBuffer(RawBuffer raw, std::size_t count) : raw_(std::move(raw)), count_(count) {}
  RawBuffer raw_;
  std::size_t count_ = 0;
};

}  // namespace detail

template <typename T>
using PinnedBuffer = detail::TypedBuffer<T, detail::MemoryKind::kPinnedHost>;
template <typename T>
using DeviceBuffer = detail::TypedBuffer<T, detail::MemoryKind::kDevice>;

}  // namespace streampipe

#endif  // STREAMPIPE_CUDA_BUFFER_HPP_
