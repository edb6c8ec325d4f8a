// The stream models. Every equation cites its paper and number; docs/models.md is the prose.
#include "streampipe/core/model.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "streampipe/core/statistics.hpp"

namespace streampipe {
namespace {

bool FiniteNonNegative(double v) { return std::isfinite(v) && v >= 0.0; }

absl::Status CheckField(const char* what, double v) {
  if (FiniteNonNegative(v)) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(what, " is ", v, ": it must be finite and >= 0"));
}

// Shorthands for the parts of a path: constant, /n, *(n-1), *log2(n).
Affine K(double c) { return {c, 0.0, 0.0, 0.0}; }
Affine PerN(double c) { return {0.0, c, 0.0, 0.0}; }
Affine Lin(double c) { return {0.0, 0.0, c, 0.0}; }
Affine Sum(Affine a, const Affine& b) { return a += b; }

PathSet One(const CriticalPath& p) {
  PathSet s;
  s.paths[0] = p;
  s.count = 1;
  return s;
}
PathSet Three(const CriticalPath& a, const CriticalPath& b, const CriticalPath& c) {
  PathSet s;
  s.paths = {a, b, c};
  s.count = 3;
  return s;
}

std::optional<double> SqrtRatio(double num, double den) {
  if (!(den > 0.0) || !(num >= 0.0)) return std::nullopt;
  return std::sqrt(num / den);
}

// ---------------------------------------------------------------------------------------------
// Gómez-Luna et al. (seed 000), section 3.2.1: compute capability 1.x, no implicit
// synchronization, one DMA channel. tT = tThd + tTdh, toh = tsc * nStreams.
class GomezLunaCc1 final : public StreamModel {
 public:
  ModelKind kind() const override { return ModelKind::kGomezLunaCc1; }
  // Eq. 1 applies where tT > tE + tT/n, i.e. exactly where it exceeds eq. 3: the model is the
  // larger of the two. Eq. 3 comes first so that a tie (not strictly greater) picks eq. 3.
  PathSet Paths(const ModelTerms& t) const override {
    const Affine toh{t.stream_overhead, 0.0, t.stream_overhead, 0.0};  // tsc * n
    PathSet s;
    s.count = 2;
    // eq. 3: dominant kernel, tE + tT/n + toh.
    s.paths[0] = {PerN(t.t_hd), K(t.t_e), PerN(t.t_dh), toh, Regime::kDominantKernel};
    // eq. 1: dominant transfers, tT + toh.
    s.paths[1] = {K(t.t_hd), K(0.0), K(t.t_dh), toh, Regime::kDominantTransfers};
    return s;
  }
  // eq. 2 (dominant transfers) and eq. 4 (dominant kernel). Eqs. 1/3 are minimized by the
  // smaller of the two where tT > tE: the eq. 3 branch falls until sqrt(tT/tsc) or until it
  // meets the eq. 1 branch at tT/(tT - tE), whichever comes first.
  std::optional<double> ClosedFormOptimum(const ModelTerms& t) const override {
    const double tt = t.t_hd + t.t_dh;
    std::optional<double> eq4 = SqrtRatio(tt, t.stream_overhead);
    if (tt > t.t_e) {
      const double eq2 = tt / (tt - t.t_e);
      return eq4 ? std::min(eq2, *eq4) : eq2;
    }
    return eq4;
  }
};

// Section 3.2.2: compute capability 2.x, implicit synchronization, one DMA channel.
class GomezLunaCc2 final : public StreamModel {
 public:
  ModelKind kind() const override { return ModelKind::kGomezLunaCc2; }
  PathSet Paths(const ModelTerms& t) const override {
    const Affine toh{t.stream_overhead, 0.0, t.stream_overhead, 0.0};  // tsc * n
    if (t.t_hd > t.t_e) {  // eq. 5
      return One({K(t.t_hd), PerN(t.t_e), K(t.t_dh), toh, Regime::kDominantTransfers});
    }
    // eq. 7
    return One({PerN(t.t_hd), K(t.t_e), K(t.t_dh), toh, Regime::kDominantKernel});
  }
  std::optional<double> ClosedFormOptimum(const ModelTerms& t) const override {
    if (t.t_hd > t.t_e) return SqrtRatio(t.t_e, t.stream_overhead);  // eq. 6
    return SqrtRatio(t.t_hd, t.stream_overhead);                      // eq. 8
  }
};

// ---------------------------------------------------------------------------------------------
// van Werkhoven et al. (seed 003), Fig. 7. x = B*G, lat = L+o, gap = g. The paper does not
// state how the dominant-kernel case is told from the dominant-transfers case: the predictions
// are the maximum of both (each a critical path; docs/models.md, "Regimes"), and the §VI closed
// forms choose their case by the copy that the kernel has to hide per stream.
class WerkhovenSync1ce final : public StreamModel {
 public:
  ModelKind kind() const override { return ModelKind::kWerkhovenSync1ce; }
  // Eqs. 1 and 2 are two critical paths of one schedule, so the time is at least the larger:
  // the model is their maximum, as Gómez-Luna's cc 1.x model is of its eqs. 1 and 3. A switch
  // at tE >= x_hd (before session 50) took eq. 1 where eq. 2, with its g_hd(n-1), was larger.
  PathSet Paths(const ModelTerms& t) const override {
    PathSet s;
    s.count = 2;
    // eq. 1, dominant kernel (first on a tie)
    s.paths[0] = {Sum(K(t.lat_hd), PerN(t.x_hd)), K(t.t_e), K(t.lat_dh + t.x_dh), Lin(t.gap_dh),
                  Regime::kDominantKernel};
    // eq. 2, dominant transfers
    s.paths[1] = {K(t.lat_hd + t.x_hd), PerN(t.t_e), K(t.lat_dh + t.x_dh),
                  Lin(t.gap_hd + t.gap_dh), Regime::kDominantTransfers};
    return s;
  }
  // Section VI: sqrt(Bhd*Ghd/g) (dominant kernel), sqrt(tE/2g) (dominant transfers).
  std::optional<double> ClosedFormOptimum(const ModelTerms& t) const override {
    if (t.t_e >= t.x_hd) return SqrtRatio(t.x_hd, t.gap_dh);
    return SqrtRatio(t.t_e, t.gap_hd + t.gap_dh);
  }
};

class Werkhoven1ce final : public StreamModel {
 public:
  ModelKind kind() const override { return ModelKind::kWerkhoven1ce; }
  // Eq. 3 and eq. 4's three are critical paths of one schedule: the model is the maximum of
  // the four. A switch at tE >= x_hd + x_dh (before session 50) took eq. 4 where eq. 3 was
  // larger, for tE in ((x_hd + x_dh)(1 - 1/n) + g(n-1), x_hd + x_dh): a prediction below the
  // kernel's own path (2.000 ms where eq. 3 is 2.49 at x_hd = x_dh = 1, tE = 1.99, n = 4),
  // with a jump where the switch turned.
  PathSet Paths(const ModelTerms& t) const override {
    PathSet s;
    s.count = 4;
    // eq. 3, dominant kernel: no g term (first on a tie).
    s.paths[0] = {Sum(K(t.lat_hd), PerN(t.x_hd)), K(t.t_e), Sum(K(t.lat_dh), PerN(t.x_dh)),
                  K(0.0), Regime::kDominantKernel};
    // eq. 4, dominant transfers: three critical paths.
    const Regime r = Regime::kDominantTransfers;
    s.paths[1] = {K(t.lat_hd + t.x_hd), K(0.0), K(t.lat_dh + t.x_dh), Lin(t.gap_hd + t.gap_dh), r};
    s.paths[2] = {K(t.lat_hd + t.x_hd), PerN(t.t_e), Sum(K(t.lat_dh), PerN(t.x_dh)),
                  Lin(t.gap_hd), r};
    s.paths[3] = {Sum(K(t.lat_hd), PerN(t.x_hd)), PerN(t.t_e), K(t.lat_dh + t.x_dh),
                  Lin(t.gap_dh), r};
    return s;
  }
  // Section VI: in eq. 4 more streams only cost; the fewest streams that still reach the floor
  // of all copies solve x + g(n-1) = tE/n + x/n with x the smaller direction:
  // g n^2 + (x - g) n - (tE + x) = 0. Eq. 3 has no optimum (tE's growth with n is unmodelled).
  std::optional<double> ClosedFormOptimum(const ModelTerms& t) const override {
    if (t.t_e >= t.x_hd + t.x_dh) return std::nullopt;
    const bool more_in = t.x_hd > t.x_dh;
    const double x = more_in ? t.x_dh : t.x_hd;
    const double g = more_in ? t.gap_dh : t.gap_hd;
    if (!(g > 0.0)) return std::nullopt;
    const double b = x - g;
    return (-b + std::sqrt(b * b + 4.0 * g * (t.t_e + x))) / (2.0 * g);
  }
};

// Eq. 5, shared by werkhoven-2ce (x at the one-direction G) and werkhoven-hybrid (x at the
// bidirectional G of Table II).
PathSet TwoEngine(const ModelTerms& t, double x_hd, double x_dh) {
  const Regime r = Regime::kSingle;
  return Three({K(t.lat_hd + x_hd), PerN(t.t_e), Sum(K(t.lat_dh), PerN(x_dh)), Lin(t.gap_hd), r},
               {Sum(K(t.lat_hd), PerN(x_hd)), K(t.t_e), Sum(K(t.lat_dh), PerN(x_dh)), K(0.0), r},
               {Sum(K(t.lat_hd), PerN(x_hd)), PerN(t.t_e), K(t.lat_dh + x_dh), Lin(t.gap_dh), r});
}

// Section VI: sqrt((Bdh*Gdh + tE)/g) if Bhd > Bdh, else sqrt((Bhd*Ghd + tE)/g) (dominant
// transfers). For the dominant kernel case the paper gives none.
std::optional<double> TwoEngineOptimum(const ModelTerms& t, double x_hd, double x_dh) {
  if (t.t_e >= std::max(x_hd, x_dh)) return std::nullopt;
  if (x_hd >= x_dh) return SqrtRatio(x_dh + t.t_e, t.gap_hd);
  return SqrtRatio(x_hd + t.t_e, t.gap_dh);
}

class Werkhoven2ce final : public StreamModel {
 public:
  ModelKind kind() const override { return ModelKind::kWerkhoven2ce; }
  PathSet Paths(const ModelTerms& t) const override { return TwoEngine(t, t.x_hd, t.x_dh); }
  std::optional<double> ClosedFormOptimum(const ModelTerms& t) const override {
    return TwoEngineOptimum(t, t.x_hd, t.x_dh);
  }
};

class WerkhovenHybrid final : public StreamModel {
 public:
  ModelKind kind() const override { return ModelKind::kWerkhovenHybrid; }
  PathSet Paths(const ModelTerms& t) const override { return TwoEngine(t, t.xdup_hd, t.xdup_dh); }
  std::optional<double> ClosedFormOptimum(const ModelTerms& t) const override {
    return TwoEngineOptimum(t, t.xdup_hd, t.xdup_dh);
  }
};

// Eq. 6: device-mapped memory overlaps everything at warp granularity; n plays no part.
class WerkhovenMapped final : public StreamModel {
 public:
  ModelKind kind() const override { return ModelKind::kWerkhovenMapped; }
  PathSet Paths(const ModelTerms& t) const override {
    const Regime r = Regime::kSingle;
    return Three({K(t.lat_hd + t.x_hd), K(0.0), K(t.lat_dh), K(0.0), r},
                 {K(t.lat_hd), K(t.t_e), K(t.lat_dh), K(0.0), r},
                 {K(t.lat_hd), K(0.0), K(t.lat_dh + t.x_dh), K(0.0), r});
  }
  std::optional<double> ClosedFormOptimum(const ModelTerms&) const override {
    return std::nullopt;
  }
};

// ---------------------------------------------------------------------------------------------
// Veneva & Imamura (seed 004): T_str = T_non_str - (n-1)/n * sum + T_overhead (eq. 5 solved
// for T_str) = (T_non_str - sum) + sum/n + T_overhead, sum from eq. 4 (or measured), T_overhead
// from eq. 7 (linear in log2 n for both forms).
class VenevaRegression final : public StreamModel {
 public:
  explicit VenevaRegression(const VenevaCoefficients& c) : c_(c) {}
  ModelKind kind() const override { return ModelKind::kVenevaRegression; }
  PathSet Paths(const ModelTerms& t) const override {
    const std::array<double, 3> comp = {t.t_hd, t.t_e, t.t_dh};
    const double t_non = comp[0] + comp[1] + comp[2];
    const std::size_t dom =
        static_cast<std::size_t>(std::max_element(comp.begin(), comp.end()) - comp.begin());
    const double measured_sum = t_non - comp[dom];
    const double sum = c_.sum_from_regression ? c_.Sum(t.problem_size) : measured_sum;
    // The dominant component is not overlapped (eq. 2); the others share sum/n in proportion
    // to their measured times.
    std::array<Affine, 3> parts{};
    parts[dom] = K(t_non - sum);
    for (std::size_t i = 0; i < 3; ++i) {
      if (i == dom) continue;
      const double share = measured_sum > 0.0 ? comp[i] / measured_sum : 0.5;
      parts[i] = PerN(share * sum);
    }
    // eq. 7 as c + k*log2(n): log10(n) = log2(n) / log2(10); log2(n^(4/3)) = 4/3 log2(n).
    const VenevaOverheadFit& f = t.problem_size <= c_.size_threshold ? c_.small : c_.big;
    Affine overhead;
    if (f.form == VenevaOverheadForm::kLog10) {
      overhead = {f.p0 * t.problem_size + f.p2, 0.0, 0.0, f.p1 / std::log2(10.0)};
    } else {
      overhead = {f.p2, 0.0, 0.0, (f.p0 * t.problem_size + f.p1) * 4.0 / 3.0};
    }
    return One({parts[0], parts[1], parts[2], overhead, Regime::kSingle});
  }
  std::optional<double> ClosedFormOptimum(const ModelTerms&) const override {
    return std::nullopt;  // eq. 6 is a criterion over discrete candidates.
  }

