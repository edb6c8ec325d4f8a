// StreamPipeline against CPU references on fresh random data, outputs poisoned before each
// run: every n in 1..64, every issue order, uneven splits, pinned and pageable memory, items
// of different input and output sizes; automatic mode; asynchronous submission; errors.
#include "streampipe/cuda/pipeline.hpp"

#include <algorithm>
#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <iterator>
#include <memory>
#include <deque>
#include <thread>
#include <set>
#include <vector>

#include <gtest/gtest.h>

#include "gpu_test_util.hpp"
#include "streampipe/core/in_situ_fit.hpp"
#include "streampipe/core/statistics.hpp"
#include "streampipe/core/timeline.hpp"
#include "streampipe/cuda/buffer.hpp"
#include "streampipe/cuda/calibrate.hpp"
#include "streampipe/cuda/error.hpp"
#include "streampipe/cuda/resource_counts.hpp"
#include "streampipe/cuda/workloads.hpp"
#include "test_kernels.hpp"

namespace streampipe {
namespace {

using testing::CalibratedTraits;
using testing::FillRandom;
using testing::Poison;
using testing::TestRng;

PipelineOptions AddScalarOptions(std::int64_t max_items, int iters, IssueOrder order,
                                 int max_streams = 64) {
  PipelineOptions o;
  o.in_bytes_per_item = sizeof(float);
  o.out_bytes_per_item = sizeof(float);
  o.max_items_per_batch = max_items;
  o.launch = AddScalarLauncher(iters);
  o.max_streams = max_streams;
  o.order = order;
  o.traits = CalibratedTraits();
  return o;
}

class PipelineTest : public testing::NoLeakGpuTest {};

struct OrderCase {
  IssueOrder order;
  bool pinned;
  IssueMode issue = IssueMode::kStreams;
};

class EveryN : public PipelineTest, public ::testing::WithParamInterface<OrderCase> {};

// Every n in 1..64 for one issue order and memory kind, on a batch of a prime number of items
// (so every n > 1 splits unevenly).
TEST_P(EveryN, MatchesCpuReference) {
  const OrderCase c = GetParam();
  constexpr std::int64_t kItems = 100'003;  // prime
  constexpr int kIters = 7;
  auto rng = TestRng();
  std::vector<float> ref(kItems);
  // Host buffers: pinned, or pageable std::vector.
  PinnedBuffer<float> pin_in, pin_out;
  std::vector<float> page_in, page_out;
  float* in = nullptr;
  float* out = nullptr;
  if (c.pinned) {
    pin_in = *PinnedBuffer<float>::Create(kItems);
    pin_out = *PinnedBuffer<float>::Create(kItems);
    in = pin_in.data();
    out = pin_out.data();
  } else {
    page_in.resize(kItems);
    page_out.resize(kItems);
    in = page_in.data();
    out = page_out.data();
  }
  {
    PipelineOptions o = AddScalarOptions(kItems, kIters, c.order);
    o.issue = c.issue;
    absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
    ASSERT_TRUE(p.ok()) << p.status();
    for (int n = 1; n <= 64; ++n) {
      FillRandom({in, static_cast<std::size_t>(kItems)}, rng);
      AddScalarReference({in, static_cast<std::size_t>(kItems)}, ref, kIters);
      Poison(out, kItems * sizeof(float));
      absl::StatusOr<BatchStats> st = p->Run({in, out, kItems}, n);
      ASSERT_TRUE(st.ok()) << "n=" << n << ": " << st.status();
      EXPECT_EQ(st->streams, n);
      EXPECT_EQ(st->staged_in, !c.pinned);
      EXPECT_EQ(st->staged_out, !c.pinned);
      EXPECT_GT(st->elapsed_ms, 0.0);
      // Graphs for pinned memory; pageable batches are staged call by call.
      const bool graph = c.issue == IssueMode::kGraph && c.pinned;
      EXPECT_EQ(st->graph, graph);
      EXPECT_EQ(st->graph_build_ms > 0.0, graph) << "each n is new: its graph is captured";
      ASSERT_EQ(std::memcmp(out, ref.data(), kItems * sizeof(float)), 0)
          << "n=" << n << " order=" << IssueOrderName(c.order) << " pinned=" << c.pinned
          << " issue=" << IssueModeName(c.issue);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Orders, EveryN,
    ::testing::Values(OrderCase{IssueOrder::kDepthFirst, true},
                      OrderCase{IssueOrder::kBreadthFirst, true},
                      OrderCase{IssueOrder::kEnginePerStream, true},
                      OrderCase{IssueOrder::kDepthFirst, false},
                      OrderCase{IssueOrder::kBreadthFirst, false},
                      OrderCase{IssueOrder::kEnginePerStream, false},
                      OrderCase{IssueOrder::kDepthFirst, true, IssueMode::kGraph},
                      OrderCase{IssueOrder::kBreadthFirst, true, IssueMode::kGraph},
                      OrderCase{IssueOrder::kEnginePerStream, true, IssueMode::kGraph},
                      OrderCase{IssueOrder::kDepthFirst, false, IssueMode::kGraph}),
    [](const ::testing::TestParamInfo<OrderCase>& i) {
      std::string s(IssueOrderName(i.param.order));
      for (char& ch : s) {
        if (ch == '-') ch = '_';
      }
      return s + (i.param.pinned ? "_pinned" : "_pageable") +
             (i.param.issue == IssueMode::kGraph ? "_graph" : "");
    });

// The quick calibration on this card: the add-scalar sweep at n = 1..64 (medians of three
// rounds) fitted within 10 % at every n kept (up to two left out as bursts), and parameters a
// card can have.
TEST_F(PipelineTest, CalibrationRefusesNoRepetitions) {
  // Medians of no repetition were NaN in every parameter of the profile.
  CalibrationOptions o;
  o.quick = true;
  o.repetitions = 0;
  absl::StatusOr<Calibration> c = Calibrate(o);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(c.status().message().find("calibration repetitions is 0"), std::string::npos)
      << c.status();
}

TEST_F(PipelineTest, CalibrationFitsTheAddScalarSweepOnThisCard) {
  CalibrationOptions o;
  o.quick = true;
  // What `streampipe calibrate` tells a user whose fit misses by more than the tolerance ("a
  // busy GPU? calibrate again"): up to three calibrations, the first that fits is checked. On
  // busy leases one calibration's components or sweep can sit in a burst (runs 111, 118, 123,
  // 140: the model 36-110 % over its own sweep at every n), and the next one fits; a fit that
  // never comes within the tolerance still fails.
  absl::StatusOr<Calibration> c;
  for (int attempt = 1; attempt <= 3; ++attempt) {
    c = Calibrate(o);
    ASSERT_TRUE(c.ok()) << c.status();
    if (c->sweep_misfit <= kInSituTolerance) break;
    std::cerr << "calibration " << attempt << ": misfit " << c->sweep_misfit
              << " over the tolerance " << kInSituTolerance
              << (attempt < 3 ? "; calibrating again\n" : "\n");
  }
  ASSERT_EQ(c->sweep.size(), 7u);
  EXPECT_TRUE(c->sweep_fit_error.empty()) << c->sweep_fit_error;
  EXPECT_LE(c->sweep_misfit, kInSituTolerance) << "no choice of n fits the rest within 10 %";
  const DeviceTraits& t = c->profile.traits;
  EXPECT_LT(t.stream_overhead_ms, 0.05);
  EXPECT_LT(t.h2d.gap_ms, 0.02);
  EXPECT_LT(t.d2h.gap_ms, 0.02);
  EXPECT_GE(t.h2d.duplex_ms_per_byte, t.h2d.ms_per_byte);
  // c0 from held tiny sub-chunks: measured (no gate opened itself on a host this idle), the
  // device's cost per sub-chunk well under the host's issue cost s, and times that grow with n.
  EXPECT_TRUE(c->idle_overhead_error.empty()) << c->idle_overhead_error;
  EXPECT_GE(t.idle_stream_overhead_ms, 0.0);
  EXPECT_LT(t.idle_stream_overhead_ms, 0.02);
  ASSERT_EQ(c->held_sub_chunks.size(), 7u);
  EXPECT_GT(c->held_sub_chunks.back().measured_ms, c->held_sub_chunks.front().measured_ms);
  EXPECT_GT(c->held_sub_chunk_ms, 0.0);
  EXPECT_LT(c->held_sub_chunk_ms, t.sub_chunk_cost_ms) << "held below the host's issue cost";
  for (const SweepSample& w : c->sweep) {
    EXPECT_GT(w.measured_ms, 0.0);
    // The host's time enqueueing the batch: some, and more for more streams' calls.
    EXPECT_GT(w.issue_ms, 0.0) << "n = " << w.streams;
    if (w.streams == 64) {
      EXPECT_GT(w.issue_ms, c->sweep.front().issue_ms) << "n = 64";
    }
    const bool out = std::find(c->sweep_left_out.begin(), c->sweep_left_out.end(), w.streams) !=
                         c->sweep_left_out.end() ||
                     std::find(c->sweep_host_bound.begin(), c->sweep_host_bound.end(),
                               w.streams) != c->sweep_host_bound.end();
    if (out) {
      EXPECT_GE(w.streams, 2) << "n = 1 is not in the fit";
    } else if (w.streams >= 2) {
      // The model's own shape errors are under 10 % on quiet leases; 20 % leaves room for a
      // busy one but not for run 61's broken fit (21-23 % over at n = 8 and 16).
      EXPECT_NEAR(w.model_ms / w.measured_ms, 1.0, 0.2) << "n = " << w.streams;
    }
  }
}

// The inline ladders (session 20): the pipeline's own sub-chunks at n = 8, 32 and 128, call by
// call and as graphs, and (measure_inline_copies) bare copies in, each over the same 14 sizes;
// the host's time per sub-chunk, not per batch (n = 128's within 3x of n = 8's: a batch's time
// would be 16x), and a sub-chunk (copy in, kernel, copy out) costing more than a bare copy in,
// each judged on a ladder's median (one size's median of 9 samples can meet a burst); a limit,
// where one is found, is a size of the ladder with a rate; the combined fit is
// CombineInlineFits of the six; and only with inline_copies does the profile take it.
TEST_F(PipelineTest, CalibrationMeasuresTheInlinePathInThePipelinesShape) {
  const std::vector<double> sizes = DefaultInlineLadderBytes();
  ASSERT_EQ(sizes.size(), 14u);
  const auto median_of = [](const std::vector<IssueSample>& ladder) {
    std::vector<double> v;
    for (const IssueSample& s : ladder) v.push_back(s.issue_ms);
    return Median(v);
  };
  for (const bool write : {false, true}) {
    SCOPED_TRACE(write ? "inline_copies" : "measure_inline_copies only");
    CalibrationOptions o;
    o.quick = true;
    o.fit_stream_overhead = false;
    o.measure_inline_copies = !write;
    o.inline_copies = write;
    absl::StatusOr<Calibration> c = Calibrate(o);
    ASSERT_TRUE(c.ok()) << c.status();
    EXPECT_TRUE(c->inline_error.empty()) << c->inline_error;
    ASSERT_EQ(c->inline_ladders.size(), 6u);
    ASSERT_EQ(c->bare_inline_ladder.size(), write ? 0u : 14u);
    std::vector<InlineCopyFit> fits;
    for (const InlineLadder& l : c->inline_ladders) {
      SCOPED_TRACE(absl::StrCat("n = ", l.streams, " ", std::string(IssueModeName(l.issue))));
      ASSERT_EQ(l.samples.size(), 14u);
      for (std::size_t i = 0; i < 14; ++i) {
        EXPECT_EQ(l.samples[i].bytes, sizes[i]);
        EXPECT_GT(l.samples[i].issue_ms, 0.0);
      }
      if (!write && l.issue == IssueMode::kStreams) {
        EXPECT_GT(median_of(l.samples), median_of(c->bare_inline_ladder))
            << "a sub-chunk is three calls, a bare copy one";
      }
      fits.push_back(l.fit);
    }
    ASSERT_EQ(c->inline_ladders.front().streams, 8);
    ASSERT_EQ(c->inline_ladders[4].streams, 128);
    for (const int k : {0, 1}) {  // call by call, as graphs
      const double at_8 = median_of(c->inline_ladders[k].samples);
      const double at_128 = median_of(c->inline_ladders[4 + k].samples);
      EXPECT_LT(at_128, 3.0 * at_8) << "per sub-chunk, not per batch";
      EXPECT_GT(at_128, at_8 / 3.0);
    }
    absl::StatusOr<InlineCopyFit> combined = CombineInlineFits(fits);
    ASSERT_TRUE(combined.ok()) << combined.status();
    EXPECT_EQ(c->inline_fit.max_bytes, combined->max_bytes);
    EXPECT_EQ(c->inline_fit.ms_per_byte, combined->ms_per_byte);
    if (!write) fits.push_back(c->bare_inline_fit);
    for (const InlineCopyFit& f : fits) {
      EXPECT_GT(f.per_copy_ms, 0.0);
      if (f.max_bytes > 0.0) {
        EXPECT_TRUE(std::find(sizes.begin(), sizes.end(), f.max_bytes) != sizes.end())
            << f.max_bytes;
        EXPECT_GT(f.ms_per_byte, 0.0);
      }
    }
    const DeviceTraits& t = c->profile.traits;
    EXPECT_EQ(t.inline_h2d_max_bytes, write ? c->inline_fit.max_bytes : 0.0);
    EXPECT_EQ(t.inline_h2d_ms_per_byte, write ? c->inline_fit.ms_per_byte : 0.0);
  }
  // Bad ladders are refused before anything runs.
  InlineLadderOptions bad;
  bad.ladder_bytes = {4096, 6000.5};
  absl::StatusOr<std::vector<IssueSample>> refused = MeasureInlineLadder(CalibratedTraits(), bad);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("6000.5"), std::string::npos) << refused.status();
  bad.ladder_bytes = {4096, 1e12};
  EXPECT_FALSE(MeasureInlineLadder(CalibratedTraits(), bad).ok());
  bad.ladder_bytes = {};
  EXPECT_FALSE(MeasureInlineLadder(CalibratedTraits(), bad).ok());
  bad.ladder_bytes = sizes;
  bad.streams = 0;
  EXPECT_FALSE(MeasureInlineLadder(CalibratedTraits(), bad).ok());
}

// Graphs replayed with other host buffers each batch (their copy nodes updated, not captured
// again), several batches in flight, two n, and a batch of another size (captured again).
// A launcher's own DeadlineExceeded is its error, not a GPU that did not finish: the batch
// fails with it, and the pipeline goes on (before session 51 it stopped for good, and its
// buffers were abandoned as if a kernel still used them).
TEST_F(PipelineTest, ALaunchersOwnDeadlineDoesNotStopThePipeline) {
  constexpr std::int64_t kItems = 1 << 16;
  auto rng = TestRng();
  PipelineOptions o = AddScalarOptions(kItems, 1, IssueOrder::kDepthFirst, 8);
  bool fail = false;
  const KernelLauncher inner = o.launch;
  o.launch = [&fail, inner](const LaunchArgs& a) -> absl::Status {
    if (fail) return absl::DeadlineExceededError("the launcher's own wait ran out");
    return inner(a);
  };
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  ASSERT_TRUE(p.ok()) << p.status();
  auto in = *PinnedBuffer<float>::Create(kItems);
  auto out = *PinnedBuffer<float>::Create(kItems);
  std::vector<float> ref(kItems);
  FillRandom(in.span(), rng);
  AddScalarReference(in.span(), std::span<float>(ref), 1);
  ASSERT_TRUE(p->Run({in.data(), out.data(), kItems}, 4).ok());
  fail = true;
  absl::StatusOr<BatchStats> st = p->Run({in.data(), out.data(), kItems}, 4);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.status().code(), absl::StatusCode::kDeadlineExceeded) << st.status();
  EXPECT_NE(st.status().message().find("the launcher's own wait ran out"), std::string::npos)
      << st.status();
  fail = false;
  Poison(out.data(), out.bytes());
  st = p->Run({in.data(), out.data(), kItems}, 4);
  ASSERT_TRUE(st.ok()) << st.status();
  EXPECT_EQ(std::memcmp(out.data(), ref.data(), out.bytes()), 0);
}

// Two batch sizes alternating at one n, as graphs: each size is captured once (keyed by n
// alone before session 51, every batch was captured again), and every output is exact.
TEST_F(PipelineTest, TwoSizesAlternatingAtOneNAreEachCapturedOnce) {
  constexpr std::int64_t kItems = 200'003;
  auto rng = TestRng();
  PipelineOptions o = AddScalarOptions(kItems, 3, IssueOrder::kDepthFirst, 16);
  o.issue = IssueMode::kGraph;
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  ASSERT_TRUE(p.ok()) << p.status();
  auto in = *PinnedBuffer<float>::Create(kItems);
  auto out = *PinnedBuffer<float>::Create(kItems);
  std::vector<float> ref(kItems);
  int builds = 0;
  for (int b = 0; b < 20; ++b) {
    const std::int64_t items = b % 2 == 0 ? kItems : kItems / 2;
    FillRandom(in.span(), rng);
    AddScalarReference(in.span().first(static_cast<std::size_t>(items)),
                       std::span<float>(ref).first(static_cast<std::size_t>(items)), 3);
    Poison(out.data(), out.bytes());
    absl::StatusOr<BatchStats> st = p->Run({in.data(), out.data(), items}, 4);
    ASSERT_TRUE(st.ok()) << st.status();
    EXPECT_TRUE(st->graph);
    builds += st->graph_build_ms > 0.0 ? 1 : 0;
    ASSERT_EQ(std::memcmp(out.data(), ref.data(), static_cast<std::size_t>(items) * sizeof(float)),
              0)
        << "batch " << b;
  }
  EXPECT_EQ(builds, 2) << "each size captured once";
}

// Overlapped batches of two sizes (N and 0.6 N, a factor under 2: both samples): a sample's
// time is the window's time per item at its own items. Before session 51 it was the window's
// mean period said as the sampled batch's, 20 % low (or 33 % high) against the device's time
// per item over the run.
TEST_F(PipelineTest, AnOverlappedSampleOfMixedSizesIsTheWindowsTimePerItem) {
  constexpr std::int64_t kItems = 4'000'000;
  PipelineOptions o = AddScalarOptions(kItems, 50, IssueOrder::kDepthFirst, 16);
  o.max_in_flight = 2;
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  ASSERT_TRUE(p.ok()) << p.status();
  struct Alternating : BatchSource {
    int fills = 0;
    // The input as the ring holds it (the test is about times): the host keeps up.
    absl::StatusOr<std::int64_t> Fill(std::span<std::byte>, std::int64_t max_items) override {
      if (fills == 200) return 0;
      return fills++ % 2 == 0 ? max_items : max_items * 3 / 5;
    }
  } source;
  struct Sink : BatchSink {
    double periods = 0.0, items = 0.0;
    std::vector<std::pair<double, std::int64_t>> samples;  // observed_ms, items
    absl::Status Consume(std::span<const std::byte>, const BatchStats& st) override {
      if (st.index >= 40) {  // past the warm-up and the first settling
        periods += st.period_ms;
        items += static_cast<double>(st.items);
        if (st.settled && st.overlapped) samples.emplace_back(st.observed_ms, st.items);
      }
      return absl::OkStatus();
    }
  } sink;
  ContinuousOptions co;
  co.streams = 4;
  ASSERT_TRUE(p->RunContinuous(source, sink, co).ok());
  ASSERT_GE(sink.samples.size(), 10u);
  const double per_item = sink.periods / sink.items;
  std::vector<double> ratios;
  for (const auto& [ms, items] : sink.samples) {
    ratios.push_back(ms / static_cast<double>(items) / per_item);
  }
  std::sort(ratios.begin(), ratios.end());
  const double median = ratios[ratios.size() / 2];
  EXPECT_NEAR(median, 1.0, 0.1) << "a sample's time per item against the run's";
}

// Call by call a batch's streams do not wait for its start event; with batches in flight the
// event can complete after a tiny batch's work, behind a large batch's tail in the hardware
// queue it shares. Collect waits for it before reading it (session 51): every batch is
// collected, exact, and no elapsed time is negative.
TEST_F(PipelineTest, ATinyBatchBehindALargeOneIsCollectedWhole) {
  constexpr std::int64_t kItems = 4'000'000;
  auto rng = TestRng();
  PipelineOptions o = AddScalarOptions(kItems, 20, IssueOrder::kBreadthFirst, 32);
  o.max_in_flight = 2;
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  ASSERT_TRUE(p.ok()) << p.status();
  std::vector<PinnedBuffer<float>> ins, outs;
  std::vector<std::vector<float>> refs;
  for (int b = 0; b < 2; ++b) {
    ins.push_back(*PinnedBuffer<float>::Create(kItems));
    outs.push_back(*PinnedBuffer<float>::Create(kItems));
    refs.emplace_back(kItems);
    FillRandom(ins.back().span(), rng);
    AddScalarReference(ins.back().span(), std::span<float>(refs.back()), 20);
  }
  std::deque<std::pair<int, std::int64_t>> sent;
  int negative = 0, wrong = 0;
  const auto collect = [&] {
    absl::StatusOr<BatchStats> st = p->Collect();
    ASSERT_TRUE(st.ok()) << st.status();
    const auto [buf, items] = sent.front();
    sent.pop_front();
    negative += st->elapsed_ms < 0.0 ? 1 : 0;
    wrong += std::memcmp(outs[buf].data(), refs[buf].data(),
                         static_cast<std::size_t>(items) * sizeof(float)) != 0;
  };
  for (int b = 0; b < 400; ++b) {
    if (p->in_flight() == 2) collect();
    const int buf = b % 2;
    const std::int64_t items = buf == 0 ? kItems : 1;
    Poison(outs[buf].data(), static_cast<std::size_t>(items) * sizeof(float));  // not in flight
    ASSERT_TRUE(p->Submit({ins[buf].data(), outs[buf].data(), items}, buf == 0 ? 32 : 1).ok());
    sent.emplace_back(buf, items);
  }
  while (p->in_flight() > 0) collect();
  EXPECT_EQ(negative, 0);
  EXPECT_EQ(wrong, 0);
}

TEST_F(PipelineTest, GraphsFollowNewHostBuffersAndSizes) {
  constexpr std::int64_t kItems = 300'007;
  constexpr int kBuffers = 5;
  constexpr int kInFlight = 3;
  auto rng = TestRng();
  PipelineOptions o = AddScalarOptions(kItems, 3, IssueOrder::kDepthFirst, 16);
  o.issue = IssueMode::kGraph;
  o.max_in_flight = kInFlight;
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  ASSERT_TRUE(p.ok()) << p.status();
  std::vector<PinnedBuffer<float>> ins, outs;
  for (int b = 0; b < kBuffers; ++b) {
    ins.push_back(*PinnedBuffer<float>::Create(kItems));
    outs.push_back(*PinnedBuffer<float>::Create(kItems));
  }
  std::vector<std::vector<float>> refs(kBuffers, std::vector<float>(kItems));
  struct Sent {
    int buffer;
    std::int64_t items;
  };
  std::deque<Sent> sent;
  int builds = 0;
  int graphs = 0;
  auto collect = [&]() {
    absl::StatusOr<BatchStats> st = p->Collect();
    ASSERT_TRUE(st.ok()) << st.status();
    const Sent s = sent.front();
    sent.pop_front();
    EXPECT_TRUE(st->graph);
    graphs += st->graph ? 1 : 0;
    builds += st->graph_build_ms > 0.0 ? 1 : 0;
    EXPECT_EQ(std::memcmp(outs[s.buffer].data(), refs[s.buffer].data(),
                          static_cast<std::size_t>(s.items) * sizeof(float)),
              0)
        << "batch " << st->index << " n=" << st->streams << " buffer " << s.buffer;
  };
  constexpr int kBatches = 40;
  for (int b = 0; b < kBatches; ++b) {
    if (p->in_flight() == kInFlight) collect();
    const int buf = b % kBuffers;
    const std::int64_t items = b == kBatches - 1 ? kItems / 3 : kItems;  // the last is shorter
    FillRandom(ins[buf].span(), rng);
    AddScalarReference(ins[buf].span().first(static_cast<std::size_t>(items)),
                       std::span<float>(refs[buf]).first(static_cast<std::size_t>(items)), 3);
    Poison(outs[buf].data(), outs[buf].bytes());
    ASSERT_TRUE(p->Submit({ins[buf].data(), outs[buf].data(), items}, b < 20 ? 4 : 13).ok());
    sent.push_back({buf, items});
  }
  while (p->in_flight() > 0) collect();
  EXPECT_EQ(graphs, kBatches);
  // One capture per slot and n (3 x 2), and one for the shorter batch; never one per buffer.
  EXPECT_EQ(builds, kInFlight * 2 + 1);
}

// A launcher that makes copies of its own: the graph's copy nodes are not all the pipeline's,
// so new host buffers mean a new capture (slower, still right).
TEST_F(PipelineTest, GraphsWithTheLaunchersOwnCopiesAreCapturedAgainForNewBuffers) {
  constexpr std::int64_t kItems = 65'537;
  auto rng = TestRng();
  PipelineOptions o = AddScalarOptions(kItems, 1, IssueOrder::kBreadthFirst, 8);
  o.issue = IssueMode::kGraph;
  o.launch = [](const LaunchArgs& a) -> absl::Status {
    const cudaError_t e =
        cudaMemcpyAsync(a.out, a.in, static_cast<std::size_t>(a.num_items) * sizeof(float),
                        cudaMemcpyDeviceToDevice, a.stream);
    if (e != cudaSuccess) return absl::InternalError(cudaGetErrorString(e));
    return absl::OkStatus();
  };
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  ASSERT_TRUE(p.ok()) << p.status();
  std::vector<PinnedBuffer<float>> ins, outs;
  for (int b = 0; b < 2; ++b) {
    ins.push_back(*PinnedBuffer<float>::Create(kItems));
    outs.push_back(*PinnedBuffer<float>::Create(kItems));
  }
  for (int b = 0; b < 6; ++b) {
    const int buf = b % 2;
    FillRandom(ins[buf].span(), rng);
    Poison(outs[buf].data(), outs[buf].bytes());
    absl::StatusOr<BatchStats> st = p->Run({ins[buf].data(), outs[buf].data(), kItems}, 8);
    ASSERT_TRUE(st.ok()) << st.status();
    EXPECT_TRUE(st->graph);
    EXPECT_GT(st->graph_build_ms, 0.0) << "batch " << b << ": the buffers changed";
    EXPECT_EQ(std::memcmp(outs[buf].data(), ins[buf].data(), ins[buf].bytes()), 0)
        << "batch " << b;
  }
  // The same buffers again: replayed as captured.
  absl::StatusOr<BatchStats> again = p->Run({ins[1].data(), outs[1].data(), kItems}, 8);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->graph_build_ms, 0.0);
}

TEST(IssueModeTest, NamesRoundTripAndBadNamesAreNamed) {
  for (IssueMode m : {IssueMode::kStreams, IssueMode::kGraph}) {
    absl::StatusOr<IssueMode> back = ParseIssueMode(IssueModeName(m));
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(*back, m);
  }
  absl::StatusOr<IssueMode> bad = ParseIssueMode("graphs");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("'graphs'"), std::string::npos) << bad.status();
  EXPECT_NE(bad.status().message().find("streams, graph"), std::string::npos) << bad.status();
}

