// Behaviour common to every model, and the equations of each checked by hand at one point.
#include "streampipe/core/model.hpp"

#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "run117_traits.hpp"
#include "streampipe/core/optimizer.hpp"

namespace streampipe {
namespace {

ModelTerms Terms(const DeviceTraits& traits, const Workload& w) {
  absl::StatusOr<ModelTerms> t = ComputeModelTerms(traits, w);
  EXPECT_TRUE(t.ok()) << t.status();
  return *t;
}

Workload AnchorsIters1() {
  // docs/evidence/anchors/h100-probe-2026-11-22.txt, second table, iters = 1.
  Workload w;
  w.times = {.h2d_ms = 1.230, .kernel_ms = 0.064, .d2h_ms = 1.222};
  w.bytes = {.h2d = 64.0 * (1 << 20), .d2h = 64.0 * (1 << 20)};
  return w;
}

// The breakdown Predict reports is the longest path's: its parts sum to the total (Predict sums
// them), and that total is the maximum over every path (LinearizedModel::TotalMs, computed
// apart), so a breakdown of the wrong path would fail here.
TEST(ModelTest, PartsOfTheLongestPathSumToTotalForEveryModelAndN) {
  const ModelTerms t = Terms(DeviceTraits::H100Anchors(), AnchorsIters1());
  for (ModelKind kind : kAllModelKinds) {
    auto model = MakeModel(kind);
    ASSERT_NE(model, nullptr);
    const LinearizedModel lin(*model, t);
    for (int n = 1; n <= 256; n *= 2) {
      Prediction p = model->Predict(t, n);
      EXPECT_EQ(p.streams, n);
      EXPECT_NEAR(p.parts.h2d_ms + p.parts.kernel_ms + p.parts.d2h_ms + p.parts.overhead_ms,
                  lin.TotalMs(n), 1e-12)
          << ModelName(kind) << " n=" << n;
      EXPECT_NEAR(p.total_ms, lin.TotalMs(n), 1e-12) << ModelName(kind) << " n=" << n;
      EXPECT_TRUE(std::isfinite(p.total_ms)) << ModelName(kind);
    }
  }
}

TEST(ModelTest, CurrentModelReturnsMeasuredTimeAtOneStream) {
  const Workload w = AnchorsIters1();
  const ModelTerms t = Terms(DeviceTraits::H100Anchors(), w);
  auto model = MakeModel(ModelKind::kCurrent);
  EXPECT_NEAR(model->Predict(t, 1).total_ms, w.times.total_ms(), 1e-12);
}

TEST(ModelTest, CurrentModelFitsTheH100Anchors) {
  // The anchors' iters = 1 row: measured 1.941 / 1.663 / 1.547 / 1.520 ms at n = 2/4/8/16.
  // With the traits fitted to the anchors the model must land within 3 % (docs/models.md).
  const ModelTerms t = Terms(DeviceTraits::H100Anchors(), AnchorsIters1());
  auto model = MakeModel(ModelKind::kCurrent);
  const std::pair<int, double> measured[] = {{2, 1.941}, {4, 1.663}, {8, 1.547}, {16, 1.520}};
  for (auto [n, ms] : measured) {
    EXPECT_NEAR(model->Predict(t, n).total_ms / ms, 1.0, 0.03) << "n=" << n;
  }
}

// Matrix multiplication N = 512 (2 MiB each way) from run 24's sweep
// (docs/evidence/run24/sweep-before/sweep.csv.gz): the sub-chunks are so small that from n = 16 on
// every further one costs the same 11-12 us, the calibrated s of that lease.
TEST(ModelTest, CurrentModelIssueBoundCoversTinySubChunks) {
  DeviceTraits traits = DeviceTraits::H100Anchors();
  Workload w;
  w.times = {.h2d_ms = 0.046976, .kernel_ms = 0.077664, .d2h_ms = 0.045600};
  w.bytes = {.h2d = 2.0 * (1 << 20), .d2h = 2.0 * (1 << 20)};
  auto model = MakeModel(ModelKind::kCurrent);
  const std::pair<int, double> measured[] = {{32, 0.35885}, {64, 0.70080}, {128, 1.55024}};
  const ModelTerms without = Terms(traits, w);
  for (auto [n, ms] : measured) {
    EXPECT_LT(model->Predict(without, n).total_ms / ms, 0.65) << "n=" << n;  // 35-52 % low
  }
  traits.sub_chunk_cost_ms = 0.0118;
  const ModelTerms t = Terms(traits, w);
  EXPECT_NEAR(model->Predict(t, 1).total_ms, w.times.total_ms(), 1e-12);
  for (auto [n, ms] : measured) {
    const Prediction p = model->Predict(t, n);
    EXPECT_NEAR(p.total_ms / ms, 1.0, 0.08) << "n=" << n;
    EXPECT_EQ(p.term, 4) << "n=" << n;  // the issue bound
    EXPECT_NEAR(p.parts.overhead_ms, 0.0118 * (n - 1), 1e-12);
  }
  // Large sub-chunks: the copy engines bound the batch, as before.
  const ModelTerms big = Terms(traits, AnchorsIters1());
  EXPECT_NE(model->Predict(big, 16).term, 4);
  // With s as the only cost of more streams the optimum is still finite.
  DeviceTraits only_s;
  only_s.sub_chunk_cost_ms = 0.01;
  ASSERT_TRUE(model->ClosedFormOptimum(Terms(only_s, AnchorsIters1())).has_value());
}

// The profile of run 79's full sweep (docs/evidence/run79/full/h100.toml), with c0 = 1.0 us:
// held batches of tiny sub-chunks grow by about 3.6 us each there, g h2d being 2.62.
DeviceTraits Run79Traits(double c0_ms) {
  DeviceTraits t;
  t.copy_engines = 3;
  t.h2d = {.latency_ms = 0.003808, .ms_per_byte = 1.8600e-08, .gap_ms = 0.002616,
           .duplex_ms_per_byte = 2.2323e-08};
  t.d2h = {.latency_ms = 0.003008, .ms_per_byte = 1.8222e-08, .gap_ms = 0.002105,
           .duplex_ms_per_byte = 2.1869e-08};
  t.stream_overhead_ms = 0.003811;
  t.idle_stream_overhead_ms = c0_ms;
  return t;
}

// Held batches (the device's time alone) of run 79's full sweep, graph issue, depth-first:
// small sub-chunks cost far less than g + c each, large ones beside a busy link about that.
TEST(ModelTest, CurrentModelWithC0FollowsHeldBatchesOfSmallSubChunks) {
  auto model = MakeModel(ModelKind::kCurrent);
  struct Case {
    const char* what;
    ComponentTimes times;
    double in_bytes, out_bytes;
    std::vector<std::pair<int, double>> held;  // n, ms
    double tolerance;       // the model with c0, at every n listed
    double old_over;        // the model without c0 over the held time at the largest n, at least
  };
  const Case cases[] = {
      {"matmul p = 256 (512 KiB each way)",
       {.h2d_ms = 0.018352, .kernel_ms = 0.020480, .d2h_ms = 0.017504},
       524288, 524288,
       {{8, 0.0653}, {16, 0.0903}, {32, 0.1459}, {64, 0.2482}, {128, 0.4640}},
       0.12, 1.7},
      {"histogram, 1.5 MiB in, 64 KiB out",
       {.h2d_ms = 0.035488, .kernel_ms = 0.013264, .d2h_ms = 0.008576},
       1622016, 65536,
       {{8, 0.0749}, {16, 0.1051}, {32, 0.1640}, {64, 0.2815}},
       0.12, 1.5},
      {"add-scalar, 2.7 MiB in, 61 MiB out",
       {.h2d_ms = 0.063936, .kernel_ms = 0.269568, .d2h_ms = 1.172960},
       2796200, 64312600,
       {{8, 1.2742}, {16, 1.2863}, {32, 1.3157}, {64, 1.3929}, {128, 1.5806}},
       0.04, 1.2},
  };
  for (const Case& c : cases) {
    Workload w;
    w.times = c.times;
    w.bytes = {c.in_bytes, c.out_bytes};
    const ModelTerms with = Terms(Run79Traits(0.001), w);
    const ModelTerms without = Terms(Run79Traits(-1.0), w);
    EXPECT_NEAR(model->Predict(with, 1).total_ms, w.times.total_ms(), 1e-12) << c.what;
    for (auto [n, ms] : c.held) {
      EXPECT_NEAR(model->Predict(with, n).total_ms / ms, 1.0, c.tolerance) << c.what << " n=" << n;
      EXPECT_LE(model->Predict(with, n).total_ms, model->Predict(without, n).total_ms + 1e-12)
          << c.what << " n=" << n;  // c0 < c: never more
    }
    const auto [n_last, ms_last] = c.held.back();
    EXPECT_GT(model->Predict(without, n_last).total_ms / ms_last, c.old_over) << c.what;
  }
}

TEST(ModelTest, CurrentModelWithC0EqualToCIsTheModelWithoutIt) {
  auto model = MakeModel(ModelKind::kCurrent);
  const ModelTerms same = Terms(Run79Traits(0.003811), AnchorsIters1());
  const ModelTerms none = Terms(Run79Traits(-1.0), AnchorsIters1());
  for (int n = 1; n <= 1024; n *= 2) {
    EXPECT_DOUBLE_EQ(model->Predict(same, n).total_ms, model->Predict(none, n).total_ms) << n;
  }
}

using testing::Run117Traits;

// The 1.5 MiB histogram (64 frames of 176x144, one block a frame on 132 SMs): its kernel takes
// as long for 8 frames as for 64 (5.82 against 5.98 us, docs/evidence/run139/shapes.txt), so a
// sub-chunk's kernel costs the whole kernel's time, not 1/n of it. Run 136 measured n = 2
// 1-8 % slower than n = 1; the model with t_E / n put n = 2 3-5 us under n = 1 and chose it.
// With the kernel's half measured, the sub-chunk's kernel keeps its fixed part
// f = 2 t_half - t_E (within [0, t_E]) and the model chooses n = 1.
TEST(ModelTest, CurrentModelSubChunkKernelKeepsItsFixedPart) {
  auto model = MakeModel(ModelKind::kCurrent);
  Workload w;  // run 136 a2, call by call: the components of one non-streamed batch
  w.times = {.h2d_ms = 0.034576, .kernel_ms = 0.012256, .d2h_ms = 0.009856};
  w.bytes = {.h2d = 1622016, .d2h = 65536};
  const ModelTerms none = Terms(Run117Traits(), w);
  EXPECT_EQ(none.t_e_fixed, 0.0);
  CandidateOptions co{.max_streams = 128, .powers_of_two = true, .num_items = 64};
  absl::StatusOr<StreamChoice> before = ChooseNumStreams(*model, none, co);
  ASSERT_TRUE(before.ok()) << before.status();
  EXPECT_EQ(before->streams, 2) << "the model without the half";

  Workload flat = w;
  flat.times.kernel_half_ms = w.times.kernel_ms;  // half the frames take as long
  const ModelTerms fixed = Terms(Run117Traits(), flat);
  EXPECT_DOUBLE_EQ(fixed.t_e_fixed, w.times.kernel_ms);
  EXPECT_NEAR(model->Predict(fixed, 1).total_ms, w.times.total_ms(), 1e-12);
  for (int n = 2; n <= 128; n *= 2) {
    // The kernel on the path grows by the part 1/n no longer divides: f (1 - 1/n); the path
    // that binds may change, so the total grows by at most that much.
    const double grow = model->Predict(fixed, n).total_ms - model->Predict(none, n).total_ms;
    EXPECT_GE(grow, -1e-12) << n;
    EXPECT_LE(grow, w.times.kernel_ms * (1.0 - 1.0 / n) + 1e-12) << n;
  }
  EXPECT_GT(model->Predict(fixed, 2).total_ms, model->Predict(fixed, 1).total_ms);
  absl::StatusOr<StreamChoice> after = ChooseNumStreams(*model, fixed, co);
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ(after->streams, 1);

  // A kernel that halves with the work has no fixed part: the model is the one without the
  // half. So is one measured under half (noise): the part is clipped at 0; one over the whole
  // at t_E.
  for (const double half : {0.5, 0.4, 1.3}) {
    Workload v = w;
    v.times.kernel_half_ms = half * w.times.kernel_ms;
    const ModelTerms t = Terms(Run117Traits(), v);
    const double want = half > 1.0 ? w.times.kernel_ms : 0.0;
    EXPECT_NEAR(t.t_e_fixed, want, 1e-15) << half;
    for (int n = 1; n <= 128; n *= 2) {
      EXPECT_NEAR(model->Predict(t, n).total_ms,
                  model->Predict(half > 1.0 ? fixed : none, n).total_ms, 1e-12)
          << half << " n=" << n;
    }
  }
  // The published models keep their papers' equations: the half changes none of them.
  for (ModelKind kind : kAllModelKinds) {
    if (kind == ModelKind::kCurrent) continue;
    auto m = MakeModel(kind);
    for (int n = 1; n <= 128; n *= 2) {
      EXPECT_DOUBLE_EQ(m->Predict(fixed, n).total_ms, m->Predict(none, n).total_ms)
          << ModelName(kind) << " n=" << n;
    }
  }
}

// c's share saturates: with c0 = 0 and no gaps nor s, nothing grows without bound, and there is
// no optimum to report (the search would return its bound).
TEST(ModelTest, CurrentModelWithOnlyASaturatingOverheadHasNoOptimum) {
  auto model = MakeModel(ModelKind::kCurrent);
  DeviceTraits t = Run79Traits(0.0);
  t.h2d.gap_ms = t.d2h.gap_ms = 0.0;
  EXPECT_FALSE(model->ClosedFormOptimum(Terms(t, AnchorsIters1())).has_value());
  t.idle_stream_overhead_ms = 0.0005;
  EXPECT_TRUE(model->ClosedFormOptimum(Terms(t, AnchorsIters1())).has_value());
}

// The paths with c0 are not convex in n but each is unimodal, and so is their max: the
// golden-section optimum is the minimum a dense scan finds, and the parts sum to the total.
TEST(ModelTest, CurrentModelWithC0HasTheOptimumADenseScanFinds) {
  auto model = MakeModel(ModelKind::kCurrent);
  for (double mib : {0.5, 2.0, 16.0, 64.0, 256.0}) {
    for (double kernel_ms : {0.01, 0.3, 3.0}) {
      Workload w;
      w.bytes = {mib * (1 << 20), mib * (1 << 20) / 3.0};
      w.times.kernel_ms = kernel_ms;
      const ModelTerms t = Terms(Run79Traits(0.001), w);
      const LinearizedModel lin(*model, t);
      const std::optional<double> opt = model->ClosedFormOptimum(t);
      ASSERT_TRUE(opt.has_value());
      double best = lin.TotalMs(1.0);
      for (double n = 1.0; n <= 8192.0; n *= 1.001) best = std::min(best, lin.TotalMs(n));
      EXPECT_LE(lin.TotalMs(*opt), best * (1.0 + 1e-9)) << mib << " MiB, tE " << kernel_ms;
      for (int n = 1; n <= 256; n *= 4) {
        const Prediction p = model->Predict(t, n);
        EXPECT_NEAR(p.parts.h2d_ms + p.parts.kernel_ms + p.parts.d2h_ms + p.parts.overhead_ms,
                    lin.TotalMs(n), 1e-12);  // the longest path's parts (TotalMs: the max)
      }
    }
  }
}

// Continuous mode: the host issues n sub-chunks per batch, so s bounds the period at s n.
TEST(ModelTest, SteadyStatePeriodIsBoundedByTheIssueRate) {
  DeviceTraits traits = DeviceTraits::H100Anchors();
  traits.sub_chunk_cost_ms = 0.01;
  Workload tiny;
  tiny.times = {.h2d_ms = 0.05, .kernel_ms = 0.08, .d2h_ms = 0.05};
  tiny.bytes = {.h2d = 2.0 * (1 << 20), .d2h = 2.0 * (1 << 20)};
  const LinearizedModel with_s(SteadyStatePaths(Terms(traits, tiny)));
  EXPECT_NEAR(with_s.TotalMs(64), 0.64, 1e-12);
  EXPECT_EQ(with_s.Predict(64).term, 4);
  // 64 MiB each way: the copy engines take longer than 16 issues; s changes nothing.
  DeviceTraits no_s = traits;
  no_s.sub_chunk_cost_ms = 0.0;
  EXPECT_EQ(LinearizedModel(SteadyStatePaths(Terms(traits, AnchorsIters1()))).TotalMs(16),
            LinearizedModel(SteadyStatePaths(Terms(no_s, AnchorsIters1()))).TotalMs(16));
}

// Breadth-first order's kernel issue delay (T5, docs/models.md): with a share w = f x s per
// sub-chunk the first kernel waits w n, then the kernels run t_e and the last copy out follows.
// A kernel-bound batch (run 258's intensity 3000 on the H200: 1.22 / 3.33 / 1.22 ms) the model
// otherwise predicts flattest at n = 128 is predicted best at 16-32, as it runs issued live.
TEST(ModelTest, TheKernelIssueDelayBoundsABreadthFirstKernelBoundBatch) {
  DeviceTraits traits = DeviceTraits::H100Anchors();
  traits.sub_chunk_cost_ms = 0.0081;  // the H200's s (run 257)
  Workload w;
  w.times = {.h2d_ms = 1.22, .kernel_ms = 3.33, .d2h_ms = 1.22};
  w.bytes = {.h2d = 64.0 * (1 << 20), .d2h = 64.0 * (1 << 20)};
  ModelTerms t = Terms(traits, w);
  auto m = MakeModel(ModelKind::kCurrent);
  const double without = m->Predict(t, 128).total_ms;
  ASSERT_EQ(m->Paths(t).count, 4);  // three device paths and T4
  t.kernel_issue_share = 1.0 / 3;
  ASSERT_EQ(m->Paths(t).count, 5);
  const double wait = t.sub_chunk / 3;
  for (int n : {1, 8, 32, 128}) {
    const double t5 = wait * (n - 1) + t.t_e + t.lat_dh + t.x_dh / n;
    Prediction p = m->Predict(t, n);
    EXPECT_GE(p.total_ms, t5 - 1e-12) << n;
    if (n == 128) {
      EXPECT_NEAR(p.total_ms, t5, 1e-12);  // T5 is the longest there
      EXPECT_EQ(p.term, 5);  // 1-based: the fifth path
      EXPECT_GT(p.total_ms, without * 1.05);
    }
  }
  CandidateOptions c;
  c.max_streams = 128;
  c.powers_of_two = true;
  c.num_items = 1 << 24;
  t.kernel_issue_share = 0.0;
  absl::StatusOr<StreamChoice> flat = ChooseNumStreams(*m, t, c);
  t.kernel_issue_share = 1.0 / 3;
  absl::StatusOr<StreamChoice> delayed = ChooseNumStreams(*m, t, c);
  ASSERT_TRUE(flat.ok() && delayed.ok());
  EXPECT_EQ(flat->streams, 128);
  EXPECT_GE(delayed->streams, 16);
  EXPECT_LE(delayed->streams, 32);
  // The closed form still finds the minimum of the (unimodal) maximum.
  const LinearizedModel lin(*m, t);
  std::optional<double> opt = m->ClosedFormOptimum(t);
  ASSERT_TRUE(opt.has_value());
  for (int n = 1; n <= 256; ++n) EXPECT_LE(lin.TotalMs(*opt), lin.TotalMs(n) + 1e-9) << n;
  // A share outside [0, 1] is no model.
  t.kernel_issue_share = 1.5;
  EXPECT_FALSE(ValidateModelTerms(t).ok());
}

TEST(ModelTest, GomezLunaCc1EquationsByHand) {
  DeviceTraits traits;
  traits.stream_overhead_ms = 0.10;  // GTX 280, section 3.2
  Workload w;
  w.times = {.h2d_ms = 4.0, .kernel_ms = 1.0, .d2h_ms = 4.0};
  const ModelTerms t = Terms(traits, w);
  auto m = MakeModel(ModelKind::kGomezLunaCc1);
  // n = 4: tT = 8 > tE + tT/n = 3 -> eq. 1: tT + tsc*n = 8.4
  Prediction p4 = m->Predict(t, 4);
  EXPECT_EQ(p4.regime, Regime::kDominantTransfers);
  EXPECT_NEAR(p4.total_ms, 8.0 + 0.4, 1e-12);
  // n = 1: tT = 8 < 1 + 8 -> eq. 3: tE + tT + tsc = 9.1
  Prediction p1 = m->Predict(t, 1);
  EXPECT_EQ(p1.regime, Regime::kDominantKernel);
  EXPECT_NEAR(p1.total_ms, 9.1, 1e-12);
}

TEST(ModelTest, GomezLunaCc2EquationsByHand) {
  DeviceTraits traits;
  traits.stream_overhead_ms = 0.03;  // GTX 480, section 3.2
  auto m = MakeModel(ModelKind::kGomezLunaCc2);
  Workload w;
  w.times = {.h2d_ms = 3.0, .kernel_ms = 2.0, .d2h_ms = 1.0};
  // tThd > tE: eq. 5 = 3 + 2/4 + 1 + 0.12
  EXPECT_NEAR(m->Predict(Terms(traits, w), 4).total_ms, 4.62, 1e-12);
  w.times.kernel_ms = 5.0;
  // tThd < tE: eq. 7 = 3/4 + 5 + 1 + 0.12
  Prediction p = m->Predict(Terms(traits, w), 4);
  EXPECT_EQ(p.regime, Regime::kDominantKernel);
  EXPECT_NEAR(p.total_ms, 6.87, 1e-12);
}

// van Werkhoven's implicit-sync and 1-engine models are the maximum of their equations' critical
// paths, as Gómez-Luna's cc 1.x model is: a switch between eqs. 1/2 (at tE >= x_hd) and eqs.
// 3/4 (at tE >= x_hd + x_dh) predicted less than a critical path of the same schedule near the
// switch, and jumped there (before session 50).
TEST(ModelTest, WerkhovenOneEngineModelsAreTheMaxOfTheirEquations) {
  DeviceTraits traits;  // L+o = 0
  Workload w;
  w.times = {.h2d_ms = 1.0, .kernel_ms = 1.99, .d2h_ms = 1.0};
  auto one = MakeModel(ModelKind::kWerkhoven1ce);
  // n = 4, g = 0: eq. 3 = 1/4 + 1.99 + 1/4 = 2.49 > eq. 4 = max(2, 1 + 1.99/4 + 1/4, ...) = 2.0
  Prediction p = one->Predict(Terms(traits, w), 4);
  EXPECT_NEAR(p.total_ms, 2.49, 1e-12);
  EXPECT_EQ(p.regime, Regime::kDominantKernel);
  // No jump where the switch was: tE = 2.00 gives 2.50.
  w.times.kernel_ms = 2.0;
  EXPECT_NEAR(one->Predict(Terms(traits, w), 4).total_ms, 2.50, 1e-12);
  // Well below: eq. 4's copies bind, 2 + g(n - 1) per direction.
  traits.h2d.gap_ms = traits.d2h.gap_ms = 0.01;
  w.times.kernel_ms = 0.5;
  p = one->Predict(Terms(traits, w), 4);
  EXPECT_NEAR(p.total_ms, 2.0 + 2 * 0.03, 1e-12);
  EXPECT_EQ(p.regime, Regime::kDominantTransfers);

  // Implicit sync, n = 8, g = 0.01: eq. 1 = 1/8 + 1.01 + 1 + 0.07 = 2.205; eq. 2 = 1 + 1.01/8 +
  // 1 + 0.14 = 2.26625, the larger, though tE >= x_hd.
  auto sync = MakeModel(ModelKind::kWerkhovenSync1ce);
  w.times = {.h2d_ms = 1.0, .kernel_ms = 1.01, .d2h_ms = 1.0};
  p = sync->Predict(Terms(traits, w), 8);
  EXPECT_NEAR(p.total_ms, 2.26625, 1e-12);
  EXPECT_EQ(p.regime, Regime::kDominantTransfers);
  // A kernel far longer than the copy in: eq. 1.
  w.times.kernel_ms = 4.0;
  p = sync->Predict(Terms(traits, w), 8);
  EXPECT_NEAR(p.total_ms, 1.0 / 8 + 4.0 + 1.0 + 0.07, 1e-12);
  EXPECT_EQ(p.regime, Regime::kDominantKernel);
}

TEST(ModelTest, WerkhovenTwoEngineIsMaxOfThreePaths) {
  DeviceTraits traits;
  traits.h2d = {.latency_ms = 0.01, .ms_per_byte = 1e-6, .gap_ms = 0.002};
  traits.d2h = {.latency_ms = 0.01, .ms_per_byte = 1e-6, .gap_ms = 0.002};
  Workload w;
  w.bytes = {.h2d = 2e6, .d2h = 1e6};  // x_hd = 2, x_dh = 1 ms
  w.times.kernel_ms = 0.5;
  const ModelTerms t = Terms(traits, w);
  auto m = MakeModel(ModelKind::kWerkhoven2ce);
  // n = 4: T1 = .01 + 2 + .006 + .125 + .01 + .25 = 2.401; T2 = .01+.5+.5+.01+.25 = 1.27;
  // T3 = .01 + .5 + .125 + .01 + 1 + .006 = 1.651.
  Prediction p = m->Predict(t, 4);
  EXPECT_NEAR(p.total_ms, 2.401, 1e-12);
  EXPECT_EQ(p.term, 1);
}

TEST(ModelTest, MappedModelIgnoresStreams) {
  const ModelTerms t = Terms(DeviceTraits::H100Anchors(), AnchorsIters1());
  auto m = MakeModel(ModelKind::kWerkhovenMapped);
  EXPECT_DOUBLE_EQ(m->Predict(t, 1).total_ms, m->Predict(t, 64).total_ms);
}

TEST(ModelTest, HybridUsesTheBidirectionalG) {
  DeviceTraits traits = DeviceTraits::H100Anchors();
  const ModelTerms t = Terms(traits, AnchorsIters1());
  EXPECT_GT(MakeModel(ModelKind::kWerkhovenHybrid)->Predict(t, 8).total_ms,
            MakeModel(ModelKind::kWerkhoven2ce)->Predict(t, 8).total_ms);
}

TEST(ModelTest, ModelForFollowsDeviceTraits) {
  DeviceTraits t;
  t.cc_major = 1;
  EXPECT_EQ(ModelFor(t), ModelKind::kGomezLunaCc1);
  t.cc_major = 2;
  t.implicit_sync = true;
  EXPECT_EQ(ModelFor(t), ModelKind::kWerkhovenSync1ce);
  t.cc_major = 3;
  t.implicit_sync = false;
  t.copy_engines = 1;
  EXPECT_EQ(ModelFor(t), ModelKind::kWerkhoven1ce);
  t.copy_engines = 2;
  EXPECT_EQ(ModelFor(t), ModelKind::kWerkhoven2ce);
  EXPECT_EQ(ModelFor(DeviceTraits::H100Anchors()), ModelKind::kCurrent);
}

TEST(ModelTest, NamesRoundTripAndUnknownNamesAreListed) {
  for (ModelKind k : kAllModelKinds) {
    absl::StatusOr<ModelKind> parsed = ParseModelKind(ModelName(k));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, k);
  }
  absl::StatusOr<ModelKind> bad = ParseModelKind("werkhoven-3ce");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("werkhoven-3ce"), std::string::npos);
  EXPECT_NE(bad.status().message().find("current"), std::string::npos);
  auto by_auto = MakeModel("auto", DeviceTraits::H100Anchors());
  ASSERT_TRUE(by_auto.ok());
  EXPECT_EQ((*by_auto)->kind(), ModelKind::kCurrent);
}

