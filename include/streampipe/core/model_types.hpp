// Plain inputs and outputs of the stream performance models. No logic, no CUDA.
//
// All times are milliseconds and all sizes bytes, as in the papers the models come from
// (seeds 000 and 003 in docs/models.md).
//
//   streampipe::Workload w;
//   w.times = {.h2d_ms = 1.217, .kernel_ms = 0.064, .d2h_ms = 1.219};  // one batch, no streams
//   streampipe::DeviceTraits traits = ...;  // from calibration, or DeviceTraits::H100Anchors()
//   auto terms = streampipe::ComputeModelTerms(traits, w);               // validates both
#ifndef STREAMPIPE_CORE_MODEL_TYPES_HPP_
#define STREAMPIPE_CORE_MODEL_TYPES_HPP_

#include <cstdint>
#include <string>

namespace streampipe {

// The three component times of one batch run without streams (one chunk), in ms:
// tThd, tE and tTdh of Gómez-Luna et al. (seed 000, section 3.2).
struct ComponentTimes {
  double h2d_ms = 0.0;
  double kernel_ms = 0.0;
  double d2h_ms = 0.0;
  // The kernel launched over the first half of the batch's items, timed the same way in a
  // batch of its own (0: not measured). With kernel_ms it tells the part of the kernel's time
  // that does not shrink with the sub-chunk: a launch's latency, and a grid under one round of
  // blocks (seed 001, eq. 1), whose time is that of the round however few blocks it holds.
  // Not part of total_ms().
  double kernel_half_ms = 0.0;

  double total_ms() const { return h2d_ms + kernel_ms + d2h_ms; }
};

// Bytes one batch moves in each direction (Bhd, Bdh of seed 003, Fig. 7).
struct BatchBytes {
  double h2d = 0.0;
  double d2h = 0.0;
};

// LogGP parameters of one copy direction (van Werkhoven et al., seed 003, section V):
// a copy of k bytes takes L+o + k*G; each further back-to-back copy adds g.
struct LinkParams {
  double latency_ms = 0.0;          // L + o: the time of a 1-byte copy.
  double ms_per_byte = 0.0;         // G: inverse bandwidth of a large copy alone on the link.
  double gap_ms = 0.0;              // g: added by each back-to-back copy after the first.
  double duplex_ms_per_byte = 0.0;  // G while the other direction copies too (0: same as G).
};

// What the models need to know about a device. Filled from the CUDA runtime and calibration
// (streampipe calibrate) or by hand (streampipe advise flags).
struct DeviceTraits {
  std::string name;
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  int copy_engines = 1;         // cudaDeviceProp::asyncEngineCount.
  bool implicit_sync = false;   // Fermi-style implicit synchronization (seed 000, Table 1).
  bool concurrent_kernels = true;
  int hardware_queues = 8;      // CUDA_DEVICE_MAX_CONNECTIONS in effect.
  LinkParams h2d;
  LinkParams d2h;
  // Cost of one more stream (sub-chunk): tsc of seed 000 (toh = tsc * nStreams), the per-stream
  // term c of our current-GPU model. Milliseconds per stream.
  double stream_overhead_ms = 0.0;
  // c0: the per-stream overhead of the current-GPU model where the other direction's link is
  // idle (tiny sub-chunks, or one direction only); c above is the overhead where it streams
  // all the time. The model weighs them by how busy the other direction is per sub-chunk
  // (docs/models.md, "The current-GPU model"). Negative: not measured, c applies to every
  // sub-chunk (the model before run 81; the anchors measured none).
  double idle_stream_overhead_ms = -1.0;
  // Cost of one more sub-chunk when the sub-chunks are tiny (4 KiB copy in, empty kernel, 4 KiB
  // copy out per stream, streamed): the rate at which the host issues and the GPU starts
  // sub-chunks. Bounds a batch from below at s(n-1) plus one sub-chunk (docs/models.md, T4).
  // 0: no such bound. Milliseconds per sub-chunk.
  double sub_chunk_cost_ms = 0.0;
  // Copies in of at most inline_h2d_max_bytes are issued inline: the host copies their bytes
  // into the GPU's command queue while it enqueues them, call by call and as graphs alike, at
  // inline_h2d_ms_per_byte on top of its cost per copy (runs 103-109 on the H100: up to 24 KiB,
  // about 0.1 ms per MB; docs/models.md, "Inline copies"). The host's issue time of a batch
  // grows by that much for each sub-chunk whose copy in is that small. 0: not measured, none.
  double inline_h2d_max_bytes = 0.0;
  double inline_h2d_ms_per_byte = 0.0;