// Every option is checked before the device is read or calibrated: a misspelt model, bad
// adaptive options and an event log that cannot be opened are named whether or not there is a
// GPU (before session 50: "no CUDA device" without one, and with one only after a calibration,
// which may write the profile). Runs without a GPU (on CI) too.
TEST(PipelineOptionsTest, BadOptionsAreNamedBeforeTheDeviceIsRead) {
  const auto base = [] {
    PipelineOptions o;
    o.in_bytes_per_item = o.out_bytes_per_item = sizeof(float);
    o.max_items_per_batch = 1024;
    o.launch = [](const LaunchArgs&) { return absl::OkStatus(); };
    o.profile_path = ::testing::TempDir() + "/never_written_profile.toml";
    std::remove(o.profile_path.c_str());
    return o;
  };
  PipelineOptions o = base();
  o.model = "werkhoven-2cee";
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument) << p.status();
  EXPECT_NE(p.status().message().find("PipelineOptions::model: unknown model 'werkhoven-2cee'"),
            std::string::npos)
      << p.status();
  o = base();
  o.adaptive.exploration.budget = -5;
  p = StreamPipeline::Create(o);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument) << p.status();
  EXPECT_NE(p.status().message().find("budget"), std::string::npos) << p.status();
  o = base();
  o.event_log = "/nonexistent-dir/events.log";
  p = StreamPipeline::Create(o);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), absl::StatusCode::kPermissionDenied) << p.status();
  EXPECT_NE(p.status().message().find("/nonexistent-dir/events.log"), std::string::npos)
      << p.status();
  // Nothing was calibrated on their account: no profile written.
  EXPECT_FALSE(std::filesystem::exists(o.profile_path));
  // The caller's traits too (a NaN read "no CUDA device" without a GPU before session 50).
  o = base();
  DeviceTraits bad = DeviceTraits::H100Anchors();
  bad.stream_overhead_ms = std::numeric_limits<double>::quiet_NaN();
  o.traits = bad;
  p = StreamPipeline::Create(o);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument) << p.status();
  EXPECT_NE(p.status().message().find("PipelineOptions::traits"), std::string::npos)
      << p.status();
  // An event log opened early and Create failing after it (no GPU: Unavailable; with one, 32 TiB
  // of buffers: ResourceExhausted): a log this call created is removed, one that was there kept
  // as it was.
  const std::string log = ::testing::TempDir() + "/failed_create_events.log";
  std::remove(log.c_str());
  o = base();
  o.traits = DeviceTraits::H100Anchors();
  o.max_items_per_batch = std::int64_t{1} << 43;  // x 4 bytes each way
  o.event_log = log;
  p = StreamPipeline::Create(o);
  ASSERT_FALSE(p.ok());
  EXPECT_FALSE(std::filesystem::exists(log)) << p.status();
  { std::ofstream(log) << "an earlier run's events\n"; }
  p = StreamPipeline::Create(o);
  ASSERT_FALSE(p.ok());
  std::ifstream kept(log);
  std::string line;
  std::getline(kept, line);
  EXPECT_EQ(line, "an earlier run's events");
  std::remove(log.c_str());
}

