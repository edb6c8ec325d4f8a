// Raw frames: no header, no markers, stored_bytes() per frame.
#include <cstdint>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "byte_reader.hpp"
#include "streampipe/video/frame_source.hpp"

namespace streampipe::video {
namespace {

using internal::BufferedReader;
using internal::ByteInput;

constexpr std::uint64_t kMaxPixels = std::uint64_t{1} << 31;

class RawSource final : public FrameSource {
 public:
  RawSource(std::unique_ptr<ByteInput> input, std::size_t buffer_bytes, std::string name,
            FrameFormat format)
      : reader_(std::move(input), buffer_bytes), name_(std::move(name)), format_(format) {}

  const FrameFormat& format() const override { return format_; }
  std::int64_t frames_read() const override { return frames_read_; }
  std::optional<std::uint64_t> bytes_consumed() const override { return reader_.offset(); }

  absl::StatusOr<ReadResult> Read(std::span<std::byte> dst, std::int64_t max_frames) override {
    if (!error_.ok()) return error_;
    const std::size_t item = format_.item_bytes();
    const std::size_t stored = format_.stored_bytes();
    if (absl::Status bad = CheckReadRequest(name_, item, dst.size(), max_frames); !bad.ok()) {
      return bad;
    }
    ReadResult r;
    if (ended_) {
      r.end = true;
      return r;
    }
    while (r.frames < max_frames) {
      const std::uint64_t frame_offset = reader_.offset();
      // For planar YUV the item (luma) is the first plane; for gray8 and rgb24 it is all of it.
      absl::StatusOr<std::size_t> got =
          reader_.Read(dst.data() + static_cast<std::size_t>(r.frames) * item, item);
      if (!got.ok()) return Fail(got.status(), r);
      if (*got == item && stored > item) {
        absl::StatusOr<std::size_t> skipped = reader_.Skip(stored - item);
        if (!skipped.ok()) return Fail(skipped.status(), r);
        *got += *skipped;
      }
      if (*got == 0) {
        ended_ = true;
        r.end = true;
        break;
      }
      if (*got < stored) {
        return Fail(absl::DataLossError(absl::StrCat(
                        name_, ": frame ", frames_read_, " (at byte ", frame_offset,
                        "): truncated: expected ", stored, " bytes of ",
                        FrameFormatToString(format_), " frame data, found ", *got)),
                    r);
      }
      ++r.frames;
      ++frames_read_;
    }
    return r;
  }

 private:
  absl::StatusOr<ReadResult> Fail(absl::Status s, const ReadResult& r) {
    error_ = std::move(s);
    if (r.frames > 0) return r;
    return error_;
  }

  BufferedReader reader_;
  std::string name_;
  FrameFormat format_;
  std::int64_t frames_read_ = 0;
  bool ended_ = false;
  absl::Status error_;
};

absl::Status CheckRawFormat(const std::string& name, int width, int height) {
  if (width <= 0 || height <= 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        name, ": raw frame size ", width, "x", height, ": width and height must be positive"));
  }
  if (static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(height) > kMaxPixels) {
    return absl::InvalidArgumentError(absl::StrCat(name, ": raw frame size ", width, "x", height,
                                                   " exceeds the limit of 2^31 pixels"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<FrameSource>> OpenRawSource(const std::string& path, int width,
                                                           int height, PixelFormat format) {
  const std::string name = path == "-" ? "stdin" : path;
  absl::Status s = CheckRawFormat(name, width, height);
  if (!s.ok()) return s;
  absl::StatusOr<std::unique_ptr<ByteInput>> input = internal::OpenByteInput(path);
  if (!input.ok()) return input.status();
  return std::unique_ptr<FrameSource>(
      std::make_unique<RawSource>(std::move(*input), BufferedReader::kFdBufferBytes, name,
                                  FrameFormat{width, height, format}));
}

absl::StatusOr<std::unique_ptr<FrameSource>> MakeRawSource(std::istream& in, int width,
                                                           int height, PixelFormat format,
                                                           std::string name) {
  absl::Status s = CheckRawFormat(name, width, height);
  if (!s.ok()) return s;
  return std::unique_ptr<FrameSource>(std::make_unique<RawSource>(
      internal::IstreamByteInput(in, name), BufferedReader::kIstreamBufferBytes, name,
      FrameFormat{width, height, format}));
}

}  // namespace streampipe::video
