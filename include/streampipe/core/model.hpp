// Stream performance models: predict the time of one batch split over n streams.
//
// Each model is one equation set of a paper (docs/models.md gives every equation with its
// source) or our model for current GPUs. Models are immutable and thread-safe.
//
//   auto terms = streampipe::ComputeModelTerms(traits, workload);   // StatusOr
//   auto model = streampipe::MakeModel("auto", traits);             // StatusOr
//   streampipe::Prediction p = (*model)->Predict(*terms, 16);
//   std::optional<double> n_opt = (*model)->ClosedFormOptimum(*terms);
#ifndef STREAMPIPE_CORE_MODEL_HPP_
#define STREAMPIPE_CORE_MODEL_HPP_

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "streampipe/core/model_types.hpp"
#include "streampipe/core/veneva.hpp"

namespace streampipe {

enum class ModelKind {
  kGomezLunaCc1,      // seed 000, eqs. 1-4: no implicit sync, one DMA channel (GTX 280).
  kGomezLunaCc2,      // seed 000, eqs. 5-8: implicit sync, one DMA channel (GTX 480).
  kWerkhovenSync1ce,  // seed 003, Fig. 7 eqs. 1-2.
  kWerkhoven1ce,      // seed 003, Fig. 7 eqs. 3-4.
  kWerkhoven2ce,      // seed 003, Fig. 7 eq. 5.
  kWerkhovenMapped,   // seed 003, Fig. 7 eq. 6.
  kWerkhovenHybrid,   // seed 003, section VII: eq. 5 with the bidirectional G of Table II.
  kVenevaRegression,  // seed 004, eqs. 4-7.
  kCurrent,           // ours: eq. 5 with duplex G and a per-stream overhead (docs/models.md).
};

inline constexpr ModelKind kAllModelKinds[] = {
    ModelKind::kGomezLunaCc1,    ModelKind::kGomezLunaCc2,     ModelKind::kWerkhovenSync1ce,
    ModelKind::kWerkhoven1ce,    ModelKind::kWerkhoven2ce,     ModelKind::kWerkhovenMapped,
    ModelKind::kWerkhovenHybrid, ModelKind::kVenevaRegression, ModelKind::kCurrent};

// The command-line name of a model: "gomez-luna-cc1", ..., "current".
std::string_view ModelName(ModelKind kind);

// Parses a model name (not "auto"). InvalidArgument naming the value and the valid names.
absl::StatusOr<ModelKind> ParseModelKind(std::string_view name);

// The model that describes a device: cc 1.x -> gomez-luna-cc1; implicit synchronization ->
// werkhoven-sync-1ce; one copy engine -> werkhoven-1ce; two or more engines -> current on
// cc >= 9.0 (Hopper and later), werkhoven-2ce before.
ModelKind ModelFor(const DeviceTraits& traits);

inline constexpr int kMaxPaths = 5;

// A model's critical paths for one workload: the prediction at n is the longest of them.
struct PathSet {
  std::array<CriticalPath, kMaxPaths> paths{};
  int count = 0;
};

class StreamModel {
 public:
  virtual ~StreamModel() = default;
  virtual ModelKind kind() const = 0;
  std::string_view name() const { return ModelName(kind()); }

  // The model's equations for one workload, as up to kMaxPaths critical paths affine in
  // (1, 1/n, n-1, log2 n). `terms` must come from ComputeModelTerms (validated).
  virtual PathSet Paths(const ModelTerms& terms) const = 0;

  // The predicted time on `streams` >= 1 streams: the longest path at n, with its breakdown.
  // For many n, build a LinearizedModel once instead.
  Prediction Predict(const ModelTerms& terms, int streams) const;

  // The real-valued optimum from the paper's closed form (or, for max-of-terms models without
  // one, the exact minimizer of the convex prediction). nullopt where the model has none or
  // it is unbounded (e.g. tsc = 0).
  virtual std::optional<double> ClosedFormOptimum(const ModelTerms& terms) const = 0;
};

// A model evaluated for one workload: cheap per-n predictions (a few multiply-adds per path).
// Immutable; thread-safe.
class LinearizedModel {
 public:
  LinearizedModel(const StreamModel& model, const ModelTerms& terms);
  explicit LinearizedModel(const PathSet& paths);

  // The predicted total for a real-valued n >= 1 (for searches of the continuous optimum).
  // Inline: this is the optimizer's inner loop.
  double TotalMs(double n) const {
    const double inv = 1.0 / n;
    const double lg = has_log_ ? std::log2(n) : 0.0;
    if (any_split_) {
      double best = PathAt(0, n, inv, lg);
      for (int i = 1; i < set_.count; ++i) best = std::max(best, PathAt(i, n, inv, lg));
      return best;
    }
    double best = totals_[0].At(n, inv, lg);
    for (int i = 1; i < set_.count; ++i) best = std::max(best, totals_[i].At(n, inv, lg));
    return best;
  }
  // The prediction with the breakdown of the longest path; ties go to the earlier path.
  Prediction Predict(int n) const;