// The host's share of a batch: call by call it grows with n; a graph is one launch.
// As a graph a batch is one launch on the host: after the capture the launcher is not called
// again (a launcher that burns 50 us of host time per call puts at least 0.4 ms into every
// call-by-call batch's issue time at n = 8, and into no replay's). How much faster the host
// issues a graph is the benchmarks' business (pipeline_bench BM_IssueMode): run 39 timed 0.37 ms
// as a graph against 0.36 call by call on a busy host, where run 34 had 0.19 against 0.41.
TEST_F(PipelineTest, GraphsDoNotCallTheLauncherOnReplay) {
  constexpr std::int64_t kItems = 1 << 12;
  constexpr int kN = 8;
  auto rng = TestRng();
  auto in = *PinnedBuffer<float>::Create(kItems);
  auto out = *PinnedBuffer<float>::Create(kItems);
  std::vector<float> ref(kItems);
  for (IssueMode mode : {IssueMode::kStreams, IssueMode::kGraph}) {
    SCOPED_TRACE(std::string(IssueModeName(mode)));
    PipelineOptions o = AddScalarOptions(kItems, 1, IssueOrder::kDepthFirst, 32);
    o.issue = mode;
    auto calls = std::make_shared<int>(0);
    const KernelLauncher add = AddScalarLauncher(1);
    o.launch = [calls, add](const LaunchArgs& a) -> absl::Status {
      ++*calls;
      const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(50);
      while (std::chrono::steady_clock::now() < until) {
      }
      return add(a);
    };
    absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
    ASSERT_TRUE(p.ok()) << p.status();
    for (int r = 0; r < 6; ++r) {
      FillRandom(in.span(), rng);
      AddScalarReference(in.span(), ref, 1);
      Poison(out.data(), out.bytes());
      const int before = *calls;
      absl::StatusOr<BatchStats> st = p->Run({in.data(), out.data(), kItems}, kN);
      ASSERT_TRUE(st.ok()) << st.status();
      ASSERT_EQ(std::memcmp(out.data(), ref.data(), out.bytes()), 0) << "batch " << r;
      const int called = *calls - before;
      if (mode == IssueMode::kStreams) {
        // Call by call the launcher runs once per sub-chunk, inside the issue time (the first
        // batch also checks it once).
        EXPECT_GE(called, kN) << "batch " << r;
        EXPECT_GE(st->issue_ms, kN * 0.05) << "batch " << r;
      } else if (r == 0) {
        // The capture calls it once per sub-chunk, counted as building the graph.
        EXPECT_GE(called, kN);
        EXPECT_GT(st->graph_build_ms, 0.0);
      } else {
        EXPECT_EQ(called, 0) << "batch " << r << ": a replay calls nothing";
        EXPECT_EQ(st->graph_build_ms, 0.0) << "batch " << r;
      }
    }
  }
}

TEST_F(PipelineTest, DifferentInputAndOutputSizes) {
  using testing::Triple;
  constexpr std::int64_t kItems = 77'777;
  auto rng = TestRng();
  std::vector<Triple> in(kItems);
  std::vector<std::uint64_t> out(kItems), ref(kItems);
  PipelineOptions o;
  o.in_bytes_per_item = sizeof(Triple);
  o.out_bytes_per_item = sizeof(std::uint64_t);
  o.max_items_per_batch = kItems;
  o.launch = testing::MulAddLauncher();
  o.max_streams = 16;
  o.traits = CalibratedTraits();
  for (IssueOrder order :
       {IssueOrder::kDepthFirst, IssueOrder::kBreadthFirst, IssueOrder::kEnginePerStream}) {
    o.order = order;
    absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
    ASSERT_TRUE(p.ok()) << p.status();
    for (int n : {1, 3, 16}) {
      for (std::int64_t i = 0; i < kItems; ++i) {
        in[i] = {static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng()),
                 static_cast<std::uint32_t>(rng())};
        ref[i] = static_cast<std::uint64_t>(in[i].a) * in[i].b + in[i].c;
      }
      Poison(out.data(), out.size() * sizeof(std::uint64_t));
      absl::StatusOr<BatchStats> st = p->Run({in.data(), out.data(), kItems}, n);
      ASSERT_TRUE(st.ok()) << st.status();
      EXPECT_EQ(out, ref) << "n=" << n << " " << IssueOrderName(order);
    }
  }
}

// One batch at a time, the first batch at an n after batches at another (or after the
// measured one) runs cold: it is not a sample and its issue time is not reported; the
// following batches at that n are. So a visit of a neighbour is one batch longer than its
// samples (run 45's sweeps: visits issued up to 30 % slower than the same n in rounds).
TEST_F(PipelineTest, OneAtATimeTheFirstBatchAtAnNIsNotASample) {
  constexpr std::int64_t kItems = 1 << 20;
  auto rng = TestRng();
  auto in = *PinnedBuffer<float>::Create(kItems);
  auto out = *PinnedBuffer<float>::Create(kItems);
  std::vector<float> ref(kItems);
  FillRandom(in.span(), rng);
  AddScalarReference(in.span(), ref, 1);
  PipelineOptions o = AddScalarOptions(kItems, 1, IssueOrder::kDepthFirst, 32);
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  ASSERT_TRUE(p.ok()) << p.status();
  std::vector<BatchStats> log;
  for (int b = 0; b < 80; ++b) {
    Poison(out.data(), out.bytes());
    absl::StatusOr<BatchStats> st = p->Run({in.data(), out.data(), kItems});
    ASSERT_TRUE(st.ok()) << st.status();
    ASSERT_EQ(std::memcmp(out.data(), ref.data(), out.bytes()), 0) << "batch " << b;
    log.push_back(*st);
  }
  int visits = 0;
  int full_visits = 0;  // a cold batch, then samples_per_candidate (2) samples at that n
  for (std::size_t i = 1; i < log.size(); ++i) {
    const BatchStats& b = log[i];
    if (b.kind != PlanKind::kStreamed && b.kind != PlanKind::kExplore) continue;
    const BatchStats& prev = log[i - 1];
    const bool first = prev.streams != b.streams || prev.kind == PlanKind::kMeasure ||
                       prev.kind == PlanKind::kWarmup;
    EXPECT_EQ(b.settled, !first) << "batch " << i << " n=" << b.streams;
    if (b.kind != PlanKind::kExplore || !first) continue;
    ++visits;
    if (i + 2 < log.size() && log[i + 1].kind == PlanKind::kExplore &&
        log[i + 2].kind == PlanKind::kExplore && log[i + 1].streams == b.streams &&
        log[i + 2].streams == b.streams && log[i + 1].settled && log[i + 2].settled) {
      ++full_visits;
    }
  }
  ASSERT_GE(visits, 1) << "no exploration visit in 80 batches";
  // A visit is one batch longer than its samples (a re-derivation may cut one short).
  EXPECT_GE(full_visits, 1) << "of " << visits << " visits";
}

