// streampipe histogram: one 256-bin luminance histogram per video frame, streamed through a
// StreamPipeline (or computed on the CPU).
//
//   ffmpeg -i movie.mp4 -f yuv4mpegpipe - | streampipe histogram -
//   streampipe histogram --synthetic=section44 --frames=4096 --output=h.csv
//   streampipe histogram --width=1920 --height=1080 --pixel-format=rgb24 frames.rgb
#include <cuda_runtime_api.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <new>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cli.hpp"
#include "commands.hpp"
#include "config_flags.hpp"
#include "staged_file.hpp"
#include "streampipe/core/timeline.hpp"
#include "streampipe/cuda/calibrate.hpp"
#include "streampipe/cuda/device.hpp"
#include "streampipe/cuda/error.hpp"
#include "streampipe/cuda/histogram.hpp"
#include "streampipe/cuda/pipeline.hpp"
#include "streampipe/status_macros.hpp"
#include "streampipe/video/frame_source.hpp"
#include "streampipe/video/histogram_cpu.hpp"
#include "streampipe/video/histogram_writer.hpp"

namespace streampipe::cli {
namespace {

constexpr char kCommand[] = "histogram";
constexpr std::size_t kMaxTraceBatches = 256;

using video::FrameFormat;
using video::Histogram;

// Exit code for a failure of reading the input: bad data 65, a batch that cannot be held 70,
// and any other failure the input's, 66 (missing, a directory, not readable, a read that failed:
// EIO, or before session 50 a non-blocking stdin, were 74, which says the output failed).
int InputExit(const absl::Status& s) {
  switch (s.code()) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kDataLoss:
    case absl::StatusCode::kUnimplemented:
    case absl::StatusCode::kOutOfRange:
      return kExitDataErr;
    case absl::StatusCode::kResourceExhausted:
      return kExitSoftware;
    default:
      return kExitNoInput;
  }
}

// Live status on stderr when it is a terminal.
class Status {
 public:
  explicit Status(bool enabled) : enabled_(enabled && isatty(STDERR_FILENO)) {}
  void Update(std::int64_t frames, int streams, std::size_t events) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(250)) return;
    last_ = now;
    const double s = std::chrono::duration<double>(now - start_).count();
    std::fprintf(stderr, "\r  frames %-10lld %9.0f frames/s  n=%-4d re-derivations %-4zu",
                 static_cast<long long>(frames), frames / std::max(s, 1e-9), streams, events);
    std::fflush(stderr);
    shown_ = true;
  }
  void Clear() {
    if (shown_) std::fprintf(stderr, "\r%80s\r", "");
  }

 private:
  bool enabled_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_{};
};

// The pipeline's BatchSource over a FrameSource, for one format segment.
class FrameBatches : public BatchSource {
 public:
  FrameBatches(video::FrameSource& src, bool keep_inputs) : src_(src), keep_(keep_inputs) {}
  absl::StatusOr<std::int64_t> Fill(std::span<std::byte> in, std::int64_t max_items) override {
    if (done_) return 0;
    // The item size of the frames this Read returns: after a format change format() already
    // describes the next frames.
    const std::size_t item_bytes = src_.format().item_bytes();
    absl::StatusOr<video::ReadResult> r = src_.Read(in, max_items);
    if (!r.ok()) {
      error = r.status();
      done_ = true;
      return r.status();
    }
    if (r->end) end = true;
    if (r->format_changed) format_changed = true;
    if (r->end || r->format_changed) done_ = true;
    if (keep_ && r->frames > 0) {
      const std::size_t bytes = static_cast<std::size_t>(r->frames) * item_bytes;
      inputs.emplace_back(in.begin(), in.begin() + static_cast<long>(bytes));
    }
    if (r->frames == 0 && !done_) done_ = true;  // nothing more without a flag: treat as end
    return r->frames;
  }
  bool end = false;
  bool format_changed = false;
  absl::Status error;
  std::deque<std::vector<std::byte>> inputs;  // with --verify

 private:
  video::FrameSource& src_;
  bool keep_;
  bool done_ = false;
};

struct Totals {
  std::int64_t frames = 0;
  double device_ms = 0.0;
  std::vector<std::string> streams_log;
  std::vector<std::string> events_log;
  std::size_t events = 0;
  double pred_error_sum = 0.0;
  std::int64_t pred_error_n = 0;
  std::int64_t mismatches = 0;
  std::vector<BatchTimeline> trace;
};

