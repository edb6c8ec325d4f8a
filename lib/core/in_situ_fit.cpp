#include "streampipe/core/in_situ_fit.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <utility>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "streampipe/core/least_squares.hpp"
#include "streampipe/core/statistics.hpp"

namespace streampipe {
namespace {

bool Positive(double v) { return std::isfinite(v) && v > 0.0; }
bool NonNegative(double v) { return std::isfinite(v) && v >= 0.0; }

}  // namespace

absl::StatusOr<InSituFit> FitInSitu(const InSituTerms& t, std::span<const InSituPoint> sweep) {
  const std::pair<const char*, double> components[] = {
      {"h2d_latency_ms", t.h2d_latency_ms}, {"d2h_latency_ms", t.d2h_latency_ms},
      {"h2d_gap_ms", t.h2d_gap_ms},         {"d2h_gap_ms", t.d2h_gap_ms},
      {"h2d_ms", t.h2d_ms},                 {"d2h_ms", t.d2h_ms},
      {"kernel_ms", t.kernel_ms}};
  for (const auto& [name, v] : components) {
    if (!NonNegative(v)) {
      return absl::InvalidArgumentError(absl::StrCat("in-situ fit: the component time ", name,
                                                     " is ", v, "; it must be finite and >= 0"));
    }
  }
  // Negative means "not measured"; NaN or infinity is neither a measurement nor that.
  if (!std::isfinite(t.idle_stream_overhead_ms)) {
    return absl::InvalidArgumentError(
        absl::StrCat("in-situ fit: idle_stream_overhead_ms is ", t.idle_stream_overhead_ms,
                     "; it must be finite (negative: not measured)"));
  }
  // The part the model knows from the components (the copy-in bound without x' and c), and
  // the two regressors per point.
  std::vector<InSituPoint> pts;
  std::vector<double> rates;  // issue / n of the timed points
  for (const InSituPoint& p : sweep) {
    if (!Positive(p.ms)) {
      return absl::InvalidArgumentError(absl::StrCat("in-situ fit: n = ", p.streams, " measured ",
                                                     p.ms, " ms; it must be finite and > 0"));
    }
    if (!NonNegative(p.issue_ms)) {
      return absl::InvalidArgumentError(absl::StrCat("in-situ fit: n = ", p.streams,
                                                     " took an issue time of ", p.issue_ms,
                                                     " ms; it must be finite and >= 0"));
    }
    if (p.streams < 2) continue;  // n = 1 has neither duplex copies nor a second stream
    pts.push_back(p);
    if (p.issue_ms > 0.0) rates.push_back(p.issue_ms / p.streams);
  }
  // The host's usual rate: the median over n, which a stall during one or two n does not move.
  const double rate = rates.empty() ? 0.0 : Median(rates);
  InSituFit out;
  std::set<int> distinct;
  std::vector<InSituPoint> kept;
  for (const InSituPoint& p : pts) {
    if (p.issue_ms > 0.0 && (p.issue_ms >= kInSituIssueBound * p.ms ||
                             p.issue_ms - rate * p.streams > kInSituTolerance * p.ms)) {
      out.host_bound.push_back(p.streams);
      continue;
    }
    kept.push_back(p);
    distinct.insert(p.streams);
  }
  pts = std::move(kept);
  // With n kept out for the host, at least four must remain, so that the burst defence below
  // still checks the fit (with fewer, any two points fit a line exactly).
  if (distinct.size() < 2 || (!out.host_bound.empty() && pts.size() < 4)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "in-situ fit: ", distinct.size(), " distinct n >= 2 measured",
        out.host_bound.empty()
            ? ""
            : absl::StrCat(" where the host did not set the time (it did at n = ",
                           absl::StrJoin(out.host_bound, ", "), ")"),
        out.host_bound.empty() ? "; two unknowns need two or more"
                               : "; the fit needs four or more where the host set any"));
  }
  const bool has_idle = t.idle_stream_overhead_ms >= 0.0;
  const double c0 = has_idle ? t.idle_stream_overhead_ms : 0.0;
  const auto base = [&](double n) {
    return t.h2d_latency_ms + t.h2d_ms / n + t.h2d_gap_ms * (n - 1.0) + t.kernel_ms / n +
           t.d2h_latency_ms + t.d2h_ms / n + c0 * (n - 1.0);
  };
  // phi u(n) (n-1): how much of c - c0 the copy-in path pays at n, for a duplex copy time x'
  // (both directions slowed alike, as calibration writes them) and overhead c.
  const double phi = t.h2d_ms > 0.0 ? std::min(1.0, t.d2h_ms / t.h2d_ms) : 0.0;
  const auto weight = [&](double n, double duplex, double c) {
    const double other = t.h2d_ms > 0.0 ? t.d2h_ms * duplex / t.h2d_ms : 0.0;
    if (!(other > 0.0)) return 0.0;
    return phi * (n - 1.0) * other / (other + std::max(0.0, t.d2h_gap_ms + c) * n);
  };
  // Both directions at once cannot be faster than one alone, nor slower than the two in turn:
  // a fit that needs either explains a burst with the wrong parameters (run 48 without n = 32:
  // every other n within 5 %, with c = 19 us and the duplex copy 0.62 x a copy alone).
  const auto plausible = [&](const LinearFit& f) {
    return t.h2d_ms > 0.0 && f.coefficients[0] >= kMinDuplexRatio * t.h2d_ms &&
           f.coefficients[0] <= kMaxDuplexRatio * t.h2d_ms;
  };
  // The fewest points left out (up to 2, keeping 4) so that the rest agree with their fit: a
  // burst of other traffic while one n was measured (run 61: n = 4 42 % slow put c at 0 and
  // the duplex copy 30 % slow) is one such point. `w` gives the second regressor at n (the
  // share of c - c0 paid), null for n - 1.
  const auto robust_fit = [&](const std::function<double(double)>& w) {
    std::vector<double> a, y, scale;
    for (const InSituPoint& p : pts) {
      const double n = p.streams;
      a.push_back((n - 1.0) / n);
      a.push_back(w ? w(n) : n - 1.0);
      y.push_back(p.ms - base(n));
      scale.push_back(p.ms);
    }
    return FitLeastSquaresLeavingOut(a, 2, y, scale, kInSituTolerance, 2, 4, plausible);
  };
  // What no measured batch allows, whatever the noise: a copy that takes no time (x' <= 0), or
  // a c whose copies out alone, n (g + c) on one engine, outlast a kept batch (beyond the
  // tolerance). Such a fit explains the points with the wrong parameters (a burst, a cold
  // start); where c0 is measured, such a c hides behind the share u(n) of the copy-in path,
  // which falls as c grows, and the rounds below could chase it without end (session 36: a
  // quick calibration's rounds reached c = 2.2 s, a profile its own loader rejects).
  const auto physical = [&](const RobustFit& f) -> absl::Status {
    if (!(f.fit.coefficients[0] > 0.0)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "in-situ fit: the measured n need a duplex copy time of ", f.fit.coefficients[0],
          " ms, not > 0: they do not follow the model (a burst?)"));
    }
    const double c = std::max(0.0, c0 + f.fit.coefficients[1]);
    for (std::size_t i = 0; i < pts.size(); ++i) {
      if (absl::c_linear_search(f.left_out, static_cast<int>(i))) continue;
      const double out_ms = pts[i].streams * (t.d2h_gap_ms + c);
      if (out_ms > (1.0 + kInSituTolerance) * pts[i].ms) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "in-situ fit: c = %g ms would make the copies out at n = %d last %g ms, longer than "
            "the batch's %g ms: the measured n do not follow the model (a burst?)",
            c, pts[i].streams, out_ms, pts[i].ms));
      }
    }
    return absl::OkStatus();
  };
  absl::StatusOr<RobustFit> fit = robust_fit(nullptr);
  // The coefficient of the second regressor is c - c0 where c0 is measured, c otherwise.
  // Where c0 is measured, rounds of the fit with u from the last round's x' and c until they
  // settle (a few rounds: u moves little with them).
  // A round that cannot fit (no share of c - c0 paid at any n: nothing goes out, or x' <= 0)
  // leaves the last round's fit (at first the one with c - c0 paid whole) standing. A round
  // whose fit no batch allows is no fit at all: the rounds were chasing c, and any round before
  // it has a c the chase set, not the batches (a review found 20-32 us, no misfit over 10 %,
  // where the card's c was 6-7 us).
  for (int round = 0; has_idle && fit.ok() && round < 20; ++round) {
    const double duplex = fit->fit.coefficients[0];
    const double k = fit->fit.coefficients[1];
    absl::StatusOr<RobustFit> next =
        robust_fit([&, duplex, c = c0 + k](double n) { return weight(n, duplex, c); });
    if (!next.ok()) break;
    if (absl::Status p = physical(*next); !p.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(p.message(), "; the rounds with c0 reached it from c = ",
                       std::max(0.0, c0 + k), " ms"));
    }
    fit = std::move(next);
    if (std::abs(fit->fit.coefficients[0] - duplex) < 1e-10 &&
        std::abs(fit->fit.coefficients[1] - k) < 1e-10) {
      break;
    }
  }
  if (!fit.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("in-situ fit: the measured n cannot tell x' from c (", fit.status().message(),
                     ")"));
  }
  if (absl::Status p = physical(*fit); !p.ok()) return p;
  out.idle_stream_overhead_ms = has_idle ? c0 : -1.0;
  out.duplex_ms = fit->fit.coefficients[0];
  out.duplex_plausible = plausible(fit->fit);
  const double c = c0 + fit->fit.coefficients[1];
  out.stream_overhead_ms = std::max(0.0, c);
  // A negative c: the per-stream cost the sweep sees on the copy-in path (g + c) is below the
  // measured g alone, so g was timed slow; the sweep's total is kept where it can be.
  out.h2d_gap_ms = c < 0.0 ? std::max(0.0, t.h2d_gap_ms + c) : t.h2d_gap_ms;
  std::vector<bool> left(pts.size(), false);
  for (int i : fit->left_out) {
    left[static_cast<std::size_t>(i)] = true;
    out.left_out.push_back(pts[static_cast<std::size_t>(i)].streams);
  }
  // The residuals of the model as returned (equal to the fit's unless g + c < 0).
  for (std::size_t i = 0; i < pts.size(); ++i) {
    if (left[i]) continue;
    const double n = pts[i].streams;
    const double paid = has_idle ? weight(n, out.duplex_ms, out.stream_overhead_ms) : n - 1.0;
    const double model = base(n) + (out.h2d_gap_ms - t.h2d_gap_ms) * (n - 1.0) +
                         out.duplex_ms * (n - 1.0) / n + (out.stream_overhead_ms - c0) * paid;
    out.max_residual = std::max(out.max_residual, std::abs(model / pts[i].ms - 1.0));
  }
  return out;
}

