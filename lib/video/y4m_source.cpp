// YUV4MPEG2 reader. The format (mjpegtools' yuv4mpeg.5, as ffmpeg writes it):
//   "YUV4MPEG2" {" " tag}* "\n"  { "FRAME" {" " param}* "\n"  Y plane, Cb plane, Cr plane }*
// Tags are a letter and a value. Concatenated streams (cat a.y4m b.y4m) put a new header where
// a FRAME is expected; we accept that as a new segment.
#include <charconv>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "byte_reader.hpp"
#include "streampipe/video/frame_source.hpp"

namespace streampipe::video {
namespace {

using internal::BufferedReader;
using internal::ByteInput;
using internal::LineEnd;
using internal::QuoteForMessage;

constexpr std::string_view kMagic = "YUV4MPEG2";
constexpr std::string_view kFrameWord = "FRAME";
// Header and FRAME lines, '\n' included. Real headers are < 100 bytes; the cap keeps a
// binary file fed to us by mistake from being buffered whole while we look for a '\n'.
constexpr std::size_t kMaxLineBytes = 4096;
constexpr std::uint64_t kMaxPixels = std::uint64_t{1} << 31;
constexpr const char* kSupportedColorspaces = "420jpeg, 420paldv, 420mpeg2, 420, 422, 444, mono";

// `line` is `word` alone or `word` followed by a space (a tag list follows).
bool IsWord(std::string_view line, std::string_view word) {
  return line.substr(0, word.size()) == word &&
         (line.size() == word.size() || line[word.size()] == ' ');
}

// A prefix of `word` or of `word ...`, as a truncated line would be.
bool CouldBeTruncated(std::string_view line, std::string_view word) {
  if (line.size() <= word.size()) return word.substr(0, line.size()) == line;
  return IsWord(line, word);
}

// The first space-separated token of `line`, quoted.
std::string FirstToken(std::string_view line) {
  const std::size_t space = line.find(' ');
  return QuoteForMessage(line.substr(0, space == std::string_view::npos ? line.size() : space),
                         16);
}

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

absl::Status FieldError(std::string_view where, char tag, std::string_view token,
                        std::string_view problem) {
  return absl::InvalidArgumentError(absl::StrCat(std::string(where), ": header field ",
                                                 std::string(1, tag), ": ",
                                                 QuoteForMessage(token), " ",
                                                 std::string(problem)));
}

// W or H: 1..INT_MAX.
absl::StatusOr<int> ParseDimension(std::string_view where, char tag, std::string_view token) {
  const std::string_view value = token.substr(1);
  if (value.empty()) return FieldError(where, tag, token, "has no value");
  if (value[0] == '-' && AllDigits(value.substr(1))) {
    return FieldError(where, tag, token, "is negative");
  }
  if (!AllDigits(value)) return FieldError(where, tag, token, "is not a number");
  std::uint64_t v = 0;
  for (char c : value) {
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
    if (v > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) {
      return FieldError(where, tag, token, "is too large");
    }
  }
  if (v == 0) return FieldError(where, tag, token, "must be positive");
  return static_cast<int>(v);
}

// F and A: <n>:<d>, both unsigned 32-bit. 0:0 means "unknown" in the spec, so zeros pass.
absl::Status CheckRatio(std::string_view where, char tag, std::string_view token) {
  const std::string_view value = token.substr(1);
  const std::size_t colon = value.find(':');
  const std::string_view n = value.substr(0, colon);
  const std::string_view d =
      colon == std::string_view::npos ? std::string_view() : value.substr(colon + 1);
  if (colon == std::string_view::npos || !AllDigits(n) || !AllDigits(d)) {
    return FieldError(where, tag, token, "is not of the form <num>:<den>");
  }
  for (std::string_view part : {n, d}) {
    std::uint32_t v;
    const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (ec != std::errc() || ptr != part.data() + part.size()) {
      return FieldError(where, tag, token, "has a number out of range");
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<PixelFormat> ParseColorspace(std::string_view where, std::string_view token) {
  const std::string_view value = token.substr(1);
  struct Entry {
    std::string_view name;
    PixelFormat format;
  };
  static constexpr Entry kSupported[] = {
      {"420jpeg", PixelFormat::kYuv420}, {"420paldv", PixelFormat::kYuv420},
      {"420mpeg2", PixelFormat::kYuv420}, {"420", PixelFormat::kYuv420},
      {"422", PixelFormat::kYuv422},     {"444", PixelFormat::kYuv444},
      {"mono", PixelFormat::kMono},
  };
  for (const Entry& e : kSupported) {
    if (e.name == value) return e.format;
  }
  // What ffmpeg and mjpegtools write besides the above.
  static constexpr std::string_view kKnownUnsupported[] = {
      "420p9",  "422p9",  "444p9",  "420p10", "422p10", "444p10", "420p12", "422p12",
      "444p12", "420p14", "422p14", "444p14", "420p16", "422p16", "444p16", "mono9",
      "mono10", "mono12", "mono14", "mono16", "444alpha", "411",
  };
  for (std::string_view name : kKnownUnsupported) {
    if (name == value) {
      return absl::UnimplementedError(
          absl::StrCat(std::string(where), ": colorspace C", std::string(value),
                       " is not supported (only 8-bit ", kSupportedColorspaces,
                       "); convert with e.g. ffmpeg -pix_fmt yuv420p"));
    }
  }
  return absl::InvalidArgumentError(absl::StrCat(std::string(where), ": header field C: ",
                                                 QuoteForMessage(token),
                                                 " is not a known colorspace (supported: ",
                                                 kSupportedColorspaces, ")"));
}

// `line` is the header without its '\n'; IsWord(line, kMagic) holds.
absl::StatusOr<FrameFormat> ParseHeader(std::string_view where, std::string_view line) {
  bool have_w = false, have_h = false, have_c = false;
  FrameFormat f;
  f.format = PixelFormat::kYuv420;  // C absent: 420jpeg
  std::size_t pos = kMagic.size();
  while (pos < line.size()) {
    std::size_t next = line.find(' ', pos);
    if (next == std::string_view::npos) next = line.size();
    const std::string_view token = line.substr(pos, next - pos);
    pos = next + 1;
    if (token.empty()) continue;  // tolerate doubled spaces
    const char tag = token[0];
    switch (tag) {
      case 'W':
      case 'H': {
        bool& have = tag == 'W' ? have_w : have_h;
        if (have) return FieldError(where, tag, token, "is repeated");
        have = true;
        absl::StatusOr<int> v = ParseDimension(where, tag, token);
        if (!v.ok()) return v.status();
        (tag == 'W' ? f.width : f.height) = *v;
        break;
      }
      case 'F':
      case 'A': {
        absl::Status s = CheckRatio(where, tag, token);
        if (!s.ok()) return s;
        break;
      }
      case 'I':
        if (token.size() != 2 || std::string_view("ptbm?").find(token[1]) == std::string_view::npos) {
          return FieldError(where, tag, token, "is not one of Ip, It, Ib, Im, I?");
        }
        break;
      case 'C': {
        if (have_c) return FieldError(where, tag, token, "is repeated");
        have_c = true;
        absl::StatusOr<PixelFormat> p = ParseColorspace(where, token);
        if (!p.ok()) return p.status();
        f.format = *p;
        break;
      }
      default:
        break;  // X (comments, extensions) and letters a later spec may add
    }
  }
  if (!have_w) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(where), ": header field W (width) is missing"));
  }
  if (!have_h) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(where), ": header field H (height) is missing"));
  }
  const std::uint64_t pixels = static_cast<std::uint64_t>(f.width) * f.height;
  if (pixels > kMaxPixels) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(where), ": W", f.width, " x H", f.height, " = ", pixels,
                     " pixels exceeds the limit of 2^31"));
  }
  return f;
}