TEST_F(PipelineTest, AutomaticModeWarmsUpMeasuresThenStreams) {
  constexpr std::int64_t kItems = 4 << 20;  // 16 MiB each way
  auto rng = TestRng();
  auto in = *PinnedBuffer<float>::Create(kItems);
  auto out = *PinnedBuffer<float>::Create(kItems);
  std::vector<float> ref(kItems);
  // Call by call, and as graphs: there the measured batch is a graph too (n = 1 with the
  // component events as nodes), measured the way the streamed batches run.
  for (IssueMode mode : {IssueMode::kStreams, IssueMode::kGraph}) {
    SCOPED_TRACE(std::string(IssueModeName(mode)));
    PipelineOptions o = AddScalarOptions(kItems, 1, IssueOrder::kDepthFirst, 32);
    o.issue = mode;
    absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
    ASSERT_TRUE(p.ok()) << p.status();
    for (int batch = 0; batch < 4; ++batch) {
      FillRandom(in.span(), rng);
      AddScalarReference(in.span(), ref, 1);
      Poison(out.data(), out.bytes());
      absl::StatusOr<BatchStats> st = p->Run({in.data(), out.data(), kItems});
      ASSERT_TRUE(st.ok()) << st.status();
      ASSERT_EQ(std::memcmp(out.data(), ref.data(), out.bytes()), 0) << "batch " << batch;
      if (batch == 0) {
        // The first call warms up and measures the components on this batch, non-streamed.
        EXPECT_EQ(st->kind, PlanKind::kMeasure);
        EXPECT_EQ(st->streams, 1);
        EXPECT_GT(st->components.h2d_ms, 0.0);
        EXPECT_GT(st->components.kernel_ms, 0.0);
        EXPECT_GT(st->components.d2h_ms, 0.0);
        EXPECT_NEAR(st->components.total_ms(), st->elapsed_ms, 0.1 * st->elapsed_ms);
      } else {
        // Streamed with the controller's choice for the measured components (no timing is
        // asserted: speed is the benchmarks' business).
        EXPECT_TRUE(st->kind == PlanKind::kStreamed || st->kind == PlanKind::kExplore);
        if (st->kind == PlanKind::kStreamed) {
          EXPECT_EQ(st->streams, p->chosen_streams());
        }
        EXPECT_GT(st->predicted_ms, 0.0);
      }
      EXPECT_EQ(st->graph, mode == IssueMode::kGraph) << "batch " << batch;
    }
    // A re-measurement on other host buffers: as a graph, the measured batch's copy nodes are
    // re-pointed (no new capture), and its output is still right.
    auto in2 = *PinnedBuffer<float>::Create(kItems);
    auto out2 = *PinnedBuffer<float>::Create(kItems);
    FillRandom(in2.span(), rng);
    AddScalarReference(in2.span(), ref, 1);
    Poison(out2.data(), out2.bytes());
    p->RequestRemeasure("test");
    absl::StatusOr<BatchStats> st = p->Run({in2.data(), out2.data(), kItems});
    ASSERT_TRUE(st.ok()) << st.status();
    EXPECT_EQ(st->kind, PlanKind::kMeasure);
    EXPECT_EQ(st->graph, mode == IssueMode::kGraph);
    EXPECT_EQ(st->graph_build_ms, 0.0);
    EXPECT_GT(st->components.h2d_ms, 0.0);
    EXPECT_GT(st->components.kernel_ms, 0.0);
    EXPECT_GT(st->components.d2h_ms, 0.0);
    EXPECT_NEAR(st->components.total_ms(), st->elapsed_ms, 0.1 * st->elapsed_ms);
    ASSERT_EQ(std::memcmp(out2.data(), ref.data(), out2.bytes()), 0);
  }
}

// The measurement's kernel halves: the kernel launched over each half of the items in turn,
// call by call and as a graph (a graph of its own beside the measured batch's), on an odd item
// count; the output is the whole batch's, the first half's time is reported and both halves'
// together as the kernel. One item cannot be halved: it runs whole and reports no half.
// Automatic mode takes the half into its reference.
TEST_F(PipelineTest, TheKernelsHalvesAreTimedAndTheOutputIsWhole) {
  constexpr std::int64_t kItems = (1 << 20) + 7;
  constexpr int kIters = 40;
  auto rng = TestRng();
  auto in = *PinnedBuffer<float>::Create(kItems);
  auto out = *PinnedBuffer<float>::Create(kItems);
  std::vector<float> ref(kItems);
  for (IssueMode mode : {IssueMode::kStreams, IssueMode::kGraph}) {
    SCOPED_TRACE(std::string(IssueModeName(mode)));
    PipelineOptions o = AddScalarOptions(kItems, kIters, IssueOrder::kDepthFirst, 8);
    o.issue = mode;
    absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
    ASSERT_TRUE(p.ok()) << p.status();
    for (int rep = 0; rep < 3; ++rep) {
      for (const std::int64_t items : {kItems, std::int64_t{1}}) {
        FillRandom(in.span(), rng);
        AddScalarReference(in.span(), ref, kIters);
        Poison(out.data(), out.bytes());
        absl::StatusOr<BatchStats> st = p->MeasureKernelHalves({in.data(), out.data(), items});
        ASSERT_TRUE(st.ok()) << st.status();
        ASSERT_EQ(std::memcmp(out.data(), ref.data(), static_cast<std::size_t>(items) * 4), 0)
            << "items " << items;
        EXPECT_EQ(st->kind, PlanKind::kMeasureHalves);
        EXPECT_EQ(st->streams, 1);
        EXPECT_EQ(st->graph, mode == IssueMode::kGraph);
        EXPECT_GT(st->components.h2d_ms, 0.0);
        EXPECT_GT(st->components.kernel_ms, 0.0);
        EXPECT_GT(st->components.d2h_ms, 0.0);
        if (items == 1) {
          EXPECT_EQ(st->components.kernel_half_ms, 0.0);
        } else {
          EXPECT_GT(st->components.kernel_half_ms, 0.0);
          EXPECT_LT(st->components.kernel_half_ms, st->components.kernel_ms);
        }
        // The whole measured batch, between the same kinds of events, computes the same.
        Poison(out.data(), out.bytes());
        absl::StatusOr<BatchStats> whole = p->MeasureComponents({in.data(), out.data(), items});
        ASSERT_TRUE(whole.ok()) << whole.status();
        ASSERT_EQ(std::memcmp(out.data(), ref.data(), static_cast<std::size_t>(items) * 4), 0);
        EXPECT_EQ(whole->components.kernel_half_ms, 0.0);
      }
    }
    // Automatic mode: the first Run runs the warm-up, the halves and the measurement, and
    // returns the measurement; the reference holds the half.
    absl::StatusOr<StreamPipeline> a = StreamPipeline::Create(o);
    ASSERT_TRUE(a.ok()) << a.status();
    FillRandom(in.span(), rng);
    AddScalarReference(in.span(), ref, kIters);
    Poison(out.data(), out.bytes());
    absl::StatusOr<BatchStats> st = a->Run({in.data(), out.data(), kItems});
    ASSERT_TRUE(st.ok()) << st.status();
    ASSERT_EQ(std::memcmp(out.data(), ref.data(), out.bytes()), 0);
    EXPECT_EQ(st->kind, PlanKind::kMeasure);
    ASSERT_EQ(st->events.size(), 1u);
    EXPECT_EQ(st->events[0].kind, EventKind::kInitial);
    ASSERT_TRUE(a->controller().reference().has_value());
    EXPECT_GT(a->controller().reference()->components.kernel_half_ms, 0.0);
  }
}

