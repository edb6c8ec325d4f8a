// Flag values shared by the benchmarks' own parsers. Every tool refuses what it cannot read
// whole (a number with trailing text, one out of range, an unknown flag) with a message that
// names the flag and the value, and exits kUsageExit before it looks for a GPU.
#ifndef STREAMPIPE_BENCH_BENCH_ARGS_HPP_
#define STREAMPIPE_BENCH_BENCH_ARGS_HPP_

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"

namespace streampipe::bench {

// EX_USAGE (sysexits.h), as the streampipe CLI exits on a bad flag.
inline constexpr int kUsageExit = 64;
// EX_SOFTWARE, as the CLI exits where CUDA fails (a calibration, an allocation, a batch).
inline constexpr int kSoftwareExit = 70;
// EX_IOERR, as the CLI exits where an output cannot be written.
inline constexpr int kOutputExit = 74;

// "--name=VALUE" -> VALUE where `arg` starts with `prefix` ("--name="), else nullopt.
inline std::optional<absl::string_view> FlagValue(absl::string_view arg,
                                                  absl::string_view prefix) {
  if (!absl::StartsWith(arg, prefix)) return std::nullopt;
  return arg.substr(prefix.size());
}

// The whole of `text` as an integer in [min, max], or InvalidArgument naming `flag` and `text`.
template <typename Int>
absl::Status ParseIntFlag(absl::string_view flag, absl::string_view text, Int min, Int max,
                          Int* out) {
  std::int64_t v = 0;
  if (!absl::SimpleAtoi(text, &v) || v < static_cast<std::int64_t>(min) ||
      v > static_cast<std::int64_t>(max)) {
    return absl::InvalidArgumentError(absl::StrCat(flag, ": '", text,
                                                   "' is not an integer in [", min, ", ", max,
                                                   "]"));
  }
  *out = static_cast<Int>(v);
  return absl::OkStatus();
}

// The whole of `text` as a finite number in [min, max], or InvalidArgument naming both.
inline absl::Status ParseDoubleFlag(absl::string_view flag, absl::string_view text, double min,
                                    double max, double* out) {
  double v = 0.0;
  if (!absl::SimpleAtod(text, &v) || !std::isfinite(v) || v < min || v > max) {
    return absl::InvalidArgumentError(
        absl::StrCat(flag, ": '", text, "' is not a number in [", min, ", ", max, "]"));
  }
  *out = v;
  return absl::OkStatus();
}

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

// "1,2,4" -> {1, 2, 4}, each an integer in [min, max], or the first bad part's error.
inline absl::StatusOr<std::vector<int>> ParseIntListFlag(absl::string_view flag,
                                                         absl::string_view value, int min,
                                                         int max) {
  return ParseCommaList<int>(value, [&](std::string_view part) -> absl::StatusOr<int> {
    int x = 0;
    absl::Status st = ParseIntFlag<int>(flag, absl::string_view(part.data(), part.size()), min,
                                        max, &x);
    if (!st.ok()) return st;
    return x;
  });
}

// Where `status` is an error: prints "<what>: <status>" on stderr and exits kSoftwareExit. For
// the tools' own resources (buffers, streams, events, pipelines) and their batches: a tool
// measures and does not recover, and a figure taken after a failed call would mean nothing.
// `what` is its parts, joined (absl::StrCat) only on failure, so a call in a timed loop builds
// no message: OkOrExit(st, "adaptive_bench ", mode).
template <typename... What>
void OkOrExit(const absl::Status& status, const What&... what) {
  if (status.ok()) return;
  const std::string where = absl::StrCat(what...);
  const std::string shown = status.ToString();
  std::fprintf(stderr, "%s: %s\n", where.c_str(), shown.c_str());
  std::exit(kSoftwareExit);
}

// The value `result` holds, or, where it holds an error, OkOrExit's message and exit.
template <typename T, typename... What>
T ValueOrExit(absl::StatusOr<T> result, const What&... what) {
  OkOrExit(result.status(), what...);
  return *std::move(result);
}

}  // namespace streampipe::bench

#endif  // STREAMPIPE_BENCH_BENCH_ARGS_HPP_
