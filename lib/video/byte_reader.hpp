// Internal: buffered, non-seeking byte input for the frame sources, over a file descriptor
// (files, stdin pipes) or a std::istream (tests, the fuzzer). Unlike std::istream it tells an
// I/O error (Unavailable / Internal, with strerror) from the end of the stream, keeps the
// byte offset for messages, and reads large blocks straight into the caller's buffer.
#ifndef STREAMPIPE_LIB_VIDEO_BYTE_READER_HPP_
#define STREAMPIPE_LIB_VIDEO_BYTE_READER_HPP_

#include <cstddef>
#include <cstdint>
#include <istream>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace streampipe::video::internal {

class ByteInput {
 public:
  virtual ~ByteInput() = default;
  // Reads up to n bytes (at least 1 unless at the end); 0 at the end of the stream.
  virtual absl::StatusOr<std::size_t> ReadSome(char* dst, std::size_t n) = 0;
};

// "-" is standard input (not closed). NotFound / PermissionDenied / InvalidArgument (a
// directory) / Unavailable (other open errors), messages naming the path.
absl::StatusOr<std::unique_ptr<ByteInput>> OpenByteInput(const std::string& path);
// `in` must outlive the result. Exceptions from `in` become Internal.
std::unique_ptr<ByteInput> IstreamByteInput(std::istream& in, std::string name);

// How ReadLine stopped.
enum class LineEnd { kNewline, kEnd, kTooLong };

class BufferedReader {
 public:
  // Files and pipes: big reads, few syscalls. A std::istream buffers on its own.
  static constexpr std::size_t kFdBufferBytes = 1 << 20;
  static constexpr std::size_t kIstreamBufferBytes = 64 << 10;

  BufferedReader(std::unique_ptr<ByteInput> input, std::size_t buffer_bytes);

  // Reads n bytes into dst; fewer only at the end of the stream. Large reads bypass the buffer.
  absl::StatusOr<std::size_t> Read(std::byte* dst, std::size_t n);
  // Reads and drops n bytes (pipes cannot seek); fewer only at the end of the stream.
  absl::StatusOr<std::size_t> Skip(std::size_t n);
  // Reads up to and including '\n', at most `limit` bytes; *line gets the bytes without the
  // '\n'. kEnd: the stream ended first (*line holds what there was, maybe nothing); kTooLong:
  // `limit` bytes and no '\n' (they are consumed).
  absl::StatusOr<LineEnd> ReadLine(std::size_t limit, std::string* line);

  // Bytes consumed so far.
  std::uint64_t offset() const { return offset_; }

 private:
  // Refills an empty buffer; false at the end of the stream.
  absl::StatusOr<bool> Fill();

  std::unique_ptr<ByteInput> input_;
  std::unique_ptr<char[]> buffer_;  // not zero-filled: the fuzzer makes thousands a second
  std::size_t capacity_;
  std::size_t begin_ = 0;  // unread bytes are buffer_[begin_, end_)
  std::size_t end_ = 0;
  std::uint64_t offset_ = 0;
  bool at_end_ = false;
};

// `s` quoted for a message: at most `max` bytes, non-printable bytes as \xNN, "..." when cut.
std::string QuoteForMessage(std::string_view s, std::size_t max = 24);

}  // namespace streampipe::video::internal

#endif  // STREAMPIPE_LIB_VIDEO_BYTE_READER_HPP_
