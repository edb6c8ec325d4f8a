// Writing per-frame histograms to a file or stdout, as CSV or as the binary format of
// docs/histogram-format.md, and reading them back (tests, tools).
//
//   STREAMPIPE_ASSIGN_OR_RETURN(auto w, streampipe::video::OpenHistogramWriter(
//                                           "out.bin", streampipe::video::HistogramFormat::kBinary));
//   for (...) STREAMPIPE_RETURN_IF_ERROR(w->Write(index, histogram));
//   STREAMPIPE_RETURN_IF_ERROR(w->Close());  // a full disk shows up here at the latest
//
// CSV: one line per frame, "index,c0,c1,...,c255\n", no header line.
// Binary: a 16-byte header ("SPHIST01", uint32 LE version 1, uint32 LE bins 256), then per
// frame a uint64 LE index and 256 uint32 LE counts (1032 bytes).
#ifndef STREAMPIPE_VIDEO_HISTOGRAM_WRITER_HPP_
#define STREAMPIPE_VIDEO_HISTOGRAM_WRITER_HPP_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "streampipe/video/histogram_cpu.hpp"

namespace streampipe::video {

enum class HistogramFormat { kCsv, kBinary };

inline constexpr char kHistogramMagic[8] = {'S', 'P', 'H', 'I', 'S', 'T', '0', '1'};
inline constexpr std::uint32_t kHistogramVersion = 1;
inline constexpr std::size_t kHistogramHeaderBytes = 16;
inline constexpr std::size_t kHistogramRecordBytes = 8 + 256 * 4;

// "csv", "binary".
const char* HistogramFormatName(HistogramFormat format);
// "csv" or "binary"; InvalidArgument naming the text otherwise.
absl::StatusOr<HistogramFormat> ParseHistogramFormat(std::string_view name);

// Buffers about 1 MiB and writes it with write(2); not thread-safe.
class HistogramWriter {
 public:
  ~HistogramWriter();  // Closes if Close was not called, dropping any error.
  HistogramWriter(const HistogramWriter&) = delete;
  HistogramWriter& operator=(const HistogramWriter&) = delete;

  // Appends one frame. InvalidArgument for frame_index < 0 (the writer stays usable);
  // Unavailable naming the path and strerror when a buffer flush fails (disk full, closed
  // pipe); FailedPrecondition after Close. After an I/O error every call returns it.
  absl::Status Write(std::int64_t frame_index, const Histogram& counts);

  // Flushes and closes the file (stdout is flushed, not closed). Unavailable naming the path
  // and strerror when the flush or close(2) fails. Calling it again returns the first result.
  absl::Status Close();

  const std::string& path() const { return path_; }
  HistogramFormat format() const { return format_; }
  std::int64_t frames_written() const { return frames_written_; }

 private:
  friend absl::StatusOr<std::unique_ptr<HistogramWriter>> OpenHistogramWriter(
      const std::string& path, HistogramFormat format);
  HistogramWriter(int fd, bool owned, std::string path, HistogramFormat format);
  absl::Status Flush();

  int fd_;
  bool owned_;
  bool closed_ = false;
  std::string path_;
  HistogramFormat format_;
  std::string buffer_;
  std::int64_t frames_written_ = 0;
  absl::Status status_;  // first I/O error, or Close's result once closed
};

// The descriptor of this process that `path` names, directly or through links: /dev/stdin,
// /dev/stdout, /dev/stderr (0-2), /dev/fd/N, /proc/self/fd/N, /proc/<this pid>/fd/N; nullopt
// for any other path. Opened again such a path would be a new open file: O_TRUNC would empty
// the file the shell opened for appending (`>> log`), a rename would replace it. Written
// through a copy of the descriptor instead, it goes where the descriptor goes.
std::optional<int> DescriptorNamedBy(const std::string& path);
// A close-on-exec copy of `descriptor` (the one DescriptorNamedBy(path) gave) to write to;
// FailedPrecondition naming `path` where the descriptor is not open, or not for writing.
absl::StatusOr<int> DuplicateForWriting(int descriptor, const std::string& path);

// Creates or truncates `path` ("-": standard output; a path naming one of this process's
// descriptors, DescriptorNamedBy, is written through a copy of it, neither truncated nor
// replaced: FailedPrecondition where that descriptor is not open for writing). The binary header is written (buffered)
// at once, so a binary file with no frames is 16 bytes. NotFound (missing directory),
// PermissionDenied, InvalidArgument (a directory) or Unavailable, naming the path.
absl::StatusOr<std::unique_ptr<HistogramWriter>> OpenHistogramWriter(const std::string& path,
                                                                     HistogramFormat format);

// Reads a whole file written by HistogramWriter, checking its format strictly:
//   CSV: every line exactly 257 fields of decimal digits ("index,c0..c255"), index < 2^63,
//     counts < 2^32, each line ending in '\n' -> InvalidArgument naming the line (1-based)
//     and field (0 = index); a last line without '\n' -> DataLoss (truncated file).
//   Binary: a short or wrong header -> InvalidArgument naming the field (magic, version,
//     bins) and the value found; a size not 16 + k*1032 -> DataLoss naming the trailing
//     bytes after the last whole frame; an index >= 2^63 -> InvalidArgument naming the frame.
//   NotFound / PermissionDenied / Unavailable when the file cannot be read.
absl::StatusOr<std::vector<std::pair<std::int64_t, Histogram>>> ReadHistogramFile(
    const std::string& path, HistogramFormat format);

}  // namespace streampipe::video

#endif  // STREAMPIPE_VIDEO_HISTOGRAM_WRITER_HPP_