 private:
  VenevaCoefficients c_;
};

// ---------------------------------------------------------------------------------------------
// Ours, for GPUs with a copy engine per direction and no implicit synchronization (Hopper and
// later): eq. 5 of seed 003 where the copies that overlap a copy in the other direction run at
// the duplex G, plus a per-stream overhead c(n-1) fitted on the card. At n = 1 it returns the
// measured non-streamed time exactly. docs/models.md, "The current-GPU model".
class CurrentModel final : public StreamModel {
  // The per-stream overhead of one direction's copy path, (n-1) times c_eff(n):
  //   c_eff(n) = c0 + (c - c0) * phi * u(n),  u(n) = (x'_o/n) / (x'_o/n + g_o + c),
  // phi the share of this direction's copy time the other direction is busy (as for x_eff) and
  // u(n) how much of each of the other direction's sub-chunk copies moves data rather than
  // pays its own overhead. c is what a sub-chunk costs beside a saturated link (the
  // calibration's symmetric sweep), c0 what it costs beside an idle one (tiny sub-chunks
  // held). Without c0 (< 0), c for every sub-chunk.
  static Affine Overhead(const ModelTerms& t, double x_self, double x_other, double xdup_other,
                         double gap_other) {
    const double c = t.stream_overhead;
    if (!(t.idle_stream_overhead >= 0.0)) return Lin(c);
    const double c0 = t.idle_stream_overhead;
    Affine out = Lin(c0);
    const double phi = x_self > 0.0 ? std::min(1.0, x_other / x_self) : 0.0;
    if (phi > 0.0 && xdup_other > 0.0 && c != c0) {
      out.c_sat = (c - c0) * phi;
      out.sat_rate = std::max(0.0, gap_other + c) / xdup_other;
    }
    return out;
  }

