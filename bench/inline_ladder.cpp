// The host's issue time per sub-chunk against the size of its copy in, in the pipeline's own
// shape (MeasureInlineLadder), at several n and both issue modes: where, and how steeply, the
// driver's inline path for small copies in (docs/models.md, "Inline copies in") costs the host,
// and whether that depends on n. Each ladder is fitted as the profile's is (FitInlineCopies).
//   inline_ladder [--streams=8,32,128] [--issue=streams,graph] [--repeat=2] [--reps=21]
// Prints one line per ladder: n, mode, the fitted limit, rate and cost per sub-chunk, then the
// host's us per sub-chunk at each size (KiB).
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "bench_args.hpp"
#include "streampipe/core/model.hpp"
#include "streampipe/cuda/calibrate.hpp"
#include "streampipe/cuda/device.hpp"
#include "streampipe/cuda/pipeline_types.hpp"
#include "bench_help.hpp"

namespace streampipe {
namespace {

struct Args {
  std::vector<int> streams = {8, 32, 128};
  std::vector<IssueMode> modes = {IssueMode::kStreams, IssueMode::kGraph};
  int repeat = 2;
  int reps = 21;
};

absl::StatusOr<Args> Parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const absl::string_view arg = argv[i];
    const auto value = [&](absl::string_view flag) { return bench::FlagValue(arg, flag); };
    constexpr int kMaxInt = std::numeric_limits<int>::max();
    absl::Status st;
    if (auto v = value("--streams=")) {
      absl::StatusOr<std::vector<int>> x = bench::ParseIntListFlag("--streams", *v, 1, kMaxInt);
      if (!x.ok()) return x.status();
      a.streams = *std::move(x);
    } else if (auto v = value("--issue=")) {
      absl::StatusOr<std::vector<IssueMode>> m =
          bench::ParseCommaList<IssueMode>(*v, ParseIssueMode);
      if (!m.ok()) return m.status();
      a.modes = *std::move(m);
    } else if (auto v = value("--repeat=")) {
      st = bench::ParseIntFlag("--repeat", *v, 1, kMaxInt, &a.repeat);
    } else if (auto v = value("--reps=")) {
      st = bench::ParseIntFlag("--reps", *v, 1, kMaxInt, &a.reps);
    } else {
      return absl::InvalidArgumentError(absl::StrCat("unknown argument '", arg, "'"));
    }
    if (!st.ok()) return st;
  }
  return a;
}

int Main(int argc, char** argv) {
  if (streampipe::bench::PrintedHelp(
          argc, argv, "inline_ladder",
          "[--streams=8,32,128] [--issue=streams,graph] [--repeat=2] [--reps=21]")) {
    return 0;
  }
  absl::StatusOr<Args> args = Parse(argc, argv);
  if (!args.ok()) {
    std::fprintf(stderr, "inline_ladder: %s\n", std::string(args.status().message()).c_str());
    return bench::kUsageExit;
  }
  if (CudaDeviceCount() == 0) {
    std::fprintf(stderr, "inline_ladder: no CUDA device (%s)\n", NoDeviceReason().c_str());
    return 0;
  }
  // The traits only feed the pipeline's controller, which a fixed n does not consult: a quick
  // calibration without the sweep.
  CalibrationOptions co;
  co.quick = true;
  co.fit_stream_overhead = false;
  co.inline_copies = false;  // measured below
  absl::StatusOr<Calibration> cal = Calibrate(co);
  if (!cal.ok()) {
    std::fprintf(stderr, "inline_ladder: calibration failed: %s\n",
                 std::string(cal.status().message()).c_str());
    return bench::kSoftwareExit;
  }
  InlineLadderOptions lo;  // the sizes calibration uses (DefaultInlineLadderBytes)
  lo.repetitions = args->reps;
  std::printf("%-4s %-7s %-6s %9s %8s %9s  host us per sub-chunk by KiB in\n", "rep", "issue", "n",
              "limit", "GB/s", "us/chunk");
  for (int r = 0; r < args->repeat; ++r) {
    for (int n : args->streams) {
      for (IssueMode m : args->modes) {
        lo.streams = n;
        lo.issue = m;
        absl::StatusOr<std::vector<IssueSample>> ladder =
            MeasureInlineLadder(cal->profile.traits, lo);
        if (!ladder.ok()) {
          std::fprintf(stderr, "inline_ladder: n = %d: %s\n", n,
                       std::string(ladder.status().message()).c_str());
          return bench::kSoftwareExit;
        }
        absl::StatusOr<InlineCopyFit> fit = FitInlineLadder(*ladder);
        std::string row;
        for (const IssueSample& s : *ladder) {
          absl::StrAppendFormat(&row, " %.0f:%.2f", s.bytes / 1024, s.issue_ms * 1e3);
        }
        const double gbps = fit.ok() && fit->ms_per_byte > 0.0 ? 1.0 / fit->ms_per_byte / 1e6 : 0.0;
        std::printf("%-4d %-7s %-6d %9.0f %8.2f %9.2f %s\n", r + 1,
                    std::string(IssueModeName(m)).c_str(), n, fit.ok() ? fit->max_bytes : -1.0,
                    gbps, fit.ok() ? fit->per_copy_ms * 1e3 : -1.0, row.c_str());
        std::fflush(stdout);
      }
    }
  }
  return 0;
}

}  // namespace
}  // namespace streampipe

int main(int argc, char** argv) { return streampipe::Main(argc, argv); }
