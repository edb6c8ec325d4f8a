// StreamPipeline: runs a user's per-chunk kernel over batches split into n sub-chunks on n
// CUDA streams, so that the copy in, the kernel and the copy out of different sub-chunks
// overlap; in automatic mode it measures one batch without streams, predicts the streamed time
// with the model for this device and chooses n.
//
//   streampipe::PipelineOptions o;
//   o.in_bytes_per_item = o.out_bytes_per_item = sizeof(float);
//   o.max_items_per_batch = 16 << 20;
//   o.launch = [](const streampipe::LaunchArgs& a) -> absl::Status {
//     my_kernel<<<blocks(a.num_items), 256, 0, a.stream>>>(
//         static_cast<const float*>(a.in), static_cast<float*>(a.out), a.num_items);
//     return absl::OkStatus();
//   };
//   auto p = streampipe::StreamPipeline::Create(std::move(o));
//   auto stats = p->Run({host_in, host_out, items});       // automatic n
//   auto fixed = p->Run({host_in, host_out, items}, 16);   // n = 16
//
// Streams: the pipeline owns a fixed pool (max_streams per in-flight batch, plus one origin
// stream per batch for its start/end events); re-planning changes how many are used, never
// creates or destroys them. All CUDA work is enqueued on those streams; Run/Collect wait on
// the host (bounded by wait_timeout).
//
// Thread safety: a pipeline is used by one thread at a time; independent pipelines may run on
// different threads concurrently. Devices: each call makes the pipeline's device
// (PipelineOptions::device) current while it runs (the launcher, and RunContinuous's source
// and sink, run with it current) and restores the caller's after it, so the device current on
// the calling thread does not matter, and is left as it was. Where the caller's device differs,
// each call switches twice; a thread that set the pipeline's device itself pays one
// cudaGetDevice a call.
//
// Errors: InvalidArgument for bad batches (0 items, too many items, null or device pointers, n
// out of range), FailedPrecondition for misuse (Collect with nothing in flight, Submit beyond
// max_in_flight, Run with uncollected batches, any call after a sticky CUDA error or a wait that
// timed out, a call on a moved-from pipeline, whose accessors give defaults), the launcher's
// own Status, Internal with the sticky flag for a kernel that faulted (IsStickyCudaError),
// DeadlineExceeded when the GPU does not finish within wait_timeout. Every error names the
// batch.
#ifndef STREAMPIPE_CUDA_PIPELINE_HPP_
#define STREAMPIPE_CUDA_PIPELINE_HPP_

#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "streampipe/core/config.hpp"
#include "streampipe/core/model_types.hpp"
#include "streampipe/cuda/pipeline_types.hpp"

namespace streampipe {

// Copies every setting of `config` (pipeline, streams, adaptive, detector, exploration keys)
// into `options`; the workload (bytes per item, batch size, launcher) stays as it is.
// InvalidArgument for a bad issue order.
absl::Status ApplyConfig(const PipelineConfig& config, PipelineOptions* options);

class StreamPipeline {
 public:
  // Allocates device buffers for max_in_flight batches, the stream and event pool, and, unless
  // options.traits is given, calibrates the copy parameters quickly. ResourceExhausted (not
  // sticky) when the GPU lacks memory; InvalidArgument for bad options, every one checked
  // before the device is read or calibrated (the model name, the adaptive and exploration
  // options and options.traits included); PermissionDenied where options.event_log cannot be
  // opened for appending (also before the device; a log Create made is removed where Create
  // then fails); Unavailable where there is no CUDA device or the driver is too old for the
  // runtime; FailedPrecondition where options.profile_path is another card's profile.
  static absl::StatusOr<StreamPipeline> Create(PipelineOptions options);

  StreamPipeline(StreamPipeline&&) noexcept;
  StreamPipeline& operator=(StreamPipeline&&) noexcept;
  ~StreamPipeline();

