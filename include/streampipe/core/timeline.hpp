// The timeline of a batch (per stream: copy in, kernel, copy out, start and end from CUDA
// events), and its Chrome trace JSON form, which opens in Perfetto (ui.perfetto.dev) and
// chrome://tracing.
//
//   std::vector<streampipe::BatchTimeline> batches = ...;   // from BatchStats::timeline
//   std::string json = streampipe::ChromeTraceJson(batches);
#ifndef STREAMPIPE_CORE_TIMELINE_HPP_
#define STREAMPIPE_CORE_TIMELINE_HPP_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace streampipe {

enum class TimelineOp { kCopyIn, kKernel, kCopyOut };
const char* TimelineOpName(TimelineOp op);

struct TimelineSpan {
  int stream = 0;      // index of the stream within the batch's slot
  int chunk = 0;       // sub-chunk
  TimelineOp op = TimelineOp::kCopyIn;
  double start_ms = 0.0;  // from the pipeline's epoch (its creation)
  double end_ms = 0.0;
};

struct BatchTimeline {
  std::int64_t batch = 0;
  int streams = 1;
  std::string order;   // issue order name
  double start_ms = 0.0;
  double end_ms = 0.0;
  std::vector<TimelineSpan> spans;
};

// {"traceEvents":[...]}: one complete event ("ph":"X", microseconds) per span on a track per
// stream, plus one per batch on track "batches".
std::string ChromeTraceJson(std::span<const BatchTimeline> batches);

}  // namespace streampipe

#endif  // STREAMPIPE_CORE_TIMELINE_HPP_
