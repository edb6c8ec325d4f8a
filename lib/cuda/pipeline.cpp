// StreamPipeline: the executor. docs/design.md describes the structure; in short, each batch
// slot owns its device buffers, streams and events; a batch is issued in one of three orders
// onto the slot's streams between a start and an end event on the slot's origin stream.
#include "streampipe/cuda/pipeline.hpp"

#include <cuda_runtime_api.h>
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtCudaRt.h>

#include <algorithm>
#include <cstring>
#include <chrono>
#include <deque>
#include <limits>
#include <fstream>
#include <map>
#include <utility>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/cleanup/cleanup.h"
#include "absl/strings/str_cat.h"
#include "streampipe/core/model.hpp"
#include "streampipe/core/parallel_copy.hpp"
#include "streampipe/cuda/buffer.hpp"
#include "streampipe/cuda/calibrate.hpp"
#include "streampipe/cuda/device.hpp"
#include "streampipe/cuda/error.hpp"
#include "streampipe/cuda/event.hpp"
#include "streampipe/cuda/graph.hpp"
#include "streampipe/cuda/stream.hpp"
#include "streampipe/status_macros.hpp"
#include "device_scope.hpp"
#include "gate.hpp"

namespace streampipe {

using detail::DeviceScope;

std::string_view IssueOrderName(IssueOrder order) {
  switch (order) {
    case IssueOrder::kDepthFirst:
      return "depth-first";
    case IssueOrder::kBreadthFirst:
      return "breadth-first";
    case IssueOrder::kEnginePerStream:
      return "engine-per-stream";
  }
  return "unknown";
}

absl::StatusOr<IssueOrder> ParseIssueOrder(std::string_view name) {
  for (IssueOrder o :
       {IssueOrder::kDepthFirst, IssueOrder::kBreadthFirst, IssueOrder::kEnginePerStream}) {
    if (IssueOrderName(o) == name) return o;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown issue order '", std::string(name),
                   "'; valid: depth-first, breadth-first, engine-per-stream"));
}

std::string_view IssueModeName(IssueMode mode) {
  switch (mode) {
    case IssueMode::kStreams:
      return "streams";
    case IssueMode::kGraph:
      return "graph";
  }
  return "unknown";
}

absl::StatusOr<IssueMode> ParseIssueMode(std::string_view name) {
  for (IssueMode m : {IssueMode::kStreams, IssueMode::kGraph}) {
    if (IssueModeName(m) == name) return m;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown issue mode '", std::string(name), "'; valid: streams, graph"));
}

absl::Status ApplyConfig(const PipelineConfig& c, PipelineOptions* o) {
  absl::StatusOr<IssueOrder> order = ParseIssueOrder(c.order);
  if (!order.ok()) return order.status();
  absl::StatusOr<IssueMode> issue = ParseIssueMode(c.issue);
  if (!issue.ok()) return issue.status();
  o->issue = *issue;
  o->device = c.device;
  o->max_streams = c.max_streams;
  o->max_in_flight = c.max_in_flight;
  o->order = *order;
  o->model = c.model;
  o->staging_threads = c.staging_threads;
  o->record_timeline = c.record_timeline;
  o->wait_timeout = std::chrono::milliseconds(c.wait_timeout_ms);
  o->profile_path = c.profile;
  o->event_log = c.event_log;
  o->adaptive = c.adaptive;
  return absl::OkStatus();
}

namespace {

constexpr int kMaxInFlight = 8;
constexpr int kMaxStreams = 1024;

// Is `p` host memory the GPU can DMA from directly (cudaMallocHost or cudaHostRegister)? Other
// host memory (pageable, or managed) is staged. Device memory is an error: staging would copy
// it with the host's memcpy, which faults.
absl::StatusOr<bool> IsPinned(const void* p, const char* what) {
  cudaPointerAttributes attr{};
  if (const cudaError_t e = cudaPointerGetAttributes(&attr, p); e != cudaSuccess) {
    // A sticky error (an earlier batch's fault) is that error, not pageable memory: staging
    // for it allocated pinned memory and reported that allocation's failure (before session
    // 51). Another (an address the driver does not know): pageable, as before.
    if (IsStickyCudaError(e)) {
      return CudaErrorStatus(e, "cudaPointerGetAttributes", __FILE__, __LINE__);
    }
    (void)cudaGetLastError();
    return false;
  }
  if (attr.type == cudaMemoryTypeDevice) {
    return absl::InvalidArgumentError(absl::StrCat(
        "HostBatch.", what, " is device memory (of device ", attr.device,
        "); a batch's buffers are host memory, pinned (cudaMallocHost) or pageable"));
  }
  return attr.type == cudaMemoryTypeHost;
}

// Calls a user's source or sink: an exception it throws becomes an error naming it, as a
// launcher's does, instead of leaving the pipeline with batches in flight and unwinding past it.
template <typename F>
auto Guarded(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::exception& e) {
    return absl::UnknownError(absl::StrCat("threw an exception: ", e.what()));
  } catch (...) {
    return absl::UnknownError("threw a non-standard exception");
  }
}

class NvtxRange {
 public:
  explicit NvtxRange(const std::string& name) { nvtxRangePushA(name.c_str()); }
  ~NvtxRange() { nvtxRangePop(); }
  NvtxRange(const NvtxRange&) = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;
};

// A batch captured as a CUDA graph (IssueMode::kGraph), for one slot, n and batch size.
struct CachedGraph {
  // A copy node of the graph: which host bytes it moves (an offset into the batch's input or
  // output), so that a batch with other host buffers only updates these nodes.
  struct Copy {
    cudaGraphNode_t node = nullptr;
    bool h2d = true;
    std::size_t offset = 0;
    std::size_t bytes = 0;
    void* device = nullptr;
  };
  Graph graph;  // kept: the copy nodes' handles belong to it
  GraphExec exec;
  std::int64_t items = 0;
  const void* in = nullptr;  // the host buffers its copy nodes point at now
  void* out = nullptr;
  bool updatable = false;    // every copy node found and mapped (else: re-capture on change)
  std::vector<Copy> copies;
  std::uint64_t last_use = 0;
};
constexpr std::size_t kMaxGraphsPerSlot = 16;

// One batch slot: everything a batch in flight needs.
struct Slot {
  DeviceBuffer<std::byte> d_in;
  DeviceBuffer<std::byte> d_out;
  PinnedBuffer<std::byte> stage_in;   // allocated at the first pageable batch
  PinnedBuffer<std::byte> stage_out;
  std::vector<Stream> streams;        // max(max_streams, 3)
  Stream origin;                      // the start event; with max_in_flight 1 also the join
  // Events in two phases: the slot's batches alternate between them (`submitted`), so the
  // events of the batch before (and of this slot's batch before, max_in_flight batches earlier
  // when none failed) are still intact when a batch is collected (for period_ms).
  TimedEvent start[2];
  // Per stream: after its last op. The batch ends at the latest of them: no stream waits on
  // another to join (a blocking wait in a hardware queue that other slots' streams share
  // would hold their copies back).
  std::vector<TimedEvent> done[2];
  // With one batch in flight nothing can share the origin's hardware queue: there the origin
  // joins the streams (untimed events, as a hand-written loop does) and records one timed end.
  std::vector<Event> join_done;
  TimedEvent end[2];
  bool joined = false;
  std::vector<Event> in_done;         // engine-per-stream order: per chunk
  std::vector<Event> kernel_done;
  // The component events of a measured batch: 4, or 5 where its kernel runs in two halves.
  std::vector<TimedEvent> comp;
  std::vector<TimedEvent> marks;      // 6 per chunk with record_timeline
  Event fork;                         // graph capture, held batches: the origin forks the streams
  // IssueMode::kGraph: by n (the measured, non-streamed, batch as 0, the measurement's kernel
  // halves as -1) and the batch's items; at most kMaxGraphsPerSlot, the least recently used
  // replaced. (By n alone before session 51: two sizes alternating at one n captured every
  // batch again.)
  std::map<std::pair<int, std::int64_t>, CachedGraph> graphs;

  // The batch in flight.
  bool busy = false;
  HostBatch batch;
  BatchPlan plan;
  bool controller_plan = false;  // planned by the controller (not a caller's fixed n or measure)
  std::int64_t index = 0;
  bool staged_in = false;
  bool staged_out = false;
  int phase = 0;
  std::int64_t submitted = 0;  // batches of this slot that reached the GPU (the phase)
  int used = 1;   // streams with work in this batch (their done events)
  int end_k = 0;  // the stream whose done event is the batch's end
  double issue_ms = 0.0;  // host wall time that enqueuing the batch took (Issue())
  bool held = false;      // RunHeld: behind a gate; the controller is not told
  CachedGraph* graph = nullptr;  // the batch is launched as this graph
  double graph_build_ms = 0.0;
  const TimedEvent& start_event() const { return start[phase]; }
  const TimedEvent& done_event(int k) const { return done[phase][static_cast<std::size_t>(k)]; }
  const TimedEvent& end_event() const { return joined ? end[phase] : done_event(end_k); }
  cudaEvent_t chunk_done(int k) const {
    return joined ? join_done[static_cast<std::size_t>(k)].get() : done_event(k).get();
  }
};

// A kMeasureHalves batch of at least two items launches its kernel over each half in turn
// (one item: the whole, and no half is reported).
bool KernelInHalves(const Slot& slot) {
  return slot.plan.kind == PlanKind::kMeasureHalves && slot.batch.num_items >= 2;
}

}  // namespace

class StreamPipeline::Impl {
 public:
  explicit Impl(PipelineOptions o) : opt_(std::move(o)) {}

  absl::Status Init();
  // `hold`: the batch waits behind a gate until it is all enqueued (RunHeld).
  // `measure`: a measurement the caller asked for (kMeasure or kMeasureHalves), not planned.
  absl::Status Submit(const HostBatch& batch, std::optional<int> streams,
                      std::optional<PlanKind> measure, bool hold = false);
  absl::StatusOr<BatchStats> Collect();

  int in_flight() const { return static_cast<int>(queue_.size() + drained_.size()); }
  int on_gpu() const { return static_cast<int>(queue_.size()); }
  absl::StatusOr<ContinuousSummary> RunContinuous(BatchSource& source, BatchSink& sink,
                                                  const ContinuousOptions& options);
  int chosen_streams() const { return controller_->streams(); }
  void RequestRemeasure(std::string reason) { controller_->RequestRemeasure(std::move(reason)); }
  const DeviceTraits& traits() const { return controller_->traits(); }
  const StreamController& controller() const { return *controller_; }
  const PipelineOptions& options() const { return opt_; }

  // Collects everything on the GPU (bounded waits) and keeps the results for Collect().
  void Drain();
  // FailedPrecondition, saying why, once the pipeline has stopped (broken_); OK before.
  absl::Status Stopped() const;
  // Drain() and drop the results (destructor).
  void DiscardAll();

