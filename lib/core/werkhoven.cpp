#include "streampipe/core/werkhoven.hpp"

#include <cmath>

#include "absl/strings/str_cat.h"

namespace streampipe {

double LogGpTransferMs(const LinkParams& link, double bytes, int streams) {
  return link.latency_ms + bytes * link.ms_per_byte + link.gap_ms * (streams - 1);
}

absl::StatusOr<double> EstimateMsPerByte(std::span<const double> bytes,
                                         std::span<const double> times_ms, double latency_ms) {
  if (bytes.empty() || bytes.size() != times_ms.size()) {
    return absl::InvalidArgumentError(absl::StrCat("G estimate needs one time per size; got ",
                                                   bytes.size(), " sizes and ", times_ms.size(),
                                                   " times"));
  }
  double sum_t = 0.0;
  double sum_k = 0.0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (!(bytes[i] > 0.0) || !std::isfinite(bytes[i]) || !(times_ms[i] >= 0.0) ||
        !std::isfinite(times_ms[i])) {
      return absl::InvalidArgumentError(absl::StrCat("G estimate: sample ", i, " (", bytes[i],
                                                     " bytes, ", times_ms[i], " ms) is invalid"));
    }
    sum_t += times_ms[i];
    sum_k += bytes[i];
  }
  if (!std::isfinite(latency_ms) || latency_ms < 0.0) {
    return absl::InvalidArgumentError(
        absl::StrCat("G estimate: latency ", latency_ms, " ms is not a finite number >= 0"));
  }
  // Each sample finite, their sums may not be (G = 0 with OK, or a message of inf ms, before
  // session 51).
  if (!std::isfinite(sum_k) || !std::isfinite(sum_t)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "G estimate: the samples' ", !std::isfinite(sum_k) ? "bytes" : "times",
        " sum to more than a double holds"));
  }
  // Section V-A: G = (t_k1 + ... + t_kn - n(L+o)) / (k1 + ... + kn).
  const double g = (sum_t - static_cast<double>(bytes.size()) * latency_ms) / sum_k;
  if (!std::isfinite(g) || g < 0.0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "G estimate: the copies took ", sum_t, " ms in all, less than ", bytes.size(),
        " latencies of ", latency_ms, " ms: no G >= 0 fits"));
  }
  return g;
}

absl::StatusOr<StreamBounds> WerkhovenStreamBounds(ModelKind kind, const ModelTerms& terms) {
  StreamBounds b;
  const std::unique_ptr<StreamModel> model = MakeModel(kind);
  switch (kind) {
    case ModelKind::kWerkhovenSync1ce:
    case ModelKind::kWerkhoven2ce:
    case ModelKind::kWerkhovenHybrid:
      b.max_streams = model->ClosedFormOptimum(terms);  // first derivative of eqs. 1, 2, 5
      return b;
    case ModelKind::kWerkhoven1ce:
      b.min_streams = model->ClosedFormOptimum(terms);  // eq. 4 reaches its floor
      return b;
    default:
      return absl::InvalidArgumentError(absl::StrCat(
          "section VI of seed 003 gives no stream bound for model '", std::string(ModelName(kind)), "'"));
  }
}

}  // namespace streampipe
