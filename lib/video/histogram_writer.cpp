#include "streampipe/video/histogram_writer.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string_view>
#include <system_error>
#include <limits>

#include "absl/strings/str_cat.h"
#include "byte_reader.hpp"

namespace streampipe::video {
namespace {

constexpr std::size_t kBufferBytes = 1 << 20;
// The longest CSV line: 20 digits of index, 256 x (',' + 10 digits), '\n'.
constexpr std::size_t kMaxCsvLine = 20 + 256 * 11 + 1;

void PutLe32(std::string& out, std::uint32_t v) {
  const char b[4] = {static_cast<char>(v), static_cast<char>(v >> 8), static_cast<char>(v >> 16),
                     static_cast<char>(v >> 24)};
  out.append(b, 4);
}

void PutLe64(std::string& out, std::uint64_t v) {
  PutLe32(out, static_cast<std::uint32_t>(v));
  PutLe32(out, static_cast<std::uint32_t>(v >> 32));
}

std::uint32_t GetLe32(const char* p) {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  return static_cast<std::uint32_t>(u[0]) | static_cast<std::uint32_t>(u[1]) << 8 |
         static_cast<std::uint32_t>(u[2]) << 16 | static_cast<std::uint32_t>(u[3]) << 24;
}

std::uint64_t GetLe64(const char* p) {
  return static_cast<std::uint64_t>(GetLe32(p)) |
         static_cast<std::uint64_t>(GetLe32(p + 4)) << 32;
}

absl::Status IoError(const std::string& path, const char* what, int err) {
  return absl::UnavailableError(absl::StrCat(path, ": ", what, ": ", std::strerror(err)));
}

absl::StatusOr<std::vector<std::pair<std::int64_t, Histogram>>> ParseCsv(const std::string& path,
                                                                           std::string_view text) {
  std::vector<std::pair<std::int64_t, Histogram>> out;
  std::size_t pos = 0;
  std::int64_t line_no = 0;
  while (pos < text.size()) {
    ++line_no;
    const std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) {
      return absl::DataLossError(absl::StrCat(path, ": line ", line_no,
                                              ": no final '\\n' (truncated file?)"));
    }
    const std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    std::pair<std::int64_t, Histogram> rec{};
    std::size_t field = 0;
    std::size_t start = 0;
    for (;;) {
      std::size_t comma = line.find(',', start);
      const bool last = comma == std::string_view::npos;
      if (last) comma = line.size();
      const std::string_view token = line.substr(start, comma - start);
      if (field > 256) {
        return absl::InvalidArgumentError(
            absl::StrCat(path, ": line ", line_no, ": more than 257 fields"));
      }
      const char* first = token.data();
      const char* end = token.data() + token.size();
      bool ok = !token.empty() && token[0] >= '0' && token[0] <= '9';
      if (field == 0) {
        std::uint64_t v = 0;
        const auto [p, ec] = std::from_chars(first, end, v);
        ok = ok && ec == std::errc() && p == end &&
             v <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
        rec.first = static_cast<std::int64_t>(v);
      } else {
        std::uint32_t v = 0;
        const auto [p, ec] = std::from_chars(first, end, v);
        ok = ok && ec == std::errc() && p == end;
        rec.second[field - 1] = v;
      }
      if (!ok) {
        return absl::InvalidArgumentError(absl::StrCat(
            path, ": line ", line_no, ", field ", field, ": ",
            internal::QuoteForMessage(token), " is not ",
            field == 0 ? "a frame index (0..2^63-1)" : "a count (0..2^32-1)"));
      }
      ++field;
      if (last) break;
      start = comma + 1;
    }
    if (field != 257) {
      return absl::InvalidArgumentError(absl::StrCat(path, ": line ", line_no, ": ", field,
                                                     " fields, expected 257 (index + 256 counts)"));
    }
    out.push_back(rec);
  }
  return out;
}

absl::StatusOr<std::vector<std::pair<std::int64_t, Histogram>>> ParseBinary(
    const std::string& path, std::string_view data) {
  if (data.size() < kHistogramHeaderBytes) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", data.size(),
                                                   " bytes, shorter than the 16-byte header"));
  }
  if (std::memcmp(data.data(), kHistogramMagic, 8) != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": magic at byte 0 is ", internal::QuoteForMessage(data.substr(0, 8)),
        ", expected 'SPHIST01'"));
  }
  const std::uint32_t version = GetLe32(data.data() + 8);
  if (version != kHistogramVersion) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": version (byte 8) is ", version, ", expected 1"));
  }
  const std::uint32_t bins = GetLe32(data.data() + 12);
  if (bins != 256) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": bins (byte 12) is ", bins, ", expected 256"));
  }
  const std::size_t body = data.size() - kHistogramHeaderBytes;
  const std::size_t frames = body / kHistogramRecordBytes;
  if (body % kHistogramRecordBytes != 0) {
    return absl::DataLossError(absl::StrCat(
        path, ": ", body % kHistogramRecordBytes, " trailing bytes after frame record ", frames,
        " (records are 1032 bytes from byte 16; truncated file?)"));
  }
  std::vector<std::pair<std::int64_t, Histogram>> out(frames);
  for (std::size_t i = 0; i < frames; ++i) {
    const char* p = data.data() + kHistogramHeaderBytes + i * kHistogramRecordBytes;
    const std::uint64_t index = GetLe64(p);
    if (index > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      return absl::InvalidArgumentError(absl::StrCat(path, ": record ", i, " (byte ",
                                                     p - data.data(), "): frame index ", index,
                                                     " is >= 2^63"));
    }
    out[i].first = static_cast<std::int64_t>(index);
    for (int b = 0; b < 256; ++b) out[i].second[b] = GetLe32(p + 8 + 4 * b);
  }
  return out;
}

}  // namespace

