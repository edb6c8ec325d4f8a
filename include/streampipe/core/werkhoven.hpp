// Helpers from van Werkhoven et al. (seed 003) beyond the Fig. 7 models: the LogGP transfer
// time of section V, the parameter estimate of section V-A, and the bounds on nStreams of
// section VI.
//
//   double t = streampipe::LogGpTransferMs(link, 64 << 20, 16);   // L+o + k*G + g*(n-1)
//   auto b = streampipe::WerkhovenStreamBounds(ModelKind::kWerkhoven2ce, terms);
#ifndef STREAMPIPE_CORE_WERKHOVEN_HPP_
#define STREAMPIPE_CORE_WERKHOVEN_HPP_

#include <optional>
#include <span>

#include "absl/status/statusor.h"
#include "streampipe/core/model.hpp"
#include "streampipe/core/model_types.hpp"

namespace streampipe {

// Section V: k bytes sent as n back-to-back copies: L+o + k*G + g*(n-1).
double LogGpTransferMs(const LinkParams& link, double bytes, int streams);

// Section V-A: G = (t_k1 + ... + t_kn - n(L+o)) / (k1 + ... + kn), from copies of sizes
// `bytes` that took `times_ms`. InvalidArgument on mismatched, empty or non-positive input.
absl::StatusOr<double> EstimateMsPerByte(std::span<const double> bytes,
                                         std::span<const double> times_ms, double latency_ms);

// Section VI bounds on nStreams for a Fig. 7 model, in the scenario `terms` falls in.
struct StreamBounds {
  std::optional<double> min_streams;  // smallest n that still improves (1 copy engine, eq. 4)
  std::optional<double> max_streams;  // beyond this, more streams cost more than they give
};
// InvalidArgument for models section VI gives no bound for (mapped, Gómez-Luna, Veneva).
absl::StatusOr<StreamBounds> WerkhovenStreamBounds(ModelKind kind, const ModelTerms& terms);

}  // namespace streampipe

#endif  // STREAMPIPE_CORE_WERKHOVEN_HPP_
