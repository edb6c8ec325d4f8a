// The Chrome trace of a batch timeline (chrome://tracing, Perfetto): every field, by hand. Only
// the GPU tests made one before session 51, and they looked for a substring.
#include "streampipe/core/timeline.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace streampipe {
namespace {

TEST(TimelineTest, ChromeTraceJsonHasEverySpanInMicrosecondsOnItsStreamsTrack) {
  BatchTimeline b;
  b.batch = 7;
  b.streams = 2;
  b.order = "depth-first";
  b.start_ms = 1.0;
  b.end_ms = 1.5;
  b.spans = {{.stream = 0, .chunk = 0, .op = TimelineOp::kCopyIn, .start_ms = 1.0, .end_ms = 1.25},
             {.stream = 1, .chunk = 1, .op = TimelineOp::kKernel, .start_ms = 1.25,
              .end_ms = 1.5}};
  const std::vector<BatchTimeline> batches = {b};
  const std::string want =
      R"j({"displayTimeUnit":"ms","traceEvents":[)j"
      R"j({"name":"batch 7 (n=2, depth-first)","cat":"batch","ph":"X","pid":1,"tid":0,"ts":1000,"dur":500,"args":{"batch":7}},)j"
      R"j({"name":"copy-in 0","cat":"copy-in","ph":"X","pid":1,"tid":1,"ts":1000,"dur":250,"args":{"batch":7,"chunk":0}},)j"
      R"j({"name":"kernel 1","cat":"kernel","ph":"X","pid":1,"tid":2,"ts":1250,"dur":250,"args":{"batch":7,"chunk":1}},)j"
      R"j({"name":"thread_name","ph":"M","pid":1,"tid":0,"args":{"name":"batches"}},)j"
      R"j({"name":"thread_name","ph":"M","pid":1,"tid":1,"args":{"name":"stream 0"}},)j"
      R"j({"name":"thread_name","ph":"M","pid":1,"tid":2,"args":{"name":"stream 1"}}]})j";
  EXPECT_EQ(ChromeTraceJson(batches), want);
  EXPECT_EQ(std::string(TimelineOpName(TimelineOp::kCopyOut)), "copy-out");
}

}  // namespace
}  // namespace streampipe
