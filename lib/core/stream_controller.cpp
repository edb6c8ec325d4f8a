#include "streampipe/core/stream_controller.hpp"

#include <cmath>

#include "absl/strings/str_cat.h"

namespace streampipe {

const char* PlanKindName(PlanKind kind) {
  switch (kind) {
    case PlanKind::kWarmup:
      return "warmup";
    case PlanKind::kMeasure:
      return "measure";
    case PlanKind::kStreamed:
      return "streamed";
  }
  return "unknown";
}

StreamController::StreamController(std::unique_ptr<StreamModel> model, DeviceTraits traits,
                                   ControllerOptions options)
    : model_(std::move(model)), traits_(std::move(traits)), options_(options) {}

absl::StatusOr<StreamChoice> StreamController::Choose(std::int64_t items) const {
  if (!reference_) {
    return absl::FailedPreconditionError("no non-streamed measurement yet");
  }
  const double scale =
      reference_->items > 0 ? static_cast<double>(items) / static_cast<double>(reference_->items)
                            : 1.0;
  Workload w;
  w.times = {reference_->components.h2d_ms * scale, reference_->components.kernel_ms * scale,
             reference_->components.d2h_ms * scale};
  w.bytes = {reference_->h2d_bytes * scale, reference_->d2h_bytes * scale};
  w.problem_size = static_cast<double>(items);
  absl::StatusOr<ModelTerms> terms = ComputeModelTerms(traits_, w);
  if (!terms.ok()) return terms.status();
  CandidateOptions c = options_.candidates;
  c.num_items = items;
  return ChooseNumStreams(*model_, *terms, c);
}

BatchPlan StreamController::Plan(std::int64_t items) {
  if (warmups_done_ < options_.warmup_batches) return {PlanKind::kWarmup, 1, 0.0};
  if (!reference_) return {PlanKind::kMeasure, 1, 0.0};
  if (items != chosen_for_items_) {
    absl::StatusOr<StreamChoice> c = Choose(items);
    if (c.ok()) {
      streams_ = c->streams;
      predicted_ms_ = c->predicted_ms;
    } else {
      streams_ = 1;  // no candidate fits (e.g. fewer items than min work): whole batch
      predicted_ms_ = 0.0;
    }
    chosen_for_items_ = items;
  }
  return {PlanKind::kStreamed, streams_, predicted_ms_};
}

absl::Status StreamController::Observe(const BatchPlan& plan, const BatchObservation& obs) {
  const double values[] = {obs.measured_ms, obs.components.h2d_ms, obs.components.kernel_ms,
                           obs.components.d2h_ms, obs.h2d_bytes, obs.d2h_bytes};
  for (double v : values) {
    if (!std::isfinite(v) || v < 0.0) {
      return absl::InvalidArgumentError(
          absl::StrCat("timing observation ", v, " is not a finite non-negative number"));
    }
  }
  if (obs.items <= 0) {
    return absl::InvalidArgumentError(absl::StrCat("observation of ", obs.items, " items"));
  }
  switch (plan.kind) {
    case PlanKind::kWarmup:
      ++warmups_done_;
      break;
    case PlanKind::kMeasure:
      reference_ = obs;
      chosen_for_items_ = 0;  // re-choose at the next Plan
      break;
    case PlanKind::kStreamed:
      break;
  }
  return absl::OkStatus();
}

}  // namespace streampipe