// Writes each batch's histograms in order (and checks them with --verify).
class HistogramSink : public BatchSink {
 public:
  HistogramSink(video::HistogramWriter& w, const FrameFormat& f, FrameBatches& batches,
                bool verify, Totals& totals, Status& status)
      : w_(w), f_(f), batches_(batches), verify_(verify), t_(totals), status_(status) {}
  absl::Status Consume(std::span<const std::byte> out, const BatchStats& st) override {
    const std::int64_t frames = st.items;
    const Histogram* h = reinterpret_cast<const Histogram*>(out.data());
    if (verify_) {
      std::vector<Histogram> ref(static_cast<std::size_t>(frames));
      video::HistogramsOfItems(f_, batches_.inputs.front(), frames, ref);
      batches_.inputs.pop_front();
      for (std::int64_t i = 0; i < frames; ++i) t_.mismatches += ref[i] != h[i];
    }
    for (std::int64_t i = 0; i < frames; ++i) {
      absl::Status s = w_.Write(t_.frames + i, h[i]);
      if (!s.ok()) {
        write_error = s;
        return s;
      }
    }
    t_.frames += frames;
    t_.device_ms += st.period_ms;
    if (last_streams_ != st.streams || last_kind_ != st.kind) {
      t_.streams_log.push_back(absl::StrFormat("frame %lld: n=%d%s", static_cast<long long>(t_.frames - frames), st.streams,
                                               st.kind == PlanKind::kStreamed ? "" : absl::StrCat(" (", PlanKindName(st.kind), ")").c_str()));
      last_streams_ = st.streams;
      last_kind_ = st.kind;
    }
    for (const RederivationEvent& e : st.events) {
      ++t_.events;
      t_.events_log.push_back(absl::StrFormat(
          "frame %lld: %s, n %d -> %d%s", static_cast<long long>(t_.frames - frames),
          EventKindName(e.kind), e.old_streams, e.new_streams,
          e.reason.empty() ? "" : absl::StrCat(" (", e.reason, ")").c_str()));
    }
    // What the controller compared: the observed time of settled batches (docs/design.md).
    if (st.kind == PlanKind::kStreamed && st.settled && st.predicted_ms > 0.0) {
      t_.pred_error_sum += std::abs(st.observed_ms / st.predicted_ms - 1.0);
      ++t_.pred_error_n;
    }
    if (st.timeline && t_.trace.size() < kMaxTraceBatches) t_.trace.push_back(*st.timeline);
    status_.Update(t_.frames, st.streams, t_.events);
    return absl::OkStatus();
  }
  absl::Status write_error;

 private:
  video::HistogramWriter& w_;
  FrameFormat f_;
  FrameBatches& batches_;
  bool verify_;
  Totals& t_;
  Status& status_;
  int last_streams_ = -1;
  PlanKind last_kind_ = PlanKind::kStreamed;
};

}  // namespace