TEST_F(PipelineTest, SubmitAndCollectOverlapBatchesInOrder) {
  constexpr std::int64_t kItems = 1 << 20;
  constexpr int kBatches = 7;
  auto rng = TestRng();
  PipelineOptions o = AddScalarOptions(kItems, 3, IssueOrder::kDepthFirst, 8);
  o.max_in_flight = 3;
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  ASSERT_TRUE(p.ok()) << p.status();
  std::vector<PinnedBuffer<float>> ins, outs;
  std::vector<std::vector<float>> refs;
  for (int b = 0; b < kBatches; ++b) {
    ins.push_back(*PinnedBuffer<float>::Create(kItems));
    outs.push_back(*PinnedBuffer<float>::Create(kItems));
    FillRandom(ins.back().span(), rng);
    Poison(outs.back().data(), outs.back().bytes());
    refs.emplace_back(kItems);
    AddScalarReference(ins.back().span(), refs.back(), 3);
  }
  int collected = 0;
  for (int b = 0; b < kBatches; ++b) {
    if (p->in_flight() == 3) {
      absl::StatusOr<BatchStats> st = p->Collect();
      ASSERT_TRUE(st.ok()) << st.status();
      EXPECT_EQ(st->index, collected++);
    }
    ASSERT_TRUE(p->Submit({ins[b].data(), outs[b].data(), kItems}, 1 + b % 4).ok());
  }
  // A fourth batch in flight is refused, clearly.
  absl::Status full = p->Submit({ins[0].data(), outs[0].data(), kItems}, 2);
  EXPECT_EQ(full.code(), absl::StatusCode::kFailedPrecondition);
  while (p->in_flight() > 0) {
    absl::StatusOr<BatchStats> st = p->Collect();
    ASSERT_TRUE(st.ok()) << st.status();
    EXPECT_EQ(st->index, collected++);
    EXPECT_LE(st->period_ms, st->elapsed_ms + 1e-3);
  }
  for (int b = 0; b < kBatches; ++b) {
    EXPECT_EQ(std::memcmp(outs[b].data(), refs[b].data(), outs[b].bytes()), 0) << "batch " << b;
  }
  EXPECT_EQ(p->Collect().status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST_F(PipelineTest, TimelineHasEverySubChunkInOrder) {
  constexpr std::int64_t kItems = 1 << 20;
  auto in = *PinnedBuffer<float>::Create(kItems);
  auto out = *PinnedBuffer<float>::Create(kItems);
  for (IssueMode mode : {IssueMode::kStreams, IssueMode::kGraph})
  for (IssueOrder order :
       {IssueOrder::kDepthFirst, IssueOrder::kBreadthFirst, IssueOrder::kEnginePerStream}) {
    SCOPED_TRACE(std::string(IssueOrderName(order)) + " " + std::string(IssueModeName(mode)));
    PipelineOptions o = AddScalarOptions(kItems, 50, order, 8);
    o.record_timeline = true;
    o.issue = mode;
    absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
    ASSERT_TRUE(p.ok()) << p.status();
    absl::StatusOr<BatchStats> st = p->Run({in.data(), out.data(), kItems}, 8);
    ASSERT_TRUE(st.ok()) << st.status();
    EXPECT_EQ(st->graph, mode == IssueMode::kGraph);
    ASSERT_TRUE(st->timeline.has_value());
    const BatchTimeline& tl = *st->timeline;
    ASSERT_EQ(tl.spans.size(), 24u);
    for (int k = 0; k < 8; ++k) {
      const TimelineSpan& h2d = tl.spans[3 * k];
      const TimelineSpan& ker = tl.spans[3 * k + 1];
      const TimelineSpan& d2h = tl.spans[3 * k + 2];
      // Each chunk's three ops, in order, on its stream (engine-per-stream: one stream per op).
      const TimelineOp ops[] = {TimelineOp::kCopyIn, TimelineOp::kKernel, TimelineOp::kCopyOut};
      for (int i = 0; i < 3; ++i) {
        const TimelineSpan& span = tl.spans[static_cast<std::size_t>(3 * k + i)];
        EXPECT_EQ(span.op, ops[i]) << "chunk " << k << " op " << i;
        EXPECT_EQ(span.chunk, k) << "op " << i;
        EXPECT_EQ(span.stream, order == IssueOrder::kEnginePerStream ? i : k) << "op " << i;
        EXPECT_LE(span.start_ms, span.end_ms) << "chunk " << k << " op " << i;
      }
      EXPECT_LE(h2d.start_ms, h2d.end_ms);
      EXPECT_LE(h2d.end_ms, ker.end_ms);  // a chunk's kernel ends after its copy-in
      EXPECT_LE(ker.end_ms, d2h.end_ms);
      EXPECT_GE(h2d.start_ms, tl.start_ms - 1e-3);
      EXPECT_LE(d2h.end_ms, tl.end_ms + 1e-3);
    }
    const std::string json = ChromeTraceJson(std::span<const BatchTimeline>(&tl, 1));
    EXPECT_NE(json.find("\"copy-in 7\""), std::string::npos);
  }
}

// A call-by-call batch's streams do not wait for its start event (only a held or graph batch
// forks from the origin), and past 8 streams the streams share the device's 8 hardware queues
// with the origin (CUDA_DEVICE_MAX_CONNECTIONS). Session 48's review suspected that a start
// event queued behind other work is timed after its batch's first ops. Runs 273 and 277 (H200)
// showed it: with 2 batches in flight, breadth-first, spans started up to 0.34 ms before their
// batch's start event (so that batch's elapsed_ms came out short), in 18 of 180 runs of this
// test's breadth-first cases; with CUDA_DEVICE_MAX_CONNECTIONS=32, in none. What holds, and is
// checked here (run 277: 60 repeats, the second check exercised 19 times):
//  - one batch at a time (max_in_flight 1), nothing is queued before the start event: it
//    precedes every op of its batch;
//  - with batches in flight together, a start event is held back only behind the batches
//    before, so it is never after the end of the batch before: a period, end - max(start,
//    end before), which the controller takes as its sample there, does not move.
TEST_F(PipelineTest, TheStartEventBoundsABatchAloneAndNeverItsPeriod) {
  constexpr std::int64_t kItems = 1 << 22;
  constexpr int kBatches = 24;
  auto in = *PinnedBuffer<float>::Create(kItems);
  auto out = *PinnedBuffer<float>::Create(kItems);
  auto rng = TestRng();
  FillRandom(in.span(), rng);
  for (int in_flight : {1, 2})
  for (IssueOrder order : {IssueOrder::kDepthFirst, IssueOrder::kBreadthFirst})
  for (int n : {16, 32, 64}) {
    const std::string where = absl::StrCat(std::string(IssueOrderName(order)), " n=", n,
                                           " max_in_flight=", in_flight);
    SCOPED_TRACE(where);
    PipelineOptions o = AddScalarOptions(kItems, 20, order, 64);
    o.max_in_flight = in_flight;
    o.record_timeline = true;
    absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
    ASSERT_TRUE(p.ok()) << p.status();
    int early = 0;
    int spans = 0;
    int late_starts = 0;    // start events after the end of the batch before
    double worst_ms = 0.0;  // how far the earliest op came before the start event
    double end_before = -1.0;
    const auto check = [&](const BatchStats& st) {
      if (st.index < 2) return;  // warm-up
      ASSERT_TRUE(st.timeline.has_value());
      const BatchTimeline& tl = *st.timeline;
      bool batch_early = false;
      for (const TimelineSpan& span : tl.spans) {
        ++spans;
        const double before = tl.start_ms - span.start_ms;
        if (before > 1e-3) {
          ++early;
          batch_early = true;
        }
        worst_ms = std::max(worst_ms, before);
      }
      if (batch_early && end_before >= 0.0 && tl.start_ms > end_before + 1e-3) ++late_starts;
      end_before = std::max(end_before, tl.end_ms);  // the latest end before, as period_ms
    };
    for (int b = 0; b < kBatches + 2; ++b) {
      if (p->in_flight() == in_flight) {
        absl::StatusOr<BatchStats> st = p->Collect();
        ASSERT_TRUE(st.ok()) << st.status();
        check(*st);
      }
      ASSERT_TRUE(p->Submit({in.data(), out.data(), kItems}, n).ok());
    }
    while (p->in_flight() > 0) {
      absl::StatusOr<BatchStats> st = p->Collect();
      ASSERT_TRUE(st.ok()) << st.status();
      check(*st);
    }
    std::printf("[ start event ] %s: %d of %d spans start before their batch's start event, "
                "by at most %.4f ms; %d of those batches' start events after the end of the "
                "batch before\n",
                where.c_str(), early, spans, worst_ms, late_starts);
    if (in_flight == 1) {
      EXPECT_EQ(early, 0) << "by at most " << worst_ms << " ms";
    }
    EXPECT_EQ(late_starts, 0);
  }
}

TEST_F(PipelineTest, BatchesReportTheHostsIssueTime) {
  // Tiny sub-chunks: the host's enqueueing is what the GPU waits for (T4), so the issue time
  // grows with n and, at 32 sub-chunks, covers most of the batch's device time.
  constexpr std::int64_t kItems = 1 << 12;
  auto in = *PinnedBuffer<float>::Create(kItems);
  auto out = *PinnedBuffer<float>::Create(kItems);
  absl::StatusOr<StreamPipeline> p =
      StreamPipeline::Create(AddScalarOptions(kItems, 1, IssueOrder::kDepthFirst, 32));
  ASSERT_TRUE(p.ok()) << p.status();
  auto median_issue = [&](int n) {
    std::vector<double> issue, ratio;
    for (int r = 0; r < 15; ++r) {
      absl::StatusOr<BatchStats> st = p->Run({in.data(), out.data(), kItems}, n);
      EXPECT_TRUE(st.ok()) << st.status();
      if (!st.ok()) return std::pair{0.0, 0.0};
      EXPECT_GT(st->issue_ms, 0.0);
      issue.push_back(st->issue_ms);
      ratio.push_back(st->issue_ms / st->elapsed_ms);
    }
    std::sort(issue.begin(), issue.end());
    std::sort(ratio.begin(), ratio.end());
    return std::pair{issue[7], ratio[7]};
  };
  (void)median_issue(32);  // warm-up: lazy loading, first use of the streams
  const double issue2 = median_issue(2).first;
  const auto [issue32, ratio32] = median_issue(32);
  // 30 more sub-chunks at 8-16 us each on the H100's host (run 30); at least 2 us each anywhere.
  EXPECT_GT(issue32, issue2 + 30 * 0.002) << issue2 << " ms at n=2, " << issue32 << " at 32";
  EXPECT_GT(ratio32, 0.5) << "issue / device time at n=32";
}

// Held until issued (RunHeld), a batch's time is the device's alone. A launcher that sleeps 2 ms
// on the host before each sub-chunk's kernel: call by call the GPU waits for it, and a batch of
// 8 sub-chunks lasts about 7 sleeps; held, the same batch runs without the gaps (in every
// order: each stream the batch uses must wait for the gate).
class HeldOrder : public PipelineTest, public ::testing::WithParamInterface<IssueOrder> {};

TEST_P(HeldOrder, HeldBatchesTimeTheDeviceWithoutTheHostsGaps) {
  constexpr std::int64_t kItems = 1 << 16;
  constexpr int kIters = 3;
  constexpr int kN = 8;
  constexpr auto kSleep = std::chrono::milliseconds(2);
  auto in = *PinnedBuffer<float>::Create(kItems);
  auto out = *PinnedBuffer<float>::Create(kItems);
  std::vector<float> ref(kItems);
  auto rng = TestRng();
  PipelineOptions o = AddScalarOptions(kItems, kIters, GetParam(), kN);
  o.launch = [inner = AddScalarLauncher(kIters), kSleep](const LaunchArgs& a) {
    std::this_thread::sleep_for(kSleep);
    return inner(a);
  };
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  ASSERT_TRUE(p.ok()) << p.status();
  const HostBatch batch{in.data(), out.data(), kItems};
  for (int w = 0; w < 2; ++w) ASSERT_TRUE(p->Run(batch, kN).ok());
  std::vector<double> wall, held;
  for (int r = 0; r < 5; ++r) {
    for (bool hold : {false, true}) {
      FillRandom(in.span(), rng);
      AddScalarReference(in.span(), ref, kIters);
      Poison(out.data(), out.bytes());
      absl::StatusOr<BatchStats> st = hold ? p->RunHeld(batch, kN) : p->Run(batch, kN);
      ASSERT_TRUE(st.ok()) << st.status();
      ASSERT_EQ(std::memcmp(out.data(), ref.data(), out.bytes()), 0) << "held " << hold;
      EXPECT_EQ(st->held, hold);
      EXPECT_EQ(st->streams, kN);
      EXPECT_GE(st->issue_ms, kN * 2.0) << "the host slept in both";
      (hold ? held : wall).push_back(st->elapsed_ms);
    }
  }
  std::sort(wall.begin(), wall.end());
  std::sort(held.begin(), held.end());
  EXPECT_GT(wall[2], (kN - 1) * 2.0 * 0.9) << "call by call the GPU waits for the host";
  EXPECT_LT(held[2], 0.25 * wall[2]) << "held, it does not: " << held[2] << " ms";
}

INSTANTIATE_TEST_SUITE_P(Orders, HeldOrder,
                         ::testing::Values(IssueOrder::kDepthFirst, IssueOrder::kBreadthFirst,
                                           IssueOrder::kEnginePerStream),
                         [](const ::testing::TestParamInfo<IssueOrder>& i) {
                           std::string s(IssueOrderName(i.param));
                           for (char& ch : s) {
                             if (ch == '-') ch = '_';
                           }
                           return s;
                         });

// Every issue order and mode, held, computes the batch right (the streams of a call-by-call
// batch wait for the gate; a graph is launched behind it on the origin).
TEST_F(PipelineTest, HeldBatchesAreRightInEveryOrderAndMode) {
  constexpr std::int64_t kItems = 100'003;
  constexpr int kIters = 5;
  auto in = *PinnedBuffer<float>::Create(kItems);
  auto out = *PinnedBuffer<float>::Create(kItems);
  std::vector<float> ref(kItems);
  auto rng = TestRng();
  for (IssueMode mode : {IssueMode::kStreams, IssueMode::kGraph}) {
    for (IssueOrder order :
         {IssueOrder::kDepthFirst, IssueOrder::kBreadthFirst, IssueOrder::kEnginePerStream}) {
      PipelineOptions o = AddScalarOptions(kItems, kIters, order, 64);
      o.issue = mode;
      absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
      ASSERT_TRUE(p.ok()) << p.status();
      for (int n : {1, 3, 8, 64}) {
        SCOPED_TRACE(std::string(IssueModeName(mode)) + " " + std::string(IssueOrderName(order)) +
                     " n=" + std::to_string(n));
        FillRandom(in.span(), rng);
        AddScalarReference(in.span(), ref, kIters);
        Poison(out.data(), out.bytes());
        absl::StatusOr<BatchStats> st = p->RunHeld({in.data(), out.data(), kItems}, n);
        ASSERT_TRUE(st.ok()) << st.status();
        EXPECT_TRUE(st->held);
        EXPECT_EQ(st->graph, mode == IssueMode::kGraph);
        EXPECT_GT(st->elapsed_ms, 0.0);
        ASSERT_EQ(std::memcmp(out.data(), ref.data(), out.bytes()), 0);
      }
      // Unheld batches after held ones run as before.
      ASSERT_TRUE(p->Run({in.data(), out.data(), kItems}, 8).ok());
    }
  }
}

// A host that takes longer than the gate's 1 s to issue the batch: the gate opens itself, the
// batch completes right, and RunHeld says it was not held (its time is not the device's alone);
// the pipeline goes on.
TEST_F(PipelineTest, AGateThatOpensItselfIsReportedAndTheBatchIsStillRight) {
  constexpr std::int64_t kItems = 1 << 12;
  auto in = *PinnedBuffer<float>::Create(kItems);
  auto out = *PinnedBuffer<float>::Create(kItems);
  std::vector<float> ref(kItems);
  auto rng = TestRng();
  auto slow = std::make_shared<bool>(false);
  PipelineOptions o = AddScalarOptions(kItems, 2, IssueOrder::kDepthFirst, 4);
  o.launch = [inner = AddScalarLauncher(2), slow](const LaunchArgs& a) {
    if (*slow) std::this_thread::sleep_for(std::chrono::milliseconds(1300));
    return inner(a);
  };
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  ASSERT_TRUE(p.ok()) << p.status();
  const HostBatch batch{in.data(), out.data(), kItems};
  ASSERT_TRUE(p->Run(batch, 1).ok());
  FillRandom(in.span(), rng);
  AddScalarReference(in.span(), ref, 2);
  Poison(out.data(), out.bytes());
  *slow = true;
  absl::StatusOr<BatchStats> st = p->RunHeld(batch, 1);
  *slow = false;
  ASSERT_TRUE(st.ok()) << st.status();
  EXPECT_FALSE(st->held) << "the gate opened itself before the host had issued the batch";
  EXPECT_GE(st->issue_ms, 1300.0);
  EXPECT_EQ(std::memcmp(out.data(), ref.data(), out.bytes()), 0);
  st = p->RunHeld(batch, 2);
  ASSERT_TRUE(st.ok()) << st.status();
  EXPECT_TRUE(st->held);
  EXPECT_TRUE(p->Run(batch, 4).ok());
}

TEST_F(PipelineTest, BadBatchesAreClearErrors) {
  constexpr std::int64_t kItems = 1000;
  std::vector<float> in(kItems), out(kItems);
  absl::StatusOr<StreamPipeline> p =
      StreamPipeline::Create(AddScalarOptions(kItems, 1, IssueOrder::kDepthFirst, 8));
  ASSERT_TRUE(p.ok()) << p.status();
  struct Case {
    HostBatch batch;
    int n;
    const char* message;
  };
  const Case cases[] = {
      {{in.data(), out.data(), 0}, 1, "the batch has 0 items"},
      {{in.data(), out.data(), kItems + 1}, 1, "at most 1000"},
      {{nullptr, out.data(), kItems}, 1, "input pointer is null"},
      {{in.data(), nullptr, kItems}, 1, "output pointer is null"},
      {{in.data(), out.data(), kItems}, 0, "0 streams requested"},
      {{in.data(), out.data(), kItems}, 9, "9 streams requested; the pool has 1 to 8"},
      {{in.data(), out.data(), 5}, 6, "6 streams requested for 5 items"},
      {{in.data(), out.data(), kItems, 100, 0}, 1, "the input buffer holds 100 bytes; 1000 items need 4000"},
      {{in.data(), out.data(), kItems, 0, 3999}, 1, "the output buffer holds 3999 bytes"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<BatchStats> st = p->Run(c.batch, c.n);
    ASSERT_FALSE(st.ok()) << c.message;
    EXPECT_EQ(st.status().code(), absl::StatusCode::kInvalidArgument) << st.status();
    EXPECT_NE(st.status().message().find(c.message), std::string::npos) << st.status();
    EXPECT_NE(st.status().message().find("batch "), std::string::npos) << st.status();
  }
  // The pipeline still works after the refusals.
  EXPECT_TRUE(p->Run({in.data(), out.data(), kItems}, 4).ok());
}

// A device buffer passed as a batch's host buffer was taken for pageable memory and staged with
// the host's memcpy, which faults: the process died on a caller's mistake. Now it is refused.
TEST_F(PipelineTest, DeviceMemoryAsAHostBufferIsRefused) {
  constexpr std::int64_t kItems = 1000;
  auto rng = TestRng();
  std::vector<float> in(kItems), out(kItems), ref(kItems);
  auto dev = *DeviceBuffer<float>::Create(kItems);
  absl::StatusOr<StreamPipeline> p =
      StreamPipeline::Create(AddScalarOptions(kItems, 1, IssueOrder::kDepthFirst, 8));
  ASSERT_TRUE(p.ok()) << p.status();
  for (const bool in_on_device : {true, false}) {
    const HostBatch b{in_on_device ? static_cast<const void*>(dev.data()) : in.data(),
                      in_on_device ? static_cast<void*>(out.data()) : dev.data(), kItems};
    absl::StatusOr<BatchStats> st = p->Run(b, 4);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.status().code(), absl::StatusCode::kInvalidArgument) << st.status();
    EXPECT_NE(st.status().message().find(in_on_device ? "HostBatch.in is device memory"
                                                      : "HostBatch.out is device memory"),
              std::string::npos)
        << st.status();
    EXPECT_NE(st.status().message().find("batch "), std::string::npos) << st.status();
    EXPECT_EQ(p->in_flight(), 0);
  }
  // Automatic mode refuses it too, and the pipeline works afterwards (pageable buffers, staged).
  EXPECT_EQ(p->Run({dev.data(), out.data(), kItems}).status().code(),
            absl::StatusCode::kInvalidArgument);
  FillRandom(in, rng);
  Poison(out.data(), out.size() * sizeof(float));
  ASSERT_TRUE(p->Run({in.data(), out.data(), kItems}, 4).ok());
  AddScalarReference(in, ref, 1);
  EXPECT_TRUE(std::equal(out.begin(), out.end(), ref.begin()));
}

// A batch that fails while it is issued took a batch index but not a slot, and the slot's next
// batch picked its events by index: with one batch in flight it recorded its start over the
// start event of the batch before it, which the pipeline's clock still held, so it read as
// overlapping that batch and its period as about 0 (a bogus sample for the controller).
TEST_F(PipelineTest, ABatchThatFailsWhileIssuedLeavesTheNextBatchsTimingRight) {
  constexpr std::int64_t kItems = 1 << 20;
  auto in_buf = *PinnedBuffer<float>::Create(kItems);
  auto out_buf = *PinnedBuffer<float>::Create(kItems);
  auto rng = TestRng();
  FillRandom(in_buf.span(), rng);
  bool fail = false;
  PipelineOptions o = AddScalarOptions(kItems, 20, IssueOrder::kDepthFirst, 8);
  ASSERT_EQ(o.max_in_flight, 1);
  const KernelLauncher good = AddScalarLauncher(20);
  o.launch = [&](const LaunchArgs& a) -> absl::Status {
    if (fail && a.first_item > 0) return absl::AbortedError("refused");
    return good(a);
  };
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  ASSERT_TRUE(p.ok()) << p.status();
  const HostBatch b{in_buf.data(), out_buf.data(), kItems};
  std::vector<float> ref(kItems);
  AddScalarReference(in_buf.span(), ref, 20);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(p->Run(b, 4).ok());  // warm, and the clock started
  for (int round = 0; round < 3; ++round) {
    fail = true;
    ASSERT_FALSE(p->Run(b, 4).ok());
    fail = false;
    for (int i = 0; i < 2; ++i) {
      Poison(out_buf.data(), out_buf.bytes());
      absl::StatusOr<BatchStats> st = p->Run(b, 4);
      ASSERT_TRUE(st.ok()) << st.status();
      // One batch at a time never overlaps another: its period is its own time.
      EXPECT_FALSE(st->overlapped) << "round " << round << ", batch " << st->index;
      EXPECT_GT(st->elapsed_ms, 0.0);
      EXPECT_NEAR(st->period_ms, st->elapsed_ms, 1e-3) << "batch " << st->index;
      EXPECT_EQ(std::memcmp(out_buf.data(), ref.data(), out_buf.bytes()), 0);
    }
  }
}

// An error the caller's own code left between batches (here a cudaMalloc that failed, which is
// not sticky) is not a launch's: Submit clears it once before the batch's launchers run, so
// the batch runs and is right, call by call and as a graph (session 48; before, the launch
// check read the stale error and refused the batch).
TEST_F(PipelineTest, AnErrorTheCallerLeftIsNotTheNextBatchs) {
  constexpr std::int64_t kItems = 1 << 16;
  auto in_buf = *PinnedBuffer<float>::Create(kItems);
  auto out_buf = *PinnedBuffer<float>::Create(kItems);
  auto rng = TestRng();
  FillRandom(in_buf.span(), rng);
  std::vector<float> ref(kItems);
  AddScalarReference(in_buf.span(), ref, 5);
  const HostBatch b{in_buf.data(), out_buf.data(), kItems};
  for (IssueMode mode : {IssueMode::kStreams, IssueMode::kGraph}) {
    SCOPED_TRACE(IssueModeName(mode));
    PipelineOptions o = AddScalarOptions(kItems, 5, IssueOrder::kDepthFirst, 8);
    o.issue = mode;
    absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
    ASSERT_TRUE(p.ok()) << p.status();
    ASSERT_TRUE(p->Run(b, 4).ok());
    for (int round = 0; round < 2; ++round) {
      void* d = nullptr;
      ASSERT_EQ(cudaMalloc(&d, std::size_t{1} << 62), cudaErrorMemoryAllocation);
      ASSERT_EQ(cudaPeekAtLastError(), cudaErrorMemoryAllocation);  // left for the next reader
      Poison(out_buf.data(), out_buf.bytes());
      absl::StatusOr<BatchStats> st = p->Run(b, round == 0 ? 4 : 1);
      ASSERT_TRUE(st.ok()) << st.status();
      EXPECT_EQ(std::memcmp(out_buf.data(), ref.data(), out_buf.bytes()), 0);
    }
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  }
}

// Move-assigning over a pipeline with a batch in flight destroyed it without draining: its
// staged (pageable) output was never copied back. Now it is drained as by the destructor.
TEST_F(PipelineTest, MoveAssigningOverAPipelineWithABatchInFlightDeliversItsOutput) {
  constexpr std::int64_t kItems = 1 << 20;
  auto rng = TestRng();
  std::vector<float> in(kItems), out(kItems), ref(kItems);
  FillRandom(in, rng);
  Poison(out.data(), out.size() * sizeof(float));
  AddScalarReference(in, ref, 50);
  absl::StatusOr<StreamPipeline> p =
      StreamPipeline::Create(AddScalarOptions(kItems, 50, IssueOrder::kDepthFirst, 8));
  absl::StatusOr<StreamPipeline> q =
      StreamPipeline::Create(AddScalarOptions(kItems, 1, IssueOrder::kDepthFirst, 8));
  ASSERT_TRUE(p.ok() && q.ok());
  ASSERT_TRUE(p->Submit({in.data(), out.data(), kItems}, 4).ok());  // pageable: staged
  ASSERT_EQ(p->in_flight(), 1);
  *p = std::move(*q);
  EXPECT_TRUE(std::equal(out.begin(), out.end(), ref.begin()))
      << "the replaced pipeline's batch in flight did not deliver its output";
  EXPECT_EQ(p->in_flight(), 0);
  // The pipeline moved in works.
  std::vector<float> out2(kItems), ref2(kItems);
  AddScalarReference(in, ref2, 1);
  ASSERT_TRUE(p->Run({in.data(), out2.data(), kItems}, 4).ok());
  EXPECT_TRUE(std::equal(out2.begin(), out2.end(), ref2.begin()));
}

// A moved-from pipeline holds nothing: each call dereferenced null (a segfault) before session
// 48. Now its calls say so (FailedPrecondition), its accessors give defaults, and the pipeline
// it was moved to runs.
TEST_F(PipelineTest, AMovedFromPipelineSaysSoInsteadOfCrashing) {
  constexpr std::int64_t kItems = 1 << 16;
  auto rng = TestRng();
  std::vector<float> in(kItems), out(kItems), ref(kItems);
  FillRandom(in, rng);
  AddScalarReference(in, ref, 3);
  absl::StatusOr<StreamPipeline> p =
      StreamPipeline::Create(AddScalarOptions(kItems, 3, IssueOrder::kDepthFirst, 8));
  ASSERT_TRUE(p.ok()) << p.status();
  StreamPipeline q = std::move(*p);
  const HostBatch b{in.data(), out.data(), kItems};
  const std::vector<absl::Status> calls = {
      p->Run(b).status(),           p->Run(b, 2).status(),
      p->RunHeld(b, 2).status(),    p->MeasureComponents(b).status(),
      p->MeasureKernelHalves(b).status(), p->Submit(b),
      p->Collect().status()};
  for (const absl::Status& s : calls) {
    EXPECT_TRUE(absl::IsFailedPrecondition(s)) << s;
    EXPECT_NE(s.message().find("was moved from"), std::string::npos) << s;
  }
  EXPECT_EQ(p->in_flight(), 0);
  EXPECT_EQ(p->chosen_streams(), 0);
  p->RequestRemeasure("nothing to re-measure");
  EXPECT_EQ(p->options().max_items_per_batch, PipelineOptions{}.max_items_per_batch);
  EXPECT_EQ(p->traits().sm_count, DeviceTraits{}.sm_count);
  EXPECT_FALSE(p->controller().reference().has_value());
  Poison(out.data(), out.size() * sizeof(float));
  ASSERT_TRUE(q.Run(b, 2).ok());
  EXPECT_TRUE(std::equal(out.begin(), out.end(), ref.begin()));
}

// Create ended with a cudaDeviceSynchronize (before session 48): unbounded, it waited for
// every stream of the device, and a capture another thread had in progress (thread-local mode,
// as each pipeline's own launcher check uses) was broken by it. Now Create waits on its own
// streams alone: another thread's capture ends whole, and the pipeline runs right.
TEST_F(PipelineTest, CreatingAPipelineLeavesAnotherThreadsCaptureWhole) {
  constexpr std::int64_t kItems = 1 << 16;
  auto rng = TestRng();
  std::vector<float> in(kItems), out(kItems), ref(kItems);
  FillRandom(in, rng);
  AddScalarReference(in, ref, 2);
  cudaStream_t s = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
  DeviceBuffer<std::byte> scratch = *DeviceBuffer<std::byte>::Create(1024);
  ASSERT_EQ(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), cudaSuccess);
  ASSERT_EQ(cudaMemsetAsync(scratch.data(), 7, 1024, s), cudaSuccess);
  absl::Status created, ran, calibrated;
  std::thread other([&] {
    absl::StatusOr<StreamPipeline> p =
        StreamPipeline::Create(AddScalarOptions(kItems, 2, IssueOrder::kDepthFirst, 8));
    created = p.status();
    if (p.ok()) ran = p->Run({in.data(), out.data(), kItems}, 4).status();
    // And one without traits: Create's quick calibration (its own cudaDeviceSynchronize went
    // too).
    PipelineOptions o = AddScalarOptions(kItems, 2, IssueOrder::kDepthFirst, 8);
    o.traits.reset();
    calibrated = StreamPipeline::Create(o).status();
  });
  other.join();
  cudaGraph_t graph = nullptr;
  const cudaError_t ended = cudaStreamEndCapture(s, &graph);
  EXPECT_EQ(ended, cudaSuccess) << cudaGetErrorName(ended);
  if (graph != nullptr) {
    EXPECT_EQ(cudaGraphDestroy(graph), cudaSuccess);
  }
  (void)cudaGetLastError();
  EXPECT_EQ(cudaStreamDestroy(s), cudaSuccess);
  EXPECT_TRUE(created.ok()) << created;
  EXPECT_TRUE(ran.ok()) << ran;
  EXPECT_TRUE(calibrated.ok()) << calibrated;
  EXPECT_TRUE(std::equal(out.begin(), out.end(), ref.begin()));
}

// The pipeline set its device only when it was created: creating one left its device current
// for the caller, and a later call made while another device was current ran the user's
// launcher with that other device current (the copies and kernels still went to the pipeline's
// streams, run 242; a launcher that allocates, or queries its device, did not). Needs two GPUs;
// skips with a message else.
TEST_F(PipelineTest, EveryCallRunsOnThePipelinesDeviceAndLeavesTheCallersCurrent) {
  if (CudaDeviceCount() < 2) {
    GTEST_SKIP() << "needs two CUDA devices; " << CudaDeviceCount() << " here";
  }
  constexpr std::int64_t kItems = 1 << 18;
  auto rng = TestRng();
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
  // Pinned buffers (portable: pinned on any device), so that graph mode issues graphs.
  auto in_buf = *PinnedBuffer<float>::Create(kItems);
  auto out_buf = *PinnedBuffer<float>::Create(kItems);
  std::span<float> in = in_buf.span();
  std::span<float> out = out_buf.span();
  std::vector<float> ref(kItems);
  PipelineOptions o = AddScalarOptions(kItems, 2, IssueOrder::kDepthFirst, 8);
  o.device = 1;
  o.max_in_flight = 2;
  // The device current while the launcher runs, at each call that saw another.
  std::vector<int> elsewhere;
  const KernelLauncher add = AddScalarLauncher(2);
  o.launch = [&](const LaunchArgs& a) -> absl::Status {
    int d = -1;
    if (cudaGetDevice(&d) != cudaSuccess || d != 1) elsewhere.push_back(d);
    return add(a);
  };
  const auto expect_device_0 = [](const char* after) {
    int current = -1;
    ASSERT_EQ(cudaGetDevice(&current), cudaSuccess);
    EXPECT_EQ(current, 0) << after << " left the pipeline's device current";
  };
  {
    absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
    ASSERT_TRUE(p.ok()) << p.status();
    expect_device_0("Create");
  }
  expect_device_0("the destructor");
  for (IssueMode mode : {IssueMode::kStreams, IssueMode::kGraph}) {
    PipelineOptions om = o;
    om.issue = mode;
    absl::StatusOr<StreamPipeline> q = StreamPipeline::Create(om);
    ASSERT_TRUE(q.ok()) << q.status();
    for (int i = 0; i < 3; ++i) {
      FillRandom(in, rng);
      AddScalarReference(in, ref, 2);
      Poison(out.data(), out.size() * sizeof(float));
      ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
      absl::StatusOr<BatchStats> st = i == 2 ? q->Run({in.data(), out.data(), kItems})
                                             : q->Run({in.data(), out.data(), kItems}, 4);
      ASSERT_TRUE(st.ok()) << st.status();
      if (i < 2) {
        EXPECT_EQ(st->graph, mode == IssueMode::kGraph) << "batch " << i;
      }
      EXPECT_TRUE(std::equal(out.begin(), out.end(), ref.begin())) << "batch " << i;
      expect_device_0("Run");
    }
    // Submit and Collect, then a continuous run, from a thread whose current device is the
    // other one.
    Poison(out.data(), out.size() * sizeof(float));
    ASSERT_TRUE(q->Submit({in.data(), out.data(), kItems}, 2).ok());
    expect_device_0("Submit");
    ASSERT_TRUE(q->Collect().ok());
    expect_device_0("Collect");
    EXPECT_TRUE(std::equal(out.begin(), out.end(), ref.begin()));
    struct Source : BatchSource {
      int left = 6;
      int device_elsewhere = 0;
      absl::StatusOr<std::int64_t> Fill(std::span<std::byte>, std::int64_t m) override {
        int d = -1;
        if (cudaGetDevice(&d) != cudaSuccess || d != 1) ++device_elsewhere;
        return left-- > 0 ? m : 0;
      }
    } source;
    struct Sink : BatchSink {
      absl::Status Consume(std::span<const std::byte>, const BatchStats&) override {
        return absl::OkStatus();
      }
    } sink;
    absl::StatusOr<ContinuousSummary> sum = q->RunContinuous(source, sink);
    ASSERT_TRUE(sum.ok()) << sum.status();
    EXPECT_EQ(sum->batches, 6);
    EXPECT_EQ(source.device_elsewhere, 0) << "the source ran with another device current";
    expect_device_0("RunContinuous");
  }
  expect_device_0("the destructor");
  // The calibration of another device, too (it left that device current before session 48).
  CalibrationOptions co;
  co.device = 1;
  co.quick = true;
  absl::StatusOr<Calibration> cal = Calibrate(co);
  ASSERT_TRUE(cal.ok()) << cal.status();
  expect_device_0("Calibrate");
  EXPECT_TRUE(elsewhere.empty()) << "the launcher ran " << elsewhere.size()
                                 << " times with another device current, the first "
                                 << (elsewhere.empty() ? -1 : elsewhere.front());
}

TEST_F(PipelineTest, BadOptionsAreClearErrors) {
  PipelineOptions o = AddScalarOptions(1000, 1, IssueOrder::kDepthFirst);
  o.launch = nullptr;
  EXPECT_NE(StreamPipeline::Create(o).status().message().find("launch is empty"),
            std::string::npos);
  o = AddScalarOptions(0, 1, IssueOrder::kDepthFirst);
  EXPECT_NE(StreamPipeline::Create(o).status().message().find("max_items_per_batch is 0"),
            std::string::npos);
  o = AddScalarOptions(1000, 1, IssueOrder::kDepthFirst);
  o.in_bytes_per_item = 0;
  o.out_bytes_per_item = 0;
  EXPECT_FALSE(StreamPipeline::Create(o).ok());
  o = AddScalarOptions(1000, 1, IssueOrder::kDepthFirst);
  o.max_streams = 0;
  EXPECT_FALSE(StreamPipeline::Create(o).ok());
  o = AddScalarOptions(1000, 1, IssueOrder::kDepthFirst);
  o.model = "nonsense";
  EXPECT_NE(StreamPipeline::Create(o).status().message().find("unknown model"),
            std::string::npos);
  // One batch at a time a visit shorter than its samples + 1 (the cold first batch) would never
  // give a neighbour its samples; 3 is enough, 0 picks it.
  o = AddScalarOptions(1000, 1, IssueOrder::kDepthFirst);
  o.max_in_flight = 1;
  o.adaptive.exploration.run = 2;
  EXPECT_NE(StreamPipeline::Create(o).status().message().find(
                "exploration.run = 2 is too short one batch at a time"),
            std::string::npos);
  o.adaptive.exploration.run = 3;
  EXPECT_TRUE(StreamPipeline::Create(o).ok());
  // A batch whose bytes wrap a 64-bit count: an error naming the product (it allocated a few
  // bytes and reported success).
  o = AddScalarOptions(std::int64_t{1} << 62, 1, IssueOrder::kDepthFirst);
  absl::StatusOr<StreamPipeline> wraps = StreamPipeline::Create(o);
  ASSERT_FALSE(wraps.ok());
  EXPECT_NE(wraps.status().message().find("x in_bytes_per_item (4) is more than 2^50 bytes"),
            std::string::npos) << wraps.status();
  // Traits the caller gives are checked (bad ones left every derivation at n = 1, silently).
  o = AddScalarOptions(1000, 1, IssueOrder::kDepthFirst);
  DeviceTraits bad = *o.traits;
  bad.h2d.latency_ms = -1.0;
  o.traits = bad;
  absl::StatusOr<StreamPipeline> bad_traits = StreamPipeline::Create(o);
  ASSERT_FALSE(bad_traits.ok());
  EXPECT_NE(bad_traits.status().message().find("PipelineOptions::traits"), std::string::npos)
      << bad_traits.status();
  EXPECT_NE(bad_traits.status().message().find("h2d latency_ms"), std::string::npos)
      << bad_traits.status();
  // Out of device memory at creation: a clean, non-sticky Status; a smaller one works after.
  o = AddScalarOptions(std::int64_t{1} << 46, 1, IssueOrder::kDepthFirst);
  absl::StatusOr<StreamPipeline> huge = StreamPipeline::Create(o);
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.status().code(), absl::StatusCode::kResourceExhausted) << huge.status();
  EXPECT_FALSE(IsStickyCudaError(huge.status()));
  EXPECT_TRUE(StreamPipeline::Create(AddScalarOptions(1000, 1, IssueOrder::kDepthFirst)).ok());
}