TEST(ModelTest, InvalidInputsNameTheField) {
  const DeviceTraits traits = DeviceTraits::H100Anchors();
  Workload w = AnchorsIters1();
  w.times.kernel_ms = -1.0;
  absl::StatusOr<ModelTerms> t = ComputeModelTerms(traits, w);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("kernel_ms"), std::string::npos);
  w = AnchorsIters1();
  w.times.d2h_ms = std::numeric_limits<double>::quiet_NaN();
  t = ComputeModelTerms(traits, w);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("d2h_ms"), std::string::npos);
  w = AnchorsIters1();
  w.times.h2d_ms = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(ComputeModelTerms(traits, w).ok());
  w = AnchorsIters1();
  w.times.kernel_half_ms = -0.01;
  t = ComputeModelTerms(traits, w);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("kernel_half_ms"), std::string::npos);
  DeviceTraits bad = traits;
  bad.stream_overhead_ms = -0.1;
  t = ComputeModelTerms(bad, AnchorsIters1());
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("stream_overhead_ms"), std::string::npos);
  bad = traits;
  bad.sub_chunk_cost_ms = -0.01;
  t = ComputeModelTerms(bad, AnchorsIters1());
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("sub_chunk_cost_ms"), std::string::npos);
  bad = traits;
  bad.idle_stream_overhead_ms = std::numeric_limits<double>::quiet_NaN();
  t = ComputeModelTerms(bad, AnchorsIters1());
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("idle_stream_overhead_ms"), std::string::npos);
  // Negative is "not measured", not an error.
  bad.idle_stream_overhead_ms = -1.0;
  EXPECT_TRUE(ComputeModelTerms(bad, AnchorsIters1()).ok());
  // Bytes without a G and without a time cannot give a transfer time.
  DeviceTraits no_g;
  Workload bytes_only;
  bytes_only.bytes.h2d = 1e6;
  t = ComputeModelTerms(no_g, bytes_only);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("host-to-device"), std::string::npos);
}