 private:
  absl::Status Validate(const HostBatch& batch, int streams) const;
  absl::Status Issue(Slot& slot, int n, bool measure);
  // The copies and kernels of a streamed batch in opt_.order, with the timeline's marks.
  // `capturing`: the marks become graph nodes.
  absl::Status EnqueueChunks(Slot& slot, int n, bool capturing);
  // The non-streamed batch on streams[0], with the component events around each part.
  absl::Status EnqueueMeasured(Slot& slot, bool capturing);
  // The streams EnqueueChunks(n) uses: streams[0, StreamsUsed(n)).
  int StreamsUsed(int n) const { return opt_.order == IssueOrder::kEnginePerStream ? 3 : n; }
  // The slot's graph of the batch at n streams, or of the measured batch (n = 1, component
  // events), for this batch: captured and instantiated when missing or stale.
  absl::StatusOr<CachedGraph*> PrepareGraph(Slot& slot, int n, bool measure);
  absl::StatusOr<CachedGraph> CaptureGraph(Slot& slot, int n, bool measure);
  absl::Status RetargetGraph(CachedGraph& g, const HostBatch& batch);
  absl::Status Launch(Slot& slot, int k, int n, cudaStream_t s);
  absl::Status CopyIn(Slot& slot, int n, int k, cudaStream_t s);
  absl::Status CopyOut(Slot& slot, int n, int k, cudaStream_t s);
  absl::Status ValidateLauncher(Slot& slot, const Chunk& c);
  absl::Status Fail(absl::Status s, std::int64_t index);
  // After a batch failed during issue: waits (bounded) for what of it was enqueued before the
  // slot is reused; a wait that times out stops the pipeline as Fail does (its buffers may
  // still be in use), one that fails otherwise is left to the error being reported.
  void WaitAfterFailure(const TimedEvent& e, std::int64_t index);
  absl::Status EnsureStaging(Slot& slot, bool in, bool out);
  absl::StatusOr<BatchStats> CollectFromGpu();
  // A collected batch's component times (measured batches) and timeline (record_timeline).
  absl::Status ReadComponentsAndTimeline(const Slot& slot, std::int64_t index, int n,
                                         bool measured, BatchStats& st) const;
  // Enqueues the gate on the slot's origin and makes the streams of a call-by-call batch at n
  // wait for it (a graph is launched on the origin itself).
  absl::Status Hold(Slot& slot, int n);
  // Lets the gate Hold enqueued run out (the host's side of it).
  void OpenGate() { detail::OpenGate(gate_.data()); }

  PipelineOptions opt_;
  PinnedBuffer<detail::GateWords> gate_;  // allocated at the first held batch
  std::unique_ptr<ParallelCopier> copier_;  // created at the first pageable batch
  std::vector<Slot> slots_;
  std::deque<int> queue_;  // slot indices on the GPU, in submission order
  std::deque<absl::StatusOr<BatchStats>> drained_;  // collected early, not yet returned
  std::ofstream event_log_;
  PinnedBuffer<std::byte> ring_in_, ring_out_;  // continuous mode's host buffers
  int next_slot_ = 0;
  std::int64_t next_index_ = 0;
  TimedEvent epoch_;
  // Device time of collected batches, in ms on one clock (double: no float drift over hours).
  // The start event of the previous collected batch stays intact until the next collection
  // (phases), so each batch's start is placed relative to it.
  struct DeviceClock {
    const TimedEvent* last_start = nullptr;
    double last_start_ms = 0.0;
    double frontier_ms = 0.0;  // the latest end so far
    int run_streams = 0;       // streams of the current run of equal-n overlapped batches
    int run_length = 0;
    // The run's recent batches (2 x max_in_flight of them): period and items.
    std::deque<std::pair<double, std::int64_t>> periods;
    int regime_streak = 0;       // consecutive batches that contradict the controller's mode
    // Batches since one found the GPU idle for a reason other than a drain (a measured batch
    // before it): the host fell behind at least once.
    std::int64_t since_host_gap = std::numeric_limits<std::int64_t>::max() / 2;
    bool after_measured = false;
    int last_streams = 0;  // n of the previous batch; 0 after a measured one
  } clock_;
  std::unique_ptr<StreamController> controller_;
  bool launcher_checked_ = false;
  std::uint64_t graph_uses_ = 0;  // LRU clock of the slots' graph caches
  absl::Status broken_;  // set after a sticky error or a timed-out wait
  bool stuck_ = false;   // a wait timed out: GPU work may still be running

 public:
  ~Impl() {
    if (!stuck_) return;
    // Freeing memory that a running kernel uses would block in cudaFree/cudaFreeHost until it
    // finishes, perhaps forever: abandon it instead (it stays counted in LiveResources).
    for (Slot& s : slots_) {
      s.d_in.Abandon();
      s.d_out.Abandon();
      s.stage_in.Abandon();
      s.stage_out.Abandon();
    }
    ring_in_.Abandon();
    ring_out_.Abandon();
    gate_.Abandon();  // a held batch's gate kernel may still be polling it
  }
};

absl::Status StreamPipeline::Impl::Init() {
  if (!opt_.launch) return absl::InvalidArgumentError("PipelineOptions::launch is empty");
  if (opt_.in_bytes_per_item < 0 || opt_.out_bytes_per_item < 0 ||
      (opt_.in_bytes_per_item == 0 && opt_.out_bytes_per_item == 0)) {  // (a sum could wrap)
    return absl::InvalidArgumentError(absl::StrCat(
        "bytes per item in (", opt_.in_bytes_per_item, ") and out (", opt_.out_bytes_per_item,
        ") must be >= 0 and not both 0"));
  }
  if (opt_.max_items_per_batch <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("max_items_per_batch is ", opt_.max_items_per_batch, "; it must be >= 1"));
  }
  // A batch's bytes must fit the byte counts below (a product that wraps would allocate a few
  // bytes and report the batch's size): 2^50 bytes, far beyond any device, each way.
  constexpr std::int64_t kMaxBatchBytes = std::int64_t{1} << 50;
  for (const auto& [what, per_item] : {std::pair{"in_bytes_per_item", opt_.in_bytes_per_item},
                                       {"out_bytes_per_item", opt_.out_bytes_per_item}}) {
    if (per_item > 0 && opt_.max_items_per_batch > kMaxBatchBytes / per_item) {
      return absl::InvalidArgumentError(absl::StrCat(
          "max_items_per_batch (", opt_.max_items_per_batch, ") x ", what, " (", per_item,
          ") is more than 2^50 bytes"));
    }
  }
  if (opt_.max_streams < 1 || opt_.max_streams > kMaxStreams) {
    return absl::InvalidArgumentError(absl::StrCat("max_streams is ", opt_.max_streams,
                                                   "; it must be in [1, ", kMaxStreams, "]"));
  }
  if (opt_.max_in_flight < 1 || opt_.max_in_flight > kMaxInFlight) {
    return absl::InvalidArgumentError(absl::StrCat("max_in_flight is ", opt_.max_in_flight,
                                                   "; it must be in [1, ", kMaxInFlight, "]"));
  }
  if (opt_.staging_threads < 1 || opt_.staging_threads > 64) {
    return absl::InvalidArgumentError(absl::StrCat("staging_threads is ", opt_.staging_threads,
                                                   "; it must be in [1, 64]"));
  }
  if (opt_.wait_timeout.count() <= 0) {
    return absl::InvalidArgumentError("wait_timeout must be positive");
  }
  // Every option is checked before the device is read and calibrated (a profile written): a
  // misspelt model, bad adaptive options or an event log that cannot be opened were found only
  // after a calibration, or reported as "no CUDA device", before session 50.
  if (opt_.model != "auto") {
    if (absl::StatusOr<ModelKind> kind = ParseModelKind(opt_.model); !kind.ok()) {
      return AnnotateStatus(kind.status(), "PipelineOptions::model");
    }
  }
  AdaptiveOptions ao = ForIssueOrder(CapStreams(opt_.adaptive, opt_.max_streams),
                                     opt_.order == IssueOrder::kBreadthFirst);
  STREAMPIPE_RETURN_IF_ERROR(ValidateExplorationRun(ao.exploration, opt_.max_in_flight));
  if (ao.exploration.run == 0) {
    // Overlapping batches give one sample per 2 x max_in_flight batches, after as many
    // settling ones (see CollectFromGpu).
    // One at a time, the first batch of a visit runs cold and is not a sample either.
    ao.exploration.run = opt_.max_in_flight > 1
                             ? 2 * opt_.max_in_flight * (ao.exploration.samples_per_candidate + 1)
                             : ao.exploration.samples_per_candidate + 1;
  }
  STREAMPIPE_RETURN_IF_ERROR(ValidateAdaptiveOptions(ao));
  if (opt_.traits) {
    if (absl::Status t = ValidateTraits(*opt_.traits); !t.ok()) {
      return AnnotateStatus(t, "PipelineOptions::traits");
    }
  }
  // The event log is opened here, to fail before the device is read; one this call creates is
  // removed again where Create fails after it (nothing left behind by a failed Create).
  bool created_log = false;
  if (!opt_.event_log.empty()) {
    std::error_code ec;
    created_log = !std::filesystem::exists(opt_.event_log, ec);
    event_log_.open(opt_.event_log, std::ios::app);
    if (!event_log_) {
      return absl::PermissionDeniedError(
          absl::StrCat("cannot open the event log ", opt_.event_log, " for appending"));
    }
  }
  absl::Cleanup remove_created_log = [&] {
    if (!created_log) return;
    event_log_.close();
    std::error_code ec;
    std::filesystem::remove(opt_.event_log, ec);
  };
  STREAMPIPE_ASSIGN_OR_RETURN(DeviceInfo info, ReadDevice(opt_.device));
  DeviceScope device;  // the caller's device again after Init
  STREAMPIPE_RETURN_IF_ERROR(device.Enter(opt_.device));

  DeviceTraits traits;
  if (opt_.traits) {
    traits = *opt_.traits;
  } else if (!opt_.profile_path.empty()) {
    STREAMPIPE_ASSIGN_OR_RETURN(DeviceProfile p,
                                LoadOrCalibrate(opt_.profile_path, opt_.device, /*save=*/true));
    traits = p.traits;
  } else {
    CalibrationOptions c;
    c.device = opt_.device;
    c.quick = true;
    c.inline_copies = false;  // six ladders, a second or more; a profile carries them
    STREAMPIPE_ASSIGN_OR_RETURN(Calibration cal, Calibrate(c));
    traits = cal.profile.traits;
  }
  // A profile's or the calibration's traits (the caller's were checked above): checked here,
  // where a bad one would otherwise leave every derivation at n = 1 with no error.
  if (absl::Status t = ValidateTraits(traits); !t.ok()) {
    return AnnotateStatus(t, !opt_.profile_path.empty() ? "the device profile"
                                                        : "the quick calibration");
  }
  STREAMPIPE_ASSIGN_OR_RETURN(std::unique_ptr<StreamModel> model,
                              MakeModel(opt_.model, traits));
  controller_ = std::make_unique<StreamController>(std::move(model), traits, ao);

  const std::size_t in_bytes =
      static_cast<std::size_t>(opt_.max_items_per_batch * opt_.in_bytes_per_item);
  const std::size_t out_bytes =
      static_cast<std::size_t>(opt_.max_items_per_batch * opt_.out_bytes_per_item);
  const int pool = std::max(opt_.max_streams, 3);
  slots_.resize(static_cast<std::size_t>(opt_.max_in_flight));
  for (std::size_t si = 0; si < slots_.size(); ++si) {
    Slot& s = slots_[si];
    STREAMPIPE_ASSIGN_OR_RETURN(s.d_in, DeviceBuffer<std::byte>::Create(in_bytes));
    STREAMPIPE_ASSIGN_OR_RETURN(s.d_out, DeviceBuffer<std::byte>::Create(out_bytes));
    STREAMPIPE_ASSIGN_OR_RETURN(s.origin, Stream::Create());
    STREAMPIPE_ASSIGN_OR_RETURN(s.fork, Event::Create());
    for (int phase = 0; phase < 2; ++phase) {
      STREAMPIPE_ASSIGN_OR_RETURN(s.start[phase], TimedEvent::Create());
      STREAMPIPE_ASSIGN_OR_RETURN(s.end[phase], TimedEvent::Create());
    }
    for (int k = 0; k < pool; ++k) {
      STREAMPIPE_ASSIGN_OR_RETURN(Stream st, Stream::Create());
      nvtxNameCudaStreamA(st.get(), absl::StrCat("streampipe slot ", si, " stream ", k).c_str());
      s.streams.push_back(std::move(st));
      for (int phase = 0; phase < 2; ++phase) {
        STREAMPIPE_ASSIGN_OR_RETURN(TimedEvent d, TimedEvent::Create());
        s.done[phase].push_back(std::move(d));
      }
      STREAMPIPE_ASSIGN_OR_RETURN(Event j, Event::Create());
      s.join_done.push_back(std::move(j));
    }
    if (opt_.order == IssueOrder::kEnginePerStream) {
      for (int k = 0; k < opt_.max_streams; ++k) {
        STREAMPIPE_ASSIGN_OR_RETURN(Event a, Event::Create());
        STREAMPIPE_ASSIGN_OR_RETURN(Event b, Event::Create());
        s.in_done.push_back(std::move(a));
        s.kernel_done.push_back(std::move(b));
      }
    }
    for (int k = 0; k < 5; ++k) {
      STREAMPIPE_ASSIGN_OR_RETURN(TimedEvent e, TimedEvent::Create());
      s.comp.push_back(std::move(e));
    }
    if (opt_.record_timeline) {
      for (int k = 0; k < 6 * opt_.max_streams; ++k) {
        STREAMPIPE_ASSIGN_OR_RETURN(TimedEvent e, TimedEvent::Create());
        s.marks.push_back(std::move(e));
      }
    }
    // First use of a stream is slow (docs/evidence/anchors): touch each one now, not in batch 0,
    // and wait (bounded) until the touch has run. Not a cudaDeviceSynchronize: it waited
    // without bound for every stream of the device, another thread's too, and broke a stream
    // capture another thread had in progress (each pipeline captures its launcher once).
    for (Stream& st : s.streams) {
      STREAMPIPE_RETURN_IF_ERROR(s.done[0][0].Record(st));
      STREAMPIPE_RETURN_IF_ERROR(s.done[0][0].Wait(opt_.wait_timeout));
    }
  }
  STREAMPIPE_ASSIGN_OR_RETURN(epoch_, TimedEvent::Create());
  STREAMPIPE_RETURN_IF_ERROR(epoch_.Record(slots_[0].origin));
  STREAMPIPE_RETURN_IF_ERROR(epoch_.Wait(opt_.wait_timeout));
  std::move(remove_created_log).Cancel();  // created, and kept
  return absl::OkStatus();
}