// streams.divisors_only through a pipeline: Create once refused it whatever the batches (the
// candidates were checked with no items); now every n it runs in automatic mode divides the
// batch's items, and the results are exact. 1'091'475 = 3^4 5^2 7^2 11 (4.4 MB each way).
TEST_F(PipelineTest, DivisorsOnlyRunsOnlyDivisorsOfTheItems) {
  constexpr std::int64_t kItems = 1'091'475;
  PipelineOptions o = AddScalarOptions(kItems, 1, IssueOrder::kDepthFirst);
  o.adaptive.candidates.divisors_only = true;
  o.adaptive.candidates.powers_of_two = false;
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  ASSERT_TRUE(p.ok()) << p.status();
  auto in = *PinnedBuffer<float>::Create(kItems);
  auto out = *PinnedBuffer<float>::Create(kItems);
  std::vector<float> ref(kItems);
  auto rng = TestRng();
  std::set<int> ran;
  for (int b = 0; b < 60; ++b) {
    FillRandom(in.span(), rng);
    AddScalarReference(in.span(), ref, 1);
    Poison(out.data(), kItems * sizeof(float));
    absl::StatusOr<BatchStats> st = p->Run({in.data(), out.data(), kItems});
    ASSERT_TRUE(st.ok()) << st.status();
    ran.insert(st->streams);
    ASSERT_EQ(std::memcmp(out.data(), ref.data(), kItems * sizeof(float)), 0) << "batch " << b;
  }
  for (int n : ran) EXPECT_EQ(kItems % n, 0) << n;
  EXPECT_GT(*ran.rbegin(), 1);  // it streamed (or explored a neighbour of n = 1)
}

