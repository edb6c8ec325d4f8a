// Options, inputs and results of a StreamPipeline. Plain structs; no logic.
#ifndef STREAMPIPE_CUDA_PIPELINE_TYPES_HPP_
#define STREAMPIPE_CUDA_PIPELINE_TYPES_HPP_

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <utility>
#include <vector>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "streampipe/core/model_types.hpp"
#include "streampipe/core/optimizer.hpp"
#include "streampipe/core/stream_controller.hpp"
#include "streampipe/core/timeline.hpp"

namespace streampipe {

// One kernel launch: one sub-chunk of a batch.
struct LaunchArgs {
  const void* in = nullptr;     // device memory: the sub-chunk's first input item
  void* out = nullptr;          // device memory: the sub-chunk's first output item
  std::int64_t first_item = 0;  // index of that item in the batch
  std::int64_t num_items = 0;   // items in the sub-chunk (>= 1)
  cudaStream_t stream = nullptr;  // enqueue the kernel on this stream, and only on it
};

// Enqueues the kernel for one sub-chunk on args.stream and returns without synchronizing.
// Called on the thread that runs the batch. A non-OK Status, or an exception, fails the batch
// (the pipeline catches it; nothing crosses the library boundary).
// Once, at the first batch, the pipeline also calls it for the whole batch inside a CUDA
// stream capture (cudaStreamCaptureModeThreadLocal) to check that it enqueues on args.stream
// and does not synchronize; that work never runs (docs/design.md). In that call a
// synchronizing or allocating call (cudaMalloc, cudaStreamSynchronize, a library handle made
// on first use) breaks the capture and fails the first batch (InvalidArgument, "broke stream
// capture"): allocate scratch memory before, not in, the launcher; and do not count on its
// calls (one more than the sub-chunks').
using KernelLauncher = std::function<absl::Status(const LaunchArgs&)>;

// How the copies and kernels of a batch's n sub-chunks are issued.
enum class IssueOrder {
  kDepthFirst,       // per stream: copy in, kernel, copy out (CUDA simpleStreams)
  kBreadthFirst,     // all copies in, all kernels, all copies out (seed 000, section 2)
  kEnginePerStream,  // one stream per engine (copy in, compute, copy out), ordered with events
                     // (seed 002)
};
std::string_view IssueOrderName(IssueOrder order);
absl::StatusOr<IssueOrder> ParseIssueOrder(std::string_view name);

// How a streamed batch reaches the GPU.
enum class IssueMode {
  // Call by call: per sub-chunk a copy in, a launch and a copy out on the host, each batch.
  // The host's issue time grows with n (about 10 us per sub-chunk on the H100's host).
  kStreams,
  // The batch's calls (in `order`, on the same streams) are captured once per slot, n and
  // batch size as a CUDA graph and replayed with one launch per batch; new host pointers only
  // update the graph's copy nodes. The launcher is called at capture only, so its kernels'
  // arguments are replayed: a launcher whose arguments change from batch to batch (other than
  // through LaunchArgs) must use kStreams. The non-streamed measurement is a graph too (its
  // component events as nodes); batches with pageable memory (staged) are issued call by call.
  kGraph,
};
std::string_view IssueModeName(IssueMode mode);
absl::StatusOr<IssueMode> ParseIssueMode(std::string_view name);

struct PipelineOptions {
  // The workload: bytes per item in and out (either may be 0, not both), and the largest
  // batch. Device buffers for that many items are allocated once, at Create.
  std::int64_t in_bytes_per_item = 0;
  std::int64_t out_bytes_per_item = 0;
  std::int64_t max_items_per_batch = 0;
  KernelLauncher launch;

  int device = 0;
  int max_streams = 32;    // streams per batch slot: n ranges over 1..max_streams
  int max_in_flight = 1;   // batches submitted and not yet collected (1..8); each has its buffers.
                           // RunContinuous overlaps batches only with 2 or more (the config
                           // file's pipeline.max_in_flight defaults to 2)
  IssueOrder order = IssueOrder::kDepthFirst;
  IssueMode issue = IssueMode::kStreams;
  bool record_timeline = false;  // per-sub-chunk timing events (costs a little per chunk)
  int staging_threads = 8;       // host threads copying pageable memory to and from pinned
  std::chrono::milliseconds wait_timeout{60000};  // bound on every wait for the GPU

