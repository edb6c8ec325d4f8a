// streampipe calibrate: measure the device's transfer parameters and write a device profile.
#include <cuda_runtime_api.h>

#include <iostream>
#include <optional>
#include <utility>

#include "absl/algorithm/container.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "cli.hpp"
#include "commands.hpp"
#include "staged_file.hpp"
#include "streampipe/core/device_profile.hpp"
#include "streampipe/core/in_situ_fit.hpp"
#include "streampipe/cuda/calibrate.hpp"
#include "streampipe/cuda/device.hpp"
#include "streampipe/cuda/error.hpp"
#include "streampipe/status_macros.hpp"

namespace streampipe::cli {
namespace {
constexpr char kCommand[] = "calibrate";

double Gbps(double ms_per_byte) { return ms_per_byte > 0.0 ? 1.0 / ms_per_byte / 1e6 : 0.0; }
}  // namespace

absl::StatusOr<DeviceProfile> ProfileForRun(std::string_view command, const std::string& flag,
                                            const std::string& path, int device,
                                            std::string* why, int* exit_code) {
  const auto fail = [&](int code, const absl::Status& s) -> absl::Status {
    *exit_code = Fail(command, code, AnnotateStatus(s, flag));
    return s;
  };
  // Read first, to tell a file that cannot be read (66) from a broken one (78).
  const absl::StatusOr<DeviceProfile> read = ReadDeviceProfile(path);
  if (!read.ok() && !absl::IsNotFound(read.status())) {
    return fail(absl::IsPermissionDenied(read.status()) ? kExitNoInput : kExitConfig,
                read.status());
  }
  absl::StatusOr<DeviceProfile> p = LoadOrCalibrate(path, device, /*save=*/false, why);
  if (!p.ok()) {
    // Another card's profile (read, and refused) is the file's; the rest is the device's or
    // the calibration's.
    return fail(read.ok() && absl::IsFailedPrecondition(p.status()) ? kExitConfig : kExitSoftware,
                p.status());
  }
  if (!why->empty()) {  // calibrated: written where it was asked for
    // A calibration its own profile's checks refuse (InvalidArgument: a busy or cold GPU) is
    // the calibration's failure, 70 as `calibrate` says it; the rest is the file's, 74.
    if (absl::Status w = WriteDeviceProfile(path, *p); !w.ok()) {
      return fail(absl::IsInvalidArgument(w) ? kExitSoftware : kExitIoErr, w);
    }
    *why += absl::EndsWith(*why, "again") ? " and written over" : " and written there";
  }
  return p;
}

int RunCalibrate(const std::vector<std::string>& args) {
  int device = 0;
  std::string output;
  bool quick = false;
  int repetitions = 21;
  std::int64_t max_mib = 256;
  bool idle_overhead = true;
  bool inline_copies = true;
  FlagSet fs(kCommand, "[flags]");
  fs.Add("device", &device, "CUDA device index");
  fs.Add("output", &output, "write the profile (TOML) here; - or unset: print it");
  fs.Add("quick", &quick, "fewer sizes and repetitions (about 0.3 s)");
  fs.Add("repetitions", &repetitions, "repetitions per measurement (medians)");
  fs.Add("max-mib", &max_mib, "largest copy in MiB");
  fs.Add("idle-overhead", &idle_overhead,
         "measure c0 from held tiny sub-chunks (--no-idle-overhead: c for every sub-chunk, "
         "the model before run 81)");
  fs.Add("inline-copies", &inline_copies,
         "measure the inline path of small copies in on the pipeline's own sub-chunks and write "
         "it (h2d.inline_*) into the profile; --no-inline-copies measures and prints it only "
         "(docs/models.md, \"Inline copies in\")");
  if (std::optional<int> done = fs.ParseCommandLine(args)) return *done;
  if (repetitions < 1 || repetitions > 1001) {
    return Fail(kCommand, kExitUsage,
                absl::StrCat("--repetitions=", repetitions, ": must be in [1, 1001]"));
  }
  if (max_mib < 4 || max_mib > 4096) {
    return Fail(kCommand, kExitUsage, absl::StrCat("--max-mib=", max_mib, ": must be in [4, 4096]"));
  }
  // --quick takes at most 7 repetitions and 64 MiB: more, asked for beside it, were lowered
  // silently (before session 51).
  if (quick && ((fs.WasSet("repetitions") && repetitions > 7) ||
                (fs.WasSet("max-mib") && max_mib > 64))) {
    return Fail(kCommand, kExitUsage,
                absl::StrCat(fs.WasSet("repetitions") && repetitions > 7
                                 ? absl::StrCat("--repetitions=", repetitions)
                                 : absl::StrCat("--max-mib=", max_mib),
                             ": --quick measures at most 7 repetitions of copies up to 64 MiB; "
                             "drop --quick to measure more"));
  }
  // An unset variable in `--output=$P` printed the profile instead (before session 49); `-` is
  // stdout, as for the other commands' outputs.
  if (fs.WasSet("output") && output.empty()) {
    return Fail(kCommand, kExitUsage, "--output is empty; name a file, or - for stdout");
  }
  if (output == "-") output.clear();
  // Opened before calibrating: a path that cannot be written fails now, not after the
  // measurements; an earlier profile of that name is replaced only by a whole new one (a FIFO
  // no reader has opened yet is opened when the profile is written: StagedFile).
  std::optional<StagedFile> out_file;
  if (!output.empty()) {
    absl::StatusOr<StagedFile> f = StagedFile::Open(output);
    if (!f.ok()) return Fail(kCommand, kExitIoErr, AnnotateStatus(f.status(), "--output"));
    out_file = std::move(*f);
  }
  if (CudaDeviceCount() == 0) {
    return Fail(kCommand, kExitUnavailable,
                absl::StrCat("no CUDA device (", NoDeviceReason(), "): nothing to calibrate"));
  }
  CalibrationOptions o;
  o.device = device;
  o.quick = quick;
  o.repetitions = repetitions;
  o.max_bytes = static_cast<std::size_t>(max_mib) << 20;
  o.measure_idle_overhead = idle_overhead;
  o.inline_copies = inline_copies;
  o.measure_inline_copies = true;  // printed below, written or not

  // The device calibrated made current first: Calibrate restores the caller's device, and this
  // thread's, never chosen, is device 0, whose context the restore would otherwise create.
  if (device >= 0 && device < CudaDeviceCount()) (void)cudaSetDevice(device);
  absl::StatusOr<Calibration> c = Calibrate(o);
  if (!c.ok()) {
    return Fail(kCommand, c.status().code() == absl::StatusCode::kInvalidArgument ? kExitUsage
                                                                                  : kExitSoftware,
                c.status());
  }
  const DeviceTraits& t = c->profile.traits;
  std::cerr << absl::StrFormat(
      "device %s (cc %d.%d, %d SMs, %d copy engines), driver %d\n"
      "  size_bytes        h2d_ms      d2h_ms   h2d_GBps  d2h_GBps\n",
      t.name, t.cc_major, t.cc_minor, t.sm_count, t.copy_engines, c->profile.driver_version);
  for (const CopySample& s2 : c->copies) {
    std::cerr << absl::StrFormat("  %-12.0f %10.5f %10.5f %10.2f %9.2f\n", s2.bytes, s2.h2d_ms,
                                 s2.d2h_ms, s2.bytes / s2.h2d_ms / 1e6, s2.bytes / s2.d2h_ms / 1e6);
  }
  std::cerr << absl::StrFormat(
      "  L+o        h2d %.2f us   d2h %.2f us\n"
      "  G          h2d %.2f GB/s d2h %.2f GB/s\n"
      "  duplex     %.2f GB/s together in a two-stream test; fitted to the sweep: %.2f GB/s each\n"
      "  g          h2d %.2f us   d2h %.2f us\n"
      "  sub-chunk  %.2f us per stream (4 KiB in, empty kernel, 4 KiB out)\n"
      "  c          %.2f us per stream beside a busy link (current model, fitted to the "
      "add-scalar sweep)\n",
      t.h2d.latency_ms * 1e3, t.d2h.latency_ms * 1e3, Gbps(t.h2d.ms_per_byte),
      Gbps(t.d2h.ms_per_byte), c->profile.duplex_gbps, Gbps(t.h2d.duplex_ms_per_byte),
      t.h2d.gap_ms * 1e3, t.d2h.gap_ms * 1e3,
      t.sub_chunk_cost_ms * 1e3, t.stream_overhead_ms * 1e3);
  if (t.idle_stream_overhead_ms >= 0.0) {
    std::cerr << absl::StrFormat(
        "  c0         %.2f us per stream beside an idle link (held tiny sub-chunks: %.2f us "
        "each, less g h2d)\n",
        t.idle_stream_overhead_ms * 1e3, c->held_sub_chunk_ms * 1e3);
    std::cerr << "    held n ms:";
    for (const SweepSample& w : c->held_sub_chunks) {
      std::cerr << absl::StrFormat(" %d %.4f", w.streams, w.measured_ms);
    }
    std::cerr << "\n";
  } else {
    std::cerr << "  c0         not measured (" << c->idle_overhead_error
              << "): c applies to every sub-chunk\n";
  }
  // One ladder: what its fit found, and the host's time per `unit` at each size.
  const auto print_ladder = [&](const std::string& what, const std::string& unit,
                                const InlineCopyFit& fit, const std::vector<IssueSample>& ladder) {
    if (fit.max_bytes > 0.0) {
      std::cerr << absl::StrFormat(
          "  inline     %s: copies in up to %.0f bytes cost the host %.2f GB/s on top of "
          "%.2f us a %s\n",
          what, fit.max_bytes, Gbps(fit.ms_per_byte), fit.per_copy_ms * 1e3, unit);
    } else {
      std::cerr << absl::StrFormat("  inline     %s: none found (%.2f us a %s at every size)\n",
                                   what, fit.per_copy_ms * 1e3, unit);
    }
    std::cerr << "    host us per " << unit << ", by KiB in:";
    for (const IssueSample& s2 : ladder) {
      std::cerr << absl::StrFormat(" %.0f %.2f", s2.bytes / 1024, s2.issue_ms * 1e3);
    }
    std::cerr << "\n";
  };
  if (!c->inline_error.empty()) {
    std::cerr << "  inline     not measured (" << c->inline_error
              << "): the profile has no inline path\n";
  } else if (c->inline_fit.max_bytes > 0.0) {
    std::cerr << absl::StrFormat(
        "  inline     copies in up to %.0f bytes cost the host %.2f GB/s more (the lower median "
        "limit and the median rate of the pipeline's ladders below; %s)\n",
        c->inline_fit.max_bytes, Gbps(c->inline_fit.ms_per_byte),
        t.inline_h2d_max_bytes > 0.0 ? "in the profile"
                                     : "not in the profile, as --no-inline-copies asked");
  } else {
    std::cerr << "  inline     none found (fewer than half the pipeline's ladders below found a "
                 "limit)\n";
  }
  for (const InlineLadder& l : c->inline_ladders) {
    print_ladder(
        absl::StrFormat("pipeline, n = %d, %s", l.streams, std::string(IssueModeName(l.issue))),
        "sub-chunk", l.fit, l.samples);
  }
  if (!c->bare_inline_ladder.empty()) {
    print_ladder("bare copies in on 32 streams (for comparison)", "copy", c->bare_inline_fit,
                 c->bare_inline_ladder);
  }
  if (c->measured_h2d_gap_ms > t.h2d.gap_ms) {
    std::cerr << absl::StrFormat(
        "  note: g h2d measured %.2f us back to back, more than the held sub-chunks' or the "
        "sweep's per-stream cost allows (that test in a burst?): the profile keeps %.2f us, for "
        "every model\n",
        c->measured_h2d_gap_ms * 1e3, t.h2d.gap_ms * 1e3);
  }
  if (!c->sweep.empty()) {
    std::cerr << absl::StrFormat(
        "  add-scalar sweep (%.0f MiB each way): n measured_ms model_ms issue_ms\n",
        c->sweep_bytes / (1 << 20));
    for (const SweepSample& w : c->sweep) {
      const char* why = "";
      if (absl::c_linear_search(c->sweep_host_bound, w.streams)) {
        why = "  (left out of the fit: the host set or stalled it)";
      } else if (absl::c_linear_search(c->sweep_left_out, w.streams)) {
        why = "  (left out of the fit: a burst?)";
      }
      std::cerr << absl::StrFormat("    %4d %10.4f %10.4f %10.4f%s\n", w.streams, w.measured_ms,
                                   w.model_ms, w.issue_ms, why);
    }
    if (!c->sweep_host_bound.empty()) {
      std::cerr << absl::StrFormat(
          "  note: the host's issue time set or stalled n = %s (issue time at least %.0f %% of the "
          "batch, or over the host's usual rate by %.0f %% of it): a busy host? c is fitted "
          "without them\n",
          absl::StrJoin(c->sweep_host_bound, ", "), 100.0 * kInSituIssueBound,
          100.0 * kInSituTolerance);
    }
    if (!c->sweep_fit_error.empty()) {
      std::cerr << "  warning: no fit of the sweep (" << c->sweep_fit_error
                << "); c = 0 and the two-stream duplex test stand\n";
    } else {
      std::cerr << absl::StrFormat(
          "  fit: largest misfit %.1f %% over the kept n%s%s\n", 100.0 * c->sweep_misfit,
          c->sweep_misfit > kInSituTolerance ? " (over the tolerance: a busy GPU? calibrate again)"
                                             : "",
          c->sweep_duplex_plausible ? "" : "; duplex from the two-stream test (the fit's x' was "
                                            "implausible)");
    }
  }
  // Never a profile that its loader, and so every later run, would reject.
  if (absl::Status v = ValidateDeviceProfile(c->profile); !v.ok()) {
    return Fail(kCommand, kExitSoftware, AnnotateStatus(v, "no profile written"));
  }
  const std::string toml = DeviceProfileToml(c->profile);
  if (output.empty()) {
    std::cout << toml;
    return kExitOk;
  }
  if (const absl::Status s = out_file->Finish(toml); !s.ok()) {
    std::cout << toml;  // the measurements are not lost
    return Fail(kCommand, kExitIoErr,
                AnnotateStatus(s, "--output (the profile is printed on stdout instead)"));
  }
  std::cerr << "wrote " << output << "\n";
  return kExitOk;
}

}  // namespace streampipe::cli