int RunHistogram(const std::vector<std::string>& args) {
  std::string device = "gpu";
  std::string format_name = "csv";
  std::string output = "-";
  int width = 0;
  int height = 0;
  std::string pixel_format = "gray8";
  std::string synthetic;
  std::int64_t frames = 4096;
  std::int64_t seed = 1;
  int scene_length = 64;
  std::int64_t batch_frames = 64;
  std::string kernel_name = "shared";
  int streams = 0;
  std::string config_path;
  std::string trace_path;
  bool verify = false;
  bool quiet = false;

  FlagSet fs(kCommand, "[flags] INPUT   (INPUT: a Y4M or raw file, or - for stdin)");
  fs.Add("device", &device, "gpu or cpu");
  fs.Add("format", &format_name, "output format: csv (frame index, then 256 counts) or binary");
  fs.Add("output", &output, "output file; - for stdout");
  fs.Add("width", &width, "raw input (or synthetic) frame width");
  fs.Add("height", &height, "raw input (or synthetic) frame height");
  fs.Add("pixel-format", &pixel_format,
         "raw input: gray8 (gray), rgb24, yuv420 (yuv420p), yuv422 (yuv422p), yuv444 (yuv444p) "
         "or mono; synthetic: gray8 or rgb24");
  fs.Add("synthetic", &synthetic,
         "no INPUT; generate frames: section44 (uniform, then degenerate: the 2012 paper's "
         "section 4.4), scene-cuts, resolution-changes");
  fs.Add("frames", &frames, "synthetic: number of frames");
  fs.Add("seed", &seed, "synthetic: random seed");
  fs.Add("scene-length", &scene_length, "synthetic: frames per scene");
  fs.Add("batch-frames", &batch_frames, "frames per batch (the pipeline splits each batch)");
  fs.Add("kernel", &kernel_name,
         "shared (privatized, merged in thread-block clusters where the device can; the "
         "default), shared-atomic (privatized, merged with global atomics after a memset) or "
         "global (per-pixel atomics)");
  fs.Add("streams", &streams, "a fixed number of streams; 0: automatic");
  fs.Add("config", &config_path, "pipeline configuration file (docs/config.md)");
  fs.Add("trace", &trace_path, "write a Chrome trace (Perfetto) of the first batches");
  fs.Add("verify", &verify, "check every GPU histogram against the CPU (slow)");
  fs.Add("quiet", &quiet, "no live status line and no summary");
  fs.AcceptConfigOverrides();
  if (std::optional<int> done = fs.ParseCommandLine(args, /*positionals_allowed=*/true)) {
    return *done;
  }
  if (device != "gpu" && device != "cpu") {
    return Fail(kCommand, kExitUsage, absl::StrCat("--device=", device, ": must be gpu or cpu"));
  }
  // An empty path (an unset variable in `--output=$OUT`) is no file: named, as sweep's are
  // (before session 48 ": cannot create", exit 74).
  for (const auto& [flag, path, or_stdout] :
       {std::tuple<const char*, const std::string&, const char*>{"output", output,
                                                                  ", or - for stdout"},
        {"trace", trace_path, ""}}) {
    if (fs.WasSet(flag) && path.empty()) {
      return Fail(kCommand, kExitUsage,
                  absl::StrCat("--", flag, " is empty; name a file", or_stdout));
    }
  }
  // An empty --synthetic= (an unset variable) read the INPUT, or none (exit 0 with an INPUT,
  // before session 51).
  if (fs.WasSet("synthetic") && synthetic.empty()) {
    return Fail(kCommand, kExitUsage,
                "--synthetic is empty; name a pattern: section44, scene-cuts or "
                "resolution-changes");
  }
  // Flags about the GPU's batches would do nothing on the CPU: said, not dropped.
  if (device == "cpu" && !trace_path.empty()) {
    return Fail(kCommand, kExitUsage,
                "--trace: the trace is of the GPU's batches; --device=cpu runs none");
  }
  if (device == "cpu" && verify) {
    return Fail(kCommand, kExitUsage,
                "--verify: checks the GPU's histograms against the CPU's; with --device=cpu "
                "there is nothing to check");
  }
  for (const char* gpu_only : {"kernel", "streams"}) {
    if (device == "cpu" && fs.WasSet(gpu_only)) {
      return Fail(kCommand, kExitUsage,
                  absl::StrCat("--", gpu_only, ": chooses how the GPU's batches run; --device=cpu "
                               "runs none (the CPU counts each frame in one pass)"));
    }
  }
  absl::StatusOr<video::HistogramFormat> out_format = video::ParseHistogramFormat(format_name);
  if (!out_format.ok()) return Fail(kCommand, kExitUsage, out_format.status());
  absl::StatusOr<HistogramKernel> kernel = ParseHistogramKernel(kernel_name);
  if (!kernel.ok()) return Fail(kCommand, kExitUsage, kernel.status());
  if (batch_frames < 1 || batch_frames > (1 << 20)) {
    return Fail(kCommand, kExitUsage,
                absl::StrCat("--batch-frames=", batch_frames, ": must be in [1, 1048576]"));
  }
  if (streams < 0 || streams > 1024) {
    return Fail(kCommand, kExitUsage, absl::StrCat("--streams=", streams, ": must be in [0, 1024]"));
  }
  const bool have_input = !fs.positional().empty();
  if (fs.positional().size() > 1) {
    return Fail(kCommand, kExitUsage,
                absl::StrCat("one INPUT expected, got '", fs.positional()[1], "' too"));
  }
  if (!have_input && synthetic.empty()) {
    return Fail(kCommand, kExitUsage,
                "no input: give an INPUT (a file, or - for stdin) or --synthetic=PATTERN");
  }
  if (have_input && !synthetic.empty()) {
    return Fail(kCommand, kExitUsage,
                absl::StrCat("give an INPUT or --synthetic=PATTERN, not both (INPUT '",
                             fs.positional()[0], "', --synthetic=", synthetic, ")"));
  }
  if (!synthetic.empty() && frames < 0) {
    return Fail(kCommand, kExitUsage, absl::StrCat("--frames=", frames, ": must be >= 0"));
  }
  ConfigResult cfg = LoadConfig(kCommand, config_path, fs);
  if (cfg.exit_code != kExitOk) return cfg.exit_code;
  // An output naming a file the run reads or another output writes: opening an output empties
  // it, so the input would be lost before it was read (before session 47: exit 0, "0 frames",
  // the input left empty), the configuration file replaced by histograms (before session 48:
  // exit 0), or one output written over the other. The profile counts as an output: it is
  // written where the run calibrates.
  // The files the outputs are written in before they are whole count too: `<output>.partial`
  // and `<trace>.partial` (StagedFile) and `<profile>.tmp` (WriteDeviceProfile). Before session
  // 50 `--output=v v.partial` emptied the input, then renamed it onto v: exit 0, "0 frames".
  {
    const std::string names[] = {"INPUT",
                                 "--config",
                                 "--output",
                                 "--trace",
                                 "pipeline.event_log",
                                 "pipeline.profile",
                                 "--output's staging file",
                                 "--trace's staging file",
                                 "pipeline.profile's staging file"};
    const std::vector<std::string> paths = {
        // Stdin as the file it is (`- --output=v < v` replaced the input, exit 0, before
        // session 51; sweep's --from=- compared it so already).
        !have_input ? "" : fs.positional()[0] == "-" ? "/dev/stdin" : fs.positional()[0],
        config_path,
        output,
        trace_path,
        cfg.config.event_log,
        cfg.config.profile,
        StagedFile::PartialPathFor(output),
        StagedFile::PartialPathFor(trace_path),
        cfg.config.profile.empty() ? "" : cfg.config.profile + ".tmp"};
    if (const auto same = FirstSameFile(paths, /*first_output=*/2)) {
      const auto [i, j] = *same;
      return Fail(kCommand, kExitUsage,
                  absl::StrCat(names[j], j >= 6 ? " '" : "=", paths[j], j >= 6 ? "'" : "",
                               " and ", names[i], " ",
                               i == 0 && fs.positional()[0] == "-"
                                   ? std::string("- (stdin)")
                                   : absl::StrCat("'", paths[i], "'"),
                               " name one file; ",
                               // (The event log is appended to, not emptied.)
                               i == 0   ? (j == 4 ? "appending to it would change the input"
                                                  : "writing it would empty the input before it "
                                                    "is read")
                               : i == 1 ? (j == 4 ? "appending to it would change the "
                                                    "configuration file"
                                                  : "writing it would replace the configuration "
                                                    "file")
                                        : "each output needs its own"));
    }
  }
  // The event log, which the pipeline opens (appending) once the input is open and the GPU
  // calibrated: one that cannot be written is said now, as an output (before session 51 it
  // failed Create, exit 70, after the calibration).
  if (device != "cpu" && !cfg.config.event_log.empty()) {
    if (const std::string why = CannotWrite(cfg.config.event_log); !why.empty()) {
      return Fail(kCommand, kExitIoErr,
                  absl::StrCat("pipeline.event_log: cannot write '", cfg.config.event_log,
                               "': ", why));
    }
  }
  // A fixed n beyond the pipeline's pool of streams: said now, naming the key that bounds it
  // (before session 51 RunContinuous refused it after the calibration, exit 70).
  if (device != "cpu" && streams > cfg.config.max_streams) {
    const bool flag = fs.WasSet("pipeline.max_streams");
    return Fail(kCommand, kExitUsage,
                absl::StrCat("--streams=", streams, ": the pipeline's pool has 1 to ",
                             cfg.config.max_streams, " streams (",
                             flag                  ? "--pipeline.max_streams"
                             : config_path.empty() ? "pipeline.max_streams, by default"
                                                   : absl::StrCat("pipeline.max_streams in ",
                                                                  config_path),
                             "); raise it to run more"));
  }
  // A --config file is read and checked on the CPU too (one file may serve both devices), but a
  // key given on the command line for this run would set nothing: said, as for --streams.
  if (device == "cpu" && !fs.overrides().empty()) {
    const auto& [key, value] = fs.overrides().front();
    return Fail(kCommand, kExitUsage,
                absl::StrCat("--", key, "=", value,
                             ": configures the GPU's pipeline; --device=cpu runs none"));
  }

  // ---- input ----
  std::unique_ptr<video::FrameSource> source;
  std::optional<std::uintmax_t> input_bytes;  // the size of an INPUT that is a regular file
  // A frame size given is used: one out of range is refused (the synthetic source fell back to
  // its default for --width=0 or -5, before session 48).
  for (const auto& [flag, value] :
       {std::pair<const char*, int>{"width", width}, {"height", height}}) {
    if (fs.WasSet(flag) && value <= 0) {
      return Fail(kCommand, kExitUsage, absl::StrCat("--", flag, "=", value, ": must be > 0"));
    }
  }
  if (!synthetic.empty()) {
    video::SyntheticOptions so;
    if (synthetic == "section44") {
      so.pattern = video::SyntheticPattern::kSection44;
    } else if (synthetic == "scene-cuts") {
      so.pattern = video::SyntheticPattern::kSceneCuts;
    } else if (synthetic == "resolution-changes") {
      so.pattern = video::SyntheticPattern::kResolutionChanges;
    } else {
      return Fail(kCommand, kExitUsage,
                  absl::StrCat("--synthetic=", synthetic,
                               ": must be section44, scene-cuts or resolution-changes"));
    }
    if (width > 0) so.width = width;
    if (height > 0) so.height = height;
    absl::StatusOr<video::PixelFormat> pf = video::ParsePixelFormat(pixel_format);
    if (!pf.ok()) return Fail(kCommand, kExitUsage, pf.status());
    so.format = *pf;
    so.frames = frames;
    so.seed = static_cast<std::uint64_t>(seed);
    so.scene_length = scene_length;
    // A pattern without scenes takes no scene length (section44's output was the same for any,
    // exit 0, before session 51).
    if (fs.WasSet("scene-length") && so.pattern == video::SyntheticPattern::kSection44) {
      return Fail(kCommand, kExitUsage,
                  absl::StrCat("--scene-length: --synthetic=", synthetic,
                               " has no scenes (random frames, then one value a frame)"));
    }
    absl::StatusOr<std::unique_ptr<video::FrameSource>> src = video::MakeSyntheticSource(so);
    if (!src.ok()) return Fail(kCommand, kExitUsage, src.status());
    source = std::move(*src);
  } else {
    const std::string& input = fs.positional()[0];
    // The synthetic source's flags do nothing to a file: said, not dropped.
    for (const char* synthetic_only : {"frames", "seed", "scene-length"}) {
      if (fs.WasSet(synthetic_only)) {
        return Fail(kCommand, kExitUsage,
                    absl::StrCat("--", synthetic_only, ": is for --synthetic; INPUT '", input,
                                 "' gives its own frames"));
      }
    }
    absl::StatusOr<std::unique_ptr<video::FrameSource>> src;
    std::error_code input_kind_error;
    if ((width > 0 || height > 0) && input != "-" &&
        std::filesystem::is_regular_file(input, input_kind_error)) {
      // A Y4M file read as raw counted its header's bytes as pixels (exit 0, wrong histograms).
      // A regular file only: a pipe's bytes read here would be lost to the raw reader.
      char magic[10] = {};
      std::ifstream probe(input, std::ios::binary);
      if (probe.read(magic, sizeof magic) && std::string(magic, sizeof magic) == "YUV4MPEG2 ") {
        return Fail(kCommand, kExitUsage,
                    absl::StrCat("INPUT '", input, "' is a Y4M file, whose header gives the frame "
                                 "size and format; --width and --height are for raw input"));
      }
    }
    if (width > 0 || height > 0) {
      absl::StatusOr<video::PixelFormat> pf = video::ParsePixelFormat(pixel_format);
      if (!pf.ok()) return Fail(kCommand, kExitUsage, pf.status());
      src = video::OpenRawSource(input, width, height, *pf);
      if (!src.ok() && src.status().code() == absl::StatusCode::kInvalidArgument) {
        return Fail(kCommand, kExitUsage, src.status());
      }
    } else {
      // Read as Y4M, whose header gives the format: a --pixel-format (even one that is no
      // format) did nothing and was not said, before session 50.
      if (fs.WasSet("pixel-format")) {
        return Fail(kCommand, kExitUsage,
                    absl::StrCat("--pixel-format=", pixel_format, ": is for raw input (with "
                                 "--width and --height); INPUT '", input,
                                 "' is read as Y4M, whose header gives the format"));
      }
      src = video::OpenY4mSource(input);
    }
    if (!src.ok()) return Fail(kCommand, InputExit(src.status()), src.status());
    source = std::move(*src);
    std::error_code size_error;
    if (input != "-" && std::filesystem::is_regular_file(input, size_error)) {
      const std::uintmax_t bytes = std::filesystem::file_size(input, size_error);
      if (!size_error) input_bytes = bytes;
    }
  }
  // A batch never holds more frames than what is left of the INPUT file could: a header of
  // W46340 H46340 on a file of 100 bytes sized a batch of 64 frames of 2 GiB (exit 70 "cannot
  // allocate", or the machine's memory, before session 49). At least one frame, so that the
  // source itself says how the file ends (cleanly, or cut short in the frame it names).
  const auto frames_per_batch = [&](const video::FrameFormat& f) -> std::int64_t {
    const std::optional<std::uint64_t> consumed = source->bytes_consumed();
    if (!input_bytes || !consumed) return batch_frames;
    return video::FramesLeftInFile(f, *input_bytes, *consumed, batch_frames);
  };

  // ---- the GPU ----
  // Before the output is opened (which empties an earlier file of that name): no device, a bad
  // profile or a failed calibration leaves an earlier output as it was.
  DeviceTraits traits;
  std::string gpu_name;
  if (device == "gpu") {
    if (CudaDeviceCount() == 0) {
      return Fail(kCommand, kExitUnavailable,
                  absl::StrCat("no CUDA device (", NoDeviceReason(),
                               "); use --device=cpu to compute the histograms on the CPU"));
    }
    // A device this machine does not have is the configuration's error, said as such (before
    // session 51 it was 70 without a profile and 78 with one, from the calibration).
    if (cfg.config.device >= CudaDeviceCount()) {
      const bool flag = fs.WasSet("pipeline.device");
      return Fail(kCommand, flag ? kExitUsage : kExitConfig,
                  absl::StrCat(flag ? "--pipeline.device=" : "pipeline.device = ",
                               cfg.config.device, flag ? "" : absl::StrCat(" (", config_path, ")"),
                               ": this machine has ", CudaDeviceCount(), " CUDA device",
                               CudaDeviceCount() == 1 ? "" : "s", ", numbered from 0"));
    }
    // The configured device current first: the calibration restores the caller's device, and
    // this thread's, never chosen, is device 0 (whose context the restore would create).
    if (cfg.config.device >= 0) (void)cudaSetDevice(cfg.config.device);
    // One calibration for every pipeline of the run (one per frame format).
    if (!cfg.config.profile.empty()) {
      std::string why;  // where it calibrated, said, with where it wrote the profile
      int code = kExitOk;
      absl::StatusOr<DeviceProfile> p = ProfileForRun(kCommand, "pipeline.profile",
                                                      cfg.config.profile, cfg.config.device,
                                                      &why, &code);
      if (!p.ok()) return code;
      if (!quiet && !why.empty()) {
        std::cerr << "streampipe histogram: pipeline.profile: " << why << "\n";
      }
      traits = p->traits;
    } else {
      CalibrationOptions co;
      co.device = cfg.config.device;
      co.quick = true;
      co.inline_copies = false;  // as the pipeline's own quick calibration
      absl::StatusOr<Calibration> c = Calibrate(co);
      if (!c.ok()) return Fail(kCommand, kExitSoftware, c.status());
      traits = c->profile.traits;
    }
    absl::StatusOr<DeviceInfo> info = ReadDevice(cfg.config.device);
    gpu_name = info.ok() ? info->traits.name : "gpu";
    // The launchers choose their kernel for the current device: the configured one.
    if (const cudaError_t e = cudaSetDevice(cfg.config.device); e != cudaSuccess) {
      return Fail(kCommand, kExitSoftware, CudaErrorStatus(e, "cudaSetDevice", __FILE__, __LINE__));
    }
  }

  // ---- output ----
  // The trace's file first, before any frame is read and before the output is opened (which
  // empties an earlier file of that name): a path that cannot be written fails now, not after
  // the video (as `<trace>.partial` until it is whole; docs/errors.md).
  std::optional<StagedFile> trace_file;
  if (!trace_path.empty()) {
    absl::StatusOr<StagedFile> f = StagedFile::Open(trace_path);
    if (!f.ok()) return Fail(kCommand, kExitIoErr, AnnotateStatus(f.status(), "--trace"));
    trace_file = std::move(*f);
  }
  // A file output is written as `<output>.partial` and renamed onto it when whole: a run that
  // fails (bad input, a GPU error) leaves an earlier output as it was, and the histograms it
  // computed in the .partial file (before session 48 it emptied the output at once and left
  // the part written there). Stdout, a FIFO or a device are written as they are, and so is a
  // path naming one of this process's descriptors (/dev/stdout, /dev/fd/N: through a copy of
  // it, OpenHistogramWriter).
  std::optional<StagedFile> staged;
  std::string write_path = output;
  std::error_code kind_error;
  const std::filesystem::file_status kind = std::filesystem::status(output, kind_error);
  if (output != "-" && !video::DescriptorNamedBy(output) &&
      (!std::filesystem::exists(kind) || std::filesystem::is_regular_file(kind))) {
    // A .partial file a stopped run left is replaced (its histograms are computed again); one a
    // running run holds is refused.
    absl::StatusOr<StagedFile> f = StagedFile::Open(output, "", StagedFile::StaleData::kReplace);
    if (!f.ok()) return Fail(kCommand, kExitIoErr, AnnotateStatus(f.status(), "--output"));
    write_path = f->partial_path();
    staged = std::move(*f);
  }
  absl::StatusOr<std::unique_ptr<video::HistogramWriter>> writer =
      video::OpenHistogramWriter(write_path, *out_format);
  if (!writer.ok()) return Fail(kCommand, kExitIoErr, writer.status());

  Totals totals;
  Status live(!quiet);
  const auto t0 = std::chrono::steady_clock::now();
  int exit_code = kExitOk;
  absl::Status failure;
  std::string summary_device;

  if (device == "cpu") {
    summary_device = "cpu";
    // Not zero-filled (make_unique_for_overwrite): the pages a short file never reaches into
    // are never touched.
    std::unique_ptr<std::byte[]> storage;
    std::span<std::byte> buf;
    std::vector<Histogram> hist;
    for (;;) {
      const FrameFormat f = source->format();
      const std::int64_t wanted = frames_per_batch(f);
      try {
        const std::size_t bytes = static_cast<std::size_t>(wanted) * f.item_bytes();
        if (bytes > buf.size()) {
          storage.reset();
          buf = {};
          storage = std::make_unique_for_overwrite<std::byte[]>(bytes);
          buf = std::span<std::byte>(storage.get(), bytes);
        }
        hist.resize(static_cast<std::size_t>(wanted));
      } catch (const std::bad_alloc&) {
        // Lowering --batch-frames helps only where a batch holds more than one frame.
        failure = absl::ResourceExhaustedError(absl::StrCat(
            "cannot allocate ", wanted, " x ", f.item_bytes(), " bytes for a batch of ",
            wanted, wanted == 1 ? " frame of " : " frames of ", f.width, "x", f.height,
            wanted == 1 ? ": the frame size the input gives is more than this machine can hold"
                        : "; lower --batch-frames"));
        exit_code = kExitSoftware;
        break;
      }
      absl::StatusOr<video::ReadResult> r = source->Read(buf, wanted);
      if (!r.ok()) {
        failure = r.status();
        exit_code = InputExit(failure);
        break;
      }
      video::HistogramsOfItems(f, buf, r->frames, hist);
      for (std::int64_t i = 0; i < r->frames; ++i) {
        absl::Status w = (*writer)->Write(totals.frames + i, hist[i]);
        if (!w.ok()) {
          failure = w;
          exit_code = kExitIoErr;
          break;
        }
      }
      if (!failure.ok()) break;
      totals.frames += r->frames;
      live.Update(totals.frames, 0, 0);
      if (r->end) break;
    }
  } else {
    summary_device = gpu_name;
    std::map<std::pair<int, int>, std::unique_ptr<StreamPipeline>> pipelines;
    for (;;) {
      const FrameFormat f = source->format();
      PipelineOptions o;
      o.in_bytes_per_item = static_cast<std::int64_t>(f.item_bytes());
      o.out_bytes_per_item = static_cast<std::int64_t>(kHistogramBytes);
      o.max_items_per_batch = frames_per_batch(f);
      absl::StatusOr<KernelLauncher> launch = HistogramLauncher(f, *kernel);
      if (!launch.ok()) {
        failure = launch.status();
        exit_code = kExitDataErr;
        break;
      }
      o.launch = *launch;
      absl::Status a = ApplyConfig(cfg.config, &o);
      if (!a.ok()) return Fail(kCommand, kExitConfig, a);
      o.traits = traits;
      o.adaptive.steady_state = o.max_in_flight > 1;
      if (!trace_path.empty()) o.record_timeline = true;
      auto& p = pipelines[{f.width, f.height}];
      if (!p || p->options().in_bytes_per_item != o.in_bytes_per_item) {
        absl::StatusOr<StreamPipeline> created = StreamPipeline::Create(o);
        if (!created.ok()) {
          failure = created.status();
          exit_code = kExitSoftware;
          break;
        }
        p = std::make_unique<StreamPipeline>(std::move(*created));
      }
      FrameBatches batches(*source, verify);
      HistogramSink sink(**writer, f, batches, verify, totals, live);
      ContinuousOptions co;
      if (streams > 0) co.streams = streams;
      absl::StatusOr<ContinuousSummary> run = p->RunContinuous(batches, sink, co);
      if (!run.ok()) {
        failure = run.status();
        if (!batches.error.ok()) {
          exit_code = InputExit(batches.error);
          failure = batches.error;
        } else if (!sink.write_error.ok()) {
          exit_code = kExitIoErr;
        } else {
          exit_code = kExitSoftware;  // the GPU (IsStickyCudaError says whether it is sticky)
        }
        break;
      }
      if (!batches.format_changed) break;
    }
  }
  live.Clear();
  absl::Status closed = (*writer)->Close();
  // Whole: onto the output in one rename. Else what was computed stays, beside the output.
  const bool kept_partial =
      staged && !(closed.ok() && failure.ok()) && (*writer)->frames_written() > 0;
  if (staged && closed.ok() && failure.ok()) closed = staged->Commit();
  if (kept_partial) staged->KeepWhenUncommitted();
  if (!closed.ok() && exit_code != kExitIoErr) {
    // The output's own failure first: what the histograms before an input error would have been
    // were not written either.
    failure = failure.ok() ? closed
                           : absl::Status(closed.code(), absl::StrCat(closed.message(),
                                                                      "; and before that: ",
                                                                      failure.message()));
    exit_code = kExitIoErr;
  }
  const double wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (trace_file && totals.trace.empty()) {
    std::cerr << "streampipe histogram: --trace: no batch was traced; '" << trace_path
              << "' not written\n";
  }
  if (trace_file && !totals.trace.empty()) {
    if (const absl::Status t = trace_file->Finish(ChromeTraceJson(totals.trace)); !t.ok()) {
      std::cerr << "streampipe histogram: " << AnnotateStatus(t, "--trace").message() << "\n";
      if (exit_code == kExitOk) exit_code = kExitIoErr;  // the histograms are written
    }
  }
  if (!quiet) {
    std::cerr << absl::StrFormat(
        "streampipe histogram: %lld frames (%s) on %s in %.3f s: %.0f frames/s",
        static_cast<long long>(totals.frames), video::FrameFormatToString(source->format()),
        summary_device, wall_s, totals.frames / std::max(wall_s, 1e-9));
    if (totals.device_ms > 0) {
      std::cerr << absl::StrFormat("; GPU busy %.1f ms: %.0f frames/s", totals.device_ms,
                                   totals.frames / (totals.device_ms / 1e3));
    }
    std::cerr << "\n";
    if (!totals.streams_log.empty()) {
      std::cerr << "  streams over time:";
      for (std::size_t i = 0; i < totals.streams_log.size() && i < 24; ++i) {
        std::cerr << (i ? "; " : " ") << totals.streams_log[i];
      }
      if (totals.streams_log.size() > 24) std::cerr << "; ...";
      std::cerr << "\n";
    }
    if (device == "gpu") {
      std::cerr << "  re-derivations: " << totals.events << "\n";
      for (const std::string& e : totals.events_log) std::cerr << "    " << e << "\n";
      if (totals.pred_error_n > 0) {
        std::cerr << absl::StrFormat(
            "  measured vs predicted: mean |measured/predicted - 1| = %.1f %% over %lld "
            "settled streamed batches\n",
            100.0 * totals.pred_error_sum / totals.pred_error_n,
            static_cast<long long>(totals.pred_error_n));
      }
      if (verify) {
        std::cerr << "  verify: " << totals.mismatches << " histograms differ from the CPU's\n";
      }
    }
  }
  if (!failure.ok()) {
    // Counted as computed: where the output itself failed, fewer of them reached it.
    Fail(kCommand, exit_code,
         absl::StrCat(std::string(failure.message()), " (", totals.frames,
                      exit_code == kExitIoErr ? " histograms before it were computed; not all "
                                                "reached the output)"
                                              : " histograms before it were written)",
                      kept_partial
                          ? absl::StrCat("; they are in '", staged->partial_path(), "', and '",
                                         output, "' is as it was")
                          : ""));
    return exit_code;
  }
  if (verify && totals.mismatches > 0) return kExitSoftware;
  return kExitOk;
}

}  // namespace streampipe::cli