TEST_F(PipelineTest, BrokenLaunchersAreCaught) {
  constexpr std::int64_t kItems = 1000;
  std::vector<float> in(kItems), out(kItems);
  struct Case {
    KernelLauncher launch;
    const char* message;
  };
  const Case cases[] = {
      {[](const LaunchArgs&) { return absl::OkStatus(); }, "enqueued nothing"},
      {[](const LaunchArgs&) -> absl::Status { throw std::runtime_error("boom"); },
       "the kernel launcher threw: boom"},
      {[](const LaunchArgs&) { return absl::UnavailableError("user says no"); }, "user says no"},
      {testing::WrongStreamLauncher(), "the stream it was given"},
  };
  for (const Case& c : cases) {
    PipelineOptions o = AddScalarOptions(kItems, 1, IssueOrder::kDepthFirst, 4);
    o.launch = c.launch;
    absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
    ASSERT_TRUE(p.ok()) << p.status();
    absl::StatusOr<BatchStats> st = p->Run({in.data(), out.data(), kItems}, 2);
    ASSERT_FALSE(st.ok()) << c.message;
    EXPECT_NE(st.status().message().find(c.message), std::string::npos) << st.status();
    EXPECT_FALSE(IsStickyCudaError(st.status()));
  }
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

class LauncherFailing : public PipelineTest, public ::testing::WithParamInterface<IssueMode> {};

TEST_P(LauncherFailing, MidBatchLeavesPipelineUsable) {
  constexpr std::int64_t kItems = 10'000;
  auto in_buf = *PinnedBuffer<float>::Create(kItems);
  auto out_buf = *PinnedBuffer<float>::Create(kItems);
  std::span<float> in = in_buf.span();
  std::span<float> out = out_buf.span();
  auto rng = TestRng();
  int calls = 0;
  bool fail = false;
  PipelineOptions o = AddScalarOptions(kItems, 1, IssueOrder::kDepthFirst, 8);
  o.issue = GetParam();
  const KernelLauncher good = AddScalarLauncher(1);
  o.launch = [&](const LaunchArgs& a) -> absl::Status {
    ++calls;
    if (fail && a.first_item > 0) return absl::AbortedError("third chunk refused");
    return good(a);
  };
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  ASSERT_TRUE(p.ok());
  FillRandom(in, rng);
  ASSERT_TRUE(p->Run({in.data(), out.data(), kItems}, 4).ok());
  fail = true;
  // As a graph, n = 4 is cached (the launcher is not called again): n = 5 is captured.
  absl::StatusOr<BatchStats> st = p->Run({in.data(), out.data(), kItems}, 5);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.status().message().find("sub-chunk 1"), std::string::npos) << st.status();
  fail = false;
  for (int n : {4, 5}) {
    FillRandom(in, rng);  // random data: a sub-chunk misplaced after the failure would show
    Poison(out.data(), out.size() * sizeof(float));
    absl::StatusOr<BatchStats> ok = p->Run({in.data(), out.data(), kItems}, n);
    ASSERT_TRUE(ok.ok()) << ok.status();
    EXPECT_EQ(ok->graph, GetParam() == IssueMode::kGraph);
    std::vector<float> ref(kItems);
    AddScalarReference(in, ref, 1);
    EXPECT_TRUE(std::equal(out.begin(), out.end(), ref.begin())) << "n=" << n;
  }
}

