#include "streampipe/core/timeline.hpp"

#include <set>

#include "absl/strings/str_cat.h"
#include "streampipe/core/json_writer.hpp"

namespace streampipe {

const char* TimelineOpName(TimelineOp op) {
  switch (op) {
    case TimelineOp::kCopyIn:
      return "copy-in";
    case TimelineOp::kKernel:
      return "kernel";
    case TimelineOp::kCopyOut:
      return "copy-out";
  }
  return "unknown";
}

std::string ChromeTraceJson(std::span<const BatchTimeline> batches) {
  std::string out;
  JsonWriter j(&out);
  j.BeginObject();
  j.Key("displayTimeUnit");
  j.String("ms");
  j.Key("traceEvents");
  j.BeginArray();
  auto complete = [&j](const std::string& name, const char* cat, int tid, double start_ms,
                       double end_ms, std::int64_t batch, int chunk) {
    j.BeginObject();
    j.Key("name");
    j.String(name);
    j.Key("cat");
    j.String(cat);
    j.Key("ph");
    j.String("X");
    j.Key("pid");
    j.Int(1);
    j.Key("tid");
    j.Int(tid);
    j.Key("ts");
    j.Double(start_ms * 1000.0);
    j.Key("dur");
    j.Double((end_ms - start_ms) * 1000.0);
    j.Key("args");
    j.BeginObject();
    j.Key("batch");
    j.Int(batch);
    if (chunk >= 0) {
      j.Key("chunk");
      j.Int(chunk);
    }
    j.EndObject();
    j.EndObject();
  };
  std::set<int> tids;
  for (const BatchTimeline& b : batches) {
    complete(absl::StrCat("batch ", b.batch, " (n=", b.streams, ", ", b.order, ")"), "batch", 0,
             b.start_ms, b.end_ms, b.batch, -1);
    for (const TimelineSpan& s : b.spans) {
      const int tid = s.stream + 1;
      tids.insert(tid);
      complete(absl::StrCat(TimelineOpName(s.op), " ", s.chunk), TimelineOpName(s.op), tid,
               s.start_ms, s.end_ms, b.batch, s.chunk);
    }
  }
  // Track names.
  auto name_track = [&j](int tid, const std::string& name) {
    j.BeginObject();
    j.Key("name");
    j.String("thread_name");
    j.Key("ph");
    j.String("M");
    j.Key("pid");
    j.Int(1);
    j.Key("tid");
    j.Int(tid);
    j.Key("args");
    j.BeginObject();
    j.Key("name");
    j.String(name);
    j.EndObject();
    j.EndObject();
  };
  name_track(0, "batches");
  for (int tid : tids) name_track(tid, absl::StrCat("stream ", tid - 1));
  j.EndArray();
  j.EndObject();
  return out;
}

}  // namespace streampipe
