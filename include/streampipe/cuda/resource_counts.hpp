// Live counts of the CUDA resources streampipe's RAII types own, process-wide. Tests assert
// that they return to zero after teardown, after errors and after many re-derivations.
//
//   auto before = streampipe::LiveResources();
//   { auto p = streampipe::StreamPipeline::Create(opts); ... }
//   assert(streampipe::LiveResources() == before);
//
// Thread-safe (atomic counters).
#ifndef STREAMPIPE_CUDA_RESOURCE_COUNTS_HPP_
#define STREAMPIPE_CUDA_RESOURCE_COUNTS_HPP_

#include <cstdint>

namespace streampipe {

struct ResourceCounts {
  std::int64_t streams = 0;
  std::int64_t events = 0;
  std::int64_t pinned_buffers = 0;
  std::int64_t pinned_bytes = 0;
  std::int64_t device_buffers = 0;
  std::int64_t device_bytes = 0;
  std::int64_t graphs = 0;  // graphs and executable graphs

  bool operator==(const ResourceCounts&) const = default;
};

ResourceCounts LiveResources();

namespace detail {
void CountStreams(std::int64_t delta);
void CountEvents(std::int64_t delta);
void CountPinned(std::int64_t buffers, std::int64_t bytes);
void CountDevice(std::int64_t buffers, std::int64_t bytes);
void CountGraphs(std::int64_t delta);
}  // namespace detail

}  // namespace streampipe

#endif  // STREAMPIPE_CUDA_RESOURCE_COUNTS_HPP_