const char* HistogramFormatName(HistogramFormat format) {
  return format == HistogramFormat::kCsv ? "csv" : "binary";
}

absl::StatusOr<HistogramFormat> ParseHistogramFormat(std::string_view name) {
  if (name == "csv") return HistogramFormat::kCsv;
  if (name == "binary") return HistogramFormat::kBinary;
  return absl::InvalidArgumentError(absl::StrCat("unknown histogram format '", std::string(name),
                                                 "'; expected csv or binary"));
}

HistogramWriter::HistogramWriter(int fd, bool owned, std::string path, HistogramFormat format)
    : fd_(fd), owned_(owned), path_(std::move(path)), format_(format) {
  buffer_.reserve(kBufferBytes + kMaxCsvLine);
  if (format_ == HistogramFormat::kBinary) {
    buffer_.append(kHistogramMagic, 8);
    PutLe32(buffer_, kHistogramVersion);
    PutLe32(buffer_, 256);
  }
}

HistogramWriter::~HistogramWriter() { (void)Close(); }

absl::Status HistogramWriter::Flush() {
  std::size_t done = 0;
  while (done < buffer_.size()) {
    const ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      status_ = IoError(path_, "write failed", errno);
      return status_;
    }
    done += static_cast<std::size_t>(n);
  }
  buffer_.clear();
  return absl::OkStatus();
}

absl::Status HistogramWriter::Write(std::int64_t frame_index, const Histogram& counts) {
  if (closed_) {
    return absl::FailedPreconditionError(absl::StrCat(path_, ": Write after Close"));
  }
  if (!status_.ok()) return status_;
  if (frame_index < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(path_, ": frame index ", frame_index, " is negative"));
  }
  if (format_ == HistogramFormat::kBinary) {
    PutLe64(buffer_, static_cast<std::uint64_t>(frame_index));
    if constexpr (std::endian::native == std::endian::little) {
      buffer_.append(reinterpret_cast<const char*>(counts.data()), 256 * 4);
    } else {
      for (std::uint32_t c : counts) PutLe32(buffer_, c);
    }
  } else {
    char line[kMaxCsvLine];
    char* p = line;
    char* const end = line + sizeof(line);
    p = std::to_chars(p, end, frame_index).ptr;
    for (std::uint32_t c : counts) {
      *p++ = ',';
      if (c == 0) {  // most bins of most frames
        *p++ = '0';
      } else {
        p = std::to_chars(p, end, c).ptr;
      }
    }
    *p++ = '\n';
    buffer_.append(line, static_cast<std::size_t>(p - line));
  }
  ++frames_written_;
  if (buffer_.size() >= kBufferBytes) return Flush();
  return absl::OkStatus();
}

absl::Status HistogramWriter::Close() {
  if (closed_) return status_;
  closed_ = true;
  if (status_.ok()) (void)Flush();
  if (owned_) {
    if (::close(fd_) != 0 && status_.ok()) status_ = IoError(path_, "close failed", errno);
  }
  return status_;
}