TEST(ModelTest, TransferWorkFromBytesOrTimes) {
  DeviceTraits traits;
  traits.h2d = {.latency_ms = 0.01, .ms_per_byte = 2e-6, .gap_ms = 0.0,
                .duplex_ms_per_byte = 3e-6};
  Workload from_bytes;
  from_bytes.bytes.h2d = 1e6;
  ModelTerms a = Terms(traits, from_bytes);
  EXPECT_DOUBLE_EQ(a.x_hd, 2.0);
  EXPECT_DOUBLE_EQ(a.t_hd, 2.01);
  EXPECT_DOUBLE_EQ(a.xdup_hd, 3.0);
  Workload from_time;
  from_time.times.h2d_ms = 2.01;
  ModelTerms b = Terms(traits, from_time);
  EXPECT_NEAR(b.x_hd, 2.0, 1e-12);
  EXPECT_DOUBLE_EQ(b.t_hd, 2.01);
  // A direction that moves nothing contributes no latency.
  EXPECT_EQ(b.lat_dh, 0.0);
}

// The pipeline's split: contiguous, every item once, the first items % n one item longer.
TEST(ModelTest, ChunkOfSplitsEvenlyAndContiguously) {
  for (const auto& [items, n] : {std::pair<std::int64_t, int>{1000, 7}, {1000, 8}, {5, 8}}) {
    std::int64_t next = 0;
    for (int k = 0; k < n; ++k) {
      const Chunk c = ChunkOf(items, n, k);
      EXPECT_EQ(c.first, next) << items << " / " << n << ", k " << k;
      EXPECT_EQ(c.count, items / n + (k < items % n ? 1 : 0)) << items << " / " << n;
      next += c.count;
    }
    EXPECT_EQ(next, items);
  }
  // No such sub-chunk: empty, not a division by zero.
  for (const auto& [n, k] : {std::pair{0, 0}, {-2, 0}, {4, 4}, {4, -1}}) {
    const Chunk c = ChunkOf(100, n, k);
    EXPECT_EQ(c.first, 0) << n << " " << k;
    EXPECT_EQ(c.count, 0) << n << " " << k;
  }
}

