#include "streampipe/cuda/calibrate.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <functional>
#include <utility>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "device_scope.hpp"
#include "gate.hpp"
#include "streampipe/core/in_situ_fit.hpp"
#include "streampipe/core/least_squares.hpp"
#include "streampipe/core/model.hpp"
#include "streampipe/core/statistics.hpp"
#include "streampipe/core/werkhoven.hpp"
#include "streampipe/cuda/buffer.hpp"
#include "streampipe/cuda/error.hpp"
#include "streampipe/cuda/event.hpp"
#include "streampipe/cuda/pipeline.hpp"
#include "streampipe/cuda/stream.hpp"
#include "streampipe/cuda/workloads.hpp"
#include "streampipe/status_macros.hpp"

namespace streampipe {
namespace {

constexpr std::chrono::milliseconds kTimeout{30000};
// A held tiny-sub-chunk time may be off the line through the others by this much (their
// slope, a few us per sub-chunk, is what c0 comes from).
constexpr double kHeldTolerance = 0.10;

struct Bench {
  Stream s1, s2;
  TimedEvent a, b, c;
  PinnedBuffer<detail::GateWords> gate;  // held measurements (TimeSamples)
};

// Waits (bounded) until the bench's streams have finished their work. Not a
// cudaDeviceSynchronize: that waits without bound for every stream of the device, another
// thread's too, and breaks a stream capture another thread has in progress.
absl::Status Quiesce(Bench& b) {
  STREAMPIPE_RETURN_IF_ERROR(b.b.Record(b.s1));
  STREAMPIPE_RETURN_IF_ERROR(b.c.Record(b.s2));
  STREAMPIPE_RETURN_IF_ERROR(b.b.Wait(kTimeout));
  return b.c.Wait(kTimeout);
}

// Times `body` (which enqueues on the given streams) `reps` times after `warmup` runs, from an
// event before to an event after; appends the times in ms to `out`, and the host's time in
// body() (the issue time: enqueueing, not running) to `issue` if given. `held`: b.s1 waits
// behind a gate (lib/cuda/gate.hpp) until body() has returned, so the time is the device's
// alone; body() must make every other stream it uses wait for b.s1 first. Unavailable when the
// gate opened itself (the host took over kGateTimeoutNs to enqueue).
absl::Status TimeSamples(Bench& b, int warmup, int reps, const std::function<absl::Status()>& body,
                         std::vector<double>* out, std::vector<double>* issue = nullptr,
                         bool held = false) {
  for (int r = 0; r < warmup + reps; ++r) {
    if (held) {
      *b.gate.data() = detail::GateWords{};
      STREAMPIPE_CUDA_RETURN_IF_ERROR(
          detail::LaunchGate(b.gate.data(), detail::kGateTimeoutNs, b.s1.get()));
    }
    if (const absl::Status recorded = b.a.Record(b.s1); !recorded.ok()) {
      if (held) detail::OpenGate(b.gate.data());
      return recorded;
    }
    const auto start = std::chrono::steady_clock::now();
    const absl::Status enqueued = body();
    const std::chrono::duration<double, std::milli> host = std::chrono::steady_clock::now() - start;
    if (held) detail::OpenGate(b.gate.data());
    STREAMPIPE_RETURN_IF_ERROR(enqueued);
    STREAMPIPE_RETURN_IF_ERROR(b.b.Record(b.s1));
    STREAMPIPE_RETURN_IF_ERROR(b.b.Wait(kTimeout));
    if (held && b.gate.data()->timed_out != 0) {
      return absl::UnavailableError(absl::StrCat(
          "a held calibration batch: the gate opened itself after ",
          detail::kGateTimeoutNs / 1000000, " ms, before the host had enqueued the batch (",
          host.count(), " ms)"));
    }
    STREAMPIPE_ASSIGN_OR_RETURN(float ms, ElapsedMs(b.a, b.b));
    if (r >= warmup) {
      out->push_back(ms);
      if (issue != nullptr) issue->push_back(host.count());
    }
  }
  return absl::OkStatus();
}

// The median of `reps` times after `warmup` runs.
absl::StatusOr<double> TimeIt(Bench& b, int warmup, int reps,
                              const std::function<absl::Status()>& body) {
  std::vector<double> t;
  STREAMPIPE_RETURN_IF_ERROR(TimeSamples(b, warmup, reps, body, &t));
  return Median(t);
}

// Each i's median time and median issue time (the host's time enqueueing it).
struct RoundMedians {
  std::vector<double> ms;
  std::vector<double> issue_ms;
};

// Times body(i) for each i in [0, count) in three rounds (ascending, descending, ascending), a
// third of `reps` each (at least 3) after `warmup` runs in the first round and one in the others,
// and returns each i's medians: a burst of other traffic shorter than a round moves a third of
// one i's times, not its median (run 61: n = 4 of the add-scalar sweep 42 % slow in one go).
absl::StatusOr<RoundMedians> MediansInRounds(
    Bench& b, int warmup, int reps, int count,
    const std::function<std::function<absl::Status()>(int)>& body, bool held = false) {
  constexpr int kRounds = 3;
  const int per_round = std::max(3, (reps + kRounds - 1) / kRounds);
  std::vector<std::vector<double>> times(static_cast<std::size_t>(count));
  std::vector<std::vector<double>> issue(static_cast<std::size_t>(count));
  for (int r = 0; r < kRounds; ++r) {
    for (int k = 0; k < count; ++k) {
      const std::size_t i = static_cast<std::size_t>(r % 2 == 0 ? k : count - 1 - k);
      STREAMPIPE_RETURN_IF_ERROR(TimeSamples(b, r == 0 ? warmup : 1, per_round,
                                             body(static_cast<int>(i)), &times[i], &issue[i],
                                             held));
    }
  }
  RoundMedians out;
  for (std::size_t i = 0; i < times.size(); ++i) {
    out.ms.push_back(Median(times[i]));
    out.issue_ms.push_back(Median(issue[i]));
  }
  return out;
}

std::string UtcNow() {
  const std::time_t now = std::time(nullptr);
  char buf[32];
  std::tm tm{};
  gmtime_r(&now, &tm);
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

std::vector<double> DefaultInlineLadderBytes() {
  std::vector<double> bytes;
  for (double kib : {4, 8, 12, 16, 20, 22, 24, 26, 28, 32, 40, 48, 56, 64}) {
    bytes.push_back(kib * 1024);
  }
  return bytes;
}

absl::StatusOr<InlineCopyFit> FitInlineLadder(const std::vector<IssueSample>& ladder) {
  std::vector<double> bytes, per_copy;
  for (const IssueSample& s : ladder) {
    bytes.push_back(s.bytes);
    per_copy.push_back(s.issue_ms);
  }
  return FitInlineCopies(bytes, per_copy);
}

absl::StatusOr<std::vector<IssueSample>> MeasureInlineLadder(const DeviceTraits& traits,
                                                             const InlineLadderOptions& o) {
  if (o.streams < 1 || o.ladder_bytes.empty() || o.repetitions < 1 || o.warmup < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "inline ladder: streams (", o.streams, ") and repetitions (", o.repetitions,
        ") must be >= 1, warmup (", o.warmup, ") >= 0, and the ladder must have a size"));
  }
  constexpr double kMaxBytes = 64.0 * (1 << 20);
  for (double bytes : o.ladder_bytes) {
    if (!(bytes >= sizeof(float) && bytes <= kMaxBytes) || std::fmod(bytes, sizeof(float)) != 0.0) {
      return absl::InvalidArgumentError(
          absl::StrCat("inline ladder: a size of ", bytes,
                       " bytes; each must be a multiple of 4 bytes in [4, 64 MiB]"));
    }
  }
  constexpr int kRounds = 3;
  const int per_round = std::max(3, (o.repetitions + kRounds - 1) / kRounds);
  const auto items_of = [&](double bytes) {
    return static_cast<std::int64_t>(bytes / sizeof(float)) * o.streams;
  };
  const std::int64_t max_items = items_of(*absl::c_max_element(o.ladder_bytes));
  PipelineOptions po;
  po.in_bytes_per_item = po.out_bytes_per_item = sizeof(float);
  po.max_items_per_batch = max_items;
  po.launch = AddScalarLauncher(1);
  po.device = o.device;
  po.max_streams = o.streams;
  po.issue = o.issue;
  po.traits = traits;
  STREAMPIPE_ASSIGN_OR_RETURN(StreamPipeline pipe, StreamPipeline::Create(std::move(po)));
  STREAMPIPE_ASSIGN_OR_RETURN(auto in, PinnedBuffer<float>::Create(max_items));
  STREAMPIPE_ASSIGN_OR_RETURN(auto out, PinnedBuffer<float>::Create(max_items));
  for (std::int64_t i = 0; i < max_items; ++i) in.data()[i] = static_cast<float>(i % 1000);
  const std::size_t count = o.ladder_bytes.size();
  std::vector<std::vector<double>> issue(count);
  for (int r = 0; r < kRounds; ++r) {
    for (std::size_t k = 0; k < count; ++k) {
      const std::size_t i = r % 2 == 0 ? k : count - 1 - k;
      HostBatch batch;
      batch.in = in.data();
      batch.out = out.data();
      batch.num_items = items_of(o.ladder_bytes[i]);
      const int first = r == 0 ? std::max(1, o.warmup) : 1;
      for (int j = 0; j < first + per_round; ++j) {
        STREAMPIPE_ASSIGN_OR_RETURN(BatchStats st, pipe.Run(batch, o.streams));
        if (j >= first) issue[i].push_back(st.issue_ms / o.streams);
      }
    }
  }
  std::vector<IssueSample> ladder;
  for (std::size_t i = 0; i < count; ++i) ladder.push_back({o.ladder_bytes[i], Median(issue[i])});
  return ladder;
}

absl::StatusOr<Calibration> Calibrate(const CalibrationOptions& o) {
  if (o.repetitions < 1 || o.repetitions > 100000) {
    // No repetition: medians of nothing (NaN) in every parameter.
    return absl::InvalidArgumentError(
        absl::StrCat("calibration repetitions is ", o.repetitions, "; it must be in [1, 100000]"));
  }
  Calibration cal;
  STREAMPIPE_ASSIGN_OR_RETURN(cal.device, ReadDevice(o.device));
  // The caller's device again after it (it stayed switched to o.device before session 48),
  // once the bench's streams and buffers below are freed.
  detail::DeviceScope device;
  STREAMPIPE_RETURN_IF_ERROR(device.Enter(o.device));
  const int reps = o.quick ? std::min(o.repetitions, 7) : o.repetitions;
  const int warm = 3;
  const std::size_t max_bytes =
      std::max<std::size_t>(std::size_t{4} << 20,
                            o.quick ? std::min(o.max_bytes, std::size_t{64} << 20) : o.max_bytes);

  Bench b;
  STREAMPIPE_ASSIGN_OR_RETURN(b.s1, Stream::Create());
  STREAMPIPE_ASSIGN_OR_RETURN(b.s2, Stream::Create());
  STREAMPIPE_ASSIGN_OR_RETURN(b.a, TimedEvent::Create());
  STREAMPIPE_ASSIGN_OR_RETURN(b.b, TimedEvent::Create());
  STREAMPIPE_ASSIGN_OR_RETURN(b.c, TimedEvent::Create());
  STREAMPIPE_ASSIGN_OR_RETURN(b.gate, PinnedBuffer<detail::GateWords>::Create(1));
  STREAMPIPE_ASSIGN_OR_RETURN(auto h1, PinnedBuffer<std::byte>::Create(max_bytes));
  STREAMPIPE_ASSIGN_OR_RETURN(auto h2, PinnedBuffer<std::byte>::Create(max_bytes));
  STREAMPIPE_ASSIGN_OR_RETURN(auto d1, DeviceBuffer<std::byte>::Create(max_bytes));
  STREAMPIPE_ASSIGN_OR_RETURN(auto d2, DeviceBuffer<std::byte>::Create(max_bytes));
  for (std::size_t i = 0; i < max_bytes; i += 4096) h1.data()[i] = std::byte(i & 0xff);
  // Defined contents everywhere (compute-sanitizer initcheck; and copies of uninitialized memory
  // measure nothing useful), finished before the first copy: b.s1 and b.s2 do not wait for the
  // legacy default stream, where cudaMemset ran before session 50 (without blocking the host).
  STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d1.data(), 0, max_bytes, b.s1.get()));
  STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d2.data(), 0, max_bytes, b.s1.get()));
  STREAMPIPE_RETURN_IF_ERROR(Quiesce(b));  // bounded

  auto copy = [&](void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                  cudaStream_t s) -> absl::Status {
    STREAMPIPE_CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(dst, src, bytes, kind, s));
    return absl::OkStatus();
  };
  // One copy of `bytes` in (out) on b.s1, and its median time.
  auto copy_in = [&](std::size_t bytes) -> std::function<absl::Status()> {
    return [&, bytes] {
      return copy(d1.data(), h1.data(), bytes, cudaMemcpyHostToDevice, b.s1.get());
    };
  };
  auto copy_out = [&](std::size_t bytes) -> std::function<absl::Status()> {
    return [&, bytes] {
      return copy(h2.data(), d1.data(), bytes, cudaMemcpyDeviceToHost, b.s1.get());
    };
  };
  auto h2d = [&](std::size_t bytes) { return TimeIt(b, warm, reps, copy_in(bytes)); };
  auto d2h = [&](std::size_t bytes) { return TimeIt(b, warm, reps, copy_out(bytes)); };

  DeviceTraits& t = cal.profile.traits;
  t = cal.device.traits;
  // L+o: a 1-byte copy (section V-A).
  STREAMPIPE_ASSIGN_OR_RETURN(t.h2d.latency_ms, h2d(1));
  STREAMPIPE_ASSIGN_OR_RETURN(t.d2h.latency_ms, d2h(1));
  cal.copies.push_back({1.0, t.h2d.latency_ms, t.d2h.latency_ms});

  // G: copies of 4 MiB and up, G = (sum t - n(L+o)) / sum k (section V-A).
  std::vector<double> ks, th, td;
  for (std::size_t bytes = std::size_t{1} << 20; bytes <= max_bytes; bytes *= o.quick ? 4 : 2) {
    STREAMPIPE_ASSIGN_OR_RETURN(double a, h2d(bytes));
    STREAMPIPE_ASSIGN_OR_RETURN(double c, d2h(bytes));
    cal.copies.push_back({static_cast<double>(bytes), a, c});
    if (bytes >= (std::size_t{4} << 20)) {
      ks.push_back(static_cast<double>(bytes));
      th.push_back(a);
      td.push_back(c);
    }
  }
  STREAMPIPE_ASSIGN_OR_RETURN(t.h2d.ms_per_byte, EstimateMsPerByte(ks, th, t.h2d.latency_ms));
  STREAMPIPE_ASSIGN_OR_RETURN(t.d2h.ms_per_byte, EstimateMsPerByte(ks, td, t.d2h.latency_ms));

  // G with both directions at once: one copy each way on two streams, timed separately.
  {
    std::vector<double> vh, vd;
    for (int r = 0; r < warm + reps; ++r) {
      STREAMPIPE_RETURN_IF_ERROR(b.a.Record(b.s1));
      STREAMPIPE_RETURN_IF_ERROR(b.a.MakeStreamWait(b.s2));
      STREAMPIPE_RETURN_IF_ERROR(
          copy(d1.data(), h1.data(), max_bytes, cudaMemcpyHostToDevice, b.s1.get()));
      STREAMPIPE_RETURN_IF_ERROR(
          copy(h2.data(), d2.data(), max_bytes, cudaMemcpyDeviceToHost, b.s2.get()));
      STREAMPIPE_RETURN_IF_ERROR(b.b.Record(b.s1));
      STREAMPIPE_RETURN_IF_ERROR(b.c.Record(b.s2));
      STREAMPIPE_RETURN_IF_ERROR(b.b.Wait(kTimeout));
      STREAMPIPE_RETURN_IF_ERROR(b.c.Wait(kTimeout));
      STREAMPIPE_ASSIGN_OR_RETURN(float x, ElapsedMs(b.a, b.b));
      STREAMPIPE_ASSIGN_OR_RETURN(float y, ElapsedMs(b.a, b.c));
      if (r >= warm) {
        vh.push_back(x);
        vd.push_back(y);
      }
    }
    cal.duplex_h2d_ms = Median(vh);
    cal.duplex_d2h_ms = Median(vd);
    const double mb = static_cast<double>(max_bytes);
    t.h2d.duplex_ms_per_byte = std::max(0.0, cal.duplex_h2d_ms - t.h2d.latency_ms) / mb;
    t.d2h.duplex_ms_per_byte = std::max(0.0, cal.duplex_d2h_ms - t.d2h.latency_ms) / mb;
    cal.profile.duplex_gbps =
        2.0 * mb / std::max(cal.duplex_h2d_ms, cal.duplex_d2h_ms) / 1e6;
  }

  // g: the same total (k_max MiB) sent as k = 1, 2, 4, ..., k_max back-to-back copies in one
  // stream; by section V, t(k) = L+o + B*G + g*(k-1): g is the least-squares slope on k - 1
  // (more robust than the difference of two ~1 ms times). g is a few per cent of t(k_max), so a
  // burst during one k moved it several-fold (run 62: 8 and 10 us against 2.5): the k are
  // timed in rounds, and the fit leaves out up to two k that a line through the others misses by
  // more than kGapTolerance.
  {
    constexpr double kGapTolerance = 0.05;
    const int kmax = static_cast<int>(std::min<std::size_t>(o.quick ? 32 : 64, max_bytes >> 20));
    cal.gap_copies = kmax;
    const std::size_t total = static_cast<std::size_t>(kmax) << 20;
    std::vector<int> counts;
    for (int k = 1; k <= kmax; k *= 2) counts.push_back(k);
    for (const bool in : {true, false}) {
      const cudaMemcpyKind kind = in ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
      void* dst = in ? static_cast<void*>(d1.data()) : static_cast<void*>(h2.data());
      const void* src = in ? static_cast<const void*>(h1.data()) : d1.data();
      STREAMPIPE_ASSIGN_OR_RETURN(
          RoundMedians gap_times,
          MediansInRounds(b, warm, reps, static_cast<int>(counts.size()), [&](int i) {
            const int k = counts[static_cast<std::size_t>(i)];
            return std::function<absl::Status()>([&, k]() -> absl::Status {
              const std::size_t chunk = total / static_cast<std::size_t>(k);
              for (int j = 0; j < k; ++j) {
                STREAMPIPE_RETURN_IF_ERROR(copy(static_cast<std::byte*>(dst) + j * chunk,
                                                static_cast<const std::byte*>(src) + j * chunk,
                                                chunk, kind, b.s1.get()));
              }
              return absl::OkStatus();
            });
          }));
      const std::vector<double>& y = gap_times.ms;
      std::vector<double> a;
      for (int k : counts) a.insert(a.end(), {1.0, k - 1.0});
      STREAMPIPE_ASSIGN_OR_RETURN(RobustFit fit,
                                  FitLeastSquaresLeavingOut(a, 2, y, y, kGapTolerance, 2, 4));
      (in ? t.h2d : t.d2h).gap_ms = std::max(0.0, fit.fit.coefficients[1]);
    }
  }

  // A tiny sub-chunk per stream: 4 KiB in, empty kernel, 4 KiB out on n streams; the slope
  // of time against n.
  std::vector<Stream> pool;
  for (int i = 0; i < 64; ++i) {
    STREAMPIPE_ASSIGN_OR_RETURN(Stream s, Stream::Create());
    pool.push_back(std::move(s));
  }
  std::vector<Event> joins;
  for (int i = 0; i < 64; ++i) {
    STREAMPIPE_ASSIGN_OR_RETURN(Event e, Event::Create());
    joins.push_back(std::move(e));
  }
  // A batch of `per_stream` on n streams of the pool, joined back into b.s1.
  using PerStream = std::function<absl::Status(int, cudaStream_t)>;
  auto fan_out = [&](int n, PerStream per_stream) -> std::function<absl::Status()> {
    return [&, n, per_stream = std::move(per_stream)]() -> absl::Status {
      for (int i = 0; i < n; ++i) {
        STREAMPIPE_RETURN_IF_ERROR(per_stream(i, pool[static_cast<std::size_t>(i)].get()));
        STREAMPIPE_RETURN_IF_ERROR(joins[static_cast<std::size_t>(i)].Record(pool[i]));
        STREAMPIPE_RETURN_IF_ERROR(joins[static_cast<std::size_t>(i)].MakeStreamWait(b.s1));
      }
      return absl::OkStatus();
    };
  };
  auto fan = [&](int n, PerStream per_stream) {
    return TimeIt(b, warm, reps, fan_out(n, std::move(per_stream)));
  };

  // The inline path of small copies in, as bare copies: the host's time issuing one copy in on
  // each of 32 streams (as a batch's sub-chunks start), for each size of a ladder across the
  // H100 driver's limit (24 KiB in runs 103-113), timed in rounds (MediansInRounds: the issue
  // times' medians). On one stream the step hardly shows (run 110: 2.17 us a copy at every
  // size); one copy per stream shows it (+1-3.6 us), at a rate that moves with the lease and
  // differs from the pipeline's sub-chunks' (1.5-2.5x the sweeps' in runs 110-113, 0.9-1.6x the
  // pipeline ladders' in runs 114-116): printed for comparison only (Calibration::bare_inline_*);
  // the pipeline's own ladders, below, are what the profile takes.
  const std::vector<double> ladder_bytes = DefaultInlineLadderBytes();
  if (o.measure_inline_copies) {
    constexpr int kCopies = 32;
    STREAMPIPE_ASSIGN_OR_RETURN(
        RoundMedians ladder,
        MediansInRounds(b, warm, reps, static_cast<int>(ladder_bytes.size()), [&](int i) {
          const std::size_t size =
              static_cast<std::size_t>(ladder_bytes[static_cast<std::size_t>(i)]);
          return fan_out(kCopies, [&, size](int k, cudaStream_t s) -> absl::Status {
            const std::size_t off = static_cast<std::size_t>(k) * size;
            return copy(d1.data() + off, h1.data() + off, size, cudaMemcpyHostToDevice, s);
          });
        }));
    for (std::size_t i = 0; i < ladder_bytes.size(); ++i) {
      cal.bare_inline_ladder.push_back({ladder_bytes[i], ladder.issue_ms[i] / kCopies});
    }
    STREAMPIPE_ASSIGN_OR_RETURN(cal.bare_inline_fit, FitInlineLadder(cal.bare_inline_ladder));
  }

  const PerStream tiny_sub_chunk = [&](int i, cudaStream_t s) -> absl::Status {
    const std::size_t off = static_cast<std::size_t>(i) * 4096;
    STREAMPIPE_RETURN_IF_ERROR(
        copy(d1.data() + off, h1.data() + off, 4096, cudaMemcpyHostToDevice, s));
    STREAMPIPE_CUDA_RETURN_IF_ERROR(LaunchEmptyKernel(s));
    return copy(h2.data() + off, d1.data() + off, 4096, cudaMemcpyDeviceToHost, s);
  };
  auto tiny = [&](int n) { return fan_out(n, tiny_sub_chunk); };
  {
    std::vector<double> x, y;
    for (int n : {1, 2, 4, 8, 16, 32}) {
      STREAMPIPE_ASSIGN_OR_RETURN(double ms, fan(n, tiny_sub_chunk));
      x.push_back(n);
      y.push_back(ms);
    }
    double mx = 0, my = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      mx += x[i];
      my += y[i];
    }
    mx /= static_cast<double>(x.size());
    my /= static_cast<double>(y.size());
    double sxy = 0, sxx = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      sxy += (x[i] - mx) * (y[i] - my);
      sxx += (x[i] - mx) * (x[i] - mx);
    }
    t.sub_chunk_cost_ms = std::max(0.0, sxy / sxx);
  }

  // c0: the same tiny sub-chunks held (every stream forked from b.s1 behind the gate), so that
  // the host's issue time, which sets the time above, is hidden and the slope is the device's
  // cost per sub-chunk: on the copy-in path g + c0, the other direction's 4 KiB copies leaving
  // its link idle (docs/models.md, "The current-GPU model"). n in rounds; a robust line, as
  // for g. A gate that opened itself (a host stalled for a second) leaves c0 unmeasured.
  if (!o.measure_idle_overhead) {
    cal.idle_overhead_error = "not asked for";
  } else {
    constexpr int kNs[] = {1, 2, 4, 8, 16, 32, 64};
    STREAMPIPE_ASSIGN_OR_RETURN(Event fork, Event::Create());
    absl::StatusOr<RoundMedians> held = MediansInRounds(
        b, warm, reps, static_cast<int>(std::size(kNs)),
        [&](int i) -> std::function<absl::Status()> {
          const int n = kNs[static_cast<std::size_t>(i)];
          return [&, n, body = tiny(n)]() -> absl::Status {
            STREAMPIPE_RETURN_IF_ERROR(fork.Record(b.s1));
            for (int k = 0; k < n; ++k) {
              STREAMPIPE_RETURN_IF_ERROR(fork.MakeStreamWait(pool[static_cast<std::size_t>(k)]));
            }
            return body();
          };
        },
        /*held=*/true);
    if (held.ok()) {
      std::vector<double> a;
      for (int n : kNs) a.insert(a.end(), {1.0, n - 1.0});
      absl::StatusOr<RobustFit> line =
          FitLeastSquaresLeavingOut(a, 2, held->ms, held->ms, kHeldTolerance, 2, 4);
      for (std::size_t i = 0; i < std::size(kNs); ++i) {
        cal.held_sub_chunks.push_back({kNs[i], held->ms[i], 0.0, held->issue_ms[i]});
      }
      if (!line.ok()) {
        cal.idle_overhead_error = std::string(line.status().message());
      } else if (!(line->fit.coefficients[1] > 0.0)) {
        cal.idle_overhead_error = absl::StrCat("held tiny sub-chunks grew by ",
                                               line->fit.coefficients[1] * 1e3,
                                               " us each; a cost must be > 0");
      } else {
        cal.held_sub_chunk_ms = line->fit.coefficients[1];  // c0 comes with c, below
      }
    } else if (held.status().code() == absl::StatusCode::kUnavailable) {
      cal.idle_overhead_error = std::string(held.status().message());
    } else {
      return held.status();
    }
  }

  // G' and c in situ: the add-scalar pipeline (at most 64 MiB each way, one iteration: copy
  // bound), depth-first on n streams. In the current model's copy-in bound,
  //   T(n) = [L+o + x_hd/n + g(n-1) + tE/n + L+o + x_dh/n] + (n-1)/n * x'_hd + c (n-1),
  // linear in the duplex copy time x'_hd and the per-stream overhead c: least squares over
  // n = 2..64 (FitInSitu, which leaves out n that a burst of other traffic slowed). The
  // two-stream test above splits the link unevenly between the directions (the first to
  // finish got more); in a pipeline the overlap is symmetric, which this fit measures. It
  // replaces G' when it is plausible (1 <= x'/x <= 2).
  t.stream_overhead_ms = 0.0;
  // c0 (DeviceTraits::idle_stream_overhead_ms) is written only with a fitted c: alone it would
  // make a busy link cheaper than an idle one.
  const bool held = cal.held_sub_chunk_ms > 0.0;
  if (held && !o.fit_stream_overhead) {
    cal.idle_overhead_error = "no c beside a busy link to go with it (no sweep asked for)";
  }
  if (o.fit_stream_overhead) {
    const std::size_t bytes = std::min<std::size_t>(max_bytes, std::size_t{64} << 20);
    const std::int64_t items = static_cast<std::int64_t>(bytes / sizeof(float));
    cal.sweep_bytes = static_cast<double>(bytes);
    const float* din = reinterpret_cast<const float*>(d1.data());
    float* dout = reinterpret_cast<float*>(d2.data());
    auto add_scalar = [&](int n) {
      return fan_out(n, [&, n](int i, cudaStream_t s) -> absl::Status {
        const std::int64_t per = items / n;
        const std::size_t off = static_cast<std::size_t>(i * per) * sizeof(float);
        const std::size_t len = static_cast<std::size_t>(per) * sizeof(float);
        STREAMPIPE_RETURN_IF_ERROR(
            copy(d1.data() + off, h1.data() + off, len, cudaMemcpyHostToDevice, s));
        STREAMPIPE_CUDA_RETURN_IF_ERROR(LaunchAddScalar(din + i * per, dout + i * per, per, 1, s));
        return copy(h2.data() + off, d2.data() + off, len, cudaMemcpyDeviceToHost, s);
      });
    };
    // The components at n = 1, each timed alone, and every n, all in the same rounds: a burst
    // shorter than a round moves neither (run 63: a copy in timed in a burst made the model's
    // n = 1 twice the measured batch, and c 13 us).
    constexpr int kNs[] = {1, 2, 4, 8, 16, 32, 64};
    constexpr int kParts = 3;  // copy in, copy out, kernel; then the n
    STREAMPIPE_ASSIGN_OR_RETURN(
        RoundMedians rounds,
        MediansInRounds(
            b, warm, reps, kParts + static_cast<int>(std::size(kNs)),
            [&](int i) -> std::function<absl::Status()> {
              switch (i) {
                case 0:
                  return copy_in(bytes);
                case 1:
                  return copy_out(bytes);
                case 2:
                  return [&]() -> absl::Status {
                    STREAMPIPE_CUDA_RETURN_IF_ERROR(
                        LaunchAddScalar(din, dout, items, 1, b.s1.get()));
                    return absl::OkStatus();
                  };
                default:
                  return add_scalar(kNs[static_cast<std::size_t>(i - kParts)]);
              }
            }));
    const double th1 = rounds.ms[0], td1 = rounds.ms[1], tk1 = rounds.ms[2];
    std::vector<InSituPoint> measured;
    for (std::size_t i = 0; i < std::size(kNs); ++i) {
      measured.push_back({kNs[i], rounds.ms[kParts + i], rounds.issue_ms[kParts + i]});
    }
    InSituTerms in_situ;
    in_situ.h2d_latency_ms = t.h2d.latency_ms;
    in_situ.d2h_latency_ms = t.d2h.latency_ms;
    in_situ.d2h_gap_ms = t.d2h.gap_ms;
    in_situ.h2d_ms = std::max(0.0, th1 - t.h2d.latency_ms);
    in_situ.d2h_ms = std::max(0.0, td1 - t.d2h.latency_ms);
    in_situ.kernel_ms = tk1;
    // With c0 measured: g capped at the held slope, c0 = held - g, refitted where the fit
    // lowers g (FitInSituWithIdle).
    in_situ.h2d_gap_ms = t.h2d.gap_ms;
    absl::StatusOr<InSituFit> fit = held
                                        ? FitInSituWithIdle(in_situ, measured, cal.held_sub_chunk_ms)
                                        : FitInSitu(in_situ, measured);
    if (fit.ok() && held) t.idle_stream_overhead_ms = fit->idle_stream_overhead_ms;
    if (fit.ok()) {
      if (fit->duplex_plausible) {
        const double ratio = fit->duplex_ms / in_situ.h2d_ms;
        t.h2d.duplex_ms_per_byte = t.h2d.ms_per_byte * ratio;
        t.d2h.duplex_ms_per_byte = t.d2h.ms_per_byte * ratio;
      }
      t.stream_overhead_ms = fit->stream_overhead_ms;
      cal.measured_h2d_gap_ms = t.h2d.gap_ms;
      t.h2d.gap_ms = fit->h2d_gap_ms;
      cal.sweep_left_out = fit->left_out;
      cal.sweep_host_bound = fit->host_bound;
      cal.sweep_duplex_plausible = fit->duplex_plausible;
    } else {
      cal.sweep_fit_error = std::string(fit.status().message());
    }
    if (!fit.ok() && held) {
      cal.idle_overhead_error = "no c beside a busy link to go with it (the sweep gave no fit)";
    }
    // Report the model with the fitted parameters next to each measurement.
    Workload w;
    w.times = {th1, tk1, td1};
    STREAMPIPE_ASSIGN_OR_RETURN(ModelTerms terms, ComputeModelTerms(t, w));
    const std::unique_ptr<StreamModel> model = MakeModel(ModelKind::kCurrent);
    for (const InSituPoint& p : measured) {
      cal.sweep.push_back({p.streams, p.ms, model->Predict(terms, p.streams).total_ms, p.issue_ms});
    }
    // The misfit printed is the written model's (every path, the x' it keeps) over the kept n,
    // not the fit's own copy-in formula.
    if (fit.ok()) {
      cal.sweep_misfit = 0.0;
      for (const SweepSample& s : cal.sweep) {
        if (absl::c_linear_search(cal.sweep_left_out, s.streams) ||
            absl::c_linear_search(cal.sweep_host_bound, s.streams)) {
          continue;
        }
        cal.sweep_misfit = std::max(cal.sweep_misfit, std::abs(s.model_ms / s.measured_ms - 1.0));
      }
    }
  }
  // The inline path in the pipeline's own shape, with the traits measured so far: six ladders
  // (n = 8, 32, 128; call by call and as graphs), combined (run 115: one ladder's rate ranged
  // 4.4-14.2 GB/s on one lease, with no sign of a dependence on n or the issue mode); the
  // profile's h2d.inline_* with inline_copies.
  if (o.measure_inline_copies || o.inline_copies) {
    STREAMPIPE_RETURN_IF_ERROR(Quiesce(b));
    InlineLadderOptions lo;
    lo.device = o.device;
    lo.ladder_bytes = ladder_bytes;
    lo.warmup = warm;
    lo.repetitions = reps;
    std::vector<InlineCopyFit> fits;
    absl::Status ladders = absl::OkStatus();
    for (const int n : {8, 32, 128}) {
      for (const IssueMode mode : {IssueMode::kStreams, IssueMode::kGraph}) {
        if (!ladders.ok()) break;
        lo.streams = n;
        lo.issue = mode;
        InlineLadder ladder{n, mode, {}, {}};
        absl::StatusOr<std::vector<IssueSample>> samples = MeasureInlineLadder(t, lo);
        absl::StatusOr<InlineCopyFit> fit = samples.ok()
                                                ? FitInlineLadder(*samples)
                                                : absl::StatusOr<InlineCopyFit>(samples.status());
        if (!fit.ok()) {
          ladders = AnnotateStatus(fit.status(), absl::StrCat("the inline ladder at n = ", n, ", ",
                                                              std::string(IssueModeName(mode))));
          break;
        }
        ladder.samples = std::move(*samples);
        ladder.fit = *fit;
        fits.push_back(ladder.fit);
        cal.inline_ladders.push_back(std::move(ladder));
      }
    }
    if (ladders.ok()) {
      absl::StatusOr<InlineCopyFit> combined = CombineInlineFits(fits);
      if (combined.ok()) {
        cal.inline_fit = *combined;
      } else {
        ladders = combined.status();
      }
    }
    if (!ladders.ok()) {
      // The rest of the calibration stands; without the path the controller's line is the one
      // of profiles before session 19. A sticky error leaves the device unusable: that fails.
      if (IsStickyCudaError(ladders)) return ladders;
      (void)cudaGetLastError();
      cal.inline_error = std::string(ladders.message());
      cal.inline_fit = {};
    }
    if (o.inline_copies && ladders.ok()) {
      t.inline_h2d_max_bytes = cal.inline_fit.max_bytes;
      t.inline_h2d_ms_per_byte = cal.inline_fit.ms_per_byte;
    }
  }
  STREAMPIPE_RETURN_IF_ERROR(Quiesce(b));
  cal.profile.driver_version = cal.device.driver_version;
  cal.profile.runtime_version = cal.device.runtime_version;
  cal.profile.created = UtcNow();
  return cal;
}