  // Runs one batch and waits for it. Without `streams`: automatic mode (the first call runs the
  // batch non-streamed to warm up, to time its kernel over each half of the items and to measure
  // the components, all passes of that call, and returns the measurement; then the model's n).
  // A re-measurement's halves pass runs in the call that returns its measurement too.
  absl::StatusOr<BatchStats> Run(const HostBatch& batch);
  absl::StatusOr<BatchStats> Run(const HostBatch& batch, int streams);

  // Runs one batch at `streams` with the GPU held until the host has enqueued all of it: a
  // kernel on the origin stream spins on a host flag that the pipeline sets once the batch is
  // issued, and every stream of the batch waits for it. elapsed_ms is then the device's time
  // alone, without the gaps where the GPU waits for the host to issue the next sub-chunk --
  // what the architecture models predict (a few µs of cross-stream event waits included);
  // issue_ms is still the host's. Not a sample for the controller, and not a sign that the host
  // fell behind. BatchStats::held is false when the gate opened itself after 1 s before the
  // host had issued the batch (a launch queue full behind the held streams, or a stalled host):
  // the batch completed and its output is right, but its time is not the device's alone.
  absl::StatusOr<BatchStats> RunHeld(const HostBatch& batch, int streams);

  // Runs one batch non-streamed with events around each component (n = 1). Automatic mode
  // re-derives n from it (a measurement the caller asked for).
  absl::StatusOr<BatchStats> MeasureComponents(const HostBatch& batch);
  // The same, with the kernel launched over the first half of the items and then over the
  // second (as two sub-chunks on one stream): components.kernel_half_ms is the first launch,
  // kernel_ms both. What a sub-chunk's kernel costs at half the batch; automatic mode runs one
  // such batch of its own per measurement (AdaptiveOptions::measure_kernel_halves) and does
  // not use this one. A batch of one item runs whole and reports no half.
  absl::StatusOr<BatchStats> MeasureKernelHalves(const HostBatch& batch);

  // In order: Submit enqueues a batch and returns without waiting for its GPU work (it does
  // wait where it stages pageable input into pinned memory, and where a planned measurement
  // drains the batches on the GPU first: their results wait for Collect); Collect waits for the
  // oldest and returns its statistics (and, for pageable output, copies it out). At most
  // max_in_flight batches on the GPU at once; in_flight() counts the drained ones too.
  absl::Status Submit(const HostBatch& batch, std::optional<int> streams = std::nullopt);
  absl::StatusOr<BatchStats> Collect();
  int in_flight() const;  // submitted and not yet collected

  // Continuous streaming from `source` to `sink` (see BatchSource). Pinned host buffers for
  // max_in_flight + 1 batches are allocated at the first call and reused; nothing is allocated
  // per batch. Stops at the first error (the source's, the sink's or the GPU's) and returns it
  // naming the batch (the pipeline's batch number, BatchStats::index); after a source error the
  // batches already in flight are still delivered to the sink (their input was good), and an
  // error in that delivery is said after the source's, whose code is returned; after any other
  // error they are dropped. A stopped pipeline (a sticky error, a GPU that did not finish)
  // refuses with FailedPrecondition before the source is asked for a batch.
  absl::StatusOr<ContinuousSummary> RunContinuous(BatchSource& source, BatchSink& sink,
                                                  const ContinuousOptions& options = {});

  // Automatic mode: measure the next batch non-streamed and re-derive n (e.g. the caller knows
  // the content changed); reported as a re-derivation event with `reason`.
  void RequestRemeasure(std::string reason);

  // The automatic mode's current choice of n, the traits the model uses, the controller.
  int chosen_streams() const;
  const DeviceTraits& traits() const;
  const StreamController& controller() const;
  const PipelineOptions& options() const;

 private:
  class Impl;
  explicit StreamPipeline(std::unique_ptr<Impl> impl);
  // Drains the batches in flight (their staged output copied back) and frees the pipeline:
  // the destructor, and a move-assignment over it.
  void Release() noexcept;
  std::unique_ptr<Impl> impl_;
};

}  // namespace streampipe

#endif  // STREAMPIPE_CUDA_PIPELINE_HPP_