// The kernel's fixed part, 2 t_half - t_E within [0, t_E]; none without a half or without a
// kernel time (a negative one crossed the clamp's bounds, undefined, and gave -1).
TEST(ModelTest, KernelFixedPartIsWithinTheKernelsTime) {
  EXPECT_DOUBLE_EQ(KernelFixedMs({.kernel_ms = 1.0, .kernel_half_ms = 0.6}), 0.2);
  EXPECT_DOUBLE_EQ(KernelFixedMs({.kernel_ms = 1.0, .kernel_half_ms = 0.4}), 0.0);  // below 0
  EXPECT_DOUBLE_EQ(KernelFixedMs({.kernel_ms = 1.0, .kernel_half_ms = 0.9}), 0.8);
  EXPECT_DOUBLE_EQ(KernelFixedMs({.kernel_ms = 1.0, .kernel_half_ms = 1.5}), 1.0);  // at most t_E
  EXPECT_DOUBLE_EQ(KernelFixedMs({.kernel_ms = 1.0}), 0.0);                         // no half
  EXPECT_DOUBLE_EQ(KernelFixedMs({.kernel_ms = -1.0, .kernel_half_ms = 0.5}), 0.0);
  EXPECT_DOUBLE_EQ(KernelFixedMs({.kernel_ms = 0.0, .kernel_half_ms = 0.5}), 0.0);
}

