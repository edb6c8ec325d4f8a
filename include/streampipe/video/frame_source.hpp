// Video frame input for the histogram pipeline: YUV4MPEG2 (Y4M) files and pipes, raw frames,
// and a deterministic synthetic source. A source hands out frames in batches, each frame
// reduced to the bytes the histogram kernel needs (FrameFormat::item_bytes: the luma plane of
// YUV, all of RGB), packed back to back so a batch can be copied to the device in one go.
//
//   // ffmpeg -i movie.mp4 -f yuv4mpegpipe - | prog -
//   STREAMPIPE_ASSIGN_OR_RETURN(auto src, streampipe::video::OpenY4mSource("-"));
//   std::vector<std::byte> batch;
//   for (;;) {
//     const FrameFormat f = src->format();  // the frames this Read returns have this format
//     batch.resize(64 * f.item_bytes());
//     STREAMPIPE_ASSIGN_OR_RETURN(ReadResult r, src->Read(batch, 64));
//     Process(f, std::span(batch).first(r.frames * f.item_bytes()));
//     if (r.end) break;
//   }
//
// Sources are not thread-safe; use one per thread.
#ifndef STREAMPIPE_VIDEO_FRAME_SOURCE_HPP_
#define STREAMPIPE_VIDEO_FRAME_SOURCE_HPP_

#include <cstddef>
#include <cstdint>
#include <istream>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "streampipe/video/frame_format.hpp"

namespace streampipe::video {

struct ReadResult {
  std::int64_t frames = 0;      // frames written to dst
  bool end = false;             // the stream ended (cleanly) after them
  bool format_changed = false;  // the next frame has another format; format() now describes it
};

class FrameSource {
 public:
  virtual ~FrameSource() = default;

  // The format of the frames the next Read returns.
  virtual const FrameFormat& format() const = 0;

  // Writes up to max_frames frames of format(), item_bytes() each, back to back, into dst.
  // For YUV only the luma plane is kept; chroma is read and dropped. Stops early at the end of
  // the stream or before a frame of another format (format_changed; format() then describes
  // the new frames and dst must be sized for them on the next call).
  //
  // `end` and `format_changed` are reported as soon as they are known, which for a file or a
  // pipe is when the next frame would be read: a call that fills dst does not wait for more
  // input to find out, so the end may come on a later call with frames == 0. Once end is
  // reported every later call returns frames == 0, end == true.
  //
  // A stream error is reported on the call after the frames before it have been returned
  // (frames > 0 with no flag set, then the error), so no good frame is lost; after an error
  // every call returns the same error. Errors:
  //   InvalidArgument: max_frames < 0 or dst.size() < max_frames * item_bytes() (the source
  //     stays usable); a malformed stream (bad FRAME marker, bad header field of a
  //     concatenated stream's header).
  //   DataLoss: truncated data; the message names the frame index (0-based, counted over the
  //     whole stream), its byte offset, and how many bytes were expected and found.
  //   Unimplemented: a concatenated stream's header with a valid but unsupported format.
  //   Unavailable: read(2) failed (message has strerror); Internal: a std::istream went bad.
  virtual absl::StatusOr<ReadResult> Read(std::span<std::byte> dst, std::int64_t max_frames) = 0;

  // Frames returned so far.
  virtual std::int64_t frames_read() const = 0;

