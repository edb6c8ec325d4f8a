// Chooses the number of streams: the candidate n with the lowest predicted time.
//
//   streampipe::CandidateOptions opt{.max_streams = 64, .num_items = 1 << 24};
//   auto choice = streampipe::ChooseNumStreams(*model, terms, opt);
//   if (choice.ok()) use(choice->streams);
//
// Thread-safe (pure functions).
#ifndef STREAMPIPE_CORE_OPTIMIZER_HPP_
#define STREAMPIPE_CORE_OPTIMIZER_HPP_

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "streampipe/core/model.hpp"
#include "streampipe/core/model_types.hpp"

namespace streampipe {

// Which n are allowed. Sub-chunks are split as evenly as possible, so with num_items items
// the smallest sub-chunk of n streams holds floor(num_items / n) items.
struct CandidateOptions {
  int min_streams = 1;
  int max_streams = 32;
  bool powers_of_two = false;       // only 1, 2, 4, ...
  bool divisors_only = false;       // only n dividing num_items (needs num_items > 0)
  std::int64_t num_items = 0;       // items per batch; 0 = unknown (no item constraints)
  std::int64_t min_items_per_stream = 1;  // minimum work size of a sub-chunk
};

inline constexpr int kMaxCandidateStreams = 4096;

// The allowed n in increasing order. n never exceeds num_items, and no sub-chunk is smaller
// than min_items_per_stream (n = 1 stays allowed: it is the whole batch). InvalidArgument for
// bounds out of [1, kMaxCandidateStreams] or min > max; FailedPrecondition when no n is left.
absl::StatusOr<std::vector<int>> CandidateStreams(const CandidateOptions& options);

struct StreamChoice {
  int streams = 1;
  double predicted_ms = 0.0;
  std::optional<double> closed_form;   // the model's real-valued optimum, if it has one
  std::vector<Prediction> predictions; // one per candidate, in candidate order
};

// Ties (equal within 1e-12 relative) go to the smaller n.
absl::StatusOr<StreamChoice> ChooseNumStreams(const StreamModel& model, const ModelTerms& terms,
                                              const CandidateOptions& options);

// The hot path (re-deriving n after a drift): the best of `candidates` by predicted total,
// without breakdowns or allocation. Precondition: candidates non-empty, each >= 1. A candidate
// whose prediction is not finite (overflowed terms) is never chosen; where none is finite, the
// first is returned with its prediction, which the caller must check (ChooseNumStreams does).
struct BestCandidate {
  std::size_t index = 0;
  int streams = 1;
  double predicted_ms = 0.0;
};
BestCandidate ChooseBest(const LinearizedModel& model, std::span<const int> candidates);

}  // namespace streampipe

#endif  // STREAMPIPE_CORE_OPTIMIZER_HPP_
