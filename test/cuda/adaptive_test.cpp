// Adaptation on the GPU: a kernel whose cost changes mid-stream is followed (drift, re-measure,
// re-derive) with exact results throughout; continuous streaming delivers every batch in
// order, exactly, with bounded memory; the event log; configuration.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include <stdexcept>

#include <gtest/gtest.h>

#include "gpu_test_util.hpp"
#include "streampipe/cuda/buffer.hpp"
#include "streampipe/cuda/pipeline.hpp"
#include "streampipe/cuda/resource_counts.hpp"
#include "streampipe/cuda/workloads.hpp"
#include "absl/strings/str_cat.h"
#include "test_kernels.hpp"

namespace streampipe {
namespace {

using testing::CalibratedTraits;
using testing::FillRandom;
using testing::Poison;
using testing::TestRng;

class AdaptiveGpuTest : public testing::NoLeakGpuTest {};

TEST_F(AdaptiveGpuTest, KernelWhoseCostChangesMidStreamIsFollowedExactly) {
  constexpr std::int64_t kItems = 4 << 20;  // 16 MiB each way
  auto rng = TestRng();
  auto spin = *DeviceBuffer<int>::Create(1);
  int zero = 0;
  ASSERT_EQ(cudaMemcpy(spin.data(), &zero, sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
  auto in = *PinnedBuffer<float>::Create(kItems);
  auto out = *PinnedBuffer<float>::Create(kItems);
  const std::string log = ::testing::TempDir() + "/streampipe_events.jsonl";
  std::remove(log.c_str());
  PipelineOptions o;
  o.in_bytes_per_item = o.out_bytes_per_item = sizeof(float);
  o.max_items_per_batch = kItems;
  o.launch = testing::SpinLauncher(spin.data());
  o.max_streams = 32;
  o.traits = CalibratedTraits();
  o.adaptive.candidates.max_streams = 32;
  o.adaptive.candidates.powers_of_two = true;
  o.event_log = log;
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  ASSERT_TRUE(p.ok()) << p.status();
  int drift_batch = -1;  // the first drift at or after the change
  int own_batches = 0;   // batches from the change to that drift, exploration visits left out
  int drifts_before = 0;
  int kept_before = 0;  // drifts before the change whose re-measurement kept n
  bool from_level_check = false;  // that drift came from the learned level's check
  std::vector<int> streams_seen;
  std::string events_seen;  // every event with its batch: what a failure prints
  for (int b = 0; b < 160; ++b) {
    if (b == 80) {
      // The kernel becomes much heavier (20000 dependent adds per item).
      const int heavy = 20000;
      ASSERT_EQ(cudaMemcpy(spin.data(), &heavy, sizeof(int), cudaMemcpyHostToDevice),
                cudaSuccess);
    }
    FillRandom(in.span(), rng);
    Poison(out.data(), out.bytes());
    absl::StatusOr<BatchStats> st = p->Run({in.data(), out.data(), kItems});
    ASSERT_TRUE(st.ok()) << "batch " << b << ": " << st.status();
    // Every item (a sub-chunk boundary off by one would show at one item).
    std::int64_t wrong = -1;
    for (std::int64_t i = 0; i < kItems && wrong < 0; ++i) {
      if (out.data()[i] != in.data()[i] + 1.0f) wrong = i;
    }
    ASSERT_EQ(wrong, -1) << "batch " << b << " (n = " << st->streams << "): first wrong item";
    if (b >= 80 && drift_batch < 0 && st->kind != PlanKind::kExplore) ++own_batches;
    for (const RederivationEvent& e : st->events) {
      events_seen += absl::StrCat("\n  batch ", b, ": ", EventKindName(e.kind), ", n ",
                                  e.old_streams, " -> ", e.new_streams, ": ", e.reason);
      if (e.kind != EventKind::kDrift) continue;
      // Before the change, a drift whose re-measurement found the same workload and kept n is
      // a burst of the shared machine that the controller rode out as designed (run 214: the
      // measurement 2.17x, then 0.46x, on one lease); one that moved n is counted.
      if (b < 80 && !e.n_kept) ++drifts_before;
      if (b < 80 && e.n_kept) ++kept_before;
      if (b >= 80 && drift_batch < 0) {
        drift_batch = b;
        from_level_check = e.reason.find("the level learned") != std::string::npos;
      }
    }
    streams_seen.push_back(st->streams);
  }
  // The drift is seen and acted on within a few batches of the change (the detector needs 3
  // slower batches; then one batch is re-measured). An exploration visit (2 batches; the
  // calibration probe comes about 80 batches in) may fall in between: its batches do not go to
  // the detector, so they are not counted (run 25: drift at batch 88, after such a visit).
  // Where the change came while the pipeline learned n*'s level after a derivation (the
  // cooldown: a drift on noise, or a switch to a neighbour, just before batch 80), the level is
  // the heavier kernel's and the detector cannot see the step: the learned level's check finds it
  // once the level is learned (at most cooldown_batches after the change), with one non-streamed
  // batch, then re-measures (run 213 failed here, before that check, with no drift at all).
  ASSERT_GT(drift_batch, 80) << "no drift re-derivation after the kernel changed; events:"
                             << events_seen;
  const int cooldown = o.adaptive.cooldown_batches;
  EXPECT_LE(own_batches, from_level_check ? cooldown + 4 : 7)  // as batches 80 to 86
      << "drift at batch " << drift_batch << "; events:" << events_seen;
  EXPECT_LE(drift_batch, 80 + (from_level_check ? cooldown + 4 : 6) + 2 * 2)
      << "at most two visits in between; events:" << events_seen;
  // Stationary before the change: at most one re-derivation that moved n, for a hiccup of a
  // shared machine.
  EXPECT_LE(drifts_before, 1) << "events:" << events_seen;
  // And not a re-measurement every few batches: at most 3 kept (run 214 had 2 in 80 batches).
  EXPECT_LE(kept_before, 3) << "events:" << events_seen;
  const auto& events = p->controller().events();
  ASSERT_GE(events.size(), 2u);
  EXPECT_EQ(events.front().kind, EventKind::kInitial);
  // The log holds one JSON line per event.
  std::ifstream in_log(log);
  std::string line;
  int lines = 0;
  bool saw_drift = false;
  while (std::getline(in_log, line)) {
    ++lines;
    EXPECT_EQ(line.front(), '{');
    EXPECT_EQ(line.back(), '}');
    saw_drift = saw_drift || line.find("\"event\":\"drift\"") != std::string::npos;
  }
  EXPECT_EQ(lines, static_cast<int>(events.size()));
  EXPECT_TRUE(saw_drift);
  std::remove(log.c_str());
}

// A source of random float batches that remembers what it produced; a sink that checks each
// result against it, in order. The batches come from a pool made up front, so that the host
// keeps ahead of the GPU (a host-bound run never overlaps batches).
class CheckedSource : public BatchSource {
 public:
  CheckedSource(std::int64_t batches, std::int64_t items, std::mt19937_64& rng)
      : batches_(batches), items_(items) {
    for (int i = 0; i < kPool; ++i) {
      pool_[i].resize(static_cast<std::size_t>(items));
      FillRandom(std::span<float>(pool_[i]), rng);
      want_[i] = pool_[i];
      for (float& v : want_[i]) v += 1.0f;
    }
  }
  absl::StatusOr<std::int64_t> Fill(std::span<std::byte> in, std::int64_t max_items) override {
    if (made_ == batches_) return 0;
    const std::int64_t n = std::min(max_items, made_ % 5 == 4 ? items_ / 3 : items_);
    const int i = static_cast<int>(made_ % kPool);
    std::memcpy(in.data(), pool_[i].data(), static_cast<std::size_t>(n) * sizeof(float));
    expected.emplace_back(want_[i].data(), static_cast<std::size_t>(n));
    ++made_;
    return n;
  }
  std::deque<std::span<const float>> expected;

 private:
  static constexpr int kPool = 3;
  std::int64_t batches_, items_, made_ = 0;
  std::vector<float> pool_[kPool], want_[kPool];
};

class CheckingSink : public BatchSink {
 public:
  explicit CheckingSink(CheckedSource& src) : src_(src) {}
  absl::Status Consume(std::span<const std::byte> out, const BatchStats& stats) override {
    const std::span<const float> want = src_.expected.front();
    if (out.size() != want.size() * sizeof(float) ||
        std::memcmp(out.data(), want.data(), out.size()) != 0) {
      ++mismatches;
    }
    if (next_index >= 0 && stats.index != next_index) ++out_of_order;
    next_index = stats.index + 1;
    src_.expected.pop_front();
    log.push_back(stats);
    return absl::OkStatus();
  }
  std::vector<BatchStats> log;
  int mismatches = 0;
  int out_of_order = 0;
  std::int64_t next_index = -1;

 private:
  CheckedSource& src_;
};

// Continuous-mode options: float items through the spin kernel, its loop trips in `spin`.
PipelineOptions SpinContinuousOptions(std::int64_t items, int max_streams, DeviceBuffer<int>& spin,
                                      int iterations) {
  EXPECT_EQ(cudaMemcpy(spin.data(), &iterations, sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
  PipelineOptions o;
  o.in_bytes_per_item = o.out_bytes_per_item = sizeof(float);
  o.max_items_per_batch = items;
  o.launch = testing::SpinLauncher(spin.data());
  o.max_streams = max_streams;
  o.max_in_flight = 3;
  o.traits = CalibratedTraits();
  o.adaptive.steady_state = true;
  return o;
}

TEST_F(AdaptiveGpuTest, ContinuousStreamingDeliversEveryBatchInOrderExactly) {
  constexpr std::int64_t kItems = 1 << 20;
  auto rng = TestRng();
  auto spin = *DeviceBuffer<int>::Create(1);
  // ~3 ms of kernel per batch: the GPU, not the host's copies and checks, sets the pace.
  const PipelineOptions o = SpinContinuousOptions(kItems, 16, spin, 60000);
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  ASSERT_TRUE(p.ok()) << p.status();
  ResourceCounts after_first;
  for (int run = 0; run < 2; ++run) {
    CheckedSource src(120, kItems, rng);
    CheckingSink sink(src);
    absl::StatusOr<ContinuousSummary> sum = p->RunContinuous(src, sink);
    ASSERT_TRUE(sum.ok()) << sum.status();
    EXPECT_EQ(sum->batches, 120);
    EXPECT_EQ(sink.mismatches, 0);
    EXPECT_EQ(sink.out_of_order, 0);
    EXPECT_TRUE(src.expected.empty());
    EXPECT_GT(sum->device_ms, 0.0);
    // What the controller was told: once a run of batches at one n is longer than
    // 2 x max_in_flight, every 2 x max_in_flight-th batch is a sample, the mean period of the
    // last 2 x max_in_flight batches (their time per item at the sample's items where their
    // sizes differ, since session 51); right after a measurement nothing is settled.
    int settled = 0;
    const std::size_t window = 2 * static_cast<std::size_t>(o.max_in_flight);
    for (std::size_t i = 0; i < sink.log.size(); ++i) {
      const BatchStats& b = sink.log[i];
      EXPECT_GE(b.period_ms, 0.0) << i;
      EXPECT_LE(b.period_ms, b.elapsed_ms + 1e-3) << i;
      const bool timed = b.kind == PlanKind::kStreamed || b.kind == PlanKind::kExplore;
      if (i > 0 && sink.log[i - 1].kind == PlanKind::kMeasure) {
        EXPECT_FALSE(b.settled) << i;
      }
      if (!timed || !b.settled) continue;
      ++settled;
      if (!b.overlapped) {  // ran alone (the controller predicts latencies then): its own time
        EXPECT_DOUBLE_EQ(b.observed_ms, b.elapsed_ms) << i;
        continue;
      }
      // The run: batches at this n up to i, back to one that found the GPU idle, or that
      // followed another n or a non-streamed batch.
      std::size_t run_length = 1;
      for (std::size_t j = i; j > 0 && sink.log[j].overlapped; --j, ++run_length) {
        const BatchStats& prev = sink.log[j - 1];
        if (prev.streams != b.streams || prev.kind == PlanKind::kMeasure ||
            prev.kind == PlanKind::kWarmup) {
          break;
        }
      }
      EXPECT_GT(run_length, window) << i;
      EXPECT_EQ((run_length - window) % window, 0u) << i << " run " << run_length;
      double total = 0.0;
      std::int64_t items = 0;
      bool one_size = true;
      for (std::size_t j = i + 1 - window; j <= i; ++j) {
        total += sink.log[j].period_ms;
        items += sink.log[j].items;
        one_size = one_size && sink.log[j].items == b.items;
      }
      const double want = one_size ? total / static_cast<double>(window)
                                   : total / static_cast<double>(items) *
                                         static_cast<double>(b.items);
      EXPECT_NEAR(b.observed_ms, want, 1e-9 + 1e-9 * total) << i;
    }
    std::string events_seen;  // what a failure prints: the controller's events so far
    for (const RederivationEvent& e : p->controller().events()) {
      events_seen += absl::StrCat("\n  observation ", e.observation, ": ",
                                  EventKindName(e.kind), ", n ", e.old_streams, " -> ",
                                  e.new_streams, ": ", e.reason);
    }
    int non_streamed = 0;
    for (const BatchStats& b : sink.log) non_streamed += b.kind == PlanKind::kMeasure;
    // The run batch by batch, for the count below and its failure: M a measured batch (h its
    // halves), w warm-up, g a batch that found the GPU idle (the host fell behind: the 8 x
    // max_in_flight batches before periods are samples start again), S a sample, . the rest;
    // a digit where n changes (its first digit). With it, the stretches of timed batches without
    // a gap (or a measurement) long enough to owe a sample (the wait, 8 x max_in_flight, then a
    // window at one n, then one more for a visit's turn) that hold none.
    std::string shape;
    int gaps = 0;
    int last_n = 0;
    std::size_t length = 0;  // the current stretch's batches
    int samples = 0;         // and its samples
    std::string unsampled;
    auto stretch_ends = [&](std::size_t at) {
      if (length >= 8 * window && samples == 0) {
        absl::StrAppend(&unsampled, " ", length, " batches up to batch ", at, ";");
      }
      length = 0;
      samples = 0;
    };
    for (std::size_t i = 0; i < sink.log.size(); ++i) {
      const BatchStats& b = sink.log[i];
      const bool timed = b.kind == PlanKind::kStreamed || b.kind == PlanKind::kExplore;
      if (timed && b.streams != last_n) {
        shape += absl::StrCat(b.streams).substr(0, 1);
        last_n = b.streams;
      }
      const bool after_measured = i > 0 && sink.log[i - 1].kind == PlanKind::kMeasure;
      if (!timed) {
        shape += b.kind == PlanKind::kMeasure         ? 'M'
                 : b.kind == PlanKind::kMeasureHalves ? 'h'
                                                      : 'w';
        stretch_ends(i);
      } else if (!b.overlapped && !after_measured) {
        shape += 'g';
        ++gaps;
        stretch_ends(i);
      } else {
        shape += b.settled ? 'S' : '.';
        ++length;
        samples += b.settled ? 1 : 0;
      }
    }
    stretch_ends(sink.log.size());
    std::printf("run %d: %d samples, %d gaps, %d non-streamed: %s\n", run, settled, gaps,
                non_streamed, shape.c_str());
    // With the host keeping up (at most one gap), 120 batches give at least 8 samples (16 on
    // run 222's lease, every run). Each gap restarts the 8 x max_in_flight batches before periods
    // are samples: a host slower than the GPU (a busy lease's CPU) is not the pipeline's fault,
    // but a sample is still owed in every gap-free stretch long enough for one.
    if (gaps <= 1) {
      EXPECT_GE(settled, 8) << "of 120 batches (run " << run << ", " << non_streamed
                            << " non-streamed, " << gaps << " host gaps): " << shape
                            << "\nevents:" << events_seen;
    } else {
      EXPECT_EQ(unsampled, "") << "stretches without a gap and without a sample (run " << run
                               << ", " << gaps << " host gaps): " << shape
                               << "\nevents:" << events_seen;
    }
    // The first run warms up and measures; the second goes on with what it learned.
    if (run == 0) {
      EXPECT_GE(sum->measured_batches, 1);
    }
    if (run == 0) {
      after_first = LiveResources();
    } else {
      // The second run allocates nothing new: the pinned ring and staging are reused.
      EXPECT_EQ(LiveResources(), after_first);
    }
  }
}

// A continuous stream whose source is slower than the GPU: batches run alone, their times
// are latencies. The pipeline must notice (an event), switch the controller to the batch model,
// and keep sampling (drift detection stays alive), with every result exact.
// adaptive.measure_batches = 3: every (re-)measurement is three non-streamed batches in a row,
// the derivation comes with the third, and results stay exact and in order around them.
TEST_F(AdaptiveGpuTest, SeveralMeasuredBatchesPerDerivationInContinuousMode) {
  constexpr std::int64_t kItems = 1 << 20;
  auto rng = TestRng();
  auto spin = *DeviceBuffer<int>::Create(1);
  PipelineOptions o = SpinContinuousOptions(kItems, 16, spin, 60000);
  o.adaptive.measure_batches = 3;
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  ASSERT_TRUE(p.ok()) << p.status();
  for (int run = 0; run < 2; ++run) {
    if (run == 1) p->RequestRemeasure("test: forced");
    CheckedSource src(40, kItems, rng);
    CheckingSink sink(src);
    absl::StatusOr<ContinuousSummary> sum = p->RunContinuous(src, sink);
    ASSERT_TRUE(sum.ok()) << sum.status();
    EXPECT_EQ(sum->batches, 40);
    EXPECT_EQ(sink.mismatches, 0);
    EXPECT_EQ(sink.out_of_order, 0);
    std::vector<std::size_t> measures;
    std::vector<std::size_t> derived_at;
    for (std::size_t i = 0; i < sink.log.size(); ++i) {
      if (sink.log[i].kind == PlanKind::kMeasure) measures.push_back(i);
      for (const RederivationEvent& e : sink.log[i].events) {
        // The derivations that measurements make (not an explored neighbour winning).
        if (e.kind == EventKind::kInitial || e.reason.find("forced") != std::string::npos) {
          derived_at.push_back(i);
        }
      }
    }
    ASSERT_EQ(measures.size(), 3u) << "run " << run;
    EXPECT_EQ(measures[2], measures[0] + 2) << "three in a row";
    ASSERT_EQ(derived_at.size(), 1u) << "run " << run;
    EXPECT_EQ(derived_at[0], measures[2]) << "derived with the third";
    EXPECT_EQ(sink.log[derived_at[0]].events.front().kind,
              run == 0 ? EventKind::kInitial : EventKind::kDrift);
  }
}

TEST_F(AdaptiveGpuTest, ContinuousStreamFollowsAHostThatFallsBehind) {
  constexpr std::int64_t kItems = 1 << 18;
  auto rng = TestRng();
  auto spin = *DeviceBuffer<int>::Create(1);
  const PipelineOptions o = SpinContinuousOptions(kItems, 8, spin, 0);
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  ASSERT_TRUE(p.ok()) << p.status();
  struct SlowSource : CheckedSource {
    using CheckedSource::CheckedSource;
    absl::StatusOr<std::int64_t> Fill(std::span<std::byte> in, std::int64_t m) override {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));  // ~10x a batch on the GPU
      return CheckedSource::Fill(in, m);
    }
  } src(60, kItems, rng);
  CheckingSink sink(src);
  absl::StatusOr<ContinuousSummary> sum = p->RunContinuous(src, sink);
  ASSERT_TRUE(sum.ok()) << sum.status();
  EXPECT_EQ(sink.mismatches, 0);
  EXPECT_EQ(sink.out_of_order, 0);
  bool switched = false;
  int alone = 0, settled_after = 0;
  for (const BatchStats& b : sink.log) {
    alone += !b.overlapped;
    for (const RederivationEvent& e : b.events) {
      switched = switched || e.reason.find("host fell behind") != std::string::npos;
    }
    if (switched && b.settled && b.kind == PlanKind::kStreamed) ++settled_after;
  }
  EXPECT_GE(alone, 50) << "the source was meant to be the bottleneck";
  EXPECT_TRUE(switched) << "no event said the host fell behind";
  EXPECT_FALSE(p->controller().options().steady_state);
  EXPECT_GE(settled_after, 20) << "lone batches must be samples once the model is switched";
}

TEST_F(AdaptiveGpuTest, SourceAndSinkErrorsStopTheRunNamingTheBatch) {
  constexpr std::int64_t kItems = 1 << 16;
  auto spin = *DeviceBuffer<int>::Create(1);
  int zero = 0;
  ASSERT_EQ(cudaMemcpy(spin.data(), &zero, sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
  PipelineOptions o;
  o.in_bytes_per_item = o.out_bytes_per_item = sizeof(float);
  o.max_items_per_batch = kItems;
  o.launch = testing::SpinLauncher(spin.data());
  o.max_streams = 4;
  o.max_in_flight = 2;
  o.traits = CalibratedTraits();
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  ASSERT_TRUE(p.ok());
  struct FailingSource : BatchSource {
    int n = 0;
    absl::StatusOr<std::int64_t> Fill(std::span<std::byte>, std::int64_t m) override {
      if (++n == 5) return absl::DataLossError("the camera went away");
      return m;
    }
  } bad_source;
  struct NullSink : BatchSink {
    absl::Status Consume(std::span<const std::byte>, const BatchStats&) override {
      return absl::OkStatus();
    }
  } sink;
  absl::StatusOr<ContinuousSummary> r = p->RunContinuous(bad_source, sink);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(r.status().message().find("source, batch 4: the camera went away"), std::string::npos)
      << r.status();
  struct AnySource : BatchSource {
    absl::StatusOr<std::int64_t> Fill(std::span<std::byte>, std::int64_t m) override { return m; }
  } source;
  struct FailingSink : BatchSink {
    int n = 0;
    absl::Status Consume(std::span<const std::byte>, const BatchStats&) override {
      return ++n == 3 ? absl::UnavailableError("disk full") : absl::OkStatus();
    }
  } bad_sink;
  ContinuousOptions co;
  co.max_batches = 50;
  r = p->RunContinuous(source, bad_sink, co);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("disk full"), std::string::npos) << r.status();
  // The pipeline is usable afterwards.
  co.max_batches = 5;
  EXPECT_TRUE(p->RunContinuous(source, sink, co).ok());

  // A source's error, then a failed delivery of a batch in flight: the first error is returned
  // (its code), the second said after it (before session 50 the sink's replaced the source's).
  // Two in flight: fills 1, 2, deliver 1, fill 3, deliver 2, fill 4, deliver 3, fill 5 fails,
  // then batch 4 is delivered and its sink fails. The source's batch number is the pipeline's,
  // as the sink's is (it was this run's count before session 50).
  struct IndexSink : BatchSink {
    int n = 0;
    int fail_at = -1;
    std::int64_t last_index = -1;
    absl::Status Consume(std::span<const std::byte>, const BatchStats& st) override {
      last_index = st.index;
      return ++n == fail_at ? absl::UnavailableError("disk full") : absl::OkStatus();
    }
  } index_sink;
  co.max_batches = 3;
  ASSERT_TRUE(p->RunContinuous(source, index_sink, co).ok());
  const std::int64_t next = index_sink.last_index + 1;  // the next run's first batch
  bad_source.n = 0;
  index_sink.n = 0;
  index_sink.fail_at = 4;
  r = p->RunContinuous(bad_source, index_sink);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kDataLoss) << r.status();
  EXPECT_NE(r.status().message().find(absl::StrCat("source, batch ", next + 4,
                                                   ": the camera went away; then, delivering a "
                                                   "batch in flight: sink, batch ",
                                                   next + 3, ": disk full")),
            std::string::npos)
      << r.status();
  EXPECT_EQ(p->in_flight(), 0);

  // A negative count from the source is no count (it ended the stream quietly before session
  // 50), and options out of range are refused before the source is asked for anything.
  struct NegativeSource : BatchSource {
    int fills = 0;
    absl::StatusOr<std::int64_t> Fill(std::span<std::byte>, std::int64_t m) override {
      return ++fills == 2 ? -1 : m;
    }
  } negative;
  index_sink.n = 0;
  index_sink.fail_at = -1;
  r = p->RunContinuous(negative, index_sink);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
  EXPECT_NE(r.status().message().find("the source returned -1 items (0 ends the stream)"),
            std::string::npos)
      << r.status();
  EXPECT_EQ(index_sink.n, 1) << "the batch in flight before the source's error is delivered";
  // A count over the buffer is the source's error too: the batch in flight is delivered (it
  // was dropped before session 51, where a negative count's was delivered).
  struct OverSource : BatchSource {
    int fills = 0;
    absl::StatusOr<std::int64_t> Fill(std::span<std::byte>, std::int64_t m) override {
      return ++fills == 2 ? m + 1 : m;
    }
  } over;
  index_sink.n = 0;
  r = p->RunContinuous(over, index_sink);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
  EXPECT_NE(r.status().message().find(" items for a buffer of "), std::string::npos)
      << r.status();
  EXPECT_EQ(index_sink.n, 1) << "the batch in flight before the source's error is delivered";
  EXPECT_EQ(p->in_flight(), 0);
  for (const auto& [items, batches] : {std::pair<std::int64_t, std::int64_t>{-1, 5}, {0, -2}}) {
    negative.fills = 0;
    ContinuousOptions bad;
    bad.items_per_batch = items;
    bad.max_batches = batches;
    r = p->RunContinuous(negative, sink, bad);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
    EXPECT_NE(r.status().message().find("ContinuousOptions: items_per_batch is "),
              std::string::npos)
        << r.status();
    EXPECT_EQ(negative.fills, 0);
  }
  EXPECT_TRUE(p->RunContinuous(source, sink, co).ok());
}

// A fixed n in continuous mode, with batches the source fills short (the end of a stream, of a
// segment): such a batch failed ("16 streams requested for 7 items") and took the batches in
// flight down with it. Now it runs at one stream per item, and every batch is delivered exactly.
TEST_F(AdaptiveGpuTest, AFixedNRunsAShortBatchAtOneStreamPerItem) {
  constexpr std::int64_t kItems = 1 << 16;
  constexpr int kN = 16;
  auto rng = TestRng();
  auto spin = *DeviceBuffer<int>::Create(1);
  PipelineOptions o = SpinContinuousOptions(kItems, kN, spin, 100);
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  ASSERT_TRUE(p.ok()) << p.status();
  struct SizedSource : BatchSource {
    std::vector<std::int64_t> sizes;
    std::vector<std::vector<float>> sent;
    std::mt19937_64* rng = nullptr;
    absl::StatusOr<std::int64_t> Fill(std::span<std::byte> in, std::int64_t max_items) override {
      if (sent.size() == sizes.size()) return 0;
      const std::int64_t n = std::min(max_items, sizes[sent.size()]);
      sent.emplace_back(static_cast<std::size_t>(n));
      FillRandom(std::span<float>(sent.back()), *rng);
      std::memcpy(in.data(), sent.back().data(), static_cast<std::size_t>(n) * sizeof(float));
      return n;
    }
  } src;
  src.sizes = {kItems, 7, kItems, 1, kItems, kN, kN - 1, 3};
  src.rng = &rng;
  struct Sink : BatchSink {
    SizedSource* src = nullptr;
    std::vector<BatchStats> log;
    int mismatches = 0;
    absl::Status Consume(std::span<const std::byte> out, const BatchStats& stats) override {
      const std::vector<float>& in = src->sent[log.size()];
      std::vector<float> want(in);
      for (float& v : want) v += 1.0f;
      if (out.size() != want.size() * sizeof(float) ||
          std::memcmp(out.data(), want.data(), out.size()) != 0) {
        ++mismatches;
      }
      log.push_back(stats);
      return absl::OkStatus();
    }
  } sink;
  sink.src = &src;
  ContinuousOptions co;
  co.streams = kN;
  absl::StatusOr<ContinuousSummary> sum = p->RunContinuous(src, sink, co);
  ASSERT_TRUE(sum.ok()) << sum.status();
  EXPECT_EQ(sum->batches, static_cast<std::int64_t>(src.sizes.size()));
  EXPECT_EQ(sink.mismatches, 0);
  ASSERT_EQ(sink.log.size(), src.sizes.size());
  for (std::size_t i = 0; i < src.sizes.size(); ++i) {
    EXPECT_EQ(sink.log[i].streams, std::min<std::int64_t>(kN, src.sizes[i])) << "batch " << i;
    EXPECT_EQ(sink.log[i].items, src.sizes[i]) << "batch " << i;
  }
  // A fixed n outside the pool is refused before any batch (a short batch's clamp would hide
  // it).
  for (int bad : {0, kN + 1}) {
    co.streams = bad;
    absl::StatusOr<ContinuousSummary> r = p->RunContinuous(src, sink, co);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
    EXPECT_NE(r.status().message().find(absl::StrCat("ContinuousOptions::streams is ", bad)),
              std::string::npos)
        << r.status();
  }
  // A single Run with a fixed n larger than its items is still refused: there the caller chose
  // both.
  std::vector<float> in(7), out(7);
  EXPECT_EQ(p->Run({in.data(), out.data(), 7}, kN).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// A source or sink that throws unwound past RunContinuous with batches still in flight. Now the
// exception is an error naming the source or sink and the batch (Unknown), the batches before it
// are delivered (a source's), and the pipeline is usable afterwards.
TEST_F(AdaptiveGpuTest, ASourceOrSinkThatThrowsStopsTheRunWithAnError) {
  constexpr std::int64_t kItems = 1 << 16;
  auto spin = *DeviceBuffer<int>::Create(1);
  PipelineOptions o = SpinContinuousOptions(kItems, 4, spin, 2000);
  o.max_in_flight = 2;
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  ASSERT_TRUE(p.ok()) << p.status();
  struct ThrowingSource : BatchSource {
    int n = 0;
    absl::StatusOr<std::int64_t> Fill(std::span<std::byte>, std::int64_t m) override {
      if (++n == 5) throw std::runtime_error("the decoder gave up");
      return m;
    }
  } bad_source;
  struct CountingSink : BatchSink {
    int n = 0;
    int throw_at = -1;
    absl::Status Consume(std::span<const std::byte>, const BatchStats&) override {
      if (++n == throw_at) throw 42;
      return absl::OkStatus();
    }
  } sink;
  absl::StatusOr<ContinuousSummary> r = p->RunContinuous(bad_source, sink);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kUnknown);
  EXPECT_NE(r.status().message().find("source, batch 4: threw an exception: the decoder gave up"),
            std::string::npos)
      << r.status();
  EXPECT_EQ(sink.n, 4) << "the batches in flight before the source failed are delivered";
  EXPECT_EQ(p->in_flight(), 0);
  struct AnySource : BatchSource {
    absl::StatusOr<std::int64_t> Fill(std::span<std::byte>, std::int64_t m) override { return m; }
  } source;
  ContinuousOptions co;
  co.max_batches = 20;
  sink.n = 0;
  sink.throw_at = 3;
  r = p->RunContinuous(source, sink, co);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kUnknown);
  EXPECT_NE(r.status().message().find("sink, batch "), std::string::npos) << r.status();
  EXPECT_NE(r.status().message().find("threw a non-standard exception"), std::string::npos)
      << r.status();
  EXPECT_EQ(p->in_flight(), 0);
  sink.throw_at = -1;
  co.max_batches = 5;
  EXPECT_TRUE(p->RunContinuous(source, sink, co).ok());
}

TEST_F(AdaptiveGpuTest, ConfigurationReachesThePipeline) {
  PipelineConfig c;
  ASSERT_TRUE(ApplyConfigOverride(&c, "pipeline.order", "engine-per-stream").ok());
  ASSERT_TRUE(ApplyConfigOverride(&c, "pipeline.max_streams", "8").ok());
  ASSERT_TRUE(ApplyConfigOverride(&c, "pipeline.issue", "graph").ok());
  ASSERT_TRUE(ApplyConfigOverride(&c, "streams.max", "8").ok());
  ASSERT_TRUE(ApplyConfigOverride(&c, "detector.threshold", "0.25").ok());
  PipelineOptions o;
  o.in_bytes_per_item = o.out_bytes_per_item = sizeof(float);
  o.max_items_per_batch = 1000;
  auto spin = *DeviceBuffer<int>::Create(1);
  o.launch = testing::SpinLauncher(spin.data());
  o.traits = CalibratedTraits();
  ASSERT_TRUE(ApplyConfig(c, &o).ok());
  EXPECT_EQ(o.order, IssueOrder::kEnginePerStream);
  EXPECT_EQ(o.issue, IssueMode::kGraph);
  EXPECT_EQ(o.max_streams, 8);
  EXPECT_EQ(o.adaptive.detector.threshold, 0.25);
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->options().order, IssueOrder::kEnginePerStream);
  EXPECT_EQ(p->options().issue, IssueMode::kGraph);
  EXPECT_EQ(p->controller().options().detector.threshold, 0.25);
}

TEST_F(AdaptiveGpuTest, ManyRederivationsLeakNothing) {
  constexpr std::int64_t kItems = 1 << 18;
  auto spin = *DeviceBuffer<int>::Create(1);
  int zero = 0;
  ASSERT_EQ(cudaMemcpy(spin.data(), &zero, sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
  auto in = *PinnedBuffer<float>::Create(kItems);
  auto out = *PinnedBuffer<float>::Create(kItems);
  PipelineOptions o;
  o.in_bytes_per_item = o.out_bytes_per_item = sizeof(float);
  o.max_items_per_batch = kItems;
  o.launch = testing::SpinLauncher(spin.data());
  o.max_streams = 16;
  o.traits = CalibratedTraits();
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  ASSERT_TRUE(p.ok()) << p.status();
  ResourceCounts steady;
  for (int b = 0; b < 260; ++b) {
    if (b % 5 == 4) p->RequestRemeasure("test: forced");
    ASSERT_TRUE(p->Run({in.data(), out.data(), kItems}).ok()) << "batch " << b;
    if (b == 10) steady = LiveResources();
  }
  EXPECT_EQ(LiveResources(), steady) << "resources grew over 50 re-derivations";
  int drifts = 0;
  for (const RederivationEvent& e : p->controller().events()) drifts += e.kind == EventKind::kDrift;
  EXPECT_GE(drifts, 50);
}

TEST_F(AdaptiveGpuTest, IndependentPipelinesOnSeveralHostThreads) {
  constexpr int kThreads = 4;
  constexpr std::int64_t kItems = 1 << 20;
  std::vector<std::thread> threads;
  std::vector<std::string> errors(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&errors, t] {
      std::mt19937_64 rng(1000 + t);
      auto in = PinnedBuffer<float>::Create(kItems);
      auto out = PinnedBuffer<float>::Create(kItems);
      PipelineOptions o;
      o.in_bytes_per_item = o.out_bytes_per_item = sizeof(float);
      o.max_items_per_batch = kItems;
      o.launch = AddScalarLauncher(3 + t);
      o.max_streams = 8;
      o.traits = CalibratedTraits();
      absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
      if (!in.ok() || !out.ok() || !p.ok()) {
        errors[t] = "setup failed";
        return;
      }
      std::vector<float> ref(kItems);
      for (int b = 0; b < 40; ++b) {
        FillRandom(in->span(), rng);
        AddScalarReference(in->span(), ref, 3 + t);
        Poison(out->data(), out->bytes());
        absl::StatusOr<BatchStats> st = p->Run({in->data(), out->data(), kItems});
        if (!st.ok()) {
          errors[t] = std::string(st.status().message());
          return;
        }
        if (std::memcmp(out->data(), ref.data(), out->bytes()) != 0) {
          errors[t] = absl::StrCat("batch ", b, " differs from the CPU");
          return;
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(errors[t], "") << "thread " << t;
}

}  // namespace
}  // namespace streampipe
