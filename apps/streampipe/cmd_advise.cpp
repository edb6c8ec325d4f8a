// streampipe advise: the model's prediction for each candidate n and the chosen n.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cli.hpp"
#include "commands.hpp"
#include "streampipe/core/device_profile.hpp"
#include "streampipe/core/json_writer.hpp"
#include "streampipe/core/model.hpp"
#include "streampipe/core/optimizer.hpp"

namespace streampipe::cli {
namespace {

constexpr char kCommand[] = "advise";

struct AdviseFlags {
  double h2d_ms = 0.0, kernel_ms = 0.0, d2h_ms = 0.0;
  double kernel_half_ms = 0.0;
  double h2d_bytes = 0.0, d2h_bytes = 0.0;
  std::int64_t items = 0;
  std::string model = "auto";
  int min_streams = 1, max_streams = 32;
  bool powers_of_two = false, divisors_only = false;
  std::int64_t min_items_per_stream = 1;
  // Device parameters; defaults are the H100 anchors (DeviceTraits::H100Anchors()).
  double h2d_gbps = 0.0, d2h_gbps = 0.0, duplex_gbps = 0.0;
  double h2d_latency_ms = 0.0, d2h_latency_ms = 0.0, gap_ms = 0.0;
  double stream_overhead_ms = 0.0;
  double idle_stream_overhead_ms = 0.0;
  double sub_chunk_ms = 0.0;
  int copy_engines = 0;
  bool implicit_sync = false;
  std::string cc;
  std::string profile;
  bool json = false;
};

absl::Status RequireFiniteNonNegative(const FlagSet& fs, std::string_view name, double v) {
  if (fs.WasSet(name) && !(std::isfinite(v) && v >= 0.0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", std::string(name), "=", v, ": must be a finite number >= 0"));
  }
  return absl::OkStatus();
}

// `t` holds the base traits (built-in anchors or a profile); flags override single fields.
absl::StatusOr<DeviceTraits> TraitsFromFlags(const FlagSet& fs, const AdviseFlags& f,
                                             DeviceTraits t) {
  const std::pair<const char*, double> numeric[] = {
      {"h2d-gbps", f.h2d_gbps},           {"d2h-gbps", f.d2h_gbps},
      {"duplex-gbps", f.duplex_gbps},     {"h2d-latency-ms", f.h2d_latency_ms},
      {"d2h-latency-ms", f.d2h_latency_ms}, {"gap-ms", f.gap_ms},
      {"stream-overhead-ms", f.stream_overhead_ms}, {"sub-chunk-ms", f.sub_chunk_ms}};
  for (const auto& [name, v] : numeric) {
    absl::Status s = RequireFiniteNonNegative(fs, name, v);
    if (!s.ok()) return s;
  }
  auto gbps_to_g = [](double gbps) { return gbps > 0.0 ? 1.0 / (gbps * 1e6) : 0.0; };
  if (fs.WasSet("h2d-gbps")) t.h2d.ms_per_byte = gbps_to_g(f.h2d_gbps);
  if (fs.WasSet("d2h-gbps")) t.d2h.ms_per_byte = gbps_to_g(f.d2h_gbps);
  if (fs.WasSet("duplex-gbps")) {
    // Aggregate of both directions at once: each direction gets half.
    t.h2d.duplex_ms_per_byte = gbps_to_g(f.duplex_gbps / 2.0);
    t.d2h.duplex_ms_per_byte = t.h2d.duplex_ms_per_byte;
  }
  if (fs.WasSet("h2d-latency-ms")) t.h2d.latency_ms = f.h2d_latency_ms;
  if (fs.WasSet("d2h-latency-ms")) t.d2h.latency_ms = f.d2h_latency_ms;
  if (fs.WasSet("gap-ms")) t.h2d.gap_ms = t.d2h.gap_ms = f.gap_ms;
  if (fs.WasSet("stream-overhead-ms")) t.stream_overhead_ms = f.stream_overhead_ms;
  if (fs.WasSet("idle-stream-overhead-ms")) {
    if (!std::isfinite(f.idle_stream_overhead_ms)) {
      return absl::InvalidArgumentError(absl::StrCat("--idle-stream-overhead-ms=",
                                                     f.idle_stream_overhead_ms,
                                                     ": must be a finite number (negative: off)"));
    }
    t.idle_stream_overhead_ms = std::max(-1.0, f.idle_stream_overhead_ms);
  }
  if (fs.WasSet("sub-chunk-ms")) t.sub_chunk_cost_ms = f.sub_chunk_ms;
  if (fs.WasSet("copy-engines")) {
    if (f.copy_engines < 0 || f.copy_engines > 16) {
      return absl::InvalidArgumentError(
          absl::StrCat("--copy-engines=", f.copy_engines, ": must be in [0, 16]"));
    }
    t.copy_engines = f.copy_engines;
  }
  if (fs.WasSet("implicit-sync")) t.implicit_sync = f.implicit_sync;
  if (fs.WasSet("cc")) {
    int major = 0, minor = 0;
    char dot = 0;
    int used = -1;  // the whole value, nothing after it (9.0x and " 9. 0" passed before 49)
    if (std::sscanf(f.cc.c_str(), "%d%c%d%n", &major, &dot, &minor, &used) != 3 || dot != '.' ||
        used != static_cast<int>(f.cc.size()) || !absl::ascii_isdigit(f.cc.front()) ||
        f.cc.find(' ') != std::string::npos || major < 1 || major > 20 || minor < 0 ||
        minor > 9) {
      return absl::InvalidArgumentError(
          absl::StrCat("--cc=", f.cc, ": expected a compute capability like 9.0"));
    }
    t.cc_major = major;
    t.cc_minor = minor;
    if (!fs.WasSet("implicit-sync")) {
      // Fermi and GK104 (cc 2.x, 3.0) have implicit synchronization (seeds 000, 003).
      t.implicit_sync = major == 2 || (major == 3 && minor == 0);
    }
  }
  if (fs.WasSet("h2d-gbps") || fs.WasSet("d2h-gbps") || fs.WasSet("cc")) {
    t.name = f.profile.empty() ? "from flags" : t.name + ", with flags";
  } else if (f.profile.empty()) {
    t.name += " (built-in anchors of 2026-11-22)";
  }
  return t;
}

std::string Fmt(double v) { return absl::StrFormat("%.4f", v); }

}  // namespace

int RunAdvise(const std::vector<std::string>& args) {
  AdviseFlags f;
  FlagSet fs(kCommand, "[flags]");
  fs.Add("h2d-ms", &f.h2d_ms, "host-to-device copy time of one batch without streams (ms)");
  fs.Add("kernel-ms", &f.kernel_ms, "kernel time of one batch without streams (ms)");
  fs.Add("d2h-ms", &f.d2h_ms, "device-to-host copy time of one batch without streams (ms)");
  fs.Add("kernel-half-ms", &f.kernel_half_ms,
         "kernel time over half the batch's items (ms): the current model keeps the part "
         "2 half - kernel of every sub-chunk's kernel (docs/models.md); 0: kernel / n");
  fs.Add("h2d-bytes", &f.h2d_bytes, "bytes copied in per batch (used where --h2d-ms is 0)");
  fs.Add("d2h-bytes", &f.d2h_bytes, "bytes copied out per batch (used where --d2h-ms is 0)");
  fs.Add("items", &f.items, "items per batch: caps n and sizes the Veneva regression");
  fs.Add("model", &f.model,
         "gomez-luna-cc1, gomez-luna-cc2, werkhoven-sync-1ce, werkhoven-1ce, werkhoven-2ce, "
         "werkhoven-mapped, werkhoven-hybrid, veneva-regression, current, or auto");
  fs.Add("min-streams", &f.min_streams, "smallest n considered");
  fs.Add("max-streams", &f.max_streams, "largest n considered");
  fs.Add("powers-of-two", &f.powers_of_two, "consider only n = 1, 2, 4, ...");
  fs.Add("divisors-only", &f.divisors_only, "consider only n dividing --items");
  fs.Add("min-items-per-stream", &f.min_items_per_stream,
         "minimum work size of a sub-chunk (items)");
  fs.Add("h2d-gbps", &f.h2d_gbps, "host-to-device bandwidth alone (GB/s); default: H100 anchors");
  fs.Add("d2h-gbps", &f.d2h_gbps, "device-to-host bandwidth alone (GB/s)");
  fs.Add("duplex-gbps", &f.duplex_gbps, "aggregate bandwidth with both directions at once (GB/s)");
  fs.Add("h2d-latency-ms", &f.h2d_latency_ms, "L+o of a host-to-device copy (ms)");
  fs.Add("d2h-latency-ms", &f.d2h_latency_ms, "L+o of a device-to-host copy (ms)");
  fs.Add("gap-ms", &f.gap_ms, "g: gap between back-to-back copies (ms)");
  fs.Add("stream-overhead-ms", &f.stream_overhead_ms,
         "per-stream cost: tsc of seed 000, c of the current model beside a busy link (ms)");
  fs.Add("idle-stream-overhead-ms", &f.idle_stream_overhead_ms,
         "c0: the current model's per-stream cost beside an idle link (ms); negative: off (c "
         "for every sub-chunk); default: the profile's, off in the anchors");
  fs.Add("sub-chunk-ms", &f.sub_chunk_ms,
         "s: cost of one more tiny sub-chunk, the current model's issue bound (ms)");
  fs.Add("copy-engines", &f.copy_engines, "copy engines (asyncEngineCount)");
  fs.Add("implicit-sync", &f.implicit_sync, "the device has implicit synchronization");
  fs.Add("cc", &f.cc, "compute capability, e.g. 9.0");
  fs.Add("profile", &f.profile,
         "device profile from streampipe calibrate (default: the built-in H100 anchors); "
         "the flags above override single parameters");
  fs.Add("json", &f.json, "print JSON instead of a table");

  if (std::optional<int> done = fs.ParseCommandLine(args)) return *done;
  for (const auto& [name, v] :
       {std::pair<const char*, double>{"h2d-ms", f.h2d_ms}, {"kernel-ms", f.kernel_ms},
        {"d2h-ms", f.d2h_ms}, {"kernel-half-ms", f.kernel_half_ms}, {"h2d-bytes", f.h2d_bytes},
        {"d2h-bytes", f.d2h_bytes}}) {
    const absl::Status s = RequireFiniteNonNegative(fs, name, v);
    if (!s.ok()) return Fail(kCommand, kExitUsage, s);
  }
  if (f.h2d_ms + f.kernel_ms + f.d2h_ms + f.h2d_bytes + f.d2h_bytes == 0.0) {
    return Fail(kCommand, kExitUsage,
                "give the component times (--h2d-ms, --kernel-ms, --d2h-ms) or the byte counts "
                "(--h2d-bytes, --d2h-bytes, with --kernel-ms)");
  }
  if (f.items < 0) {
    return Fail(kCommand, kExitUsage, absl::StrCat("--items=", f.items, ": must be >= 0"));
  }
  // The candidates' flags, named as flags (the core's check named its fields:
  // "min_items_per_stream (0) >= 1", before session 48).
  if (f.min_items_per_stream < 1) {
    return Fail(kCommand, kExitUsage,
                absl::StrCat("--min-items-per-stream=", f.min_items_per_stream, ": must be >= 1"));
  }
  if (f.min_streams < 1 || f.max_streams < f.min_streams || f.max_streams > kMaxCandidateStreams) {
    return Fail(kCommand, kExitUsage,
                absl::StrCat("--min-streams=", f.min_streams, " and --max-streams=", f.max_streams,
                             ": must satisfy 1 <= min <= max <= ", kMaxCandidateStreams));
  }
  if (f.divisors_only && f.items <= 0) {
    return Fail(kCommand, kExitUsage, "--divisors-only needs --items > 0 (the n dividing it)");
  }
  // Likewise a sub-chunk's least items: without --items it bounded nothing, silently (before
  // session 51).
  if (fs.WasSet("min-items-per-stream") && f.items <= 0) {
    return Fail(kCommand, kExitUsage,
                "--min-items-per-stream needs --items > 0 (the items each sub-chunk takes from)");
  }
  // An unset variable in `--profile=$P` gave the H100 anchors' advice as if no profile were
  // named (before session 49).
  if (fs.WasSet("profile") && f.profile.empty()) {
    return Fail(kCommand, kExitUsage,
                "--profile is empty; name a device profile (streampipe calibrate --output=...)");
  }
  DeviceTraits base = DeviceTraits::H100Anchors();
  if (!f.profile.empty()) {
    absl::StatusOr<DeviceProfile> p = ReadDeviceProfile(f.profile);
    if (!p.ok()) {
      // A missing or unreadable file is "no input"; a malformed one is a bad configuration.
      const bool missing = p.status().code() == absl::StatusCode::kNotFound ||
                           p.status().code() == absl::StatusCode::kPermissionDenied;
      return Fail(kCommand, missing ? kExitNoInput : kExitConfig, p.status());
    }
    base = p->traits;
    base.name += absl::StrCat(" (profile ", f.profile, ", ", p->created, ")");
  }
  absl::StatusOr<DeviceTraits> traits = TraitsFromFlags(fs, f, std::move(base));
  if (!traits.ok()) return Fail(kCommand, kExitUsage, traits.status());

  // Half the items taking longer than all of them is no kernel's time (noise in a measured
  // pair of a kernel that is all fixed cost, or a typo): the model clamps it, and says so here
  // (before session 49, silently).
  if (f.kernel_half_ms > f.kernel_ms) {
    std::cerr << "streampipe " << kCommand << ": note: "
              << absl::StrCat("--kernel-half-ms=", f.kernel_half_ms, " is more than --kernel-ms=",
                              f.kernel_ms)
              << ": taken as a kernel whose whole time is fixed, paid by every sub-chunk\n";
  }
  Workload w;
  w.times = {f.h2d_ms, f.kernel_ms, f.d2h_ms, f.kernel_half_ms};
  w.bytes = {f.h2d_bytes, f.d2h_bytes};
  w.problem_size = static_cast<double>(f.items);
  absl::StatusOr<ModelTerms> terms = ComputeModelTerms(*traits, w);
  if (!terms.ok()) return Fail(kCommand, kExitUsage, terms.status());
  absl::StatusOr<std::unique_ptr<StreamModel>> model = MakeModel(f.model, *traits);
  if (!model.ok()) return Fail(kCommand, kExitUsage, model.status());
  CandidateOptions opt{.min_streams = f.min_streams,
                       .max_streams = f.max_streams,
                       .powers_of_two = f.powers_of_two,
                       .divisors_only = f.divisors_only,
                       .num_items = f.items,
                       .min_items_per_stream = f.min_items_per_stream};
  absl::StatusOr<StreamChoice> choice = ChooseNumStreams(**model, *terms, opt);
  if (!choice.ok()) return Fail(kCommand, kExitUsage, choice.status());
  // A regression fitted on another card (veneva-regression's published eq. 4 and 7) predicts
  // 0 or less for batches far below the sizes it was fitted on: the table and the choice are
  // printed as the model gives them, and stderr says that they mean little.
  for (const Prediction& p : choice->predictions) {
    if (p.total_ms > 0.0) continue;
    std::cerr << "streampipe " << kCommand << ": note: " << (*model)->name() << " predicts "
              << absl::StrFormat("%.4f", p.total_ms) << " ms at n = " << p.streams
              << ", not a time: this batch is outside the range the model was fitted on, and "
                 "its choice means little (docs/models.md)\n";
    break;
  }

  if (f.json) {
    std::string out;
    JsonWriter j(&out);
    j.BeginObject();
    j.Key("model");
    j.String((*model)->name());
    j.Key("device");
    j.String(traits->name);
    j.Key("optimal_streams");
    j.Int(choice->streams);
    j.Key("optimal_streams_closed_form");
    if (choice->closed_form) {
      j.Double(*choice->closed_form);
    } else {
      j.Null();
    }
    j.Key("predicted_ms");
    j.Double(choice->predicted_ms);
    j.Key("predictions");
    j.BeginArray();
    for (const Prediction& p : choice->predictions) {
      j.BeginObject();
      j.Key("streams");
      j.Int(p.streams);
      j.Key("ms");
      j.Double(p.total_ms);
      j.Key("h2d_ms");
      j.Double(p.parts.h2d_ms);
      j.Key("kernel_ms");
      j.Double(p.parts.kernel_ms);
      j.Key("d2h_ms");
      j.Double(p.parts.d2h_ms);
      j.Key("overhead_ms");
      j.Double(p.parts.overhead_ms);
      j.Key("regime");
      j.String(RegimeName(p.regime));
      j.EndObject();
    }
    j.EndArray();
    j.EndObject();
    std::cout << out << "\n";
    return kExitOk;
  }

  std::cout << "model:  " << (*model)->name() << (f.model == "auto" ? " (auto)" : "") << "\n"
            << "device: " << traits->name << "\n"
            << "batch:  h2d " << Fmt(terms->t_hd) << " ms, kernel " << Fmt(terms->t_e)
            << " ms, d2h " << Fmt(terms->t_dh) << " ms\n\n";
  std::cout << absl::StrFormat("%7s %12s %10s %10s %10s %11s  %s\n", "streams", "predicted_ms",
                               "h2d_ms", "kernel_ms", "d2h_ms", "overhead_ms", "regime");
  for (const Prediction& p : choice->predictions) {
    std::cout << absl::StrFormat("%7d %12.4f %10.4f %10.4f %10.4f %11.4f  %s%s\n", p.streams,
                                 p.total_ms, p.parts.h2d_ms, p.parts.kernel_ms, p.parts.d2h_ms,
                                 p.parts.overhead_ms, RegimeName(p.regime),
                                 p.streams == choice->streams ? "   <- chosen" : "");
  }
  const double t1 = (*model)->Predict(*terms, 1).total_ms;
  std::cout << "\nchosen: " << choice->streams << " streams, " << Fmt(choice->predicted_ms)
            << " ms predicted (" << absl::StrFormat("%.2fx", t1 / choice->predicted_ms)
            << " over 1 stream)";
  if (choice->closed_form) {
    std::cout << "; closed-form optimum " << absl::StrFormat("%.2f", *choice->closed_form);
    // The paper's formula as it is (docs/models.md): below 1 (sqrt(0) where there is no kernel
    // time to hide) it says one stream.
    if (*choice->closed_form < 1.0) std::cout << " (below 1: one stream)";
  }
  std::cout << "\n";
  return kExitOk;
}

}  // namespace streampipe::cli