absl::Status StreamPipeline::Impl::Validate(const HostBatch& b, int n) const {
  if (b.num_items <= 0) {
    return absl::InvalidArgumentError(absl::StrCat("the batch has ", b.num_items, " items"));
  }
  if (b.num_items > opt_.max_items_per_batch) {
    return absl::InvalidArgumentError(absl::StrCat("the batch has ", b.num_items,
                                                   " items; the pipeline holds at most ",
                                                   opt_.max_items_per_batch));
  }
  if (opt_.in_bytes_per_item > 0 && b.in == nullptr) {
    return absl::InvalidArgumentError("the batch's input pointer is null");
  }
  if (opt_.out_bytes_per_item > 0 && b.out == nullptr) {
    return absl::InvalidArgumentError("the batch's output pointer is null");
  }
  const std::size_t need_in = static_cast<std::size_t>(b.num_items * opt_.in_bytes_per_item);
  const std::size_t need_out = static_cast<std::size_t>(b.num_items * opt_.out_bytes_per_item);
  if (b.in_capacity > 0 && b.in_capacity < need_in) {
    return absl::InvalidArgumentError(absl::StrCat("the input buffer holds ", b.in_capacity,
                                                   " bytes; ", b.num_items, " items need ",
                                                   need_in));
  }
  if (b.out_capacity > 0 && b.out_capacity < need_out) {
    return absl::InvalidArgumentError(absl::StrCat("the output buffer holds ", b.out_capacity,
                                                   " bytes; ", b.num_items, " items need ",
                                                   need_out));
  }
  if (n < 1 || n > opt_.max_streams) {
    return absl::InvalidArgumentError(
        absl::StrCat(n, " streams requested; the pool has 1 to ", opt_.max_streams));
  }
  if (n > b.num_items) {
    return absl::InvalidArgumentError(
        absl::StrCat(n, " streams requested for ", b.num_items, " items"));
  }
  return absl::OkStatus();
}

absl::Status StreamPipeline::Impl::Fail(absl::Status s, std::int64_t index) {
  s = AnnotateStatus(s, absl::StrCat("batch ", index));
  // A wait on the GPU that timed out (marked by WaitForEvent), not any DeadlineExceeded: a
  // launcher's own stopped the pipeline for good as a GPU that did not finish, before
  // session 51.
  if (IsGpuWaitTimeout(s)) {
    // The GPU did not finish: its work may still use the buffers. Stop; never reuse them.
    stuck_ = true;
    if (broken_.ok()) broken_ = s;
  }
  if (IsStickyCudaError(s) && broken_.ok()) broken_ = s;
  return s;
}

void StreamPipeline::Impl::WaitAfterFailure(const TimedEvent& e, std::int64_t index) {
  absl::Status w = e.Wait(opt_.wait_timeout);
  if (IsGpuWaitTimeout(w)) (void)Fail(std::move(w), index);
}

absl::Status StreamPipeline::Impl::EnsureStaging(Slot& slot, bool in, bool out) {
  if ((in || out) && !copier_) copier_ = std::make_unique<ParallelCopier>(opt_.staging_threads);
  if (in && !slot.stage_in) {
    STREAMPIPE_ASSIGN_OR_RETURN(
        slot.stage_in,
        PinnedBuffer<std::byte>::Create(slot.d_in.bytes()));
  }
  if (out && !slot.stage_out) {
    STREAMPIPE_ASSIGN_OR_RETURN(
        slot.stage_out,
        PinnedBuffer<std::byte>::Create(slot.d_out.bytes()));
  }
  return absl::OkStatus();
}

absl::Status StreamPipeline::Impl::CopyIn(Slot& slot, int n, int k, cudaStream_t s) {
  if (opt_.in_bytes_per_item == 0) return absl::OkStatus();
  const Chunk c = ChunkOf(slot.batch.num_items, n, k);
  const std::size_t off = static_cast<std::size_t>(c.first * opt_.in_bytes_per_item);
  const std::size_t bytes = static_cast<std::size_t>(c.count * opt_.in_bytes_per_item);
  const std::byte* src = static_cast<const std::byte*>(slot.batch.in) + off;
  if (slot.staged_in) {
    // Pageable input: copy this chunk into pinned staging (overlapping the DMA of the chunks
    // already issued), then DMA from there.
    copier_->Copy(slot.stage_in.data() + off, src, bytes);
    src = slot.stage_in.data() + off;
  }
  STREAMPIPE_CUDA_RETURN_IF_ERROR(
      cudaMemcpyAsync(slot.d_in.data() + off, src, bytes, cudaMemcpyHostToDevice, s));
  return absl::OkStatus();
}

absl::Status StreamPipeline::Impl::CopyOut(Slot& slot, int n, int k, cudaStream_t s) {
  if (opt_.out_bytes_per_item == 0) return absl::OkStatus();
  const Chunk c = ChunkOf(slot.batch.num_items, n, k);
  const std::size_t off = static_cast<std::size_t>(c.first * opt_.out_bytes_per_item);
  const std::size_t bytes = static_cast<std::size_t>(c.count * opt_.out_bytes_per_item);
  std::byte* dst = slot.staged_out ? slot.stage_out.data() + off
                                   : static_cast<std::byte*>(slot.batch.out) + off;
  STREAMPIPE_CUDA_RETURN_IF_ERROR(
      cudaMemcpyAsync(dst, slot.d_out.data() + off, bytes, cudaMemcpyDeviceToHost, s));
  return absl::OkStatus();
}

// Captures one launch into a graph without running it: the launcher must enqueue at least one
// operation, and only on the stream it is given.
absl::Status StreamPipeline::Impl::ValidateLauncher(Slot& slot, const Chunk& c) {
  cudaStream_t s = slot.streams[0].get();
  LaunchArgs args{slot.d_in.data(), slot.d_out.data(), c.first, c.count, s};
  STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  absl::Status user;
  bool threw = false;
  try {
    user = opt_.launch(args);
  } catch (const std::exception& e) {
    threw = true;
    user = absl::InvalidArgumentError(absl::StrCat("the kernel launcher threw: ", e.what()));
  } catch (...) {
    threw = true;
    user = absl::InvalidArgumentError("the kernel launcher threw a non-standard exception");
  }
  const absl::StatusOr<Graph> graph = Graph::EndCapture(StreamRef(s));
  std::size_t nodes = 0;
  if (graph.ok()) (void)cudaGraphGetNodes(graph->get(), nullptr, &nodes);
  (void)cudaGetLastError();  // a call that failed inside the capture leaves its error behind
  if (threw) return user;
  std::string problem;
  if (!graph.ok()) {
    problem = absl::StrCat("the kernel launcher broke stream capture (",
                           graph.status().message(),
                           "): it must enqueue its work on the stream it was given "
                           "(LaunchArgs::stream), without synchronizing");
  } else if (nodes == 0) {
    problem =
        "the kernel launcher enqueued nothing on the stream it was given (LaunchArgs::stream); "
        "a launcher must launch its kernel on that stream";
  }
  if (problem.empty()) return user;
  if (!user.ok()) {
    absl::StrAppend(&problem, "; the launcher returned: ", std::string(user.message()));
  }
  return absl::InvalidArgumentError(problem);
}