 public:
  ModelKind kind() const override { return ModelKind::kCurrent; }

  PathSet Paths(const ModelTerms& t) const override {
    // (n-1)/n * xeff = xeff - xeff/n: the chunks after the first overlap the other direction.
    const Affine overlapped_hd{t.xeff_hd, -t.xeff_hd, 0.0, 0.0};
    const Affine overlapped_dh{t.xeff_dh, -t.xeff_dh, 0.0, 0.0};
    const Affine first_hd = Sum(K(t.lat_hd), PerN(t.x_hd));
    const Affine last_dh = Sum(K(t.lat_dh), PerN(t.x_dh));
    // One sub-chunk's kernel: the fixed part (a launch, a grid under one round of blocks)
    // whatever its size, the rest shared among the n (t_e / n where no half was measured).
    const Affine sub_kernel = Sum(K(t.t_e_fixed), PerN(t.t_e - t.t_e_fixed));
    const Regime r = Regime::kSingle;
    PathSet set = Three(
        // Copy-in bound: first chunk alone, the rest at the duplex rate, then the last kernel
        // and copy-out. The per-stream overhead is paid on the copy engines' path.
        {Sum(first_hd, overlapped_hd), sub_kernel, last_dh,
         Sum(Lin(t.gap_hd), Overhead(t, t.x_hd, t.x_dh, t.xdup_dh, t.gap_dh)), r},
        // Kernel bound: the other streams' copies and launches hide under the kernels.
        {first_hd, K(t.t_e), last_dh, K(0.0), r},
        // Copy-out bound.
        {first_hd, sub_kernel, Sum(last_dh, overlapped_dh),
         Sum(Lin(t.gap_dh), Overhead(t, t.x_dh, t.x_hd, t.xdup_hd, t.gap_hd)), r});
    if (t.sub_chunk > 0.0) {
      // Issue bound (T4): sub-chunks start no faster than one per s, however small they are;
      // the last one then runs its copy in, kernel and copy out.
      set.paths[set.count++] = {first_hd, sub_kernel, last_dh, Lin(t.sub_chunk), r};
      if (t.kernel_issue_share > 0.0) {
        // Kernel issue delay (T5): issued breadth-first, the first kernel waits until the host
        // has issued every other sub-chunk's copy in (w = share x s each; (n - 1) w, so that
        // n = 1 stays the measured batch); the kernels then run the whole t_e and the last copy
        // out follows. Seen on the H100 and the H200 alike where the kernel dominates: flat on
        // the device alone, 7-15 % slower issued live at n = 64-128 (docs/evidence/session47/).
        const double w = t.kernel_issue_share * t.sub_chunk;
        set.paths[set.count++] = {K(0.0), K(t.t_e), last_dh, Lin(w), r};
      }
    }
    return set;
  }