class Y4mSource final : public FrameSource {
 public:
  Y4mSource(std::unique_ptr<ByteInput> input, std::size_t buffer_bytes, std::string name)
      : reader_(std::move(input), buffer_bytes), name_(std::move(name)) {}

  // Reads and parses the first header.
  absl::Status Init() {
    absl::StatusOr<LineEnd> end = reader_.ReadLine(kMaxLineBytes, &line_);
    if (!end.ok()) return end.status();
    if (*end == LineEnd::kEnd && line_.empty()) {
      return absl::DataLossError(
          absl::StrCat(name_, ": empty stream; expected a YUV4MPEG2 header"));
    }
    if (!CouldBeTruncated(line_, kMagic) || (*end == LineEnd::kNewline && !IsWord(line_, kMagic))) {
      return absl::InvalidArgumentError(absl::StrCat(
          name_, ": not a YUV4MPEG2 stream: expected 'YUV4MPEG2' at byte 0, found ",
          FirstToken(line_)));
    }
    if (*end == LineEnd::kTooLong) {
      return absl::InvalidArgumentError(absl::StrCat(
          name_, ": header: no '\\n' in the first ", kMaxLineBytes, " bytes"));
    }
    if (*end == LineEnd::kEnd) {
      return absl::DataLossError(absl::StrCat(name_, ": header truncated: the stream ends after ",
                                              line_.size(), " bytes with no '\\n'"));
    }
    absl::StatusOr<FrameFormat> f = ParseHeader(absl::StrCat(name_, ": header"), line_);
    if (!f.ok()) return f.status();
    format_ = *f;
    return absl::OkStatus();
  }