// Automatic mode whose launcher fails on a measurement's batch (the kernel's halves, or the
// measured batch itself): the error is returned, and the next Run measures again and derives
// (a batch that never ran is given back to the controller, which plans it again) instead of
// waiting forever for a measurement that will not come.
TEST_F(PipelineTest, AMeasurementBatchThatFailsIsMeasuredAgain) {
  constexpr std::int64_t kItems = 1 << 16;
  auto rng = TestRng();
  auto in = *PinnedBuffer<float>::Create(kItems);
  auto out = *PinnedBuffer<float>::Create(kItems);
  std::vector<float> ref(kItems);
  // Launcher calls of the first Run: the launcher's validation at the first batch (1, captured
  // and discarded), the warm-up (2), the kernel's halves (3, 4), the measured batch (5).
  for (const int failing_call : {2, 3, 5}) {
    SCOPED_TRACE(failing_call == 2   ? "the warm-up fails"
                 : failing_call == 3 ? "the halves fail"
                                     : "the measured batch fails");
    int calls = 0;
    PipelineOptions o = AddScalarOptions(kItems, 1, IssueOrder::kDepthFirst, 8);
    const KernelLauncher good = AddScalarLauncher(1);
    o.launch = [&](const LaunchArgs& a) -> absl::Status {
      if (++calls == failing_call) return absl::AbortedError("refused once");
      return good(a);
    };
    absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
    ASSERT_TRUE(p.ok()) << p.status();
    FillRandom(in.span(), rng);
    AddScalarReference(in.span(), ref, 1);
    absl::StatusOr<BatchStats> st = p->Run({in.data(), out.data(), kItems});
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.status().message().find("refused once"), std::string::npos) << st.status();
    EXPECT_EQ(calls, failing_call) << "the Run stops at the refusal";
    EXPECT_TRUE(p->controller().events().empty());
    Poison(out.data(), out.bytes());
    st = p->Run({in.data(), out.data(), kItems});
    ASSERT_TRUE(st.ok()) << st.status();
    ASSERT_EQ(std::memcmp(out.data(), ref.data(), out.bytes()), 0);
    EXPECT_EQ(st->kind, PlanKind::kMeasure);
    ASSERT_EQ(st->events.size(), 1u);
    EXPECT_EQ(st->events[0].kind, EventKind::kInitial);
    EXPECT_GT(p->controller().reference()->components.kernel_half_ms, 0.0);
    st = p->Run({in.data(), out.data(), kItems});
    ASSERT_TRUE(st.ok()) << st.status();
    EXPECT_TRUE(st->kind == PlanKind::kStreamed || st->kind == PlanKind::kExplore);
  }
}

INSTANTIATE_TEST_SUITE_P(Issue, LauncherFailing,
                         ::testing::Values(IssueMode::kStreams, IssueMode::kGraph),
                         [](const ::testing::TestParamInfo<IssueMode>& i) {
                           return std::string(IssueModeName(i.param));
                         });

// adaptive.breadth_first_issue_share reaches the controller where batches are issued
// breadth-first and nowhere else (each kernel follows its own copy in otherwise); a bad value
// is refused whatever the order.
TEST_F(PipelineTest, TheBreadthFirstIssueShareAppliesToBreadthFirstOrderAlone) {
  for (IssueOrder order :
       {IssueOrder::kDepthFirst, IssueOrder::kBreadthFirst, IssueOrder::kEnginePerStream}) {
    PipelineOptions o = AddScalarOptions(1 << 16, 1, order);
    o.adaptive.breadth_first_issue_share = 0.25;
    absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->controller().options().breadth_first_issue_share,
              order == IssueOrder::kBreadthFirst ? 0.25 : 0.0)
        << IssueOrderName(order);
    for (double share : {1.5, -0.1, std::numeric_limits<double>::quiet_NaN()}) {
      PipelineOptions bad = AddScalarOptions(1 << 16, 1, order);
      bad.adaptive.breadth_first_issue_share = share;
      absl::StatusOr<StreamPipeline> refused = StreamPipeline::Create(bad);
      ASSERT_FALSE(refused.ok()) << IssueOrderName(order) << " " << share;
      EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
      EXPECT_NE(refused.status().message().find("breadth_first_issue_share"), std::string::npos)
          << refused.status();
    }
  }
}

// A profile is a card's data. pipeline.profile naming another card's is an error that names
// both cards, and the file stays byte for byte (before session 46 the pipeline calibrated this
// card and wrote over it, and so did `streampipe sweep --profile`); this card's profile from
// another driver is a stale copy: calibrated again and replaced, as the option says.

TEST_F(PipelineTest, AnotherCardsProfileIsRefusedAndKept) {
  absl::StatusOr<Calibration> cal = Calibrate({.quick = true, .inline_copies = false});
  ASSERT_TRUE(cal.ok()) << cal.status();
  absl::StatusOr<DeviceInfo> info = ReadDevice(0);
  ASSERT_TRUE(info.ok()) << info.status();
  const std::string path = ::testing::TempDir() + "/streampipe_another_card.toml";
  auto read_all = [&] {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  DeviceProfile theirs = cal->profile;
  theirs.traits.name = "NVIDIA Imaginary X1";
  ASSERT_TRUE(WriteDeviceProfile(path, theirs).ok());
  const std::string before = read_all();
  PipelineOptions o = AddScalarOptions(1024, 1, IssueOrder::kDepthFirst);
  o.traits.reset();
  o.profile_path = path;
  absl::StatusOr<StreamPipeline> p = StreamPipeline::Create(o);
  ASSERT_FALSE(p.ok()) << "another card's profile was used or replaced";
  EXPECT_EQ(p.status().code(), absl::StatusCode::kFailedPrecondition) << p.status();
  EXPECT_NE(p.status().message().find("'NVIDIA Imaginary X1'"), std::string::npos) << p.status();
  EXPECT_NE(p.status().message().find("'" + info->traits.name + "'"), std::string::npos)
      << p.status();
  EXPECT_EQ(read_all(), before) << "another card's profile was written over";

  DeviceProfile stale = cal->profile;
  stale.driver_version = 1;
  ASSERT_TRUE(WriteDeviceProfile(path, stale).ok());
  std::string why;
  absl::StatusOr<DeviceProfile> again = LoadOrCalibrate(path, 0, /*save=*/true, &why);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(why, path + ": this card's profile from driver 1 (the driver now is " +
                     std::to_string(info->driver_version) + "): calibrated again and written over");
  absl::StatusOr<DeviceProfile> written = ReadDeviceProfile(path);
  ASSERT_TRUE(written.ok()) << written.status();
  EXPECT_EQ(written->driver_version, info->driver_version) << "the stale profile was not replaced";
  EXPECT_EQ(written->traits.name, info->traits.name);
  // Now this card's and this driver's: loaded as it is, with nothing to say.
  const std::string rewritten = read_all();
  absl::StatusOr<DeviceProfile> loaded = LoadOrCalibrate(path, 0, /*save=*/true, &why);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(why, "") << "a loaded profile reported as calibrated";
  EXPECT_EQ(read_all(), rewritten) << "a matching profile was written again";
  std::remove(path.c_str());
}

}  // namespace
}  // namespace streampipe