  // No paper closed form: each path is a + b/n + d(n-1) with b, d >= 0 (for a duplex slowdown
  // under 2x), plus k (n-1)/(1 + h n) where c0 is measured. The first is convex; with the
  // second each path's derivative crosses zero at most once (d + k(1+h)/(1+hn)^2 - b/n^2 = 0
  // where k(1+h) n^2/(1+hn)^2 - b, increasing in n, meets -d n^2, decreasing), so each path is
  // unimodal, the max of them too (its sublevel sets are intersections of intervals), and
  // golden-section search finds its exact minimizer.
  std::optional<double> ClosedFormOptimum(const ModelTerms& t) const override {
    // What grows without bound in n: g, s, and the overhead every sub-chunk pays (c0 where
    // measured; c's share beside a busy link saturates).
    const double per_stream = t.idle_stream_overhead >= 0.0 ? t.idle_stream_overhead
                                                             : t.stream_overhead;
    if (!(per_stream > 0.0) && !(t.gap_hd > 0.0) && !(t.gap_dh > 0.0) && !(t.sub_chunk > 0.0)) {
      return std::nullopt;  // nothing penalises more streams without bound
    }
    return ConvexOptimum(LinearizedModel(*this, t));
  }
};

}  // namespace

const char* RegimeName(Regime regime) {
  switch (regime) {
    case Regime::kSingle:
      return "single";
    case Regime::kDominantKernel:
      return "dominant-kernel";
    case Regime::kDominantTransfers:
      return "dominant-transfers";
  }
  return "unknown";
}

PathSet SteadyStatePaths(const ModelTerms& t) {
  const Affine c = Lin(t.stream_overhead);
  const Regime r = Regime::kSingle;
  // Copies at the duplex rate: in steady state the other direction always has work.
  const double xd_hd = t.x_dh > 0.0 ? t.xdup_hd : t.x_hd;
  const double xd_dh = t.x_hd > 0.0 ? t.xdup_dh : t.x_dh;
  PathSet set = Three({K(t.lat_hd + xd_hd), K(0.0), K(0.0), Sum(Lin(t.gap_hd), c), r},
                      {K(0.0), K(t.t_e), K(0.0), K(0.0), r},
                      {K(0.0), K(0.0), K(t.lat_dh + xd_dh), Sum(Lin(t.gap_dh), c), r});
  if (t.sub_chunk > 0.0) {
    // The host issues n sub-chunks per batch, one per s at best.
    set.paths[set.count++] = {K(0.0), K(0.0), K(0.0), Sum(K(t.sub_chunk), Lin(t.sub_chunk)), r};
  }
  return set;
}

