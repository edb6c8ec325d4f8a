// Flag values shared by the benchmarks' own parsers: a comma list of names, each parsed by the
// library's own parser (ParseIssueMode, ParseIssueOrder), whose error names the bad one.
#ifndef STREAMPIPE_BENCH_BENCH_ARGS_HPP_
#define STREAMPIPE_BENCH_BENCH_ARGS_HPP_

#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"

namespace streampipe::bench {

// "a,b,c" -> {parse("a"), parse("b"), parse("c")}, or the first part's error.
template <typename T, typename Parse>
absl::StatusOr<std::vector<T>> ParseCommaList(absl::string_view value, Parse parse) {
  std::vector<T> out;
  for (absl::string_view part : absl::StrSplit(value, ',')) {
    absl::StatusOr<T> x = parse(std::string_view(part.data(), part.size()));
    if (!x.ok()) return x.status();
    out.push_back(*x);
  }
  return out;
}

}  // namespace streampipe::bench

#endif  // STREAMPIPE_BENCH_BENCH_ARGS_HPP_