 private:
  // Path i's total at n: its parts summed once (one Affine) where they saturate alike, which
  // every model here does; else (a hand-built path whose parts saturate at two rates) part by
  // part.
  double PathAt(int i, double n, double inv, double lg) const {
    const auto u = static_cast<std::size_t>(i);
    if (!split_[u]) return totals_[u].At(n, inv, lg);
    const CriticalPath& p = set_.paths[u];
    return p.h2d.At(n, inv, lg) + p.kernel.At(n, inv, lg) + p.d2h.At(n, inv, lg) +
           p.overhead.At(n, inv, lg);
  }

  PathSet set_;
  std::array<Affine, kMaxPaths> totals_{};
  std::array<bool, kMaxPaths> split_{};
  bool any_split_ = false;  // (the optimizer's loop skips the per-path test where none is)
  bool has_log_ = false;  // only Veneva's eq. 7 needs log2(n)
};

// Ours: the period of one batch in steady state when batches overlap each other (continuous
// streaming with two or more batches in flight): each engine's busy time per batch, copies at
// the duplex rate because the other direction is always busy with another batch:
// max(L+o + x_eff,hd + (g_hd + c)(n-1), tE, L+o + x_eff,dh + (g_dh + c)(n-1)).
// The papers model one batch at a time; docs/models.md, "Steady state".
PathSet SteadyStatePaths(const ModelTerms& terms);

// The exact minimizer over real n in [1, 65536] of a prediction that is convex in n (a max of
// terms a + b/n + d(n-1) with b, d >= 0), by golden-section search.
double ConvexOptimum(const LinearizedModel& model);

// Makes a model. The Veneva model uses `veneva` (the published fit when null).
std::unique_ptr<StreamModel> MakeModel(ModelKind kind,
                                       const VenevaCoefficients* veneva = nullptr);

// Makes a model by name; "auto" picks ModelFor(traits). InvalidArgument for unknown names.
absl::StatusOr<std::unique_ptr<StreamModel>> MakeModel(std::string_view name,
                                                       const DeviceTraits& traits,
                                                       const VenevaCoefficients* veneva = nullptr);

// Checks that traits and workload are finite and non-negative and that the transfer work is
// known (times, or bytes with G). InvalidArgument names the field and the value.
absl::Status ValidateTraits(const DeviceTraits& traits);
// InvalidArgument naming the first term that is not finite (ComputeModelTerms checks its result
// with it; ChooseNumStreams the terms it is given).
absl::Status ValidateModelTerms(const ModelTerms& terms);
absl::Status ValidateWorkload(const Workload& workload);

// The part of the kernel's time every sub-chunk's kernel pays whatever its size, from its time
// over half the batch: 2 kernel_half - kernel within [0, kernel]; 0 where no half was measured
// (docs/models.md, the current model's item 4). ModelTerms::t_e_fixed.
double KernelFixedMs(const ComponentTimes& times);

// Derives the model terms (validating both inputs first).
absl::StatusOr<ModelTerms> ComputeModelTerms(const DeviceTraits& traits, const Workload& workload);

// Sub-chunk k (0 <= k < n) of the pipeline's even split of `items` into n: the first
// items % n sub-chunks get one item more. Outside that (n < 1, k out of range, items < 0):
// {0, 0}.
struct Chunk {
  std::int64_t first = 0;
  std::int64_t count = 0;
};
Chunk ChunkOf(std::int64_t items, int n, int k);

// The host's extra time issuing a batch whose `h2d_bytes` over `items` are copied in as n
// sub-chunks (ChunkOf), for the sub-chunks whose copy in is issued inline
// (DeviceTraits::inline_h2d_max_bytes): their bytes times inline_h2d_ms_per_byte. 0 where the
// traits measured no inline copies.
double InlineCopyIssueMs(const DeviceTraits& traits, double h2d_bytes, std::int64_t items, int n);

// The inline path of copies in, from the host's time issuing one copy of each size (a ladder
// of sizes reaching past the limit, with at least two sizes above it; streampipe calibrate):
// the usual cost per copy, the largest size issued inline and the host's time per byte of it,
// as the change point that leaves the least squared misfit (the usual cost the median above
// the limit, the rate the least squares through the origin of the excess below it).
// max_bytes and ms_per_byte are 0 where no limit halves the misfit of one cost for all sizes,
// or the excess at the limit is under 10 % of a copy's cost. InvalidArgument for fewer than 4
// sizes, sizes not finite and > 0, or times not finite and >= 0.
struct InlineCopyFit {
  double per_copy_ms = 0.0;
  double max_bytes = 0.0;
  double ms_per_byte = 0.0;
};
absl::StatusOr<InlineCopyFit> FitInlineCopies(const std::vector<double>& bytes,
                                              const std::vector<double>& issue_ms_per_copy);

// One inline path from several ladders' fits (streampipe calibrate: the pipeline's ladders at
// several n, call by call and as graphs; one ladder's rate ranged 4.4-14.2 GB/s on one lease,
// run 115): none unless at least half of them found a limit; else the lower median of the
// limits found and the median of their rates. per_copy_ms is the median of all the fits'.
// InvalidArgument for no fits, or a fit with a negative or non-finite field.
absl::StatusOr<InlineCopyFit> CombineInlineFits(const std::vector<InlineCopyFit>& fits);

}  // namespace streampipe

#endif  // STREAMPIPE_CORE_MODEL_HPP_