Prediction StreamModel::Predict(const ModelTerms& terms, int streams) const {
  return LinearizedModel(*this, terms).Predict(streams);
}

LinearizedModel::LinearizedModel(const StreamModel& model, const ModelTerms& terms)
    : LinearizedModel(model.Paths(terms)) {}

LinearizedModel::LinearizedModel(const PathSet& paths) : set_(paths) {
  // A PathSet built by hand may say more paths than it holds (read past the arrays before
  // session 51).
  set_.count = std::clamp(set_.count, 0, kMaxPaths);
  for (int i = 0; i < set_.count; ++i) {
    const CriticalPath& p = set_.paths[i];
    const Affine* parts[] = {&p.h2d, &p.kernel, &p.d2h, &p.overhead};
    bool alike = true;
    for (const Affine* a : parts) {
      for (const Affine* b : parts) alike = alike && a->SaturatesLike(*b);
    }
    split_[i] = !alike;
    any_split_ = any_split_ || !alike;
    totals_[i] = Sum(Sum(p.h2d, p.kernel), Sum(p.d2h, p.overhead));
    has_log_ = has_log_ || p.h2d.c_log != 0.0 || p.kernel.c_log != 0.0 || p.d2h.c_log != 0.0 ||
               p.overhead.c_log != 0.0;
  }
}

Prediction LinearizedModel::Predict(int n) const {
  const double dn = n;
  const double inv = 1.0 / dn;
  const double lg = has_log_ ? std::log2(dn) : 0.0;
  int best = 0;
  double best_ms = PathAt(0, dn, inv, lg);
  for (int i = 1; i < set_.count; ++i) {
    const double ms = PathAt(i, dn, inv, lg);
    if (ms > best_ms) {
      best = i;
      best_ms = ms;
    }
  }
  const CriticalPath& p = set_.paths[best];
  Prediction out;
  out.streams = n;
  out.term = set_.count > 1 ? best + 1 : 0;
  out.parts = {p.h2d.At(dn, inv, lg), p.kernel.At(dn, inv, lg), p.d2h.At(dn, inv, lg),
               p.overhead.At(dn, inv, lg)};
  out.total_ms = out.parts.h2d_ms + out.parts.kernel_ms + out.parts.d2h_ms + out.parts.overhead_ms;
  out.regime = p.regime;
  return out;
}

double ConvexOptimum(const LinearizedModel& model) {
  const double kInvPhi = (std::sqrt(5.0) - 1.0) / 2.0;
  double lo = 1.0;
  double hi = 65536.0;
  double a = hi - kInvPhi * (hi - lo);
  double b = lo + kInvPhi * (hi - lo);
  double fa = model.TotalMs(a);
  double fb = model.TotalMs(b);
  for (int i = 0; i < 100 && hi - lo > 1e-9 * hi; ++i) {
    if (fa <= fb) {
      hi = b;
      b = a;
      fb = fa;
      a = hi - kInvPhi * (hi - lo);
      fa = model.TotalMs(a);
    } else {
      lo = a;
      a = b;
      fa = fb;
      b = lo + kInvPhi * (hi - lo);
      fb = model.TotalMs(b);
    }
  }
  return 0.5 * (lo + hi);
}

DeviceTraits DeviceTraits::H100Anchors() {
  DeviceTraits t;
  t.name = "NVIDIA H100 80GB HBM3";
  t.cc_major = 9;
  t.cc_minor = 0;
  t.sm_count = 132;
  t.copy_engines = 3;
  t.implicit_sync = false;
  t.concurrent_kernels = true;
  t.hardware_queues = 8;
  // docs/evidence/anchors/h100-probe-2026-11-22.txt: 55.2 GB/s each way alone at >= 64 MiB,
  // 98.68 GB/s both ways at once, 1-byte copies 4.2 us / 3.4 us, g 2.55 us.
  t.h2d = {.latency_ms = 0.00416,
           .ms_per_byte = 1.0 / 55.18e6,
           .gap_ms = 0.00255,
           .duplex_ms_per_byte = 2.0 / 98.68e6};
  t.d2h = {.latency_ms = 0.00342,
           .ms_per_byte = 1.0 / 55.13e6,
           .gap_ms = 0.00255,
           .duplex_ms_per_byte = 2.0 / 98.68e6};
  // Fitted to the anchors' add-scalar sweep with c on the copy paths (docs/models.md).
  t.stream_overhead_ms = 0.0027;
  return t;
}

std::string_view ModelName(ModelKind kind) {
  switch (kind) {
    case ModelKind::kGomezLunaCc1:
      return "gomez-luna-cc1";
    case ModelKind::kGomezLunaCc2:
      return "gomez-luna-cc2";
    case ModelKind::kWerkhovenSync1ce:
      return "werkhoven-sync-1ce";
    case ModelKind::kWerkhoven1ce:
      return "werkhoven-1ce";
    case ModelKind::kWerkhoven2ce:
      return "werkhoven-2ce";
    case ModelKind::kWerkhovenMapped:
      return "werkhoven-mapped";
    case ModelKind::kWerkhovenHybrid:
      return "werkhoven-hybrid";
    case ModelKind::kVenevaRegression:
      return "veneva-regression";
    case ModelKind::kCurrent:
      return "current";
  }
  return "unknown";
}

