#include "byte_reader.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <ios>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace streampipe::video::internal {
namespace {

class FdInput final : public ByteInput {
 public:
  FdInput(int fd, bool owned, std::string name) : fd_(fd), owned_(owned), name_(std::move(name)) {}
  ~FdInput() override {
    if (owned_) ::close(fd_);
  }
  FdInput(const FdInput&) = delete;
  FdInput& operator=(const FdInput&) = delete;

  absl::StatusOr<std::size_t> ReadSome(char* dst, std::size_t n) override {
    for (;;) {
      const ssize_t got = ::read(fd_, dst, n);
      if (got >= 0) return static_cast<std::size_t>(got);
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        // A non-blocking descriptor (stdin a pipe or terminal someone set O_NONBLOCK on) with
        // nothing in it yet: wait for bytes, as a blocking read would, instead of failing the
        // run (before session 50: "read failed: Resource temporarily unavailable").
        pollfd p{.fd = fd_, .events = POLLIN, .revents = 0};
        if (::poll(&p, 1, -1) >= 0 || errno == EINTR) continue;
      }
      if (errno == EISDIR) {
        // stdin a directory (`< /tmp`): no input, as a directory named as the input is.
        return absl::FailedPreconditionError(absl::StrCat(name_, ": is a directory, not a file"));
      }
      return absl::UnavailableError(
          absl::StrCat(name_, ": read failed: ", std::strerror(errno)));
    }
  }

 private:
  int fd_;
  bool owned_;
  std::string name_;
};

class IstreamInput final : public ByteInput {
 public:
  IstreamInput(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {}

  absl::StatusOr<std::size_t> ReadSome(char* dst, std::size_t n) override {
    if (!error_.ok()) return error_;
    if (n == 0) return 0;
    std::size_t got = 0;
    try {
      in_.read(dst, static_cast<std::streamsize>(n));
      got = static_cast<std::size_t>(in_.gcount());
      if (in_.bad()) {
        error_ = absl::InternalError(absl::StrCat(name_, ": the input stream went bad"));
      }
    } catch (const std::exception& e) {
      got = static_cast<std::size_t>(in_.gcount());
      error_ = absl::InternalError(absl::StrCat(name_, ": the input stream threw: ", e.what()));
    }
    // The bytes that came before the failure are good: hand them out, fail on the next call.
    if (got > 0 || error_.ok()) return got;
    return error_;
  }

 private:
  std::istream& in_;
  std::string name_;
  absl::Status error_;
};

absl::Status OpenError(const std::string& path, int err) {
  const std::string msg = absl::StrCat(path, ": cannot open: ", std::strerror(err));
  switch (err) {
    case ENOENT:
    case ENOTDIR:
    case ENAMETOOLONG:
    case ELOOP:  // a loop of links names no file
      return absl::NotFoundError(msg);
    case EACCES:
    case EPERM:
      return absl::PermissionDeniedError(msg);
    default:
      return absl::UnavailableError(msg);
  }
}

}  // namespace

absl::StatusOr<std::unique_ptr<ByteInput>> OpenByteInput(const std::string& path) {
  if (path == "-") return std::make_unique<FdInput>(STDIN_FILENO, false, "stdin");
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return OpenError(path, errno);
  auto input = std::make_unique<FdInput>(fd, true, path);
  struct stat st;
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    // Not an input (exit 66 in the command line, as for a missing file), not bad data in one.
    return absl::FailedPreconditionError(absl::StrCat(path, ": is a directory, not a file"));
  }
  return input;
}

std::unique_ptr<ByteInput> IstreamByteInput(std::istream& in, std::string name) {
  return std::make_unique<IstreamInput>(in, std::move(name));
}

BufferedReader::BufferedReader(std::unique_ptr<ByteInput> input, std::size_t buffer_bytes)
    : input_(std::move(input)),
      buffer_(new char[std::max<std::size_t>(buffer_bytes, 64)]),
      capacity_(std::max<std::size_t>(buffer_bytes, 64)) {}

absl::StatusOr<bool> BufferedReader::Fill() {
  begin_ = end_ = 0;
  if (at_end_) return false;
  absl::StatusOr<std::size_t> got = input_->ReadSome(buffer_.get(), capacity_);
  if (!got.ok()) return got.status();
  if (*got == 0) {
    at_end_ = true;
    return false;
  }
  end_ = *got;
  return true;
}

absl::StatusOr<std::size_t> BufferedReader::Read(std::byte* dst, std::size_t n) {
  char* out = reinterpret_cast<char*>(dst);
  std::size_t done = 0;
  while (done < n) {
    if (begin_ < end_) {
      const std::size_t take = std::min(n - done, end_ - begin_);
      std::memcpy(out + done, buffer_.get() + begin_, take);
      begin_ += take;
      done += take;
      offset_ += take;
      continue;
    }
    if (at_end_) break;
    // Large remainders go straight into dst: no copy, and the pipe's own chunking decides
    // the syscall sizes.
    if (n - done >= capacity_ / 2) {
      absl::StatusOr<std::size_t> got = input_->ReadSome(out + done, n - done);
      if (!got.ok()) return got.status();
      if (*got == 0) {
        at_end_ = true;
        break;
      }
      done += *got;
      offset_ += *got;
      continue;
    }
    absl::StatusOr<bool> filled = Fill();
    if (!filled.ok()) return filled.status();
    if (!*filled) break;
  }
  return done;
}

absl::StatusOr<std::size_t> BufferedReader::Skip(std::size_t n) {
  std::size_t done = 0;
  while (done < n) {
    if (begin_ == end_) {
      absl::StatusOr<bool> filled = Fill();
      if (!filled.ok()) return filled.status();
      if (!*filled) break;
    }
    const std::size_t take = std::min(n - done, end_ - begin_);
    begin_ += take;
    done += take;
    offset_ += take;
  }
  return done;
}

absl::StatusOr<LineEnd> BufferedReader::ReadLine(std::size_t limit, std::string* line) {
  line->clear();
  while (line->size() < limit) {
    if (begin_ == end_) {
      absl::StatusOr<bool> filled = Fill();
      if (!filled.ok()) return filled.status();
      if (!*filled) return LineEnd::kEnd;
    }
    const std::size_t avail = std::min(end_ - begin_, limit - line->size());
    const char* start = buffer_.get() + begin_;
    const void* nl = std::memchr(start, '\n', avail);
    if (nl != nullptr) {
      const std::size_t len = static_cast<const char*>(nl) - start;
      line->append(start, len);
      begin_ += len + 1;
      offset_ += len + 1;
      return LineEnd::kNewline;
    }
    line->append(start, avail);
    begin_ += avail;
    offset_ += avail;
  }
  return LineEnd::kTooLong;
}

std::string QuoteForMessage(std::string_view s, std::size_t max) {
  std::string out = "'";
  for (std::size_t i = 0; i < s.size() && i < max; ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\') {
      out.push_back(static_cast<char>(c));
    } else {
      out += absl::StrFormat("\\x%02x", c);
    }
  }
  out.push_back('\'');
  if (s.size() > max) out += "...";
  return out;
}

}  // namespace streampipe::video::internal
