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

TEST(JsonWriterTest, WellFormedUtf8IsKeptAndOtherBytesBecomeTheReplacementCharacter) {
  // Two-, three- and four-byte sequences, at the edges of their ranges, pass unchanged.
  const std::string ok =
      "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 \xED\x9F\xBF \xF4\x8F\xBF\xBF"
      " \xC2\x80 \xE0\xA0\x80 \xF0\x90\x80\x80 \xEE\x80\x80 \xEF\xBF\xBF";
  EXPECT_EQ(JsonWriter::Escape(ok), "\"" + ok + "\"");
  // Each byte that does not start a well-formed sequence becomes \ufffd; what follows it is
  // read afresh.
  const struct {
    std::string in, out;
  } cases[] = {
      {"a\x80z", "a\\ufffdz"},                       // a lone continuation byte
      {"\xC0\xAF", "\\ufffd\\ufffd"},                // an overlong '/'
      {"\xE0\x80\xAF", "\\ufffd\\ufffd\\ufffd"},    // an overlong three-byte form
      {"\xED\xA0\x80", "\\ufffd\\ufffd\\ufffd"},    // a surrogate (U+D800)
      {"\xF4\x90\x80\x80", "\\ufffd\\ufffd\\ufffd\\ufffd"},  // past U+10FFFF
      {"\xF5x", "\\ufffdx"},                         // a byte no sequence starts with
      {"x\xE2\x82", "x\\ufffd\\ufffd"},              // truncated at the end
      {"\xE2\x82x\xC3\xA9", "\\ufffd\\ufffdx\xC3\xA9"},  // truncated, then a good one
      {"\xFF\n", "\\ufffd\\n"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(JsonWriter::Escape(c.in), "\"" + c.out + "\"") << c.out;
  }
  std::string out;
  JsonWriter j(&out);
  j.BeginObject();
  j.Key("k\xFE");
  j.String("v\xC3");
  j.EndObject();
  EXPECT_EQ(out, "{\"k\\ufffd\":\"v\\ufffd\"}");
}

}  // namespace
}  // namespace streampipe