absl::StatusOr<ModelKind> ParseModelKind(std::string_view name) {
  for (ModelKind k : kAllModelKinds) {
    if (ModelName(k) == name) return k;
  }
  std::vector<std::string> names;
  for (ModelKind k : kAllModelKinds) names.emplace_back(ModelName(k));
  return absl::InvalidArgumentError(absl::StrCat("unknown model '", std::string(name), "'; valid models: ",
                                                 absl::StrJoin(names, ", "), ", auto"));
}

ModelKind ModelFor(const DeviceTraits& traits) {
  if (traits.cc_major == 1) return ModelKind::kGomezLunaCc1;
  if (traits.implicit_sync) return ModelKind::kWerkhovenSync1ce;
  if (traits.copy_engines < 2) return ModelKind::kWerkhoven1ce;
  if (traits.cc_major >= 9) return ModelKind::kCurrent;
  return ModelKind::kWerkhoven2ce;
}

std::unique_ptr<StreamModel> MakeModel(ModelKind kind, const VenevaCoefficients* veneva) {
  switch (kind) {
    case ModelKind::kGomezLunaCc1:
      return std::make_unique<GomezLunaCc1>();
    case ModelKind::kGomezLunaCc2:
      return std::make_unique<GomezLunaCc2>();
    case ModelKind::kWerkhovenSync1ce:
      return std::make_unique<WerkhovenSync1ce>();
    case ModelKind::kWerkhoven1ce:
      return std::make_unique<Werkhoven1ce>();
    case ModelKind::kWerkhoven2ce:
      return std::make_unique<Werkhoven2ce>();
    case ModelKind::kWerkhovenMapped:
      return std::make_unique<WerkhovenMapped>();
    case ModelKind::kWerkhovenHybrid:
      return std::make_unique<WerkhovenHybrid>();
    case ModelKind::kVenevaRegression:
      return std::make_unique<VenevaRegression>(veneva ? *veneva
                                                       : VenevaCoefficients::Published());
    case ModelKind::kCurrent:
      return std::make_unique<CurrentModel>();
  }
  return nullptr;
}

absl::StatusOr<std::unique_ptr<StreamModel>> MakeModel(std::string_view name,
                                                       const DeviceTraits& traits,
                                                       const VenevaCoefficients* veneva) {
  if (name == "auto") return MakeModel(ModelFor(traits), veneva);
  absl::StatusOr<ModelKind> kind = ParseModelKind(name);
  if (!kind.ok()) return kind.status();
  return MakeModel(*kind, veneva);
}

absl::Status ValidateTraits(const DeviceTraits& traits) {
  const std::pair<const char*, double> fields[] = {
      {"h2d latency_ms (L+o)", traits.h2d.latency_ms},
      {"h2d ms_per_byte (G)", traits.h2d.ms_per_byte},
      {"h2d gap_ms (g)", traits.h2d.gap_ms},
      {"h2d duplex_ms_per_byte", traits.h2d.duplex_ms_per_byte},
      {"d2h latency_ms (L+o)", traits.d2h.latency_ms},
      {"d2h ms_per_byte (G)", traits.d2h.ms_per_byte},
      {"d2h gap_ms (g)", traits.d2h.gap_ms},
      {"d2h duplex_ms_per_byte", traits.d2h.duplex_ms_per_byte},
      {"stream_overhead_ms", traits.stream_overhead_ms},
      {"sub_chunk_cost_ms", traits.sub_chunk_cost_ms},
      {"inline_h2d_max_bytes", traits.inline_h2d_max_bytes},
      {"inline_h2d_ms_per_byte", traits.inline_h2d_ms_per_byte},
  };
  for (const auto& [what, v] : fields) {
    absl::Status s = CheckField(what, v);
    if (!s.ok()) return s;
  }
  if (!std::isfinite(traits.idle_stream_overhead_ms)) {
    return absl::InvalidArgumentError(
        absl::StrCat("idle_stream_overhead_ms (c0) is ", traits.idle_stream_overhead_ms,
                     ": it must be finite (negative: not measured)"));
  }
  if (traits.copy_engines < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("copy_engines is ", traits.copy_engines, ": it must be >= 0"));
  }
  return absl::OkStatus();
}