// A hand-built path whose parts saturate at two rates: its total is still the sum of its parts
// (summed into one Affine it took one rate for both, and a debug build aborted on an assert in
// the header).
TEST(ModelTest, APathWhosePartsSaturateAtTwoRatesSumsPartByPart) {
  PathSet set;
  set.count = 1;
  set.paths[0].h2d = {.c0 = 0.1, .c_sat = 0.5, .sat_rate = 1.0};
  set.paths[0].overhead = {.c_sat = 0.5, .sat_rate = 0.1};
  EXPECT_FALSE(set.paths[0].h2d.SaturatesLike(set.paths[0].overhead));
  const LinearizedModel lin(set);
  for (int n : {1, 2, 3, 8, 64}) {
    const double dn = n;
    const double want = 0.1 + 0.5 * (dn - 1.0) / (1.0 + dn) + 0.5 * (dn - 1.0) / (1.0 + 0.1 * dn);
    EXPECT_NEAR(lin.TotalMs(dn), want, 1e-12) << n;
    EXPECT_NEAR(lin.Predict(n).total_ms, want, 1e-12) << n;
  }
}

// Finite traits and workload that combine to no finite model are an error, not OK with NaN or
// inf terms (and a choice of n = 1 predicted at NaN).
TEST(ModelTest, TermsThatAreNotFiniteAreAnError) {
  DeviceTraits t = DeviceTraits::H100Anchors();
  Workload w;
  w.bytes = {.h2d = 1e300, .d2h = 1e300};  // no times: G x bytes = inf
  t.h2d.ms_per_byte = 1e10;
  absl::StatusOr<ModelTerms> terms = ComputeModelTerms(t, w);
  ASSERT_FALSE(terms.ok());
  EXPECT_NE(terms.status().message().find("is inf"), std::string::npos) << terms.status();
  // Terms made by hand: ChooseNumStreams checks them.
  ModelTerms bad = Terms(DeviceTraits::H100Anchors(), AnchorsIters1());
  bad.t_hd = std::numeric_limits<double>::quiet_NaN();
  absl::StatusOr<StreamChoice> c =
      ChooseNumStreams(*MakeModel(ModelKind::kCurrent), bad, {.max_streams = 16});
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("model term t_hd is nan"), std::string::npos)
      << c.status();
}