absl::Status StreamPipeline::Impl::Launch(Slot& slot, int k, int n, cudaStream_t s) {
  const Chunk c = ChunkOf(slot.batch.num_items, n, k);
  LaunchArgs args{slot.d_in.data() + c.first * opt_.in_bytes_per_item,
                  slot.d_out.data() + c.first * opt_.out_bytes_per_item, c.first, c.count, s};
  absl::Status user;
  try {
    user = opt_.launch(args);
  } catch (const std::exception& e) {
    user = absl::InvalidArgumentError(absl::StrCat("the kernel launcher threw: ", e.what()));
  } catch (...) {
    user = absl::InvalidArgumentError("the kernel launcher threw a non-standard exception");
  }
  if (!user.ok()) return AnnotateStatus(user, absl::StrCat("sub-chunk ", k));
  // A bad launch configuration is reported here (non-sticky); faults surface at the wait.
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {
    return AnnotateStatus(CudaErrorStatus(e, "kernel launch", __FILE__, __LINE__),
                          absl::StrCat("sub-chunk ", k));
  }
  return absl::OkStatus();
}

namespace {
// Records a timing event on s. While capturing, a plain record only orders streams; an
// external record is a graph node that records the event each time the graph runs.
absl::Status RecordTiming(const TimedEvent& e, cudaStream_t s, bool capturing) {
  STREAMPIPE_CUDA_RETURN_IF_ERROR(
      cudaEventRecordWithFlags(e.get(), s, capturing ? cudaEventRecordExternal : 0u));
  return absl::OkStatus();
}
}  // namespace

absl::Status StreamPipeline::Impl::EnqueueChunks(Slot& slot, int n, bool capturing) {
  auto mark = [&](int k, int i, cudaStream_t s) -> absl::Status {
    if (!opt_.record_timeline) return absl::OkStatus();
    return RecordTiming(slot.marks[static_cast<std::size_t>(6 * k + i)], s, capturing);
  };
  switch (opt_.order) {
    case IssueOrder::kDepthFirst:
      for (int k = 0; k < n; ++k) {
        cudaStream_t s = slot.streams[static_cast<std::size_t>(k)].get();
        STREAMPIPE_RETURN_IF_ERROR(mark(k, 0, s));
        STREAMPIPE_RETURN_IF_ERROR(CopyIn(slot, n, k, s));
        STREAMPIPE_RETURN_IF_ERROR(mark(k, 1, s));
        STREAMPIPE_RETURN_IF_ERROR(mark(k, 2, s));
        STREAMPIPE_RETURN_IF_ERROR(Launch(slot, k, n, s));
        STREAMPIPE_RETURN_IF_ERROR(mark(k, 3, s));
        STREAMPIPE_RETURN_IF_ERROR(mark(k, 4, s));
        STREAMPIPE_RETURN_IF_ERROR(CopyOut(slot, n, k, s));
        STREAMPIPE_RETURN_IF_ERROR(mark(k, 5, s));
      }
      return absl::OkStatus();
    case IssueOrder::kBreadthFirst:
      for (int k = 0; k < n; ++k) {
        cudaStream_t s = slot.streams[static_cast<std::size_t>(k)].get();
        STREAMPIPE_RETURN_IF_ERROR(mark(k, 0, s));
        STREAMPIPE_RETURN_IF_ERROR(CopyIn(slot, n, k, s));
        STREAMPIPE_RETURN_IF_ERROR(mark(k, 1, s));
      }
      for (int k = 0; k < n; ++k) {
        cudaStream_t s = slot.streams[static_cast<std::size_t>(k)].get();
        STREAMPIPE_RETURN_IF_ERROR(mark(k, 2, s));
        STREAMPIPE_RETURN_IF_ERROR(Launch(slot, k, n, s));
        STREAMPIPE_RETURN_IF_ERROR(mark(k, 3, s));
      }
      for (int k = 0; k < n; ++k) {
        cudaStream_t s = slot.streams[static_cast<std::size_t>(k)].get();
        STREAMPIPE_RETURN_IF_ERROR(mark(k, 4, s));
        STREAMPIPE_RETURN_IF_ERROR(CopyOut(slot, n, k, s));
        STREAMPIPE_RETURN_IF_ERROR(mark(k, 5, s));
      }
      return absl::OkStatus();
    case IssueOrder::kEnginePerStream: {
      cudaStream_t in = slot.streams[0].get();
      cudaStream_t compute = slot.streams[1].get();
      cudaStream_t out = slot.streams[2].get();
      for (int k = 0; k < n; ++k) {
        const std::size_t uk = static_cast<std::size_t>(k);
        STREAMPIPE_RETURN_IF_ERROR(mark(k, 0, in));
        STREAMPIPE_RETURN_IF_ERROR(CopyIn(slot, n, k, in));
        STREAMPIPE_RETURN_IF_ERROR(mark(k, 1, in));
        STREAMPIPE_RETURN_IF_ERROR(slot.in_done[uk].Record(StreamRef(in)));
        STREAMPIPE_RETURN_IF_ERROR(slot.in_done[uk].MakeStreamWait(StreamRef(compute)));
        STREAMPIPE_RETURN_IF_ERROR(mark(k, 2, compute));
        STREAMPIPE_RETURN_IF_ERROR(Launch(slot, k, n, compute));
        STREAMPIPE_RETURN_IF_ERROR(mark(k, 3, compute));
        STREAMPIPE_RETURN_IF_ERROR(slot.kernel_done[uk].Record(StreamRef(compute)));
        STREAMPIPE_RETURN_IF_ERROR(slot.kernel_done[uk].MakeStreamWait(StreamRef(out)));
        STREAMPIPE_RETURN_IF_ERROR(mark(k, 4, out));
        STREAMPIPE_RETURN_IF_ERROR(CopyOut(slot, n, k, out));
        STREAMPIPE_RETURN_IF_ERROR(mark(k, 5, out));
      }
      return absl::OkStatus();
    }
  }
  return absl::InternalError("unknown issue order");
}

absl::Status StreamPipeline::Impl::EnqueueMeasured(Slot& slot, bool capturing) {
  cudaStream_t s = slot.streams[0].get();
  auto comp = [&](int i) {
    return RecordTiming(slot.comp[static_cast<std::size_t>(i)], s, capturing);
  };
  STREAMPIPE_RETURN_IF_ERROR(comp(0));
  STREAMPIPE_RETURN_IF_ERROR(CopyIn(slot, 1, 0, s));
  STREAMPIPE_RETURN_IF_ERROR(comp(1));
  int next = 2;
  if (KernelInHalves(slot)) {
    // The kernel over the first half of the items, timed as the whole one is (after the copy
    // in), then over the second: what a sub-chunk's kernel costs at half the batch.
    STREAMPIPE_RETURN_IF_ERROR(Launch(slot, 0, 2, s));
    STREAMPIPE_RETURN_IF_ERROR(comp(next++));
    STREAMPIPE_RETURN_IF_ERROR(Launch(slot, 1, 2, s));
  } else {
    STREAMPIPE_RETURN_IF_ERROR(Launch(slot, 0, 1, s));
  }
  STREAMPIPE_RETURN_IF_ERROR(comp(next++));
  STREAMPIPE_RETURN_IF_ERROR(CopyOut(slot, 1, 0, s));
  return comp(next);
}

absl::StatusOr<CachedGraph> StreamPipeline::Impl::CaptureGraph(Slot& slot, int n, bool measure) {
  const StreamRef origin(slot.origin);
  const int streams = measure ? 1 : StreamsUsed(n);
  STREAMPIPE_CUDA_RETURN_IF_ERROR(
      cudaStreamBeginCapture(origin.get(), cudaStreamCaptureModeThreadLocal));
  // The origin forks every stream the batch uses and joins them all again: the graph is the
  // batch, with the same streams' order as a direct issue.
  absl::Status st = slot.fork.Record(origin);
  for (int k = 0; st.ok() && k < streams; ++k) {
    st = slot.fork.MakeStreamWait(slot.streams[static_cast<std::size_t>(k)]);
  }
  if (st.ok()) {
    st = measure ? EnqueueMeasured(slot, /*capturing=*/true)
                 : EnqueueChunks(slot, n, /*capturing=*/true);
  }
  for (int k = 0; st.ok() && k < streams; ++k) {
    const std::size_t uk = static_cast<std::size_t>(k);
    st = slot.join_done[uk].Record(slot.streams[uk]);
    if (st.ok()) st = slot.join_done[uk].MakeStreamWait(origin);
  }
  absl::StatusOr<Graph> graph = Graph::EndCapture(origin);  // ends it on every path
  (void)cudaGetLastError();  // a call that failed inside the capture leaves its error behind
  if (!st.ok()) return AnnotateStatus(st, absl::StrCat("capturing the batch (n = ", n, ")"));
  if (!graph.ok()) {
    return AnnotateStatus(graph.status(), absl::StrCat("capturing the batch (n = ", n, ")"));
  }
  CachedGraph g;
  g.graph = std::move(*graph);
  STREAMPIPE_ASSIGN_OR_RETURN(g.exec, GraphExec::Instantiate(g.graph));
  // Upload now, so that the first launch costs the host what every later one does.
  STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaGraphUpload(g.exec.get(), origin.get()));
  g.items = slot.batch.num_items;
  g.in = slot.batch.in;
  g.out = slot.batch.out;

  // The copy nodes, by the device bytes they touch: the same chunk of a later batch with other
  // host buffers is the same offset into them.
  std::size_t count = 0;
  STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaGraphGetNodes(g.graph.get(), nullptr, &count));
  std::vector<cudaGraphNode_t> nodes(count);
  STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaGraphGetNodes(g.graph.get(), nodes.data(), &count));
  const auto in_total = static_cast<std::size_t>(g.items * opt_.in_bytes_per_item);
  const auto out_total = static_cast<std::size_t>(g.items * opt_.out_bytes_per_item);
  auto within = [](const void* p, std::size_t bytes, const void* base, std::size_t total) {
    const auto* b = static_cast<const std::byte*>(base);
    const auto* q = static_cast<const std::byte*>(p);
    return base != nullptr && q >= b && q + bytes <= b + total;
  };
  bool mapped = true;
  int h2d = 0;
  int d2h = 0;
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType type{};
    STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaGraphNodeGetType(node, &type));
    if (type != cudaGraphNodeTypeMemcpy) continue;
    cudaMemcpy3DParms p{};
    STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaGraphMemcpyNodeGetParams(node, &p));
    CachedGraph::Copy c;
    c.node = node;
    c.bytes = p.extent.width * p.extent.height * p.extent.depth;
    if (p.srcArray == nullptr && p.dstArray == nullptr &&
        within(p.dstPtr.ptr, c.bytes, slot.d_in.data(), in_total) &&
        within(p.srcPtr.ptr, c.bytes, g.in, in_total)) {
      c.h2d = true;
      c.device = p.dstPtr.ptr;
      c.offset = static_cast<std::size_t>(static_cast<const std::byte*>(p.srcPtr.ptr) -
                                          static_cast<const std::byte*>(g.in));
      ++h2d;
    } else if (p.srcArray == nullptr && p.dstArray == nullptr &&
               within(p.srcPtr.ptr, c.bytes, slot.d_out.data(), out_total) &&
               within(p.dstPtr.ptr, c.bytes, g.out, out_total)) {
      c.h2d = false;
      c.device = p.srcPtr.ptr;
      c.offset = static_cast<std::size_t>(static_cast<const std::byte*>(p.dstPtr.ptr) -
                                          static_cast<const std::byte*>(g.out));
      ++d2h;
    } else {
      mapped = false;  // a copy the launcher made: its pointers are its own
      continue;
    }
    g.copies.push_back(c);
  }
  g.updatable = mapped && h2d == (in_total > 0 ? n : 0) && d2h == (out_total > 0 ? n : 0);
  return g;
}