absl::Status ValidateWorkload(const Workload& w) {
  const std::pair<const char*, double> fields[] = {
      {"h2d_ms", w.times.h2d_ms},   {"kernel_ms", w.times.kernel_ms},
      {"d2h_ms", w.times.d2h_ms},   {"kernel_half_ms", w.times.kernel_half_ms},
      {"h2d bytes", w.bytes.h2d},
      {"d2h bytes", w.bytes.d2h},   {"problem_size", w.problem_size},
  };
  for (const auto& [what, v] : fields) {
    absl::Status s = CheckField(what, v);
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

double KernelFixedMs(const ComponentTimes& times) {
  // (No half, or no kernel time to take a part of: none. A negative kernel time made the
  // clamp's bounds cross.)
  if (!(times.kernel_half_ms > 0.0) || !(times.kernel_ms > 0.0)) return 0.0;
  return std::clamp(2.0 * times.kernel_half_ms - times.kernel_ms, 0.0, times.kernel_ms);
}

absl::StatusOr<ModelTerms> ComputeModelTerms(const DeviceTraits& traits, const Workload& w) {
  absl::Status s = ValidateTraits(traits);
  if (!s.ok()) return s;
  s = ValidateWorkload(w);
  if (!s.ok()) return s;

  ModelTerms t;
  auto direction = [](double measured_ms, double bytes, const LinkParams& link,
                      const char* what, double& total, double& x,
                      double& xdup) -> absl::Status {
    if (measured_ms > 0.0) {
      total = measured_ms;
      x = std::max(0.0, measured_ms - link.latency_ms);
    } else if (bytes > 0.0) {
      if (!(link.ms_per_byte > 0.0)) {
        return absl::InvalidArgumentError(absl::StrCat(
            what, ": ", bytes, " bytes but no time and no G (ms_per_byte) to derive one"));
      }
      x = bytes * link.ms_per_byte;
      total = link.latency_ms + x;
    } else {
      total = 0.0;
      x = 0.0;
    }
    const double ratio = (link.ms_per_byte > 0.0 && link.duplex_ms_per_byte > 0.0)
                             ? link.duplex_ms_per_byte / link.ms_per_byte
                             : 1.0;
    xdup = x * ratio;
    return absl::OkStatus();
  };
  s = direction(w.times.h2d_ms, w.bytes.h2d, traits.h2d, "host-to-device copy", t.t_hd, t.x_hd,
                t.xdup_hd);
  if (!s.ok()) return s;
  s = direction(w.times.d2h_ms, w.bytes.d2h, traits.d2h, "device-to-host copy", t.t_dh, t.x_dh,
                t.xdup_dh);
  if (!s.ok()) return s;
  // A direction that moves nothing has no latency on the critical path either.
  t.lat_hd = t.t_hd > 0.0 ? std::min(traits.h2d.latency_ms, t.t_hd) : 0.0;
  t.lat_dh = t.t_dh > 0.0 ? std::min(traits.d2h.latency_ms, t.t_dh) : 0.0;
  t.gap_hd = t.t_hd > 0.0 ? traits.h2d.gap_ms : 0.0;
  t.gap_dh = t.t_dh > 0.0 ? traits.d2h.gap_ms : 0.0;
  // Fraction of one direction's copy time during which the other direction is busy.
  const double phi_hd = t.x_hd > 0.0 ? std::min(1.0, t.x_dh / t.x_hd) : 0.0;
  const double phi_dh = t.x_dh > 0.0 ? std::min(1.0, t.x_hd / t.x_dh) : 0.0;
  t.xeff_hd = t.x_hd + (t.xdup_hd - t.x_hd) * phi_hd;
  t.xeff_dh = t.x_dh + (t.xdup_dh - t.x_dh) * phi_dh;
  t.t_e = w.times.kernel_ms;
  t.t_e_fixed = KernelFixedMs(w.times);
  t.stream_overhead = traits.stream_overhead_ms;
  t.idle_stream_overhead = traits.idle_stream_overhead_ms;
  t.sub_chunk = traits.sub_chunk_cost_ms;
  t.problem_size = w.problem_size;
  t.bytes_hd = w.bytes.h2d;
  t.bytes_dh = w.bytes.d2h;
  if (absl::Status v = ValidateModelTerms(t); !v.ok()) return v;
  return t;
}

absl::Status ValidateModelTerms(const ModelTerms& t) {
  // Finite traits and workload can still combine to inf or NaN (bytes of 1e300 at a G of 1e10
  // ms/byte; a duplex rate 1e310 times a G of 1e-300): no model of them means anything.
  const std::pair<const char*, double> terms[] = {
      {"t_hd", t.t_hd},       {"t_e", t.t_e},         {"t_e_fixed", t.t_e_fixed},
      {"t_dh", t.t_dh},       {"lat_hd", t.lat_hd},   {"lat_dh", t.lat_dh},
      {"x_hd", t.x_hd},       {"x_dh", t.x_dh},       {"xdup_hd", t.xdup_hd},
      {"xdup_dh", t.xdup_dh}, {"xeff_hd", t.xeff_hd}, {"xeff_dh", t.xeff_dh},
      {"gap_hd", t.gap_hd},   {"gap_dh", t.gap_dh},   {"stream_overhead", t.stream_overhead},
      {"idle_stream_overhead", t.idle_stream_overhead},
      {"sub_chunk", t.sub_chunk}, {"kernel_issue_share", t.kernel_issue_share},
      {"problem_size", t.problem_size},
      {"bytes_hd", t.bytes_hd}, {"bytes_dh", t.bytes_dh},
  };
  for (const auto& [what, v] : terms) {
    if (!std::isfinite(v)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "model term ", what, " is ", v, ": the traits and the workload give no finite model"));
    }
  }
  if (t.kernel_issue_share < 0.0 || t.kernel_issue_share > 1.0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "model term kernel_issue_share is ", t.kernel_issue_share, "; it must be in [0, 1]"));
  }
  return absl::OkStatus();
}

Chunk ChunkOf(std::int64_t items, int n, int k) {
  if (n < 1 || items < 0 || k < 0 || k >= n) return {0, 0};  // no such sub-chunk
  const std::int64_t base = items / n;
  const std::int64_t rem = items % n;
  return {k * base + std::min<std::int64_t>(k, rem), base + (k < rem ? 1 : 0)};
}