// The sub-chunks whose copy in is at most the inline limit, split as the pipeline splits
// (items % n of items / n + 1, the rest of items / n), times the rate.
TEST(ModelTest, InlineCopyIssueTimeFollowsThePipelinesSplit) {
  DeviceTraits t;
  EXPECT_EQ(InlineCopyIssueMs(t, 1e5, 1000, 7), 0.0);  // not measured: none
  t.inline_h2d_max_bytes = 14250;
  t.inline_h2d_ms_per_byte = 1e-7;
  // 1000 items of 100 bytes on 7 sub-chunks: six of 143 items (14300 bytes, over the limit),
  // one of 142 (14200 bytes, inline).
  EXPECT_DOUBLE_EQ(InlineCopyIssueMs(t, 1e5, 1000, 7), 14200 * 1e-7);
  // On 8: all of 125 items (12500 bytes): the whole batch.
  EXPECT_DOUBLE_EQ(InlineCopyIssueMs(t, 1e5, 1000, 8), 1e5 * 1e-7);
  // On 1: one copy of 100000 bytes, not inline.
  EXPECT_EQ(InlineCopyIssueMs(t, 1e5, 1000, 1), 0.0);
  // More sub-chunks than items: the empty ones copy nothing.
  EXPECT_DOUBLE_EQ(InlineCopyIssueMs(t, 1e5, 1000, 2000), 1e5 * 1e-7);
  // Nothing copied in, or no items: none.
  EXPECT_EQ(InlineCopyIssueMs(t, 0.0, 1000, 8), 0.0);
  EXPECT_EQ(InlineCopyIssueMs(t, 1e5, 0, 8), 0.0);
}