absl::StatusOr<CachedGraph*> StreamPipeline::Impl::PrepareGraph(Slot& slot, int n, bool measure) {
  const HostBatch& b = slot.batch;
  const std::pair<int, std::int64_t> key{measure ? (KernelInHalves(slot) ? -1 : 0) : n,
                                          b.num_items};
  if (auto it = slot.graphs.find(key); it != slot.graphs.end()) {
    CachedGraph& g = it->second;
    const bool moved = g.in != b.in || g.out != b.out;
    if (g.items == b.num_items && (g.updatable || !moved)) {
      g.last_use = ++graph_uses_;
      return &g;
    }
    slot.graphs.erase(it);
  }
  if (slot.graphs.size() >= kMaxGraphsPerSlot) {
    auto lru = std::min_element(slot.graphs.begin(), slot.graphs.end(), [](auto& x, auto& y) {
      return x.second.last_use < y.second.last_use;
    });
    slot.graphs.erase(lru);
  }
  const auto t0 = std::chrono::steady_clock::now();
  STREAMPIPE_ASSIGN_OR_RETURN(CachedGraph g, CaptureGraph(slot, n, measure));
  slot.graph_build_ms +=
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  g.last_use = ++graph_uses_;
  return &slot.graphs.insert_or_assign(key, std::move(g)).first->second;
}

absl::Status StreamPipeline::Impl::RetargetGraph(CachedGraph& g, const HostBatch& b) {
  if (g.in == b.in && g.out == b.out) return absl::OkStatus();
  // Until every node is updated the graph points partly at the old buffers: mark it stale.
  g.in = nullptr;
  g.out = nullptr;
  for (const CachedGraph::Copy& c : g.copies) {
    if (c.h2d) {
      STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaGraphExecMemcpyNodeSetParams1D(
          g.exec.get(), c.node, c.device, static_cast<const std::byte*>(b.in) + c.offset,
          c.bytes, cudaMemcpyHostToDevice));
    } else {
      STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaGraphExecMemcpyNodeSetParams1D(
          g.exec.get(), c.node, static_cast<std::byte*>(b.out) + c.offset, c.device, c.bytes,
          cudaMemcpyDeviceToHost));
    }
  }
  g.in = b.in;
  g.out = b.out;
  return absl::OkStatus();
}

absl::Status StreamPipeline::Impl::Issue(Slot& slot, int n, bool measure) {
  slot.joined = false;
  if (slot.graph != nullptr) {
    if (!RetargetGraph(*slot.graph, slot.batch).ok()) {
      // New host buffers the graph's copy nodes cannot take (another allocation's mapping):
      // capture the batch again for them.
      (void)cudaGetLastError();
      slot.graph->updatable = false;
      STREAMPIPE_ASSIGN_OR_RETURN(slot.graph, PrepareGraph(slot, n, measure));
    }
    STREAMPIPE_RETURN_IF_ERROR(slot.start_event().Record(slot.origin));
    STREAMPIPE_RETURN_IF_ERROR(slot.graph->exec.Launch(slot.origin));
    slot.used = n;
    slot.joined = true;
    return slot.end[slot.phase].Record(slot.origin);
  }
  STREAMPIPE_RETURN_IF_ERROR(slot.start_event().Record(slot.origin));
  if (measure) {
    // n = 1 with events around each component.
    STREAMPIPE_RETURN_IF_ERROR(EnqueueMeasured(slot, /*capturing=*/false));
    slot.used = 1;
    return slot.done_event(0).Record(slot.streams[0]);
  }
  STREAMPIPE_RETURN_IF_ERROR(EnqueueChunks(slot, n, /*capturing=*/false));
  if (opt_.order == IssueOrder::kEnginePerStream) {
    // The copy-out stream's last op depends on everything before it.
    slot.used = 1;
    return slot.done_event(0).Record(slot.streams[2]);
  }
  slot.used = n;
  if (opt_.max_in_flight == 1) {
    slot.joined = true;
    for (int k = 0; k < n; ++k) {
      const std::size_t uk = static_cast<std::size_t>(k);
      STREAMPIPE_RETURN_IF_ERROR(slot.join_done[uk].Record(slot.streams[uk]));
      STREAMPIPE_RETURN_IF_ERROR(slot.join_done[uk].MakeStreamWait(slot.origin));
    }
    return slot.end[slot.phase].Record(slot.origin);
  }
  // Each stream records its done event after its last op; nothing waits on them on the GPU.
  for (int k = 0; k < n; ++k) {
    STREAMPIPE_RETURN_IF_ERROR(slot.done_event(k).Record(slot.streams[static_cast<std::size_t>(k)]));
  }
  return absl::OkStatus();
}

absl::Status StreamPipeline::Impl::Hold(Slot& slot, int n) {
  if (!gate_) {
    STREAMPIPE_ASSIGN_OR_RETURN(gate_, PinnedBuffer<detail::GateWords>::Create(1));
  }
  *gate_.data() = detail::GateWords{};
  STREAMPIPE_CUDA_RETURN_IF_ERROR(
      detail::LaunchGate(gate_.data(), detail::kGateTimeoutNs, slot.origin.get()));
  if (slot.graph != nullptr) return absl::OkStatus();
  STREAMPIPE_RETURN_IF_ERROR(slot.fork.Record(StreamRef(slot.origin)));
  for (int k = 0; k < StreamsUsed(n); ++k) {
    STREAMPIPE_RETURN_IF_ERROR(slot.fork.MakeStreamWait(slot.streams[static_cast<std::size_t>(k)]));
  }
  return absl::OkStatus();
}

absl::Status StreamPipeline::Impl::Stopped() const {
  if (broken_.ok()) return absl::OkStatus();
  absl::Status s = absl::FailedPreconditionError(
      absl::StrCat(stuck_ ? "the pipeline stopped: the GPU did not finish in time: "
                          : "the pipeline stopped after a sticky CUDA error: ",
                   std::string(broken_.message())));
  // The error's payloads stay (IsStickyCudaError of the refusal is the error's).
  AddPayloads(broken_, &s);
  return s;
}