namespace {

// A profile read from a file, as the pipeline uses it on `device`: checked against its name and
// driver, with what the runtime says now about queues and engines.
absl::StatusOr<DeviceProfile> OnThisDevice(DeviceProfile p, const DeviceInfo& device) {
  STREAMPIPE_RETURN_IF_ERROR(CheckProfileMatches(p, device.traits.name, device.driver_version));
  p.traits.hardware_queues = device.traits.hardware_queues;
  return p;
}

}  // namespace

absl::StatusOr<DeviceProfile> LoadDeviceProfile(const std::string& path, const DeviceInfo& device) {
  STREAMPIPE_ASSIGN_OR_RETURN(DeviceProfile p, ReadDeviceProfile(path));
  return OnThisDevice(std::move(p), device);
}

absl::StatusOr<DeviceProfile> LoadOrCalibrate(const std::string& path, int device, bool save,
                                              std::string* why) {
  if (why) why->clear();  // empty where the profile is loaded
  STREAMPIPE_ASSIGN_OR_RETURN(DeviceInfo info, ReadDevice(device));
  bool stale = false;  // this card's profile from another driver
  if (!path.empty()) {
    // Read once: what is judged is what would be written over.
    absl::StatusOr<DeviceProfile> read = ReadDeviceProfile(path);
    if (read.ok() && read->traits.name != info.traits.name) {
      // Another card's profile is that card's data: refused, never written over (before
      // session 46 it was, with this card's calibration).
      return absl::FailedPreconditionError(absl::StrCat(
          path, ": the profile of '", read->traits.name, "', and device ", device, " is '",
          info.traits.name, "': give this card's profile (streampipe calibrate --output=FILE) "
          "or a path where none is yet, to calibrate and write it there; a profile of another "
          "card is not written over"));
    }
    if (read.ok()) {
      const int made_with = read->driver_version;
      absl::StatusOr<DeviceProfile> p = OnThisDevice(*std::move(read), info);
      if (p.ok()) return p;
      // This card's from another driver: a stale copy, calibrated again and replaced.
      stale = true;
      if (why) {
        *why = absl::StrCat(path, ": this card's profile from driver ", made_with,
                            " (the driver now is ", info.driver_version, ")");
      }
    } else if (!absl::IsNotFound(read.status())) {
      return read.status();  // a broken profile is an error, not a reason to overwrite it
    } else if (why) {
      *why = absl::StrCat(path, " does not exist");
    }
  }
  CalibrationOptions o;
  o.device = device;
  STREAMPIPE_ASSIGN_OR_RETURN(Calibration c, Calibrate(o));
  if (save && !path.empty()) STREAMPIPE_RETURN_IF_ERROR(WriteDeviceProfile(path, c.profile));
  if (why) {
    const bool written = save && !path.empty();
    if (path.empty()) *why = "no profile";
    *why += stale ? (written ? ": calibrated again and written over" : ": calibrated again")
                  : (written ? ": calibrated and written there" : ": calibrated");
  }
  return c.profile;
}

}  // namespace streampipe