  // The parameters measured on our H100 (docs/evidence/anchors, 2026-11-22): 55.2 GB/s each way
  // alone, 98.7 GB/s both at once, L+o 4.2/3.4 us, g 2.55 us, c 2.7 us (docs/models.md).
  static DeviceTraits H100Anchors();
};

// One batch of a workload as the models see it.
struct Workload {
  ComponentTimes times;        // Measured without streams. Zero transfer times: use bytes.
  BatchBytes bytes;            // Bytes per direction; zero: transfer work comes from times.
  double problem_size = 0.0;   // Items per batch (the SLAE size of Veneva's regression).
};

// The quantities every model is written in, derived once from traits and workload
// (ComputeModelTerms). x_* is the bandwidth part of a copy (B*G, or t - (L+o) when only the
// measured time is known); t_* the whole non-streamed copy time (L+o + x).
struct ModelTerms {
  double t_hd = 0.0;
  double t_e = 0.0;
  // The part of t_e every sub-chunk's kernel pays whatever its size: 2 kernel_half - t_e,
  // within [0, t_e] (0 where the half was not measured). The current model's sub-chunk kernel
  // takes t_e_fixed + (t_e - t_e_fixed)/n instead of t_e/n.
  double t_e_fixed = 0.0;
  double t_dh = 0.0;
  double lat_hd = 0.0;
  double lat_dh = 0.0;
  double x_hd = 0.0;
  double x_dh = 0.0;
  double xdup_hd = 0.0;  // x_hd at the duplex G.
  double xdup_dh = 0.0;
  // x when the other direction copies during the fraction of the time it is busy:
  // x + (xdup - x) * min(1, x_other / x). The current-GPU model's overlapped copies.
  double xeff_hd = 0.0;
  double xeff_dh = 0.0;
  double gap_hd = 0.0;
  double gap_dh = 0.0;
  double stream_overhead = 0.0;
  double idle_stream_overhead = -1.0;  // DeviceTraits::idle_stream_overhead_ms (< 0: use c)
  double sub_chunk = 0.0;  // DeviceTraits::sub_chunk_cost_ms
  // The share of a sub-chunk's issue cost s the host spends before a batch's first kernel can
  // be issued, per sub-chunk: issued breadth-first (every copy in, then every kernel, then every
  // copy out), the first kernel waits for the n copies in, about s/3 each. 0 (the default, and
  // depth-first order): no such wait. The current model's path T5 (docs/models.md); in [0, 1].
  double kernel_issue_share = 0.0;
  double problem_size = 0.0;
  double bytes_hd = 0.0;
  double bytes_dh = 0.0;
};

// Which of a model's estimates applied.
enum class Regime : std::int32_t {
  kSingle,             // The model has one estimate (a max over terms, or no case split).
  kDominantKernel,
  kDominantTransfers,
};

// Where the predicted time goes along the critical path; the four parts sum to the total.
struct Breakdown {
  double h2d_ms = 0.0;
  double kernel_ms = 0.0;
  double d2h_ms = 0.0;
  double overhead_ms = 0.0;  // Per-stream overhead (toh, g terms of repeated copies, c*n).
};

// A time as a function of the stream count n: c0 + c_inv/n + c_lin*(n-1) + c_log*log2(n)
// + c_sat*(n-1)/(1 + sat_rate*n). Every model's critical paths are of this form
// (docs/models.md, "Evaluation"). The last term is a per-stream cost that fades as the
// sub-chunks shrink (the current model's overhead weighted by how busy the other direction is,
// (n-1) Y/(Y + D n) with sat_rate = D/Y). A sum keeps one saturating term: two with different
// rates are not representable (no model adds them; operator+= asserts it).
struct Affine {
  double c0 = 0.0;
  double c_inv = 0.0;
  double c_lin = 0.0;
  double c_log = 0.0;
  double c_sat = 0.0;
  double sat_rate = 0.0;

  double At(double n, double inv_n, double log2_n) const {
    const double sat = c_sat != 0.0 ? c_sat * (n - 1.0) / (1.0 + sat_rate * n) : 0.0;
    return c0 + c_inv * inv_n + c_lin * (n - 1.0) + c_log * log2_n + sat;
  }
  // Whether the sum of the two is one Affine: at most one saturation rate between them.
  bool SaturatesLike(const Affine& o) const {
    return c_sat == 0.0 || o.c_sat == 0.0 || sat_rate == o.sat_rate;
  }
  // Requires SaturatesLike(o) (else the sum keeps o's rate for both saturating terms, which is
  // not their sum: LinearizedModel evaluates such a path part by part instead of summing).
  Affine& operator+=(const Affine& o) {
    c0 += o.c0;
    c_inv += o.c_inv;
    c_lin += o.c_lin;
    c_log += o.c_log;
    if (o.c_sat != 0.0) {
      sat_rate = o.sat_rate;
      c_sat += o.c_sat;
    }
    return *this;
  }
};

// One critical path of a model: where its time goes, each part affine in n.
struct CriticalPath {
  Affine h2d;
  Affine kernel;
  Affine d2h;
  Affine overhead;
  Regime regime = Regime::kSingle;
};

struct Prediction {
  int streams = 1;
  int term = 0;  // For max-of-terms models, which term (1-based) was the largest.
  double total_ms = 0.0;
  Breakdown parts;
  Regime regime = Regime::kSingle;
};

const char* RegimeName(Regime regime);

}  // namespace streampipe

#endif  // STREAMPIPE_CORE_MODEL_TYPES_HPP_