absl::Status StreamPipeline::Impl::Submit(const HostBatch& batch, std::optional<int> streams,
                                          std::optional<PlanKind> measure, bool hold) {
  STREAMPIPE_RETURN_IF_ERROR(Stopped());
  if (on_gpu() >= opt_.max_in_flight) {
    return absl::FailedPreconditionError(
        absl::StrCat(on_gpu(), " batches are in flight (max_in_flight = ", opt_.max_in_flight,
                     "); Collect one first"));
  }
  const std::int64_t index = next_index_;
  DeviceScope device;
  if (absl::Status d = device.Enter(opt_.device); !d.ok()) {
    return AnnotateStatus(d, absl::StrCat("batch ", index));
  }
  // The batch's own fields first (items, pointers, capacities; n = 1 always fits): a refused
  // batch must not take a plan from the controller (planned_items_ set to 0 or a huge count, an
  // exploration batch used up) before session 48.
  if (absl::Status v = Validate(batch, 1); !v.ok()) {
    return AnnotateStatus(v, absl::StrCat("batch ", index));
  }
  BatchPlan plan;
  if (measure) {
    plan = {*measure, 1, 0.0, kNoGeneration};
  } else if (streams) {
    plan = {PlanKind::kStreamed, *streams, 0.0, kNoGeneration};
    if (const auto& ref = controller_->reference(); ref && *streams >= 1) {
      // Report what the model would have predicted for the fixed n, once it can.
      absl::StatusOr<StreamChoice> c = controller_->Choose(batch.num_items);
      if (c.ok()) {
        for (const Prediction& p : c->predictions) {
          if (p.streams == *streams) plan.predicted_ms = p.total_ms;
        }
      }
    }
  } else {
    plan = controller_->Plan(batch.num_items);
  }
  // A plan of the controller's whose batch fails before it is on the GPU is given back: a
  // measurement's batch is then planned again (else automatic mode would wait for it forever).
  bool on_gpu_now = false;
  absl::Cleanup give_back = [&] {
    if (!on_gpu_now && !measure && !streams) controller_->Abandon(plan);
  };
  absl::Status v = Validate(batch, plan.streams);
  if (!v.ok()) return AnnotateStatus(v, absl::StrCat("batch ", index));
  absl::StatusOr<bool> pinned_in = true;
  absl::StatusOr<bool> pinned_out = true;
  if (opt_.in_bytes_per_item > 0) pinned_in = IsPinned(batch.in, "in");
  if (opt_.out_bytes_per_item > 0 && pinned_in.ok()) pinned_out = IsPinned(batch.out, "out");
  if (!pinned_in.ok() || !pinned_out.ok()) {
    return AnnotateStatus(pinned_in.ok() ? pinned_out.status() : pinned_in.status(),
                          absl::StrCat("batch ", index));
  }
  const bool non_streamed = RunsNonStreamed(plan.kind);
  if (non_streamed && on_gpu() > 0) {
    // A non-streamed measurement must not overlap other batches; their results wait for
    // Collect().
    Drain();
    // A batch drained there may have stopped the pipeline (not finished in time, or a sticky
    // error): nothing more is enqueued, on buffers a late kernel may still use.
    STREAMPIPE_RETURN_IF_ERROR(Stopped());
  }

  Slot& slot = slots_[static_cast<std::size_t>(next_slot_)];
  slot.batch = batch;
  slot.plan = plan;
  slot.controller_plan = !measure && !streams;
  slot.index = index;
  // The slot's events alternate between its batches that reached the GPU (not by the batch's
  // index: a batch that failed before took an index, and its successor in this slot then
  // recorded over the start event of the slot's batch before, the clock's last start).
  slot.phase = static_cast<int>(slot.submitted % 2);
  slot.staged_in = !*pinned_in;
  slot.staged_out = !*pinned_out;
  absl::Status st = EnsureStaging(slot, slot.staged_in, slot.staged_out);
  if (!st.ok()) return Fail(st, index);
  // An error left by a call before this batch (the caller's own code between batches) is not a
  // launch's: cleared once here, before any launcher of the batch runs (its check, a graph's
  // capture, the issue), so that each launch check reads its launch's alone.
  (void)cudaGetLastError();
  if (!launcher_checked_) {
    st = ValidateLauncher(slot, ChunkOf(batch.num_items, 1, 0));
    if (!st.ok()) return Fail(st, index);
    launcher_checked_ = true;
  }

  slot.graph = nullptr;
  slot.graph_build_ms = 0.0;
  // As graphs, the measured batch is one too (n = 1, the component events as nodes): measured
  // the way the streamed batches it predicts run. Each op of a batch issued call by call waits
  // for the host to enqueue it, and those gaps would otherwise count as copy and kernel time
  // (run 36: 5-15 us over a graph's n = 1 batch of 45-60 us).
  if (opt_.issue == IssueMode::kGraph && !slot.staged_in && !slot.staged_out) {
    absl::StatusOr<CachedGraph*> g =
        PrepareGraph(slot, non_streamed ? 1 : plan.streams, non_streamed);
    if (!g.ok()) return Fail(g.status(), index);
    slot.graph = *g;
  }

  NvtxRange range(absl::StrCat("streampipe batch ", index, " ", PlanKindName(plan.kind),
                               " n=", plan.streams, slot.graph != nullptr ? " graph" : "",
                               hold ? " held" : ""));
  slot.held = hold;
  if (hold) {
    st = Hold(slot, plan.streams);
    if (!st.ok()) {
      // Open a gate that may be enqueued and let it finish (bounded) before its words are reused.
      if (gate_) {
        OpenGate();
        if (slot.start_event().Record(slot.origin).ok()) {
          WaitAfterFailure(slot.start_event(), index);
        }
      }
      (void)cudaGetLastError();
      return Fail(st, index);
    }
  }
  const auto issue_begin = std::chrono::steady_clock::now();
  st = Issue(slot, plan.streams, non_streamed);
  slot.issue_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                            issue_begin)
                      .count();
  // Open the gate on every path: on failure the part enqueued must be able to finish.
  if (hold) OpenGate();
  ++next_index_;
  if (!st.ok()) {
    // Part of the batch may be enqueued: let it finish (bounded) before the slot is reused.
    for (std::size_t k = 0; k < slot.streams.size() && !stuck_; ++k) {
      // (Once one wait timed out the pipeline is stopped: waiting on the others would take
      // wait_timeout each, for nothing.)
      const TimedEvent& d = slot.done_event(static_cast<int>(k));
      if (d.Record(slot.streams[k]).ok()) WaitAfterFailure(d, index);
    }
    // And the origin: a graph is launched there, and a call-by-call batch's join is enqueued
    // there (before session 49 its work was not waited for).
    if (!stuck_ && slot.start_event().Record(slot.origin).ok()) {
      WaitAfterFailure(slot.start_event(), index);
    }
    (void)cudaGetLastError();
    return Fail(st, index);
  }
  ++slot.submitted;
  slot.busy = true;
  on_gpu_now = true;
  queue_.push_back(next_slot_);
  next_slot_ = (next_slot_ + 1) % opt_.max_in_flight;
  return absl::OkStatus();
}

absl::StatusOr<BatchStats> StreamPipeline::Impl::Collect() {
  if (!drained_.empty()) {  // collected from the GPU already: no CUDA call
    absl::StatusOr<BatchStats> st = std::move(drained_.front());
    drained_.pop_front();
    return st;
  }
  if (queue_.empty()) {
    return absl::FailedPreconditionError("Collect: no batch is in flight");
  }
  DeviceScope device;
  STREAMPIPE_RETURN_IF_ERROR(device.Enter(opt_.device));
  return CollectFromGpu();
}

absl::Status StreamPipeline::Impl::ReadComponentsAndTimeline(const Slot& slot, std::int64_t index,
                                                             int n, bool measured,
                                                             BatchStats& st) const {
  if (measured) {
    float a = 0, b = 0, c = 0;
    STREAMPIPE_ASSIGN_OR_RETURN(a, ElapsedMs(slot.comp[0], slot.comp[1]));
    STREAMPIPE_ASSIGN_OR_RETURN(b, ElapsedMs(slot.comp[1], slot.comp[2]));
    if (KernelInHalves(slot)) {
      // kernel_ms: both halves back to back; kernel_half_ms: the first, launched as the whole
      // kernel of a measured batch is.
      float b2 = 0;
      STREAMPIPE_ASSIGN_OR_RETURN(b2, ElapsedMs(slot.comp[2], slot.comp[3]));
      STREAMPIPE_ASSIGN_OR_RETURN(c, ElapsedMs(slot.comp[3], slot.comp[4]));
      st.components = {a, b + b2, c, b};
    } else {
      STREAMPIPE_ASSIGN_OR_RETURN(c, ElapsedMs(slot.comp[2], slot.comp[3]));
      st.components = {a, b, c};
    }
  }
  if (opt_.record_timeline && !measured) {
    BatchTimeline tl;
    tl.batch = index;
    tl.streams = n;
    tl.order = std::string(IssueOrderName(opt_.order));
    STREAMPIPE_ASSIGN_OR_RETURN(float t_start, ElapsedMs(epoch_, slot.start_event()));
    tl.start_ms = t_start;
    tl.end_ms = t_start + st.elapsed_ms;
    for (int k = 0; k < n; ++k) {
      const int stream = opt_.order == IssueOrder::kEnginePerStream ? -1 : k;
      const TimelineOp ops[] = {TimelineOp::kCopyIn, TimelineOp::kKernel, TimelineOp::kCopyOut};
      for (int i = 0; i < 3; ++i) {
        STREAMPIPE_ASSIGN_OR_RETURN(float t0, ElapsedMs(epoch_, slot.marks[6 * k + 2 * i]));
        STREAMPIPE_ASSIGN_OR_RETURN(float t1, ElapsedMs(epoch_, slot.marks[6 * k + 2 * i + 1]));
        tl.spans.push_back({stream >= 0 ? stream : i, k, ops[i], t0, t1});
      }
    }
    st.timeline = std::move(tl);
  }
  return absl::OkStatus();
}