  // Bytes of the stream consumed so far (its headers, FRAME lines and frames; not what is
  // buffered ahead), for a source that reads one; nullopt for a generated source. With a
  // regular file's size it bounds the frames a caller needs room for (FramesLeftInFile;
  // `streampipe histogram` sizes its batches so).
  virtual std::optional<std::uint64_t> bytes_consumed() const { return std::nullopt; }
};

// The frames of format `f` that what is left of a regular file (`file_bytes` less the
// `consumed` bytes, FrameSource::bytes_consumed) can hold, clamped to [1, max_frames] (max_frames
// >= 1): at least one, so that the source itself says how the file ends (cleanly, or cut short
// in the frame it names). A caller sizing its batches so never allocates for frames a short
// file cannot hold, whatever its header claims.
std::int64_t FramesLeftInFile(const FrameFormat& f, std::uint64_t file_bytes,
                              std::uint64_t consumed, std::int64_t max_frames);

// For implementations of Read: the InvalidArgument for a bad request (max_frames < 0, or dst
// smaller than max_frames frames of item_bytes), naming `source`; OK otherwise.
absl::Status CheckReadRequest(std::string_view source, std::size_t item_bytes,
                              std::size_t dst_bytes, std::int64_t max_frames);

// ---- YUV4MPEG2 ----
//
// The stream header is parsed by the factory, so format() is valid at once. Header tags:
// W<width> H<height> (required, positive, W*H <= 2^31), F<n>:<d>, A<n>:<d>, I<p|t|b|m|?>
// (syntax checked, values unused), C<colorspace> (default 420jpeg), X<anything> (ignored);
// tags with other letters are ignored for forward compatibility. Supported colorspaces:
// 420jpeg, 420paldv, 420mpeg2, 420, 422, 444, mono (8-bit). FRAME lines may carry parameters
// (ignored). A second "YUV4MPEG2 ..." header where a FRAME is expected (concatenated streams)
// starts a new segment; a different format is reported through ReadResult::format_changed.
//
// Errors from the factories (messages start with the path, "stdin" or `name`):
//   NotFound / PermissionDenied: the file cannot be opened; FailedPrecondition: it is a directory.
//   DataLoss: the stream ends before the header's '\n' (empty input included).
//   InvalidArgument: bad magic (not "YUV4MPEG2"), a header line over 4096 bytes, W or H
//     missing, repeated, zero, negative, non-numeric or too large; malformed F, A, I; an
//     unknown colorspace. The message names the field and the text found.
//   Unimplemented: a known but unsupported colorspace (e.g. C420p10, C444alpha, C411); the
//     message lists the supported ones.
//   Unavailable / Internal: I/O errors, as for Read.

// `path` "-" reads standard input (a pipe works: the stream is never seeked).
absl::StatusOr<std::unique_ptr<FrameSource>> OpenY4mSource(const std::string& path);
// Reads `in`, which must outlive the source. `name` prefixes error messages.
absl::StatusOr<std::unique_ptr<FrameSource>> MakeY4mSource(std::istream& in,
                                                           std::string name = "<stream>");

// ---- Raw frames ----
//
// Frames of FrameFormat{width, height, format}.stored_bytes() back to back, no header. Meant
// for gray8 and rgb24; the YUV layouts and mono work too (planar, luma kept), for streams
// from `ffmpeg -f rawvideo -pix_fmt yuv420p`. The stream ends cleanly only at a frame
// boundary; a partial last frame is DataLoss naming its index, offset and byte counts.
// Factory errors: InvalidArgument for width or height <= 0 or W*H > 2^31; NotFound /
// PermissionDenied / FailedPrecondition (a directory) when the file cannot be opened.
absl::StatusOr<std::unique_ptr<FrameSource>> OpenRawSource(const std::string& path, int width,
                                                           int height, PixelFormat format);
absl::StatusOr<std::unique_ptr<FrameSource>> MakeRawSource(std::istream& in, int width,
                                                           int height, PixelFormat format,
                                                           std::string name = "<stream>");

// ---- Synthetic frames ----
//
// Deterministic in (seed, frame index) alone, so a frame can be regenerated anywhere (a
// benchmark, a test's expectation) without replaying the source.
enum class SyntheticPattern {
  // Gómez-Luna et al. section 4.4: the first half of the frames has pixels uniform over
  // 0..255; in the second half every pixel of a frame has the same value (varying per frame),
  // the degenerate case where all threads of a histogram kernel hit one bin.
  kSection44,
  // A new scene every scene_length frames: pixels from a clipped, quantised normal with a
  // scene-specific mean and spread. Consecutive scenes' means are at least 56 apart, so the
  // histogram changes abruptly at each cut and little within a scene.
  kSceneCuts,
  // As kSceneCuts, and scene s has size (width x height) for s % 3 == 0,
  // (width/2 x height/2) for 1, (width/2+1 x height/2+3) for 2 (halves at least 1), so Read
  // reports format_changed at each cut where the size changes.
  kResolutionChanges,
};

struct SyntheticOptions {
  int width = 704;
  int height = 576;
  PixelFormat format = PixelFormat::kGray8;  // kGray8 or kRgb24
  std::int64_t frames = 4096;
  SyntheticPattern pattern = SyntheticPattern::kSection44;
  std::uint64_t seed = 1;
  int scene_length = 64;  // frames per scene, kSceneCuts and kResolutionChanges
};

// InvalidArgument for width or height <= 0 or W*H > 2^31, frames < 0, scene_length <= 0, or
// a format other than kGray8 / kRgb24. Read never fails on the stream itself.
absl::StatusOr<std::unique_ptr<FrameSource>> MakeSyntheticSource(const SyntheticOptions& options);

// The format of frame `index` (options assumed valid).
FrameFormat SyntheticFormatAt(const SyntheticOptions& options, std::int64_t index);

// Writes frame `index`'s item bytes (format.item_bytes()) into out[0, item_bytes); `format`
// is SyntheticFormatAt(options, index). out.size() must be at least format.item_bytes().
// Several GB/s per core: one splitmix64 seed per frame, then a xorshift stream.
void GenerateSyntheticFrame(const SyntheticOptions& options, std::int64_t index,
                            const FrameFormat& format, std::span<std::byte> out);

}  // namespace streampipe::video

#endif  // STREAMPIPE_VIDEO_FRAME_SOURCE_HPP_
