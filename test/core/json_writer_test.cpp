#include "streampipe/core/json_writer.hpp"

#include <cmath>

#include <gtest/gtest.h>

namespace streampipe {
namespace {

TEST(JsonWriterTest, NestedContainersAndSeparators) {
  std::string out;
  JsonWriter j(&out);
  j.BeginObject();
  j.Key("a");
  j.Int(1);
  j.Key("list");
  j.BeginArray();
  j.Double(0.5);
  j.BeginObject();
  j.Key("x");
  j.Bool(true);
  j.EndObject();
  j.Null();
  j.EndArray();
  j.Key("s");
  j.String("q\"\\\n\x01\x7f");
  j.EndObject();
  EXPECT_EQ(out, R"({"a":1,"list":[0.5,{"x":true},null],"s":"q\"\\\n\u0001\u007f"})");
}

TEST(JsonWriterTest, AnEndWithNothingOpenDoesNotCorruptTheWriter) {
  // The caller's error (an End too many): the bracket is written as asked, and the writer's
  // state is not popped below empty (undefined before).
  std::string out;
  JsonWriter j(&out);
  j.EndObject();
  j.EndArray();
  j.BeginObject();
  j.Key("a");
  j.Int(1);
  j.EndObject();
  EXPECT_EQ(out, "}]{\"a\":1}");
}

TEST(JsonWriterTest, NonFiniteBecomesNullAndDoublesRoundTrip) {
  std::string out;
  JsonWriter j(&out);
  j.BeginArray();
  j.Double(NAN);
  j.Double(INFINITY);
  j.Double(1.0 / 3.0);
  j.EndArray();
  EXPECT_EQ(out, "[null,null,0.3333333333333333]");
}

}  // namespace
}  // namespace streampipe