  const FrameFormat& format() const override { return format_; }
  std::int64_t frames_read() const override { return frames_read_; }
  std::optional<std::uint64_t> bytes_consumed() const override { return reader_.offset(); }

  absl::StatusOr<ReadResult> Read(std::span<std::byte> dst, std::int64_t max_frames) override {
    if (!error_.ok()) return error_;
    const std::size_t item = format_.item_bytes();
    if (absl::Status bad = CheckReadRequest(name_, item, dst.size(), max_frames); !bad.ok()) {
      return bad;
    }
    ReadResult r;
    if (ended_) {
      r.end = true;
      return r;
    }
    while (r.frames < max_frames) {
      FrameFormat next;
      absl::StatusOr<Marker> m = ReadMarker(&next);
      if (!m.ok()) return Fail(m.status(), r);
      if (*m == Marker::kEnd) {
        ended_ = true;
        r.end = true;
        break;
      }
      if (*m == Marker::kHeader) {
        if (next == format_) continue;
        format_ = next;
        r.format_changed = true;
        break;
      }
      absl::Status s = ReadFrameData(dst.data() + static_cast<std::size_t>(r.frames) * item);
      if (!s.ok()) return Fail(s, r);
      ++r.frames;
      ++frames_read_;
    }
    return r;
  }

 private:
  enum class Marker { kFrame, kHeader, kEnd };

  // Keeps the frames already in dst: the error comes with the next call.
  absl::StatusOr<ReadResult> Fail(absl::Status s, const ReadResult& r) {
    error_ = std::move(s);
    if (r.frames > 0) return r;
    return error_;
  }

  std::string FrameWhere() const {
    return absl::StrCat(name_, ": frame ", frames_read_, " (at byte ", line_offset_, ")");
  }

