#include "streampipe/core/config.hpp"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "streampipe/core/model.hpp"

namespace streampipe {

const TomlSchema<PipelineConfig>& PipelineConfigSchema() {
  static const TomlSchema<PipelineConfig>* schema = [] {
    auto* s = new TomlSchema<PipelineConfig>();
    using C = PipelineConfig;
    std::vector<std::string> models = {"auto"};
    for (ModelKind k : kAllModelKinds) models.emplace_back(ModelName(k));

    s->Int("pipeline.device", [](C& c) -> int& { return c.device; }, 0, 64, "CUDA device index");
    s->Int("pipeline.max_streams", [](C& c) -> int& { return c.max_streams; }, 1, 1024,
           "streams per batch slot: the largest n the pipeline can use");
    s->Int("pipeline.max_in_flight", [](C& c) -> int& { return c.max_in_flight; }, 1, 8,
           "batches in flight at once in continuous mode (each has its device buffers)");
    s->String("pipeline.order", [](C& c) -> std::string& { return c.order; },
              {"depth-first", "breadth-first", "engine-per-stream"},
              "issue order of a batch's copies and kernels");
    s->String("pipeline.issue", [](C& c) -> std::string& { return c.issue; },
              {"streams", "graph"},
              "streams: each batch enqueued call by call; graph: captured once per n as a CUDA "
              "graph and launched with one call (about half the host's issue time; the "
              "launcher's kernel arguments are replayed)");
    s->String("pipeline.model", [](C& c) -> std::string& { return c.model; }, models,
              "performance model (docs/models.md); auto picks from the device");
    s->Int("pipeline.staging_threads", [](C& c) -> int& { return c.staging_threads; }, 1, 64,
           "host threads that stage pageable memory through pinned buffers");
    s->Bool("pipeline.record_timeline", [](C& c) -> bool& { return c.record_timeline; },
            "record per-sub-chunk timing events (for --trace)");
    s->Int("pipeline.wait_timeout_ms", [](C& c) -> std::int64_t& { return c.wait_timeout_ms; },
           1, 3.6e6, "bound on every wait for the GPU (ms)");
    s->String("pipeline.profile", [](C& c) -> std::string& { return c.profile; }, {},
              "device profile from streampipe calibrate (\"\": calibrate quickly at start)");
    s->String("pipeline.event_log", [](C& c) -> std::string& { return c.event_log; }, {},
              "append re-derivation events to this file as JSON lines (\"\": none)");

    s->Int("streams.min", [](C& c) -> int& { return c.adaptive.candidates.min_streams; }, 1,
           4096, "smallest n considered");
    s->Int("streams.max", [](C& c) -> int& { return c.adaptive.candidates.max_streams; }, 1,
           4096, "largest n considered (at most pipeline.max_streams)");
    s->Bool("streams.powers_of_two", [](C& c) -> bool& {
      return c.adaptive.candidates.powers_of_two; }, "consider only n = 1, 2, 4, ...");
    s->Bool("streams.divisors_only", [](C& c) -> bool& {
      return c.adaptive.candidates.divisors_only; }, "consider only n dividing the item count");
    s->Int("streams.min_items_per_stream", [](C& c) -> std::int64_t& {
      return c.adaptive.candidates.min_items_per_stream; }, 1, 1e15,
           "minimum work size of a sub-chunk in items (seed 001: one full round of blocks)");

    s->Int("adaptive.warmup_batches", [](C& c) -> int& { return c.adaptive.warmup_batches; }, 0,
           1000, "non-streamed batches run first and not timed (module loading, first use)");
    s->Int("adaptive.measure_batches", [](C& c) -> int& { return c.adaptive.measure_batches; },
           1, 15, "non-streamed batches per (re-)measurement; the median of their parts is "
           "used (more than 1 resists a burst of other work shorter than the measurement; on "
           "run 152's busy H100 leases three batches in a row were slow as often as one, "
           "docs/results.md, session 26)");
    s->Bool("adaptive.measure_kernel_halves", [](C& c) -> bool& {
      return c.adaptive.measure_kernel_halves; },
            "with each (re-)measurement, one more non-streamed batch whose kernel runs over "
            "each half of the items: the part of the kernel's time a sub-chunk pays whatever "
            "its size (docs/models.md)");
    s->Bool("adaptive.check_anchor", [](C& c) -> bool& { return c.adaptive.check_anchor; },
            "once a derivation's visits are made, one more non-streamed batch: the faster of "
            "the two anchors the calibrated prediction at n = 1 and below the visited n "
            "(predictions only; a single batch can sit in a burst of the host's link, "
            "docs/models.md); off by default: on a drifting lease its batches cost a stationary "
            "workload about 2 % (docs/results.md, session 34)");
    s->Bool("adaptive.cap_slow_visits", [](C& c) -> bool& { return c.adaptive.cap_slow_visits; },
            "at an n visited in a derivation other than the chosen one, with measured n on "
            "either side, predict the faster of the visit's own time and the slower of those "
            "two n's residuals carried to it (a visit of two batches can sit in a slow stretch "
            "of a shared machine; predictions only, docs/models.md)");
    s->Double("adaptive.breadth_first_issue_share",
              [](C& c) -> double& { return c.adaptive.breadth_first_issue_share; }, 0, 1,
              "where batches are issued breadth-first, the share of a sub-chunk's issue cost "
              "spent before the first kernel can be issued: the model's first choice sees that "
              "the kernels wait for every copy in to be issued (docs/models.md, T5); 0: off, the "
              "default until an A/B on the H100; about 0.33 fits the H100 and the H200");
    s->Bool("adaptive.carry_far_visits", [](C& c) -> bool& { return c.adaptive.carry_far_visits; },
            "after a drift re-derivation that kept n, predict the n above every n measured "
            "since from the times measured before it, relative to the kept n's (the "
            "re-derivation clears the visits; predictions only, docs/models.md); off by "
            "default: on run 237's busy lease it cost one sweep-mode its 10 % maximum, and "
            "on run 240 it carried times a burst on the host had slowed 2x into n = 32-128 "
            "(+125 to +128 %; docs/results.md, sessions 42-43)");
    s->Int("adaptive.cooldown_batches", [](C& c) -> int& { return c.adaptive.cooldown_batches; },
           1, 100000, "batches after a (re)derivation that learn the measured level of n");
    s->Bool("adaptive.adapt", [](C& c) -> bool& { return c.adaptive.adapt; },
            "re-measure and re-derive n when the detector sees drift");
    s->Bool("adaptive.online_calibration", [](C& c) -> bool& {
      return c.adaptive.online_calibration; }, "re-fit the per-stream overhead from explored n");
    s->Bool("adaptive.steady_state", [](C& c) -> bool& { return c.adaptive.steady_state; },
            "predict the period of overlapped batches (continuous mode) instead of one batch; "
            "batches that find the GPU idle are then not sampled");

    s->Double("detector.threshold", [](C& c) -> double& { return c.adaptive.detector.threshold; },
              0.001, 10.0,
              "relative divergence of measured from predicted time that counts; also how "
              "closely the parts of a drift's re-measurement must move together for it to be "
              "the same workload, which keeps n");
    s->Int("detector.window", [](C& c) -> int& { return c.adaptive.detector.window; }, 2, 100000,
           "recent batches kept for the running mean and variance");
    s->Int("detector.min_samples", [](C& c) -> int& { return c.adaptive.detector.min_samples; },
           1, 100000, "no drift decision before this many batches");
    s->Int("detector.consecutive", [](C& c) -> int& { return c.adaptive.detector.consecutive; },
           1, 100000, "batches in a row beyond the threshold that make a drift");

    s->Bool("exploration.enabled", [](C& c) -> bool& { return c.adaptive.exploration.enabled; },
            "explore neighbouring n within the budget");
    s->Double("exploration.budget", [](C& c) -> double& {
      return c.adaptive.exploration.budget; }, 0.0, 0.5, "fraction of batches whose exploration is paid from the budget (visits that "
           "confirm a win or resample a neighbour that measured faster come on top)");
    s->Int("exploration.burst", [](C& c) -> int& { return c.adaptive.exploration.burst; }, 0, 100,
           "exploration tokens right after a derivation (a visit costs exploration.run of them; "
           "the bucket may go negative and refills by budget per batch at n)");
    s->Int("exploration.samples_per_candidate", [](C& c) -> int& {
      return c.adaptive.exploration.samples_per_candidate; }, 1, 32,
           "measurements of a neighbour before it is compared with n");
    s->Double("exploration.switch_margin", [](C& c) -> double& {
      return c.adaptive.exploration.switch_margin; }, 0.0, 0.5,
              "a neighbour replaces n when its median is faster by this fraction");
    s->Int("exploration.revisit_batches", [](C& c) -> int& {
      return c.adaptive.exploration.revisit_batches; }, 1, 1e9,
           "explore a neighbour again after this many batches");
    s->Int("exploration.confirmations", [](C& c) -> int& {
      return c.adaptive.exploration.confirmations; }, 1, 10,
           "visits in a row that must find a neighbour faster before it replaces n (a visit "
           "that confirms a win, or resamples a neighbour faster within the noise, comes after "
           "5 new samples of n, outside the budget)");
    s->Int("exploration.run", [](C& c) -> int& { return c.adaptive.exploration.run; }, 0, 1000,
           "consecutive batches per visit of a neighbour; 0: samples_per_candidate + 1 (the "
           "first batch at a new n runs cold), or with overlapping batches 2 x max_in_flight x "
           "(samples_per_candidate + 1)");
    s->Double("exploration.probe_ratio", [](C& c) -> double& {
      return c.adaptive.exploration.probe_ratio; }, 0.0, 100.0,
              "once per derivation, visit the largest n predicted within this many times the "
              "time of n, to calibrate the per-stream and issue costs (at most 1: never)");
    s->Int("exploration.second_visit_batches", [](C& c) -> int& {
      return c.adaptive.exploration.second_visit_batches; }, 0, 1e9,
           "visit each neighbour of n a second time, at least this many batches after its first "
           "visit of a derivation, outside the budget, so that its time rests on two moments "
           "(0: never; not in steady state)");
    return s;
  }();
  return *schema;
}

absl::Status ValidatePipelineConfig(const PipelineConfig& c, std::string_view name) {
  const std::string where(name);
  // streams.max above pipeline.max_streams is not an error: the pipeline caps it.
  if (c.adaptive.candidates.min_streams > c.adaptive.candidates.max_streams) {
    return absl::InvalidArgumentError(absl::StrCat(where, ": streams.min (",
                                                   c.adaptive.candidates.min_streams,
                                                   ") exceeds streams.max (",
                                                   c.adaptive.candidates.max_streams, ")"));
  }
  const DriftDetectorOptions& d = c.adaptive.detector;
  if (d.min_samples > d.window || d.consecutive > d.window) {
    return absl::InvalidArgumentError(absl::StrCat(
        where, ": detector.min_samples (", d.min_samples, ") and detector.consecutive (",
        d.consecutive, ") must not exceed detector.window (", d.window, ")"));
  }
  // What StreamPipeline::Create checks of the same keys, so that a file it would refuse is
  // refused at load: the adaptive options with streams.max capped at pipeline.max_streams (as the
  // pipeline caps them), and a visit long enough for its samples.
  for (absl::Status s : {ValidateAdaptiveOptions(CapStreams(c.adaptive, c.max_streams)),
                         ValidateExplorationRun(c.adaptive.exploration, c.max_in_flight)}) {
    if (s.ok()) continue;
    // The candidates' bounds: the keys that make them, with their values (the message named
    // only the bounds before session 51).
    const CandidateOptions& k = c.adaptive.candidates;
    const std::string keys =
        absl::StartsWith(s.message(), "no stream count in ")
            ? absl::StrCat(" (streams.min = ", k.min_streams, ", streams.max = ", k.max_streams,
                           ", pipeline.max_streams = ", c.max_streams, ", streams.powers_of_two = ",
                           k.powers_of_two ? "true" : "false", ")")
            : "";
    return absl::InvalidArgumentError(absl::StrCat(where, ": ", s.message(), keys));
  }
  return absl::OkStatus();
}

absl::StatusOr<PipelineConfig> ParsePipelineConfig(std::string_view text, std::string_view name) {
  PipelineConfig c;
  absl::Status s = PipelineConfigSchema().Read(text, name, &c);
  if (!s.ok()) return s;
  s = ValidatePipelineConfig(c, name);
  if (!s.ok()) return s;
  return c;
}

absl::StatusOr<PipelineConfig> LoadPipelineConfig(const std::string& path) {
  std::string text;
  absl::Status s = detail::ReadTextFile(path, &text);
  if (!s.ok()) return s;
  return ParsePipelineConfig(text, path);
}

namespace {

// [+-]digits, and for a double also [.digits][e[+-]digits] (or a leading '.'): the decimal
// numbers a flag takes.
bool DecimalNumberText(std::string_view v, bool integer) {
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t from = i;
    while (i < v.size() && v[i] >= '0' && v[i] <= '9') ++i;
    return i - from;
  };
  if (i < v.size() && (v[i] == '+' || v[i] == '-')) ++i;
  std::size_t mantissa = digits();
  if (!integer && i < v.size() && v[i] == '.') {
    ++i;
    mantissa += digits();
  }
  if (mantissa == 0) return false;
  if (!integer && i < v.size() && (v[i] == 'e' || v[i] == 'E')) {
    ++i;
    if (i < v.size() && (v[i] == '+' || v[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == v.size();
}

}  // namespace

absl::Status ApplyConfigOverride(PipelineConfig* config, std::string_view key,
                                 std::string_view value) {
  const std::string k(key);
  const std::string flag = absl::StrCat("--", k, "=", std::string(value));
  const TomlKey* spec = nullptr;
  for (const TomlKey& t : PipelineConfigSchema().keys()) {
    if (t.path == k) spec = &t;
  }
  if (spec == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(flag, ": unknown configuration key '", k, "' (streampipe config lists them)"));
  }
  // One flag, one key: the value goes into a one-line TOML text below, where a line break would
  // start other keys (or tables) of its own.
  if (value.find_first_of("\r\n") != std::string_view::npos) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--", k, ": the value has a line break; a flag sets one key to a one-line value"));
  }
  std::string v(value);
  // A number is decimal, as every other flag's (TOML also reads 0x10, 0o20, 1_6 and a trailing
  // comment, which a key flag took before session 51); a boolean is true or false, said so
  // (TOML's "could not determine value type" named no type). (The command line's flags also
  // take yes, no, 1 and 0: config_flags.cpp.)
  if (spec->type == TomlType::kBool) {
    if (v != "true" && v != "false") {
      return absl::InvalidArgumentError(
          absl::StrCat(flag, ": key '", k, "' is a boolean: true or false"));
    }
  } else if (spec->type == TomlType::kInt || spec->type == TomlType::kDouble) {
    if (!DecimalNumberText(v, spec->type == TomlType::kInt)) {
      return absl::InvalidArgumentError(absl::StrCat(
          flag, ": key '", k, "' takes ",
          spec->type == TomlType::kInt ? "an integer" : "a number", ", written in decimal"));
    }
    // Read as the other flags read it, and written for TOML as the number it is: TOML refuses
    // leading zeros (010) and a point without a digit on each side (.05, 5.). 17 digits give
    // the same double back.
    if (spec->type == TomlType::kInt) {
      std::int64_t n = 0;
      if (!absl::SimpleAtoi(v, &n)) {
        return absl::InvalidArgumentError(
            absl::StrCat(flag, ": key '", k, "' takes an integer; ", v, " is out of its range"));
      }
      v = absl::StrCat(n);
    } else {
      double d = 0.0;
      (void)absl::SimpleAtod(v, &d);  // decimal text, checked above
      v = absl::StrFormat("%.17g", d);
    }
  }
  if (spec->type == TomlType::kString && (v.empty() || v.front() != '"')) {
    std::string q = "\"";
    for (char ch : v) {
      // A control character is written as TOML's escape: as it is, the basic string refused it
      // (a parse error, before session 51), though the flag's value is taken as written.
      const auto u = static_cast<unsigned char>(ch);
      if (u < 0x20 || u == 0x7f) {
        absl::StrAppend(&q, absl::StrFormat("\\u%04X", u));
        continue;
      }
      if (ch == '"' || ch == '\\') q.push_back('\\');
      q.push_back(ch);
    }
    v = q + "\"";
  }
  const std::size_t dot = k.rfind('.');
  const std::string text = absl::StrCat("[", k.substr(0, dot), "]\n", k.substr(dot + 1), " = ", v,
                                        "\n");
  PipelineConfig copy = *config;
  absl::Status s = PipelineConfigSchema().Read(text, flag, &copy);
  if (!s.ok()) {
    // "--key=value:2: key ..." and "--key=value:2:15: parse error ..." read badly; drop the
    // line (and column) of the synthetic text.
    std::string msg(s.message());
    const std::string prefix = flag + ":2:";
    if (msg.rfind(prefix, 0) == 0) {
      std::size_t rest = prefix.size();
      while (rest < msg.size() && absl::ascii_isdigit(static_cast<unsigned char>(msg[rest]))) {
        ++rest;
      }
      if (rest > prefix.size() && rest < msg.size() && msg[rest] == ':') ++rest;
      while (rest < msg.size() && msg[rest] == ' ') ++rest;
      msg = flag + ": " + msg.substr(rest);
    }
    return absl::InvalidArgumentError(msg);
  }
  *config = copy;  // keys that depend on each other are checked after all flags
  return absl::OkStatus();
}

std::string PipelineConfigMarkdown() {
  const PipelineConfig defaults;
  return detail::MarkdownTable(PipelineConfigSchema().keys(), &defaults);
}

std::string PipelineConfigToml(const PipelineConfig& config, bool with_help) {
  return PipelineConfigSchema().Write(config, with_help);
}

}  // namespace streampipe