  // Automatic mode (Run without n).
  std::string model = "auto";            // a model name (docs/models.md) or "auto"
  std::optional<DeviceTraits> traits;    // calibrated traits, if you have them; else
  std::string profile_path;              // a profile from streampipe calibrate: used if it
                                         // matches this device and driver; another card's is
                                         // an error (and kept); missing or another driver's:
                                         // calibrated and written. Empty: a quick calibration
                                         // at Create
  AdaptiveOptions adaptive;              // bounds on n (max_streams caps them), drift
                                         // detection, exploration, on-line calibration
  std::string event_log;                 // append re-derivation events here as JSON lines
};

// A batch of host memory. Pinned (cudaMallocHost/cudaHostRegister) memory is copied directly;
// pageable memory is staged through the pipeline's pinned buffers; device memory is refused
// (InvalidArgument). The pointers must stay valid until the batch is collected.
struct HostBatch {
  const void* in = nullptr;
  void* out = nullptr;
  std::int64_t num_items = 0;
  // Sizes of the two buffers in bytes, when known: a batch larger than its buffers is then
  // refused (InvalidArgument) instead of read or written past their end. 0 = not given.
  std::size_t in_capacity = 0;
  std::size_t out_capacity = 0;
};

struct BatchStats {
  std::int64_t index = 0;     // 0, 1, 2, ... in submission order
  std::int64_t items = 0;
  int streams = 1;
  IssueOrder order = IssueOrder::kDepthFirst;
  PlanKind kind = PlanKind::kStreamed;
  // Device time from the batch's start event to its end. With batches in flight together, a
  // call-by-call batch's streams do not wait for its start event, which can wait in a hardware
  // queue behind the batches before and be timed after some of its batch's first ops:
  // elapsed_ms is then short by that (run 277, H200, 2 in flight: in 18 of 180 breadth-first
  // runs of 24 batches at n = 16-64, by up to 0.34 ms; 1 of 180 depth-first, 8 us; none one
  // batch at a time). period_ms is not moved: such a start event was never after the latest
  // end before (pipeline_test, TheStartEventBoundsABatchAloneAndNeverItsPeriod).
  double elapsed_ms = 0.0;
  double period_ms = 0.0;     // device time the batch added: end - max(start, latest end before)
  // What the controller was told, and whether it is a sample (`settled`). A batch that ran
  // alone: its time, a sample unless it is the first at its n after batches at another (it
  // runs cold; its issue time is not reported to the controller either). Overlapping batches:
  // once a run at one n is longer than 2 x max_in_flight, every 2 x max_in_flight-th batch is a
  // sample, the mean period of the last 2 x max_in_flight batches (of batches of several
  // sizes, their time per item at this batch's items; docs/design.md, "Continuous streaming").
  double observed_ms = 0.0;
  bool settled = true;
  // Started before the batches ahead of it ended (continuous mode keeping up). False when the
  // GPU was idle in between: the batch ran alone, or the host fell behind.
  bool overlapped = false;
  double predicted_ms = 0.0;  // the model's prediction for this batch (0 if none)
  // Host wall time that enqueuing the batch's copies and launches took (steady clock around
  // the issue loop; with record_timeline it includes the timeline's event records; for a graph,
  // updating its copy nodes and launching it). Where it approaches elapsed_ms the batch is
  // issue bound: the GPU waited for the host.
  double issue_ms = 0.0;
  // Launched as a CUDA graph (IssueMode::kGraph), and the host time that capturing and
  // instantiating its graph took (0 when a cached graph was replayed; not in issue_ms).
  bool graph = false;
  double graph_build_ms = 0.0;
  // Run behind a gate that held it until it was issued (StreamPipeline::RunHeld): the device's
  // time alone. False for RunHeld when the gate opened itself first (the host took over 1 s).
  bool held = false;
  ComponentTimes components;  // measured, for kind == kMeasure
  bool staged_in = false;     // input was pageable and went through pinned staging
  bool staged_out = false;
  std::optional<BatchTimeline> timeline;  // with record_timeline
  std::vector<RederivationEvent> events;  // re-derivations this batch caused
};

// Continuous streaming: a source fills pinned input memory that the pipeline owns; the
// pipeline runs the batches back to back, up to max_in_flight at a time (with 2 or more the
// copy-in of a batch overlaps the work of the batches before it); a sink receives the results
// in order.
class BatchSource {
 public:
  virtual ~BatchSource() = default;
  // Writes up to `max_items` items (in_bytes_per_item each) into `in` and returns how many;
  // 0 ends the stream; a negative count, or one over `max_items`, is an error
  // (InvalidArgument). Called while earlier
  // batches run on the GPU (where max_in_flight >= 2), with the pipeline's device current. An
  // error stops the run (the batches already in flight are delivered first), and so does an
  // exception (Unknown).
  virtual absl::StatusOr<std::int64_t> Fill(std::span<std::byte> in, std::int64_t max_items) = 0;
};

class BatchSink {
 public:
  virtual ~BatchSink() = default;
  // The output of one batch (out_bytes_per_item per item), valid during the call, in
  // submission order, with the pipeline's device current. An error, or an exception (Unknown),
  // stops the run.
  virtual absl::Status Consume(std::span<const std::byte> out, const BatchStats& stats) = 0;
};

struct ContinuousOptions {
  std::int64_t max_batches = -1;        // stop after this many (-1: when the source ends; below
                                        // -1: InvalidArgument)
  std::int64_t items_per_batch = 0;     // 0: max_items_per_batch (negative: InvalidArgument)
  // A fixed n in [1, max_streams]; default: automatic. A batch the source fills with fewer
  // items than n runs at one stream per item.
  std::optional<int> streams;
};

struct ContinuousSummary {
  std::int64_t batches = 0;
  std::int64_t items = 0;
  double wall_ms = 0.0;                 // host wall time of the run
  double device_ms = 0.0;               // sum of the batches' periods
  std::vector<std::pair<std::int64_t, int>> streams_changes;  // (first batch, n) runs
  std::vector<RederivationEvent> events;
  std::int64_t measured_batches = 0;    // non-streamed (warm-up and measurement) batches
  std::int64_t explored_batches = 0;
  double mean_abs_prediction_error = 0.0;  // |measured/predicted - 1| over streamed batches
};

}  // namespace streampipe

#endif  // STREAMPIPE_CUDA_PIPELINE_TYPES_HPP_