double InlineCopyIssueMs(const DeviceTraits& traits, double h2d_bytes, std::int64_t items,
                         int n) {
  if (!(traits.inline_h2d_max_bytes > 0.0) || !(traits.inline_h2d_ms_per_byte > 0.0) ||
      !(h2d_bytes > 0.0) || items < 1 || n < 1) {
    return 0.0;
  }
  // Each sub-chunk copies its items' bytes in.
  const double per_item = h2d_bytes / static_cast<double>(items);
  double inlined = 0.0;
  for (int k = 0; k < n; ++k) {
    const double bytes = static_cast<double>(ChunkOf(items, n, k).count) * per_item;
    if (bytes > 0.0 && bytes <= traits.inline_h2d_max_bytes) inlined += bytes;
  }
  return inlined * traits.inline_h2d_ms_per_byte;
}

absl::StatusOr<InlineCopyFit> FitInlineCopies(const std::vector<double>& bytes,
                                              const std::vector<double>& issue_ms_per_copy) {
  if (bytes.size() != issue_ms_per_copy.size() || bytes.size() < 4) {
    return absl::InvalidArgumentError(absl::StrCat(
        "FitInlineCopies: ", bytes.size(), " sizes and ", issue_ms_per_copy.size(),
        " times; at least 4 of each, as many of one as of the other"));
  }
  std::vector<std::pair<double, double>> v;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (!(bytes[i] > 0.0) || !std::isfinite(bytes[i]) || !std::isfinite(issue_ms_per_copy[i]) ||
        issue_ms_per_copy[i] < 0.0) {
      return absl::InvalidArgumentError(absl::StrCat("FitInlineCopies: size ", bytes[i],
                                                     " bytes took ", issue_ms_per_copy[i],
                                                     " ms; sizes finite and > 0, times finite and >= 0"));
    }
    v.emplace_back(bytes[i], issue_ms_per_copy[i]);
  }
  std::sort(v.begin(), v.end());
  // A change point: for each limit L among the sizes (with at least two sizes above it), the
  // usual cost per copy is the median time above L and the rate the least squares through the
  // origin of the excess over it against the bytes up to L; the limit whose model leaves the
  // least squared misfit wins, against the model without an inline path (one cost for all).
  InlineCopyFit fit;
  std::vector<double> all;
  for (const auto& [b, ms] : v) all.push_back(ms);
  fit.per_copy_ms = Median(all);
  double best_misfit = 0.0;
  for (const auto& [b, ms] : v) best_misfit += (ms - fit.per_copy_ms) * (ms - fit.per_copy_ms);
  const double none_misfit = best_misfit;
  for (std::size_t j = 0; j + 2 < v.size(); ++j) {
    std::vector<double> above;
    for (std::size_t i = j + 1; i < v.size(); ++i) above.push_back(v[i].second);
    const double base = Median(above);
    double num = 0.0, den = 0.0;
    for (std::size_t i = 0; i <= j; ++i) {
      num += v[i].first * (v[i].second - base);
      den += v[i].first * v[i].first;
    }
    const double rate = num / den;
    if (!(rate > 0.0)) continue;
    double misfit = 0.0;
    for (std::size_t i = 0; i < v.size(); ++i) {
      const double d = v[i].second - base - (i <= j ? rate * v[i].first : 0.0);
      misfit += d * d;
    }
    if (misfit < best_misfit) {
      best_misfit = misfit;
      fit = {base, v[j].first, rate};
    }
  }
  // An inline path must explain most of the spread (half the misfit of one cost for all) and
  // cost at its limit at least kMinExcess of a copy: else it is the noise.
  constexpr double kMinExcess = 0.1;
  if (fit.max_bytes > 0.0 && (best_misfit > 0.5 * none_misfit ||
                              fit.ms_per_byte * fit.max_bytes < kMinExcess * fit.per_copy_ms)) {
    fit = {Median(all), 0.0, 0.0};
  }
  return fit;
}

absl::StatusOr<InlineCopyFit> CombineInlineFits(const std::vector<InlineCopyFit>& fits) {
  if (fits.empty()) return absl::InvalidArgumentError("CombineInlineFits: no fits");
  std::vector<double> per_copy, limits, rates;
  for (std::size_t i = 0; i < fits.size(); ++i) {
    const InlineCopyFit& f = fits[i];
    for (const double v : {f.per_copy_ms, f.max_bytes, f.ms_per_byte}) {
      if (!std::isfinite(v) || v < 0.0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "CombineInlineFits: fit ", i, " has per_copy_ms ", f.per_copy_ms, ", max_bytes ",
            f.max_bytes, ", ms_per_byte ", f.ms_per_byte, "; each must be finite and >= 0"));
      }
    }
    per_copy.push_back(f.per_copy_ms);
    if (f.max_bytes > 0.0 && f.ms_per_byte > 0.0) {
      limits.push_back(f.max_bytes);
      rates.push_back(f.ms_per_byte);
    }
  }
  InlineCopyFit out;
  out.per_copy_ms = Median(per_copy);
  if (2 * limits.size() >= fits.size()) {
    out.max_bytes = LowMedian(limits);
    out.ms_per_byte = Median(rates);
  }
  return out;
}

}  // namespace streampipe