  // Reads what should be a FRAME line; a header there is parsed into *next.
  absl::StatusOr<Marker> ReadMarker(FrameFormat* next) {
    line_offset_ = reader_.offset();
    absl::StatusOr<LineEnd> end = reader_.ReadLine(kMaxLineBytes, &line_);
    if (!end.ok()) return end.status();
    switch (*end) {
      case LineEnd::kNewline:
        if (IsWord(line_, kFrameWord)) return Marker::kFrame;
        if (IsWord(line_, kMagic)) {
          ++segment_;
          absl::StatusOr<FrameFormat> f = ParseHeader(
              absl::StrCat(name_, ": header of segment ", segment_ + 1, " (at byte ",
                           line_offset_, ", before frame ", frames_read_, ")"),
              line_);
          if (!f.ok()) return f.status();
          *next = *f;
          return Marker::kHeader;
        }
        break;
      case LineEnd::kEnd:
        if (line_.empty()) return Marker::kEnd;
        if (CouldBeTruncated(line_, kFrameWord)) {
          return absl::DataLossError(absl::StrCat(
              FrameWhere(), ": truncated FRAME line: the stream ends after ", line_.size(),
              " bytes of it with no '\\n'; expected ", format_.stored_bytes(),
              " bytes of frame data after it, found 0"));
        }
        if (CouldBeTruncated(line_, kMagic)) {
          return absl::DataLossError(absl::StrCat(
              name_, ": header of segment ", segment_ + 2, " (at byte ", line_offset_,
              ", before frame ", frames_read_, ") truncated: the stream ends after ",
              line_.size(), " bytes with no '\\n'"));
        }
        break;
      case LineEnd::kTooLong:
        if (IsWord(line_, kFrameWord) || IsWord(line_, kMagic)) {
          return absl::InvalidArgumentError(absl::StrCat(
              FrameWhere(), ": ", FirstToken(line_), " line has no '\\n' in ", kMaxLineBytes,
              " bytes"));
        }
        break;
    }
    return absl::InvalidArgumentError(
        absl::StrCat(FrameWhere(), ": expected FRAME, found ", FirstToken(line_)));
  }

  absl::Status ReadFrameData(std::byte* dst) {
    const std::size_t luma = format_.pixels();
    const std::size_t stored = format_.stored_bytes();
    absl::StatusOr<std::size_t> got = reader_.Read(dst, luma);
    if (!got.ok()) return got.status();
    if (*got == luma && stored > luma) {
      absl::StatusOr<std::size_t> skipped = reader_.Skip(stored - luma);
      if (!skipped.ok()) return skipped.status();
      *got += *skipped;
    }
    if (*got < stored) {
      return absl::DataLossError(absl::StrCat(
          FrameWhere(), ": truncated in the ", *got < luma ? "Y plane" : "chroma planes",
          ": expected ", stored, " bytes of ", FrameFormatToString(format_), " frame data (Y ",
          luma, " + chroma ", stored - luma, "), found ", *got));
    }
    return absl::OkStatus();
  }

  BufferedReader reader_;
  std::string name_;
  FrameFormat format_;
  std::string line_;
  std::uint64_t line_offset_ = 0;
  std::int64_t frames_read_ = 0;
  int segment_ = 0;  // 0-based index of the current segment
  bool ended_ = false;
  absl::Status error_;
};

absl::StatusOr<std::unique_ptr<FrameSource>> MakeY4m(std::unique_ptr<ByteInput> input,
                                                     std::size_t buffer_bytes, std::string name) {
  auto source = std::make_unique<Y4mSource>(std::move(input), buffer_bytes, std::move(name));
  absl::Status s = source->Init();
  if (!s.ok()) return s;
  return std::unique_ptr<FrameSource>(std::move(source));
}

}  // namespace

absl::StatusOr<std::unique_ptr<FrameSource>> OpenY4mSource(const std::string& path) {
  absl::StatusOr<std::unique_ptr<ByteInput>> input = internal::OpenByteInput(path);
  if (!input.ok()) return input.status();
  return MakeY4m(std::move(*input), BufferedReader::kFdBufferBytes, path == "-" ? "stdin" : path);
}

absl::StatusOr<std::unique_ptr<FrameSource>> MakeY4mSource(std::istream& in, std::string name) {
  return MakeY4m(internal::IstreamByteInput(in, name), BufferedReader::kIstreamBufferBytes, name);
}

}  // namespace streampipe::video