absl::StatusOr<BatchStats> StreamPipeline::Impl::CollectFromGpu() {
  if (stuck_) {
    const int si = queue_.front();
    queue_.pop_front();
    return absl::FailedPreconditionError(
        absl::StrCat("batch ", slots_[static_cast<std::size_t>(si)].index,
                     " was abandoned: the GPU did not finish an earlier batch in time"));
  }
  const int si = queue_.front();
  queue_.pop_front();
  Slot& slot = slots_[static_cast<std::size_t>(si)];
  slot.busy = false;
  const std::int64_t index = slot.index;
  const int n = slot.plan.streams;
  const bool measured = RunsNonStreamed(slot.plan.kind);
  // A controller's plan whose batch ran but cannot be collected, where the pipeline goes on (an
  // error neither sticky nor a timeout, which stop it), is given back as one that failed before
  // the GPU is: else a measurement's batch would be owed and never observed, and automatic mode
  // would not derive again.
  bool observed = false;
  absl::Cleanup give_back = [&] {
    if (!observed && slot.controller_plan && broken_.ok()) controller_->Abandon(slot.plan);
  };

  if (slot.staged_out) {
    // Pageable output: copy each chunk out of pinned staging as soon as its copy-out finished,
    // while later chunks are still in flight.
    const bool per_chunk = !measured && opt_.order != IssueOrder::kEnginePerStream;
    const int parts = per_chunk ? n : 1;
    for (int k = 0; k < parts; ++k) {
      const cudaEvent_t ev = slot.chunk_done(per_chunk ? k : 0);
      absl::Status w = WaitForEvent(ev, opt_.wait_timeout);
      if (!w.ok()) return Fail(w, index);
      const Chunk c = ChunkOf(slot.batch.num_items, parts, k);
      const std::size_t off = static_cast<std::size_t>(c.first * opt_.out_bytes_per_item);
      copier_->Copy(static_cast<std::byte*>(slot.batch.out) + off, slot.stage_out.data() + off,
                    static_cast<std::size_t>(c.count * opt_.out_bytes_per_item));
    }
  }
  // The batch ends when its last stream is done: wait for each, take the latest.
  slot.end_k = 0;
  float latest = -1.0f;
  if (slot.joined) {
    absl::Status w = slot.end_event().Wait(opt_.wait_timeout);
    if (!w.ok()) return Fail(w, index);
  }
  // Call by call the batch's streams do not wait for its start event (session 49): with
  // batches in flight it can complete after their work, so it is waited for too before it is
  // read (cudaEventElapsedTime of an event not complete fails, and failed the batch).
  if (!slot.joined) {
    absl::Status w = slot.start_event().Wait(opt_.wait_timeout);
    if (!w.ok()) return Fail(w, index);
  }
  for (int k = 0; k < (slot.joined ? 0 : slot.used); ++k) {
    absl::Status w = slot.done_event(k).Wait(opt_.wait_timeout);
    if (!w.ok()) return Fail(w, index);
    absl::StatusOr<float> t = ElapsedMs(slot.start_event(), slot.done_event(k));
    if (!t.ok()) return Fail(t.status(), index);
    if (*t > latest) {
      latest = *t;
      slot.end_k = k;
    }
  }

  BatchStats st;
  st.index = index;
  st.items = slot.batch.num_items;
  st.streams = n;
  st.order = opt_.order;
  st.kind = slot.plan.kind;
  st.predicted_ms = slot.plan.predicted_ms;
  st.staged_in = slot.staged_in;
  st.staged_out = slot.staged_out;
  st.issue_ms = slot.issue_ms;
  st.graph = slot.graph != nullptr;
  st.graph_build_ms = slot.graph_build_ms;
  absl::StatusOr<float> elapsed = ElapsedMs(slot.start_event(), slot.end_event());
  if (!elapsed.ok()) return Fail(elapsed.status(), index);
  // (A start event timed after the batch's work, above, is no negative time.)
  st.elapsed_ms = std::max(0.0f, *elapsed);
  // The time the batch added: from max(its start, the latest end before it) to its end. Batches
  // may finish out of order; the sum of periods is the busy device time either way.
  double start_ms = 0.0;
  bool overlapped = false;
  if (clock_.last_start != nullptr) {
    absl::StatusOr<float> d = ElapsedMs(*clock_.last_start, slot.start_event());
    if (!d.ok()) return Fail(d.status(), index);
    start_ms = clock_.last_start_ms + *d;
    overlapped = start_ms < clock_.frontier_ms;
  }
  const double end_ms = start_ms + st.elapsed_ms;
  st.period_ms = overlapped ? std::max(0.0, end_ms - clock_.frontier_ms) : st.elapsed_ms;
  clock_.frontier_ms = clock_.last_start == nullptr ? end_ms : std::max(clock_.frontier_ms, end_ms);
  clock_.last_start = &slot.start_event();
  clock_.last_start_ms = start_ms;
  // What the controller sees. A batch that ran alone is its own time. Overlapped batches share
  // the GPU: single periods swing (0, then double, with out-of-order completion), and the first
  // batch at a new n pays for the switch while the next ones catch up. So once a run of batches
  // at one n is longer than 2 x max_in_flight, every 2 x max_in_flight-th batch is a sample
  // (settled): the mean period of the last 2 x max_in_flight batches. The windows do not
  // overlap, so the samples are independent and the controller's noise estimate is honest
  // (moving averages would understate it and let noise pass for a faster n).
  const int depth = opt_.max_in_flight;
  const int window = 2 * depth;
  if (measured || !overlapped || clock_.run_streams != n) {
    clock_.run_streams = measured ? 0 : n;
    clock_.run_length = 0;
    clock_.periods.clear();
  }
  ++clock_.run_length;
  clock_.periods.emplace_back(st.period_ms, st.items);
  if (static_cast<int>(clock_.periods.size()) > window) clock_.periods.pop_front();
  double observed_ms = st.period_ms > 0.0 ? st.period_ms : st.elapsed_ms;
  // With adaptive.steady_state the pipeline follows the regime: batches that overlap are
  // measured by their periods (steady state); when the host falls behind, batches find the GPU
  // idle and run alone, and their time is a latency, which the batch model predicts. After
  // 2 x max_in_flight + 2 batches in a row of the other kind the controller switches model and
  // re-derives n (no new measurement).
  const std::size_t events_before = controller_->events().size();
  const bool follow = opt_.adaptive.steady_state;
  bool steady = controller_->options().steady_state;
  // A held batch runs alone by design, as a measured one does: neither says the host fell
  // behind, nor counts toward a regime.
  const bool apart = measured || slot.held;
  if (follow && !apart) {
    clock_.regime_streak = overlapped != steady ? clock_.regime_streak + 1 : 0;
    if (clock_.regime_streak >= 2 * depth + 2) {
      clock_.regime_streak = 0;
      steady = overlapped;
      controller_->SetSteadyState(
          steady, steady ? "batches overlap again: predicting the period of overlapped batches"
                         : "the host fell behind the GPU (batches run alone): predicting the "
                           "latency of one batch");
    }
  }
  if (!apart) {
    clock_.since_host_gap = !overlapped && !clock_.after_measured ? 0 : clock_.since_host_gap + 1;
  }
  clock_.after_measured = apart;
  const bool new_n = clock_.last_streams != n;
  clock_.last_streams = measured ? 0 : n;
  bool settled = true;
  bool first_at_n = false;
  if (!measured && !overlapped) {
    // A batch that found the GPU idle: its time is one batch's latency, not a period. The first
    // one at an n after batches at another runs cold (streams idle since the last visit; as a
    // graph, its first launch in a while): not a sample, and its issue time not one either
    // (run 45: one exploration visit in ten issued 15-31 % slower than the same n in the
    // sweep's rounds, and predictions at n = 128 came out up to 35 % over).
    first_at_n = new_n;
    settled = !steady && !first_at_n;
  } else if (!measured) {
    // A period is a sample once the run at this n is long enough, and, predicting periods, when
    // the host has kept up for a while: periods of a stream the host only just keeps up with
    // swing with the host, and would look like drift of the GPU work.
    settled = clock_.run_length > window && (clock_.run_length - window) % window == 0 &&
              (steady || !follow) && (!steady || clock_.since_host_gap > 8 * depth);
    double sum = 0.0;
    // The window's time per item, at this batch's items: the controller scales a sample by its
    // items, and the mean period of batches of other sizes, said as this one's, was off by
    // their ratio (alternating N and 0.6 N: 20 % low or 33 % high, before session 51). Batches
    // of one size take the mean period, as before.
    std::int64_t items_sum = 0;
    bool one_size = true;
    for (const auto& [period, items] : clock_.periods) {
      sum += period;
      items_sum += items;
      one_size = one_size && items == st.items;
    }
    if (sum > 0.0) {
      observed_ms = one_size || items_sum <= 0
                        ? sum / static_cast<double>(clock_.periods.size())
                        : sum / static_cast<double>(items_sum) * static_cast<double>(st.items);
    }
  }
  st.observed_ms = observed_ms;
  st.settled = settled;
  st.overlapped = overlapped;

  // The components and the timeline: their events completed with the batch, so an error here is
  // the context's (sticky) or a driver's, named with the batch through Fail as the others.
  absl::Status parts = ReadComponentsAndTimeline(slot, index, n, measured, st);
  if (!parts.ok()) return Fail(parts, index);
  BatchObservation obs;
  obs.items = st.items;
  obs.measured_ms = observed_ms;
  obs.settled = settled;
  obs.overlapped = overlapped;
  obs.issue_ms = first_at_n ? 0.0 : st.issue_ms;
  obs.components = st.components;
  obs.h2d_bytes = static_cast<double>(st.items * opt_.in_bytes_per_item);
  obs.d2h_bytes = static_cast<double>(st.items * opt_.out_bytes_per_item);
  // A held batch's time is the device's alone, not what the pipeline delivers: not a sample. A
  // gate that opened itself did not hold the batch until it was issued.
  st.held = slot.held && gate_ && gate_.data()->timed_out == 0;
  // Timings the controller rejects (not finite and positive) leave the plan given back, too.
  observed = slot.held || controller_->Observe(slot.plan, obs).ok();
  const auto& events = controller_->events();
  for (std::size_t i = events_before; i < events.size(); ++i) {
    st.events.push_back(events[i]);
    if (event_log_.is_open()) {
      event_log_ << EventJson(events[i], index) << "\n";
      event_log_.flush();
    }
  }
  return st;
}

void StreamPipeline::Impl::Drain() {
  while (!queue_.empty()) drained_.push_back(CollectFromGpu());
}

void StreamPipeline::Impl::DiscardAll() {
  DeviceScope device;
  (void)device.Enter(opt_.device);  // where it fails, the waits below fail and end the drain
  if (stuck_) {
    queue_.clear();  // waiting again would take wait_timeout per batch, for nothing
  } else {
    Drain();
  }
  drained_.clear();
}