std::optional<int> DescriptorNamedBy(const std::string& path) {
  namespace fs = std::filesystem;
  if (path.empty() || path == "-") return std::nullopt;
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  if (ec) return std::nullopt;
  const std::string self = absl::StrCat("/proc/", ::getpid());
  // A descriptor's number as /proc writes it: digits, no leading zero (/dev/fd/01 is no file).
  const auto number = [](std::string_view s) -> std::optional<int> {
    if (s.empty() || (s.size() > 1 && s.front() == '0')) return std::nullopt;
    int fd = -1;
    const auto [end, err] = std::from_chars(s.data(), s.data() + s.size(), fd);
    if (err != std::errc() || end != s.data() + s.size() || fd < 0) return std::nullopt;
    return fd;
  };
  // At each name along the links, its directory as the kernel resolves it (/dev/fd is
  // /proc/self/fd, which is /proc/<pid>/fd; a link to either too) and its last name as written:
  // /dev/stdout is a link to /proc/self/fd/1, itself a link to the file the descriptor has
  // open. (Lexically, before session 51's review, a directory link to /dev/fd was missed, and
  // /dev/fd/../stdout, which is no file, was taken as descriptor 1.)
  for (int hops = 0; hops < 40; ++hops) {
    const fs::path dir = fs::canonical(p.parent_path(), ec);
    if (ec) return std::nullopt;
    const std::string leaf = p.filename().string();
    const std::string d = dir.string();
    if (d == "/dev") {
      if (leaf == "stdin") return 0;
      if (leaf == "stdout") return 1;
      if (leaf == "stderr") return 2;
    }
    const bool task_fd = d.starts_with(self + "/task/") && d.ends_with("/fd");
    if (d == self + "/fd" || task_fd) return number(leaf);
    const fs::path at = dir / leaf;
    if (leaf.empty() || !fs::is_symlink(fs::symlink_status(at, ec))) return std::nullopt;
    const fs::path to = fs::read_symlink(at, ec);
    if (ec) return std::nullopt;
    p = to.is_absolute() ? to : dir / to;
  }
  return std::nullopt;
}

absl::StatusOr<int> DuplicateForWriting(int descriptor, const std::string& path) {
  const int fd = ::fcntl(descriptor, F_DUPFD_CLOEXEC, 3);
  if (fd < 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        path, ": names descriptor ", descriptor, ", which is not open (", std::strerror(errno),
        ")"));
  }
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY) {
    ::close(fd);
    // (A standard descriptor the caller closed is held by /dev/null for reading: main.cpp.)
    return absl::FailedPreconditionError(absl::StrCat(
        path, ": names descriptor ", descriptor, ", which is not open for writing"));
  }
  return fd;
}

absl::StatusOr<std::unique_ptr<HistogramWriter>> OpenHistogramWriter(const std::string& path,
                                                                     HistogramFormat format) {
  if (path == "-") {
    return std::unique_ptr<HistogramWriter>(
        new HistogramWriter(STDOUT_FILENO, false, "stdout", format));
  }
  if (const std::optional<int> descriptor = DescriptorNamedBy(path)) {
    absl::StatusOr<int> fd = DuplicateForWriting(*descriptor, path);
    if (!fd.ok()) return fd.status();
    return std::unique_ptr<HistogramWriter>(new HistogramWriter(*fd, true, path, format));
  }
  int fd;
  do {
    fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    const int err = errno;
    const std::string msg = absl::StrCat(path, ": cannot create: ", std::strerror(err));
    if (err == ENOENT || err == ENOTDIR) return absl::NotFoundError(msg);
    if (err == EACCES || err == EPERM || err == EROFS) return absl::PermissionDeniedError(msg);
    if (err == EISDIR) return absl::InvalidArgumentError(msg);
    return absl::UnavailableError(msg);
  }
  return std::unique_ptr<HistogramWriter>(new HistogramWriter(fd, true, path, format));
}

absl::StatusOr<std::vector<std::pair<std::int64_t, Histogram>>> ReadHistogramFile(
    const std::string& path, HistogramFormat format) {
  absl::StatusOr<std::unique_ptr<internal::ByteInput>> input = internal::OpenByteInput(path);
  if (!input.ok()) return input.status();
  std::string data;
  std::size_t size = 0;
  for (;;) {
    if (data.size() - size < (1 << 16)) data.resize(std::max<std::size_t>(2 * data.size(), 1 << 20));
    absl::StatusOr<std::size_t> got = (*input)->ReadSome(data.data() + size, data.size() - size);
    if (!got.ok()) return got.status();
    if (*got == 0) break;
    size += *got;
  }
  data.resize(size);
  return format == HistogramFormat::kCsv ? ParseCsv(path, data) : ParseBinary(path, data);
}

}  // namespace streampipe::video
