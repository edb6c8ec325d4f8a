#include "streampipe/core/sweep_plan.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <functional>
#include <variant>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "streampipe/core/config.hpp"
#include "streampipe/core/histogram_kernel.hpp"
#include "streampipe/core/sweep.hpp"

namespace streampipe {
namespace {

constexpr int kMaxStreams = 1024;  // as pipeline.max_streams
constexpr int kMaxFrameSide = 65536;

// A list of integers, each in [lo, hi].
std::function<absl::Status(std::string_view)> IntsIn(int lo, int hi) {
  return [lo, hi](std::string_view spec) -> absl::Status {
    absl::StatusOr<std::vector<int>> v = ParseIntList(spec);
    if (!v.ok()) return v.status();
    for (int x : *v) {
      if (x < lo || x > hi) {
        return absl::InvalidArgumentError(
            absl::StrCat("value ", x, " is out of range [", lo, ", ", hi, "]"));
      }
    }
    return absl::OkStatus();
  };
}

std::function<absl::Status(std::string_view)> NamesOf(const std::vector<std::string>& allowed,
                                                      bool empty_allowed) {
  return [&allowed, empty_allowed](std::string_view spec) -> absl::Status {
    if (empty_allowed && spec.empty()) return absl::OkStatus();
    return ParseNameList(spec, allowed).status();
  };
}

std::string ListOf(const std::vector<std::string>& names) {
  return absl::StrCat("comma list of: ", absl::StrJoin(names, ", "));
}

// The plan's keys that are options of the adaptive pipeline's controller, and the configuration
// key (docs/config.md) each one is. The order is the one every row's settings write them in
// (SweepPoint::settings): rows of earlier sweeps hold it, and --resume compares settings.
struct AdaptiveKey {
  const char* sweep;   // the plan's key; its flag names it in the settings
  const char* config;  // the PipelineConfig key
  // Not written where its value reads so (the value sweeps before the key ran with), and read
  // back so where a row does not name it; null: always written.
  const char* omitted_at;
};
constexpr AdaptiveKey kAdaptiveKeys[] = {
    {"sweep.kernel_halves", "adaptive.measure_kernel_halves", nullptr},
    {"sweep.probe_ratio", "exploration.probe_ratio", nullptr},
    {"sweep.check_anchor", "adaptive.check_anchor", nullptr},
    // Always written: rows without the key (sweeps before session 41) predicted without it
    // (bench/trace_replay says how it replays them).
    {"sweep.cap_slow_visits", "adaptive.cap_slow_visits", nullptr},
    // Always written, too: rows without it (sweeps before session 42) predicted without it.
    {"sweep.carry_far_visits", "adaptive.carry_far_visits", nullptr},
    {"sweep.measure_batches", "adaptive.measure_batches", nullptr},
    {"sweep.drift_threshold", "detector.threshold", nullptr},
    // Only where set: rows written before the option (0) resume as they are.
    {"sweep.second_visit_batches", "exploration.second_visit_batches", "0"},
    // Only where set, too: rows before session 47 ran without it (0), and replay so.
    {"sweep.breadth_first_issue_share", "adaptive.breadth_first_issue_share", "0"},
};

// The two schemas' keys of an entry. Both exist (SweepPlanTest checks every entry), so a null
// here is a table out of step with a schema: the entry is skipped rather than the process ended.
std::pair<const TomlKey*, const TomlKey*> KeysOf(const AdaptiveKey& k) {
  return {SweepPlanSchema().Find(k.sweep), PipelineConfigSchema().Find(k.config)};
}

std::string SettingText(const TomlValue& v) {
  if (const double* d = std::get_if<double>(&v)) return SweepSettingNumber(*d);
  if (const std::int64_t* i = std::get_if<std::int64_t>(&v)) return absl::StrCat(*i);
  if (const bool* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  return std::get<std::string>(v);
}

}  // namespace

const std::vector<std::string>& SweepGridNames() {
  static const std::vector<std::string> names = {"quick",  "symmetric", "asymmetric",
                                                 "matmul", "histogram", "all"};
  return names;
}

const std::vector<std::string>& SweepOrderNames() {
  static const std::vector<std::string> names = {"depth-first", "breadth-first",
                                                 "engine-per-stream"};
  return names;
}

const std::vector<std::string>& SweepIssueNames() {
  static const std::vector<std::string> names = {"streams", "graph"};
  return names;
}

AdaptiveOptions SweepAdaptiveOptions(const SweepPlan& plan) {
  PipelineConfig config;
  for (const AdaptiveKey& k : kAdaptiveKeys) {
    const auto [sweep, option] = KeysOf(k);
    if (sweep != nullptr && option != nullptr) option->set(&config, sweep->get(&plan));
  }
  return config.adaptive;
}

std::vector<std::pair<std::string, std::string>> SweepAdaptiveSettings(
    const AdaptiveOptions& options) {
  PipelineConfig config;
  config.adaptive = options;
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const AdaptiveKey& k : kAdaptiveKeys) {
    const auto [sweep, option] = KeysOf(k);
    if (sweep == nullptr || option == nullptr) continue;
    std::string text = SettingText(option->get(&config));
    if (k.omitted_at != nullptr && text == k.omitted_at) continue;
    pairs.emplace_back(SweepPlanFlag(*sweep), std::move(text));
  }
  return pairs;
}

absl::Status ApplySweepAdaptiveSettings(std::string_view settings, AdaptiveOptions* options) {
  PipelineConfig config;
  config.adaptive = *options;
  const std::vector<std::pair<std::string, std::string>> pairs = ParseSweepSettings(settings);
  for (const AdaptiveKey& k : kAdaptiveKeys) {
    const auto [sweep, option] = KeysOf(k);
    if (sweep == nullptr || option == nullptr) continue;
    const std::string flag = SweepPlanFlag(*sweep);
    // The last pair that names the key (FormatSweepSettings writes each key once); where none
    // does, the value the writer leaves out, if it leaves one out.
    const std::string* value = nullptr;
    for (const auto& [key, v] : pairs) {
      if (key == flag) value = &v;
    }
    const std::string omitted = k.omitted_at != nullptr ? k.omitted_at : "";
    if (value == nullptr && k.omitted_at != nullptr) value = &omitted;
    if (value == nullptr) continue;
    if (absl::Status s = ApplyConfigOverride(&config, k.config, *value); !s.ok()) {
      // Its message begins with the flag "--key=value: ", which the row did not say.
      absl::string_view why = s.message();
      absl::ConsumePrefix(&why, absl::StrCat("--", k.config, "=", *value, ": "));
      return absl::InvalidArgumentError(
          absl::StrCat("the sweep's setting ", flag, "=", *value, " (", k.config, "): ", why));
    }
  }
  *options = config.adaptive;  // all or nothing
  return absl::OkStatus();
}

std::vector<std::pair<std::string, std::string>> SweepAdaptiveKeys() {
  std::vector<std::pair<std::string, std::string>> keys;
  for (const AdaptiveKey& k : kAdaptiveKeys) keys.emplace_back(k.sweep, k.config);
  return keys;
}

absl::StatusOr<std::vector<std::pair<int, int>>> ParseFrameSizes(std::string_view text) {
  const absl::string_view spec(text.data(), text.size());
  if (absl::StripAsciiWhitespace(spec).empty()) {
    return absl::InvalidArgumentError("empty list: expected comma-separated WxH sizes");
  }
  std::vector<std::pair<int, int>> sizes;
  for (absl::string_view item : absl::StrSplit(spec, ',')) {
    item = absl::StripAsciiWhitespace(item);
    const std::vector<absl::string_view> sides = absl::StrSplit(item, 'x');
    int w = 0, h = 0;
    if (sides.size() != 2 || !absl::SimpleAtoi(sides[0], &w) || !absl::SimpleAtoi(sides[1], &h) ||
        w < 1 || h < 1 || w > kMaxFrameSide || h > kMaxFrameSide) {
      return absl::InvalidArgumentError(absl::StrCat(
          "'", item, "' is not WxH (width and height in [1, ", kMaxFrameSide, "], e.g. 704x576)"));
    }
    sizes.emplace_back(w, h);
  }
  return sizes;
}

const TomlSchema<SweepPlan>& SweepPlanSchema() {
  static const TomlSchema<SweepPlan>* schema = [] {
    auto* s = new TomlSchema<SweepPlan>();
    using P = SweepPlan;
    constexpr double kMany = 1e6;  // a bound on counts of batches: larger is a typo

    s->String("sweep.grid", [](P& p) -> std::string& { return p.grid; },
              ListOf(SweepGridNames()), NamesOf(SweepGridNames(), false),
              "the grids: quick, symmetric (the 2012 paper's 3.1.1), asymmetric (3.1.2), matmul "
              "(4.1), histogram (4.2), all");
    s->String("sweep.streams", [](P& p) -> std::string& { return p.streams; },
              absl::StrCat("list of n in [1, ", kMaxStreams, "]"), IntsIn(1, kMaxStreams),
              "the n measured, e.g. 1..128*2 or 1,2,3,4 (those with a sub-chunk for each)");
    s->String("sweep.orders", [](P& p) -> std::string& { return p.orders; },
              ListOf(SweepOrderNames()) + ", or empty", NamesOf(SweepOrderNames(), true),
              "issue orders (empty: all three for the symmetric grid, depth-first elsewhere)");
    s->String("sweep.issue", [](P& p) -> std::string& { return p.issue; },
              ListOf(SweepIssueNames()), NamesOf(SweepIssueNames(), false),
              "issue modes, each configuration measured in each: streams (call by call), graph "
              "(a CUDA graph per n)");
    s->Double("sweep.size_mib", [](P& p) -> double& { return p.size_mib; }, 1.0 / 1024, 65536,
              "symmetric: MiB copied each way");
    s->String("sweep.iters", [](P& p) -> std::string& { return p.iters; },
              "list of integers >= 0", IntsIn(0, INT_MAX),
              "symmetric: the kernel's loop trips (its intensity)");
    s->Double("sweep.total_mib", [](P& p) -> double& { return p.total_mib; }, 1.0 / 1024, 65536,
              "asymmetric: MiB copied in and out together");
    s->String("sweep.in_24ths", [](P& p) -> std::string& { return p.in_24ths; },
              "list of integers in [1, 23]", IntsIn(1, 23),
              "asymmetric: 24ths of the total copied in (the paper: 1..23)");
    s->String("sweep.asym_iters", [](P& p) -> std::string& { return p.asym_iters; },
              "list of integers >= 0", IntsIn(0, INT_MAX), "asymmetric: the kernel's loop trips");
    s->String("sweep.matmul_p", [](P& p) -> std::string& { return p.matmul_p; },
              "list of integers in [1, 16384]", IntsIn(1, 16384),
              "matmul: p (m = 2p rows of A streamed, B p x p resident, as in the paper)");
    s->String("sweep.frames", [](P& p) -> std::string& { return p.frames; },
              "list of WxH",
              [](std::string_view spec) { return ParseFrameSizes(spec).status(); },
              "histogram: frame sizes");
    s->Int("sweep.batch_frames", [](P& p) -> int& { return p.batch_frames; }, 1, 1 << 20,
           "histogram: frames per batch");
    s->String("sweep.histogram_kernel", [](P& p) -> std::string& { return p.histogram_kernel; },
              HistogramKernelNames(),
              "histogram: shared (merged in thread-block clusters where the device can), "
              "shared-atomic (merged with global atomics after a memset) or global");

    s->Int("sweep.repetitions", [](P& p) -> int& { return p.repetitions; }, 1, kMany,
           "timed batches per point (medians)");
    s->Int("sweep.per_visit", [](P& p) -> int& { return p.per_visit; }, 1, kMany,
           "timed batches per visit of an n in the rounds, each visit after one untimed batch "
           "(as many as repetitions: each n in one run)");
    s->Int("sweep.held", [](P& p) -> int& { return p.held; }, 0, kMany,
           "batches per visit run with the GPU held until the host has issued them (the "
           "device's time alone, held_ms; 0: none)");
    s->Int("sweep.warmup", [](P& p) -> int& { return p.warmup; }, 0, kMany,
           "untimed batches before each point");

    s->Int("sweep.adaptive_batches", [](P& p) -> int& { return p.adaptive_batches; }, 1, kMany,
           "batches the adaptive pipeline runs per configuration, then on while its calibration "
           "owes visits (the probe far from n* after a late re-derivation)");
    s->Int("sweep.adaptive_max_batches", [](P& p) -> int& { return p.adaptive_max_batches; }, 0,
           4 * kMany,
           "the most batches an adaptive run takes to complete its calibration (0: 4 x "
           "adaptive_batches; adaptive_batches: never more)");
    s->Int("sweep.adaptive_retries", [](P& p) -> int& { return p.adaptive_retries; }, 0, 10,
           absl::StrFormat("adaptive runs repeated per configuration where one's own batches "
                           "disagree with the rounds before it (by more than %g %% over all its "
                           "n or %g %% at one: a burst; 0: never)",
                           100 * kAdaptiveAgreementWithin, 100 * kAdaptiveSampleWithin));
    s->Bool("sweep.judge_anchor", [](P& p) -> bool& { return p.judge_anchor; },
            absl::StrFormat("count the adaptive run's non-streamed measurement in that check "
                            "too: slower than the rounds at n = 1 by more than %g %% and %g us "
                            "is a burst (false: reported, not judged, as before session 35)",
                            100 * kAdaptiveReferenceWithin, 1000 * kAdaptiveReferenceFloorMs));
    s->Bool("sweep.kernel_halves", [](P& p) -> bool& { return p.kernel_halves; },
            "time the kernel at half the batch too, in the rounds (the current model's input, "
            "kernel_half_ms) and in the adaptive pipeline (adaptive.measure_kernel_halves)");
    s->Double("sweep.probe_ratio", [](P& p) -> double& { return p.probe_ratio; }, 0, 100,
              "the adaptive pipeline's exploration.probe_ratio (0: no calibration probe)");
    s->Int("sweep.second_visit_batches", [](P& p) -> int& { return p.second_visit_batches; },
           0, kMany,
           "the adaptive pipeline's exploration.second_visit_batches: each neighbour of n* "
           "visited again at least this many batches after its first visit (0: never)");
    s->Bool("sweep.check_anchor", [](P& p) -> bool& { return p.check_anchor; },
            "the adaptive pipeline's anchor check (adaptive.check_anchor): one more "
            "non-streamed batch per derivation once its visits are made");
    s->Bool("sweep.cap_slow_visits", [](P& p) -> bool& { return p.cap_slow_visits; },
            "the adaptive pipeline's adaptive.cap_slow_visits: a visited neighbour predicted at "
            "most at what the measured n beside it say (predictions only)");
    s->Bool("sweep.carry_far_visits", [](P& p) -> bool& { return p.carry_far_visits; },
            "the adaptive pipeline's adaptive.carry_far_visits: after a re-derivation that kept "
            "n, the n above every n measured since predicted from the times measured before it "
            "(predictions only)");
    s->Double("sweep.breadth_first_issue_share",
              [](P& p) -> double& { return p.breadth_first_issue_share; }, 0, 1,
              "the adaptive pipeline's adaptive.breadth_first_issue_share: in breadth-first "
              "configurations, the share of a sub-chunk's issue cost before the first kernel "
              "(the model's T5; 0: off)");
    s->Int("sweep.measure_batches", [](P& p) -> int& { return p.measure_batches; }, 1, 15,
           "the adaptive pipeline's adaptive.measure_batches: non-streamed batches per "
           "(re-)measurement, the median of their parts used");
    s->Double("sweep.drift_threshold", [](P& p) -> double& { return p.drift_threshold; }, 0.001,
              10,
              "the adaptive pipeline's detector.threshold: the relative divergence from its "
              "prediction that, held for detector.consecutive batches, re-measures and "
              "re-derives n");

    s->String("sweep.output", [](P& p) -> std::string& { return p.output; }, {},
              "CSV file, one row per point (- for stdout)");
    s->String("sweep.summary", [](P& p) -> std::string& { return p.summary; }, {},
              "write the summary tables (markdown) here (- for stdout; empty: stderr only)");
    s->String("sweep.trace_dir", [](P& p) -> std::string& { return p.trace_dir; }, {},
              "write a Chrome trace of one batch per issue order here (empty: none)");
    s->String("sweep.adaptive_trace", [](P& p) -> std::string& { return p.adaptive_trace; }, {},
              "write every batch of each kept adaptive run here (CSV: configuration, batch, "
              "kind, n, settled, device and issue times, host start and wall time, the "
              "measurement's kernel at half the batch; bench/trace_replay replays it; empty: "
              "none)");
    s->String("sweep.profile", [](P& p) -> std::string& { return p.profile; }, {},
              "device profile (streampipe calibrate; empty: calibrate now)");
    return s;
  }();
  return *schema;
}

std::string SweepPlanFlag(const TomlKey& key) {
  std::string flag(absl::StripPrefix(key.path, "sweep."));
  std::replace(flag.begin(), flag.end(), '_', '-');
  return flag;
}

absl::StatusOr<SweepPlan> LoadSweepPlan(const std::string& path,
                                        std::vector<std::string>* present) {
  SweepPlan plan;
  if (absl::Status s = SweepPlanSchema().ReadFile(path, &plan, present); !s.ok()) return s;
  return plan;
}

absl::StatusOr<SweepPlan> ParseSweepPlan(std::string_view text, std::string_view name) {
  SweepPlan plan;
  if (absl::Status s = SweepPlanSchema().Read(text, name, &plan); !s.ok()) return s;
  return plan;
}

std::string SweepPlanToml(const SweepPlan& plan, bool with_help) {
  return SweepPlanSchema().Write(plan, with_help);
}

std::string SweepPlanMarkdown() {
  const SweepPlan defaults;
  return detail::MarkdownTable(SweepPlanSchema().keys(), &defaults);
}

}  // namespace streampipe
