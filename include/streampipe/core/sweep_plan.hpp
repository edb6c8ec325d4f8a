// What `streampipe sweep` measures and how: its grids, sizes, n, issue orders and modes, the
// measurement's batches and the adaptive run's settings, and where it writes. Each field is a
// flag of the command and a key of the `[sweep]` table of a configuration file
// (`streampipe sweep --config=FILE`): the flag `--size-mib` is the key `sweep.size_mib`. A
// flag given on the command line wins over the file, the file over the defaults below.
//
//   absl::StatusOr<streampipe::SweepPlan> p = streampipe::LoadSweepPlan("paper.toml");
//   std::cout << streampipe::SweepPlanToml(*p);   // every key, as TOML that reads back
//
// Lists keep the flags' syntax (ParseIntList: "1..128*2", "1,50,200"): a file says
// `streams = "1..128*2"`. Each key's value is checked on its own (range, list syntax, names):
// the file's errors name the file, the line and the key; a flag's, the flag. Rules between
// keys are the command's (docs/config.md, "The sweep's configuration").
#ifndef STREAMPIPE_CORE_SWEEP_PLAN_HPP_
#define STREAMPIPE_CORE_SWEEP_PLAN_HPP_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "streampipe/core/stream_controller.hpp"
#include "streampipe/core/toml_schema.hpp"

namespace streampipe {

struct SweepPlan {
  // What is measured.
  std::string grid = "quick";
  std::string streams = "1..128*2";
  std::string orders;  // "": all three for the symmetric grid, depth-first elsewhere
  std::string issue = "streams";
  double size_mib = 64.0;
  std::string iters = "1,50,200,500,1000,3000";
  double total_mib = 64.0;
  std::string in_24ths = "1..23+2";
  std::string asym_iters = "1,200,1000";
  std::string matmul_p = "256,512,1024,2048";
  std::string frames = "176x144,352x288,704x576,1920x1080";
  int batch_frames = 64;
  std::string histogram_kernel = "shared";
  // How each point is measured.
  int repetitions = 15;
  int per_visit = 3;
  int held = 2;
  int warmup = 3;
  // The adaptive run of each configuration.
  int adaptive_batches = 150;
  int adaptive_max_batches = 0;  // 0: 4 x adaptive_batches
  int adaptive_retries = 2;
  bool judge_anchor = true;
  bool kernel_halves = AdaptiveOptions{}.measure_kernel_halves;
  double probe_ratio = AdaptiveOptions{}.exploration.probe_ratio;
  int second_visit_batches = AdaptiveOptions{}.exploration.second_visit_batches;
  bool check_anchor = AdaptiveOptions{}.check_anchor;
  bool cap_slow_visits = AdaptiveOptions{}.cap_slow_visits;
  bool carry_far_visits = AdaptiveOptions{}.carry_far_visits;
  double breadth_first_issue_share = AdaptiveOptions{}.breadth_first_issue_share;
  int measure_batches = AdaptiveOptions{}.measure_batches;
  double drift_threshold = AdaptiveOptions{}.detector.threshold;
  // Where it goes (paths relative to the working directory, as the flags').
  std::string output = "sweep.csv";
  std::string summary;
  std::string trace_dir;
  std::string adaptive_trace;
  std::string profile;
};

// The names the list keys allow.
const std::vector<std::string>& SweepGridNames();   // quick, symmetric, ..., all
const std::vector<std::string>& SweepOrderNames();  // depth-first, breadth-first, ...
const std::vector<std::string>& SweepIssueNames();  // streams, graph

// Every key, in the order of --help and of the written file; all under [sweep].
const TomlSchema<SweepPlan>& SweepPlanSchema();

// The flag of a key: "sweep.size_mib" -> "size-mib".
std::string SweepPlanFlag(const TomlKey& key);

// Defaults, then the file. NotFound / PermissionDenied for a missing or unreadable file;
// InvalidArgument naming file, line and key otherwise. The keys the file sets are appended to
// `present` (when not null).
absl::StatusOr<SweepPlan> LoadSweepPlan(const std::string& path,
                                        std::vector<std::string>* present = nullptr);
absl::StatusOr<SweepPlan> ParseSweepPlan(std::string_view text, std::string_view name);

// Every key with its value (TOML that ParseSweepPlan reads back to the same plan).
std::string SweepPlanToml(const SweepPlan& plan, bool with_help = true);
// The reference table of docs/config.md's sweep section.
std::string SweepPlanMarkdown();

// ---- The sweep's adaptive pipeline ----
//
// Some keys of the plan are options of the adaptive pipeline's controller (sweep.probe_ratio is
// exploration.probe_ratio, sweep.kernel_halves is adaptive.measure_kernel_halves, ...). One
// table in sweep_plan.cpp pairs them, and the three functions below read it, so that what the
// sweep runs, what each row records of it (SweepPoint::settings) and what bench/trace_replay
// replays from those records cannot disagree.

// The library's default AdaptiveOptions with the plan's controller keys set. The n to choose
// from are the sweep's per configuration: `candidates` is left at its default.
AdaptiveOptions SweepAdaptiveOptions(const SweepPlan& plan);

// The controller keys of `options` as settings pairs, each named as the sweep's flag
// ("probe-ratio", "3"), in the table's order (a row's settings keep it). A key the table marks
// as omitted at a value (exploration.second_visit_batches at 0, the value sweeps before it ran
// with) is left out there, so that rows written before it existed keep their settings.
std::vector<std::pair<std::string, std::string>> SweepAdaptiveSettings(
    const AdaptiveOptions& options);

// The inverse: each pair of `settings` (a row's settings text) that names a controller key,
// applied to `options` (of a key named twice, the last); other keys are ignored. A key it does
// not name is read as the value it is omitted at where it has one (second-visit-batches: 0),
// else left as it is: what a sweep before that key ran with is the caller's to say.
// InvalidArgument naming the key and value where a value is not one the key allows.
absl::Status ApplySweepAdaptiveSettings(std::string_view settings, AdaptiveOptions* options);

// The table: each controller key's path in the sweep's schema and in the configuration's
// ({"sweep.probe_ratio", "exploration.probe_ratio"}), in its order.
std::vector<std::pair<std::string, std::string>> SweepAdaptiveKeys();

// "WxH,WxH": the histogram grid's frame sizes, each side in [1, 65536]. InvalidArgument naming
// the item otherwise.
absl::StatusOr<std::vector<std::pair<int, int>>> ParseFrameSizes(std::string_view spec);

}  // namespace streampipe

#endif  // STREAMPIPE_CORE_SWEEP_PLAN_HPP_
