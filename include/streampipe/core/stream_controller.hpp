// The decisions of a pipeline in automatic mode, without CUDA: which batch to run how.
// The pipeline asks Plan() before each batch and reports the measurement with Observe().
// Pure CPU, so tests drive it with synthetic timings.
//
//   streampipe::StreamController c(std::move(model), traits, {});
//   BatchPlan p = c.Plan(items);              // kWarmup, then kMeasure, then kStreamed
//   ... run the batch as planned ...
//   c.Observe(p, {.items = items, .measured_ms = ms, .components = comp});
//
// Not thread-safe: one controller per pipeline, used from the thread that runs it.
#ifndef STREAMPIPE_CORE_STREAM_CONTROLLER_HPP_
#define STREAMPIPE_CORE_STREAM_CONTROLLER_HPP_

#include <cstdint>
#include <memory>
#include <optional>

#include "absl/status/status.h"
#include "streampipe/core/model.hpp"
#include "streampipe/core/model_types.hpp"
#include "streampipe/core/optimizer.hpp"

namespace streampipe {

enum class PlanKind {
  kWarmup,    // run non-streamed; timing discarded (module loading, first use)
  kMeasure,   // run non-streamed with events around each component
  kStreamed,  // run on `streams` streams
};
const char* PlanKindName(PlanKind kind);

struct BatchPlan {
  PlanKind kind = PlanKind::kStreamed;
  int streams = 1;
  double predicted_ms = 0.0;  // the model's prediction for this batch (0 for warm-up)
};

struct BatchObservation {
  std::int64_t items = 0;
  double measured_ms = 0.0;      // the batch's device time
  ComponentTimes components;     // for kMeasure
  double h2d_bytes = 0.0;
  double d2h_bytes = 0.0;
};

struct ControllerOptions {
  CandidateOptions candidates;  // bounds on n; num_items is set per batch
  int warmup_batches = 1;
};

class StreamController {
 public:
  StreamController(std::unique_ptr<StreamModel> model, DeviceTraits traits,
                   ControllerOptions options);

  // What to run for a batch of `items` items.
  BatchPlan Plan(std::int64_t items);

  // Reports how the planned batch went. InvalidArgument for non-finite or negative timings
  // (the observation is ignored).
  absl::Status Observe(const BatchPlan& plan, const BatchObservation& obs);

  // The current choice (1 before the first measurement) and its prediction.
  int streams() const { return streams_; }
  const StreamModel& model() const { return *model_; }
  const DeviceTraits& traits() const { return traits_; }
  // The last measured non-streamed components and the item count they were measured at.
  const std::optional<BatchObservation>& reference() const { return reference_; }

  // The model's choice for `items` items from the reference measurement (scaled linearly in
  // the item count). FailedPrecondition before the first measurement.
  absl::StatusOr<StreamChoice> Choose(std::int64_t items) const;

 private:
  std::unique_ptr<StreamModel> model_;
  DeviceTraits traits_;
  ControllerOptions options_;
  int warmups_done_ = 0;
  std::optional<BatchObservation> reference_;
  std::int64_t chosen_for_items_ = 0;
  int streams_ = 1;
  double predicted_ms_ = 0.0;
};

}  // namespace streampipe

#endif  // STREAMPIPE_CORE_STREAM_CONTROLLER_HPP_