absl::StatusOr<InSituFit> FitInSituWithIdle(InSituTerms terms, std::span<const InSituPoint> sweep,
                                            double held_sub_chunk_ms) {
  if (!Positive(held_sub_chunk_ms)) {
    return absl::InvalidArgumentError(absl::StrCat("in-situ fit: held tiny sub-chunks cost ",
                                                   held_sub_chunk_ms,
                                                   " ms each; it must be finite and > 0"));
  }
  double gap = std::min(terms.h2d_gap_ms, held_sub_chunk_ms);
  absl::StatusOr<InSituFit> fit;
  // Until g stops falling. Three passes (before session 49) left g + c0 up to 0.9 % off the
  // held slope on sweeps scattered by 5 %, 17 % by 15 %; such sweeps settle within 32 passes
  // (a fit of 7 points each).
  constexpr int kMaxPasses = 64;
  for (int pass = 0; pass < kMaxPasses; ++pass) {
    terms.h2d_gap_ms = gap;
    terms.idle_stream_overhead_ms = std::max(0.0, held_sub_chunk_ms - gap);
    // A later pass that cannot fit is no fit either: the pass before it returned a g whose
    // g + c0 is not the held slope, the pair the profile must hold.
    fit = FitInSitu(terms, sweep);
    if (!fit.ok() || !(fit->h2d_gap_ms < gap)) break;
    gap = fit->h2d_gap_ms;
  }
  // c0 follows the g returned, so that the pair written adds up to the slope: where g still
  // fell at the last pass, the fit's c0 was the one before (the same otherwise).
  if (fit.ok()) fit->idle_stream_overhead_ms = std::max(0.0, held_sub_chunk_ms - fit->h2d_gap_ms);
  return fit;
}

}  // namespace streampipe
