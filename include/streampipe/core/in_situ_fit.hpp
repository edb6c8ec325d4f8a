// The calibration's in-situ fit (docs/models.md, "Calibration of c"): the duplex copy time and
// the per-stream overhead c from an add-scalar pipeline measured at several n, robust to a
// burst of other traffic during some of the n.
//
//   streampipe::InSituTerms terms = ...;                 // from the copies measured alone
//   std::vector<streampipe::InSituPoint> sweep = {{2, 1.95}, {4, 1.68}, ...};
//   absl::StatusOr<streampipe::InSituFit> fit = streampipe::FitInSitu(terms, sweep);
//   // fit->stream_overhead_ms, fit->duplex_ms, fit->left_out (n whose time no fit explains)
#ifndef STREAMPIPE_CORE_IN_SITU_FIT_HPP_
#define STREAMPIPE_CORE_IN_SITU_FIT_HPP_

#include <span>
#include <vector>

#include "absl/status/statusor.h"

namespace streampipe {

// What the copies and the kernel measured alone give the fit (ms).
struct InSituTerms {
  double h2d_latency_ms = 0.0;  // L+o of each direction
  double d2h_latency_ms = 0.0;
  double h2d_gap_ms = 0.0;      // g between back-to-back copies in
  double d2h_gap_ms = 0.0;      // and out (with c, the copy out's per-sub-chunk overhead)
  // c0, the per-stream overhead beside an idle link (held tiny sub-chunks); negative: not
  // measured, and c is fitted as the overhead of every sub-chunk.
  double idle_stream_overhead_ms = -1.0;
  double h2d_ms = 0.0;          // transfer time of the whole batch's copy in, latency removed
  double d2h_ms = 0.0;          // and of its copy out
  double kernel_ms = 0.0;       // the whole batch's kernel
};

// The batch's median time on n streams, and the host's median time enqueueing it (0: not
// timed).
struct InSituPoint {
  int streams = 1;
  double ms = 0.0;
  double issue_ms = 0.0;
};

struct InSituFit {
  double duplex_ms = 0.0;           // x'_hd: the copy in's transfer time while copies go out
  bool duplex_plausible = false;    // x'_hd / x_hd within [kMinDuplexRatio, kMaxDuplexRatio]
  double stream_overhead_ms = 0.0;  // c, at least 0
  // g between copies in as the sweep sees it: the measured g, less what a negative c says it
  // overstates (g + c where the fit's c < 0, at least 0). The pipeline pays g + c per stream
  // on the copy-in path; a back-to-back copy test timed in a burst (run 69: g = 13.3 us, 2.8
  // usual) made the fit's c negative, and c clipped to 0 then left the model 20 % over the
  // sweep at n = 64.
  double h2d_gap_ms = 0.0;
  // c0 as the fit used it (FitInSituWithIdle: the held slope less the returned g); -1 when the
  // fit had none.
  double idle_stream_overhead_ms = -1.0;
  std::vector<int> left_out;  // n whose time the fit of the others does not explain
  // n whose time the host set or disturbed (kept out before the fit, see FitInSitu): such a
  // batch measures the host's enqueueing, not c.
  std::vector<int> host_bound;
  // The largest |fitted / measured - 1| over the kept n of the copy-in bound above with the
  // parameters as returned (c >= 0, the gap above). Calibration prints the written model's
  // misfit instead (every path; the two-stream x' where the fit's is implausible).
  double max_residual = 0.0;
};

// A kept n may be off the fit by this much (the model's own shape errors on the H100 are at
// most 7 %; a burst of other traffic during one n, 19-90 %).
inline constexpr double kInSituTolerance = 0.10;
// A batch whose issue time is at least this share of its time is issue bound (as in the
// pipeline's controller and bench/sweep_breakdown.py).
inline constexpr double kInSituIssueBound = 0.8;
// x'_hd over the copy in alone: at least 1 (sharing the link cannot speed a copy up), at most 2
// (the two directions in turn).
inline constexpr double kMinDuplexRatio = 1.0;
inline constexpr double kMaxDuplexRatio = 2.0;

// Least squares of T(n) = L+o_hd + x_hd/n + g(n-1) + tE/n + L+o_dh + x_dh/n
//                         + x'_hd (n-1)/n + c (n-1)
// over the points with n >= 2, in x'_hd and c. Where c0 is measured, the last term is the
// current model's c0 (n-1) + (c - c0) phi u(n) (n-1) (docs/models.md), u(n) depending on x'
// and c themselves: the fit above gives the first u, and rounds of the fit with u from the last
// round's x' and c the next, until they settle (at most 20). First the points the host set are kept out:
// those whose issue time is at least kInSituIssueBound of their time, or exceeds the host's
// usual rate (the median of issue / n over the timed points) times n by more than
// kInSituTolerance of their time (a host stalled while it enqueued leaves the GPU idle, and no
// c explains that; run 71: n = 32 and 64 slow in every round gave c = 20 us, 2-4 usual). Of
// the rest (at least four must remain where any were kept out, else InvalidArgument), the fewest
// points are left out (at most 2, and
// at least 4 kept) such that every kept one lies within kInSituTolerance of the fit and x'_hd
// within [kMinDuplexRatio, kMaxDuplexRatio] x_hd; of equal counts the smallest squared error
// wins. Where no such choice exists, every point is kept (see duplex_plausible, max_residual).
// InvalidArgument for fewer than two points with distinct n >= 2, a time that is not finite and
// > 0, a component that is not finite and >= 0 (named), or an idle_stream_overhead_ms that is not
// finite; and for a fit no measured batch allows (x'_hd <= 0, or the copies out alone,
// n (g_dh + c), longer than (1 + kInSituTolerance) x a kept batch), the final one or any round's
// where c0 is measured (the rounds can chase c without end over scattered points; session 36).
absl::StatusOr<InSituFit> FitInSitu(const InSituTerms& terms, std::span<const InSituPoint> sweep);

// FitInSitu with c0 from the slope of held tiny sub-chunks (ms per sub-chunk): such a sub-chunk
// pays g + c0 on the copy-in path, so c0 = held - g, g is at most `held` (a back-to-back test
// timed slow, run 69's 13.3 us, would otherwise zero c0 and overstate every small sub-chunk),
// and where the fit lowers g (its negative-c branch) c0 follows and the fit runs again (until g
// stops falling, at most 64 passes; c0 follows the last g). The result's h2d_gap_ms and
// idle_stream_overhead_ms are the pair to write: they add up to `held_sub_chunk_ms`.
// terms.h2d_gap_ms is the measured g and terms.idle_stream_overhead_ms is ignored.
// InvalidArgument as FitInSitu (at any pass: an earlier pass's g and c0 do not add up to the
// held slope), and for a held slope that is not finite and > 0.
absl::StatusOr<InSituFit> FitInSituWithIdle(InSituTerms terms, std::span<const InSituPoint> sweep,
                                            double held_sub_chunk_ms);

}  // namespace streampipe

#endif  // STREAMPIPE_CORE_IN_SITU_FIT_HPP_
