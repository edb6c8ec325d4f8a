#include "streampipe/core/optimizer.hpp"

#include <cmath>

#include "absl/strings/str_cat.h"

namespace streampipe {

absl::StatusOr<std::vector<int>> CandidateStreams(const CandidateOptions& o) {
  if (o.min_streams < 1 || o.max_streams > kMaxCandidateStreams ||
      o.min_streams > o.max_streams) {
    return absl::InvalidArgumentError(absl::StrCat(
        "stream bounds [", o.min_streams, ", ", o.max_streams, "] must satisfy 1 <= min <= max <= ",
        kMaxCandidateStreams));
  }
  if (o.num_items < 0 || o.min_items_per_stream < 1) {
    return absl::InvalidArgumentError(absl::StrCat("num_items (", o.num_items,
                                                   ") must be >= 0 and min_items_per_stream (",
                                                   o.min_items_per_stream, ") >= 1"));
  }
  if (o.divisors_only && o.num_items == 0) {
    return absl::InvalidArgumentError("divisors_only needs num_items > 0");
  }
  std::vector<int> out;
  for (int n = o.min_streams; n <= o.max_streams; ++n) {
    if (o.powers_of_two && (n & (n - 1)) != 0) continue;
    if (o.num_items > 0) {
      if (n > o.num_items) break;  // never more streams than items
      if (o.divisors_only && o.num_items % n != 0) continue;
      // The smallest sub-chunk of an even split holds floor(items / n) items.
      if (n > 1 && o.num_items / n < o.min_items_per_stream) continue;
    }
    out.push_back(n);
  }
  if (out.empty()) {
    // With no item count (0: no cap) only the powers of two can leave the bounds empty; before
    // session 49 the message blamed "0 items".
    if (o.num_items == 0) {
      return absl::FailedPreconditionError(absl::StrCat("no stream count in [", o.min_streams,
                                                        ", ", o.max_streams,
                                                        "] is a power of two"));
    }
    return absl::FailedPreconditionError(absl::StrCat(
        "no stream count in [", o.min_streams, ", ", o.max_streams, "] fits ", o.num_items,
        " items with at least ", o.min_items_per_stream, " items per sub-chunk",
        o.powers_of_two ? " (powers of two only)" : "",
        o.divisors_only ? " (divisors only)" : ""));
  }
  return out;
}

BestCandidate ChooseBest(const LinearizedModel& model, std::span<const int> candidates) {
  BestCandidate best;
  bool found = false;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const double ms = model.TotalMs(candidates[i]);
    // A prediction that overflowed (inf, or NaN from inf - inf) is never the best; where every
    // one did, the first is returned as it is and ChooseNumStreams refuses it.
    if (!std::isfinite(ms)) {
      if (i == 0) best = {i, candidates[i], ms};
      continue;
    }
    // Strictly better beyond a relative 1e-12: ties keep the smaller n (seen first).
    if (!found || ms < best.predicted_ms * (1.0 - 1e-12)) best = {i, candidates[i], ms};
    found = true;
  }
  return best;
}

absl::StatusOr<StreamChoice> ChooseNumStreams(const StreamModel& model, const ModelTerms& terms,
                                              const CandidateOptions& options) {
  absl::StatusOr<std::vector<int>> candidates = CandidateStreams(options);
  if (!candidates.ok()) return candidates.status();
  if (absl::Status t = ValidateModelTerms(terms); !t.ok()) return t;
  const LinearizedModel linear(model, terms);
  const BestCandidate best = ChooseBest(linear, *candidates);
  if (!std::isfinite(best.predicted_ms)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the model's prediction is not finite at any n in [", options.min_streams, ", ",
        options.max_streams, "]: the terms are too large (the copy, kernel and overhead times "
        "overflow a double)"));
  }
  StreamChoice choice;
  choice.streams = best.streams;
  choice.predicted_ms = best.predicted_ms;
  choice.predictions.reserve(candidates->size());
  for (int n : *candidates) choice.predictions.push_back(linear.Predict(n));
  choice.closed_form = model.ClosedFormOptimum(terms);
  return choice;
}

}  // namespace streampipe