// A ladder as the H100's host issued it (runs 103-109): 2 us a copy, and 0.1 ms per MB more
// up to 24 KiB; the fit finds the limit, the rate and the cost per copy.
TEST(ModelTest, TheInlineLimitAndRateAreFittedFromALadderOfCopies) {
  std::vector<double> bytes, ms;
  std::mt19937_64 rng(5);
  std::normal_distribution<double> noise(0.0, 0.02);
  const std::vector<double> ladder_kib = {4, 8, 12, 16, 20, 22, 24, 26, 28, 32, 40, 48, 56, 64};
  // Another card's driver may put the limit elsewhere on the ladder: 8, 24 or 40 KiB.
  for (const double limit : {8192.0, 24576.0, 40960.0}) {
    SCOPED_TRACE(limit);
    bytes.clear();
    ms.clear();
    for (double kib : ladder_kib) {
      const double b = kib * 1024;
      bytes.push_back(b);
      ms.push_back((0.002 + (b <= limit ? 1e-7 * b : 0.0)) * std::exp(noise(rng)));
    }
    absl::StatusOr<InlineCopyFit> fit = FitInlineCopies(bytes, ms);
    ASSERT_TRUE(fit.ok()) << fit.status();
    EXPECT_EQ(fit->max_bytes, limit);
    EXPECT_NEAR(fit->ms_per_byte, 1e-7, 0.15e-7);
    EXPECT_NEAR(fit->per_copy_ms, 0.002, 0.0001);
  }
  // No inline path: every size costs the same (within the noise).
  for (double& m : ms) m = 0.002 * std::exp(noise(rng));
  absl::StatusOr<InlineCopyFit> none = FitInlineCopies(bytes, ms);
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_EQ(none->max_bytes, 0.0);
  EXPECT_EQ(none->ms_per_byte, 0.0);
  EXPECT_NEAR(none->per_copy_ms, 0.002, 0.0001);
  // Bad input names what is wrong.
  EXPECT_FALSE(FitInlineCopies({1, 2, 3}, {1, 2, 3}).ok());
  absl::StatusOr<InlineCopyFit> bad = FitInlineCopies({1, 2, 3, 0}, {1, 1, 1, 1});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("size 0 bytes"), std::string::npos) << bad.status();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(FitInlineCopies({1, 2, 3, inf}, {1, 1, 1, 1}).ok());
  EXPECT_FALSE(FitInlineCopies({1, 2, 3, 4}, {1, 1, 1, std::nan("")}).ok());
}