absl::StatusOr<ContinuousSummary> StreamPipeline::Impl::RunContinuous(
    BatchSource& source, BatchSink& sink, const ContinuousOptions& o) {
  DeviceScope device;
  STREAMPIPE_RETURN_IF_ERROR(device.Enter(opt_.device));
  // A stopped pipeline refuses before the source is asked for a batch (before session 50 the
  // first Fill took a batch of the caller's input, then Submit refused it).
  STREAMPIPE_RETURN_IF_ERROR(Stopped());
  if (in_flight() > 0) {
    return absl::FailedPreconditionError(
        "RunContinuous with batches in flight; Collect them first");
  }
  if (o.items_per_batch < 0 || o.max_batches < -1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "ContinuousOptions: items_per_batch is ", o.items_per_batch, " and max_batches ",
        o.max_batches, "; items_per_batch must be >= 0 (0: max_items_per_batch) and max_batches "
        ">= -1 (-1: until the source ends)"));
  }
  const std::int64_t per_batch = o.items_per_batch > 0 ? o.items_per_batch
                                                       : opt_.max_items_per_batch;
  if (per_batch > opt_.max_items_per_batch) {
    return absl::InvalidArgumentError(absl::StrCat("items_per_batch ", per_batch,
                                                   " exceeds max_items_per_batch ",
                                                   opt_.max_items_per_batch));
  }
  if (o.streams && (*o.streams < 1 || *o.streams > opt_.max_streams)) {
    // Checked here, not per batch: a short batch's clamp below would hide it.
    return absl::InvalidArgumentError(absl::StrCat("ContinuousOptions::streams is ", *o.streams,
                                                   "; the pool has 1 to ", opt_.max_streams));
  }
  const int ring = opt_.max_in_flight + 1;
  const std::size_t in_bytes = static_cast<std::size_t>(per_batch * opt_.in_bytes_per_item);
  const std::size_t in_cap = static_cast<std::size_t>(opt_.max_items_per_batch * opt_.in_bytes_per_item);
  const std::size_t out_cap = static_cast<std::size_t>(opt_.max_items_per_batch * opt_.out_bytes_per_item);
  if (!ring_in_ && in_cap > 0) {
    STREAMPIPE_ASSIGN_OR_RETURN(ring_in_, PinnedBuffer<std::byte>::Create(in_cap * ring));
  }
  if (!ring_out_ && out_cap > 0) {
    STREAMPIPE_ASSIGN_OR_RETURN(ring_out_, PinnedBuffer<std::byte>::Create(out_cap * ring));
  }
  ContinuousSummary sum;
  const auto t0 = std::chrono::steady_clock::now();
  std::deque<std::pair<int, std::int64_t>> pending;  // (ring index, items) in submission order
  std::int64_t submitted = 0;
  std::int64_t next_ring = 0;
  bool eof = false;
  double error_sum = 0.0;
  std::int64_t error_n = 0;
  absl::Status failure;
  bool source_failed = false;  // batches already in flight are good: deliver them
  // Submit refused because a batch in flight stopped the pipeline (drained early for a
  // re-measurement, or its sticky error met by the next batch's first call): that batch's own
  // error, met as the batches in flight are delivered, is the one returned, with the good
  // batches before it delivered (before session 51 the refusal was returned, FailedPrecondition
  // without the error's payloads, and the batch's own error was dropped).
  bool stopped_in_flight = false;
  auto deliver = [&]() -> absl::Status {
    absl::StatusOr<BatchStats> st = Collect();
    const auto [r, items] = pending.front();
    pending.pop_front();
    if (!st.ok()) return st.status();
    ++sum.batches;
    sum.items += st->items;
    sum.device_ms += st->period_ms;
    if (RunsNonStreamed(st->kind)) ++sum.measured_batches;
    if (st->kind == PlanKind::kExplore) ++sum.explored_batches;
    if (st->kind == PlanKind::kStreamed && st->predicted_ms > 0.0) {
      error_sum += std::abs(st->period_ms / st->predicted_ms - 1.0);
      ++error_n;
    }
    if (sum.streams_changes.empty() || sum.streams_changes.back().second != st->streams) {
      sum.streams_changes.emplace_back(st->index, st->streams);
    }
    sum.events.insert(sum.events.end(), st->events.begin(), st->events.end());
    const std::span<const std::byte> out(
        ring_out_ ? ring_out_.data() + static_cast<std::size_t>(r) * out_cap : nullptr,
        static_cast<std::size_t>(items * opt_.out_bytes_per_item));
    return AnnotateStatus(Guarded([&] { return sink.Consume(out, *st); }),
                          absl::StrCat("sink, batch ", st->index));
  };
  while (failure.ok()) {
    // Keep the GPU fed: fill and submit while there is room (host preparation of the next
    // batch overlaps the GPU work of the batches in flight).
    // Count every batch not yet delivered (on the GPU, or drained early by a re-measurement
    // and waiting for Collect): its host ring buffer is still in use.
    while (!eof && in_flight() < opt_.max_in_flight &&
           (o.max_batches < 0 || submitted < o.max_batches)) {
      const int r = static_cast<int>(next_ring % ring);
      std::span<std::byte> in(
          ring_in_ ? ring_in_.data() + static_cast<std::size_t>(r) * in_cap : nullptr, in_bytes);
      // The pipeline's own batch number, as the sink's and the GPU's errors give it (this
      // run's count before session 50: "batch 0" of a second run was the pipeline's batch 57).
      const auto where = [&] { return absl::StrCat("source, batch ", next_index_); };
      absl::StatusOr<std::int64_t> items =
          Guarded([&] { return source.Fill(in, per_batch); });
      if (!items.ok()) {
        failure = AnnotateStatus(items.status(), where());
        source_failed = true;
        break;
      }
      if (*items == 0) {
        eof = true;
        break;
      }
      if (*items < 0) {  // 0 ends the stream; a negative count is no count: the source's error
        failure = absl::InvalidArgumentError(
            absl::StrCat(where(), ": the source returned ", *items, " items (0 ends the stream)"));
        source_failed = true;  // the batches in flight are good: delivered
        break;
      }
      if (*items > per_batch) {
        // As a negative count: the source's error, so the batches in flight (their input
        // filled and submitted before) are delivered; before session 51 they were dropped.
        failure = absl::InvalidArgumentError(absl::StrCat(
            where(), ": the source returned ", *items, " items for a buffer of ", per_batch));
        source_failed = true;
        break;
      }
      const HostBatch b{ring_in_ ? ring_in_.data() + static_cast<std::size_t>(r) * in_cap : nullptr,
                        ring_out_ ? ring_out_.data() + static_cast<std::size_t>(r) * out_cap
                                  : nullptr,
                        *items};
      // A fixed n runs every batch the source fills, a short one (the end of a stream, a
      // segment) at no more streams than it has items.
      std::optional<int> n = o.streams;
      if (n && *n > *items) n = static_cast<int>(*items);
      absl::Status s = Submit(b, n, std::nullopt);
      if (!s.ok()) {
        failure = s;
        stopped_in_flight = !broken_.ok() && !pending.empty();
        break;
      }
      pending.emplace_back(r, *items);
      ++submitted;
      ++next_ring;
    }
    if (!failure.ok() || pending.empty()) break;
    absl::Status s = deliver();
    if (!s.ok()) failure = s;
  }
  // Collect what is still in flight (bounded waits). After a failure of the source the
  // batches in flight are good and are delivered; after any other failure they are dropped.
  bool deliver_rest = failure.ok() || source_failed || stopped_in_flight;
  while (!pending.empty()) {
    if (deliver_rest) {
      absl::Status s = deliver();
      if (!s.ok() && stopped_in_flight) {
        failure = s;  // the batch that stopped the pipeline: its own error, payloads and all
        deliver_rest = false;
      } else if (!s.ok()) {
        // The first error is the one returned (its code), the later one said after it: a
        // source error was replaced by a failed delivery of a batch in flight, before
        // session 50.
        // The payloads of both stay (a sticky CUDA error in the delivery is still one).
        if (failure.ok()) {
          failure = s;
        } else {
          absl::Status both = WithMessage(
              failure,
              absl::StrCat(failure.message(), "; then, delivering a batch in flight: ",
                           s.message()));
          AddPayloads(s, &both);
          failure = std::move(both);
        }
        deliver_rest = false;
      }
    } else {
      (void)Collect();
      pending.pop_front();
    }
  }
  sum.wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  sum.mean_abs_prediction_error = error_n > 0 ? error_sum / error_n : 0.0;
  if (!failure.ok()) return failure;
  return sum;
}

// ---- public ----

StreamPipeline::StreamPipeline(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
StreamPipeline::StreamPipeline(StreamPipeline&&) noexcept = default;
StreamPipeline& StreamPipeline::operator=(StreamPipeline&& other) noexcept {
  // As the destructor: the batches in flight of the pipeline replaced are drained first (their
  // staged output copied back), not freed under the GPU.
  if (this != &other) {
    Release();
    impl_ = std::move(other.impl_);
  }
  return *this;
}
StreamPipeline::~StreamPipeline() { Release(); }

void StreamPipeline::Release() noexcept {
  if (!impl_) return;
  // On the pipeline's device, whatever the caller's is: the drain's waits, then the streams,
  // events and buffers freed.
  DeviceScope device;
  (void)device.Enter(impl_->options().device);
  impl_->DiscardAll();
  impl_.reset();
}

absl::StatusOr<StreamPipeline> StreamPipeline::Create(PipelineOptions options) {
  auto impl = std::make_unique<Impl>(std::move(options));
  absl::Status s = impl->Init();
  if (!s.ok()) {
    // What Init allocated is freed on the pipeline's device, as Release frees (where the device
    // itself is what failed, there is nothing of it to free).
    DeviceScope device;
    (void)device.Enter(impl->options().device);
    impl.reset();
    return AnnotateStatus(s, "creating the pipeline");
  }
  return StreamPipeline(std::move(impl));
}

namespace {
// A moved-from pipeline holds nothing: its calls say so rather than dereference null (a
// caller's mistake must not crash the process).
absl::Status MovedFrom() {
  return absl::FailedPreconditionError(
      "this StreamPipeline was moved from and holds no pipeline; use the one it was moved to");
}

absl::Status NothingInFlight(int in_flight) {
  if (in_flight == 0) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat(
      "Run with ", in_flight, " submitted batches not collected; Collect them first"));
}
}  // namespace

absl::StatusOr<BatchStats> StreamPipeline::Run(const HostBatch& batch) {
  if (!impl_) return MovedFrom();
  STREAMPIPE_RETURN_IF_ERROR(NothingInFlight(impl_->in_flight()));
  std::vector<RederivationEvent> events;  // of the passes not returned
  for (;;) {
    STREAMPIPE_RETURN_IF_ERROR(impl_->Submit(batch, std::nullopt, std::nullopt));
    STREAMPIPE_ASSIGN_OR_RETURN(BatchStats st, impl_->Collect());
    // Warm-up passes and the measurement's kernel halves compute the batch too, but their
    // timing is not the batch's: go on to the measurement (or the streamed batch).
    if (st.kind != PlanKind::kWarmup && st.kind != PlanKind::kMeasureHalves) {
      st.events.insert(st.events.begin(), events.begin(), events.end());
      return st;
    }
    events.insert(events.end(), st.events.begin(), st.events.end());
  }
}

absl::StatusOr<BatchStats> StreamPipeline::Run(const HostBatch& batch, int streams) {
  if (!impl_) return MovedFrom();
  STREAMPIPE_RETURN_IF_ERROR(NothingInFlight(impl_->in_flight()));
  STREAMPIPE_RETURN_IF_ERROR(impl_->Submit(batch, streams, std::nullopt));
  return impl_->Collect();
}

absl::StatusOr<BatchStats> StreamPipeline::RunHeld(const HostBatch& batch, int streams) {
  if (!impl_) return MovedFrom();
  STREAMPIPE_RETURN_IF_ERROR(NothingInFlight(impl_->in_flight()));
  STREAMPIPE_RETURN_IF_ERROR(impl_->Submit(batch, streams, std::nullopt, /*hold=*/true));
  return impl_->Collect();
}

absl::StatusOr<BatchStats> StreamPipeline::MeasureComponents(const HostBatch& batch) {
  if (!impl_) return MovedFrom();
  STREAMPIPE_RETURN_IF_ERROR(NothingInFlight(impl_->in_flight()));
  STREAMPIPE_RETURN_IF_ERROR(impl_->Submit(batch, 1, PlanKind::kMeasure));
  return impl_->Collect();
}

absl::StatusOr<BatchStats> StreamPipeline::MeasureKernelHalves(const HostBatch& batch) {
  if (!impl_) return MovedFrom();
  STREAMPIPE_RETURN_IF_ERROR(NothingInFlight(impl_->in_flight()));
  STREAMPIPE_RETURN_IF_ERROR(impl_->Submit(batch, 1, PlanKind::kMeasureHalves));
  return impl_->Collect();
}

absl::Status StreamPipeline::Submit(const HostBatch& batch, std::optional<int> streams) {
  if (!impl_) return MovedFrom();
  return impl_->Submit(batch, streams, std::nullopt);
}
absl::StatusOr<BatchStats> StreamPipeline::Collect() {
  if (!impl_) return MovedFrom();
  return impl_->Collect();
}
absl::StatusOr<ContinuousSummary> StreamPipeline::RunContinuous(BatchSource& source,
                                                                BatchSink& sink,
                                                                const ContinuousOptions& o) {
  if (!impl_) return MovedFrom();
  return impl_->RunContinuous(source, sink, o);
}
int StreamPipeline::in_flight() const { return impl_ ? impl_->in_flight() : 0; }
int StreamPipeline::chosen_streams() const { return impl_ ? impl_->chosen_streams() : 0; }
void StreamPipeline::RequestRemeasure(std::string reason) {
  if (impl_) impl_->RequestRemeasure(std::move(reason));
}
// A moved-from pipeline's: defaults, and a controller without a model (its Observe says so).
const DeviceTraits& StreamPipeline::traits() const {
  static const DeviceTraits kNone;
  return impl_ ? impl_->traits() : kNone;
}
const StreamController& StreamPipeline::controller() const {
  static const StreamController kNone(nullptr, DeviceTraits{}, AdaptiveOptions{});
  return impl_ ? impl_->controller() : kNone;
}
const PipelineOptions& StreamPipeline::options() const {
  static const PipelineOptions kNone;
  return impl_ ? impl_->options() : kNone;
}

}  // namespace streampipe