// Several ladders' fits (run 115: one lease, n = 8-128, both issue modes; rates 4.4-14.2 GB/s
// and two ladders without a limit): the limit most of them found, the median rate, and none
// where fewer than half found one.
TEST(ModelTest, SeveralLaddersCombineToTheMedianRateAndLimit) {
  const InlineCopyFit none{0.009, 0.0, 0.0};
  std::vector<InlineCopyFit> fits = {{0.0085, 24576, 1 / 4.40e6},  {0.0082, 24576, 1 / 11.49e6},
                                     {0.0096, 0.0, 0.0},           {0.0039, 22528, 1 / 6.22e6},
                                     {0.0037, 24576, 1 / 11.59e6}, {0.0097, 0.0, 0.0}};
  absl::StatusOr<InlineCopyFit> c = CombineInlineFits(fits);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->max_bytes, 24576);  // the lower median of 22528, 24576, 24576, 24576
  // The median of the four rates found: between 6.22 and 11.49 GB/s.
  EXPECT_DOUBLE_EQ(c->ms_per_byte, (1 / 6.22e6 + 1 / 11.49e6) / 2);
  EXPECT_DOUBLE_EQ(c->per_copy_ms, (0.0082 + 0.0085) / 2);
  // Two limits found: the lower of them (a limit the driver certainly has), not their mean.
  fits = {{0.008, 22528, 1e-7}, {0.008, 24576, 2e-7}, none};
  c = CombineInlineFits(fits);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->max_bytes, 22528);
  EXPECT_DOUBLE_EQ(c->ms_per_byte, 1.5e-7);
  // Exactly half found one: still a path; fewer than half: none.
  fits = {{0.008, 24576, 1e-7}, none};
  c = CombineInlineFits(fits);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->max_bytes, 24576);
  EXPECT_EQ(c->ms_per_byte, 1e-7);
  fits = {{0.008, 24576, 1e-7}, none, none};
  c = CombineInlineFits(fits);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->max_bytes, 0.0);
  EXPECT_EQ(c->ms_per_byte, 0.0);
  EXPECT_EQ(c->per_copy_ms, 0.009);
  // Bad input names what is wrong.
  EXPECT_FALSE(CombineInlineFits({}).ok());
  absl::StatusOr<InlineCopyFit> bad = CombineInlineFits({none, {0.008, -1.0, 1e-7}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("fit 1"), std::string::npos) << bad.status();
  EXPECT_FALSE(CombineInlineFits({{std::nan(""), 0.0, 0.0}}).ok());
}

}  // namespace
// A PathSet built by hand that says more paths than it holds: the model reads the paths it has
// (read past its arrays before session 51).
TEST(ModelTest, APathSetCountPastItsArraysIsClamped) {
  PathSet paths;
  paths.paths[0].kernel.c0 = 2.0;
  paths.count = kMaxPaths + 100;
  const LinearizedModel lin(paths);
  EXPECT_TRUE(std::isfinite(lin.TotalMs(4)));
  EXPECT_GE(lin.TotalMs(4), 2.0);
  paths.count = -3;
  EXPECT_TRUE(std::isfinite(LinearizedModel(paths).TotalMs(4)));
}

}  // namespace streampipe
