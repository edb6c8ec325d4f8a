#include "staged_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "cli.hpp"
#include "streampipe/video/histogram_writer.hpp"

namespace streampipe::cli {
namespace {

namespace fs = std::filesystem;

std::string ErrnoText(int err) { return std::strerror(err); }

// The whole file, or nullopt where it cannot be read. Only a regular file is read: a directory
// made the stream throw, and a FIFO blocked its open until a writer came.
std::optional<std::string> ReadAll(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  std::optional<std::string> text;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    text.emplace();
    char buf[1 << 16];
    for (;;) {
      const ssize_t n = ::read(fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        text.reset();
        break;
      }
      if (n == 0) break;
      text->append(buf, static_cast<std::size_t>(n));
    }
  }
  ::close(fd);
  return text;
}

// A .partial name that is there but is no regular file (a directory, a FIFO): refused, naming it.
absl::Status CheckPartialKind(const std::string& partial) {
  std::error_code ec;
  const fs::file_status st = fs::status(partial, ec);
  if (!fs::exists(st) || fs::is_regular_file(st)) return absl::OkStatus();
  return absl::FailedPreconditionError(
      absl::StrCat("'", partial, "' is there and is not a regular file (",
                   fs::is_directory(st) ? "a directory" : "a FIFO, device or socket",
                   "): move or remove it first"));
}

}  // namespace

absl::StatusOr<StagedFile> StagedFile::Open(std::string path, std::string_view header,
                                            StaleData stale_data) {
  StagedFile f;
  // One of this process's descriptors (/dev/stdout, /dev/fd/3): written through a copy of it.
  // Staged, its rename replaced the file the shell had opened (`--output=/dev/stdout >> log`
  // kept the histograms alone, before session 51).
  if (const std::optional<int> descriptor = video::DescriptorNamedBy(path)) {
    absl::StatusOr<int> fd = video::DuplicateForWriting(*descriptor, path);
    if (!fd.ok()) return fd.status();
    f.staged_ = false;
    f.path_ = std::move(path);
    f.target_ = f.path_;
    f.partial_ = f.path_;
    f.fd_ = *fd;
    // The header waits for the first data or the commit: a command that fails before (sweep
    // without a GPU) leaves nothing in the shell's file (it left the CSV's header, before
    // session 51's review).
    f.pending_ = std::string(header);
    return f;
  }
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);  // follows links
  if (fs::is_directory(st)) {
    return absl::FailedPreconditionError(absl::StrCat("'", path, "' is a directory"));
  }
  if (fs::exists(st) && !fs::is_regular_file(st)) {
    // A device, a FIFO, a socket: written as it is; there is nothing to replace.
    f.staged_ = false;
    f.path_ = std::move(path);
    f.target_ = f.path_;
    f.partial_ = f.path_;
    // Not blocking: a FIFO no reader has opened yet is opened when the first byte goes to it
    // (a reader is waited for then, as `echo > fifo` waits). Before session 49 Open waited
    // here, before the command's own checks: `calibrate` and `sweep` on a machine without a GPU
    // hung instead of saying so.
    f.fd_ = ::open(f.path_.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (f.fd_ < 0 && errno == ENXIO && ::access(f.path_.c_str(), W_OK) == 0) {
      f.deferred_ = true;
      f.pending_ = std::string(header);
      return f;
    }
    if (f.fd_ < 0) {
      return absl::PermissionDeniedError(
          absl::StrCat("cannot open '", f.path_, "': ", ErrnoText(errno)));
    }
    const int flags = ::fcntl(f.fd_, F_GETFL);
    if (flags < 0 || ::fcntl(f.fd_, F_SETFL, flags & ~O_NONBLOCK) != 0) {
      return absl::PermissionDeniedError(
          absl::StrCat("cannot set '", f.path_, "' blocking: ", ErrnoText(errno)));
    }
  } else {
    if (absl::Status n = f.Name(std::move(path)); !n.ok()) return n;
    if (absl::Status k = CheckPartialKind(f.partial_); !k.ok()) return k;
    f.fd_ = ::open(f.partial_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (f.fd_ < 0 && errno == EEXIST) {
      // An earlier run's file: taken over only where it holds the header alone.
      const std::optional<std::string> before = ReadAll(f.partial_);
      if (!before || (*before != header && stale_data == StaleData::kRefuse)) {
        return absl::AlreadyExistsError(
            absl::StrCat("'", f.partial_,
                         "' is there from an earlier run that stopped part way, and holds its "
                         "data: move or remove it first"));
      }
      // Emptied only once locked: a run that has just written that header holds the lock.
      f.fd_ = ::open(f.partial_.c_str(), O_WRONLY | O_CLOEXEC);
      if (f.fd_ >= 0) {
        if (absl::Status l = f.Lock(); !l.ok()) return l;
        if (::ftruncate(f.fd_, 0) != 0) {
          const int err = errno;
          ::close(f.fd_);
          f.fd_ = -1;
          return absl::PermissionDeniedError(
              absl::StrCat("cannot empty '", f.partial_, "': ", ErrnoText(err)));
        }
      }
    } else if (f.fd_ >= 0) {
      if (absl::Status l = f.Lock(); !l.ok()) return l;
    }
    if (f.fd_ < 0) {
      return absl::PermissionDeniedError(
          absl::StrCat("cannot create '", f.partial_, "': ", ErrnoText(errno)));
    }
  }
  if (absl::Status w = f.WriteAll(header); !w.ok()) return w;
  return f;
}

std::string StagedFile::PartialPathFor(const std::string& path) {
  if (path.empty() || path == "-" || video::DescriptorNamedBy(path)) return "";
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (fs::exists(st) && !fs::is_regular_file(st)) return "";
  const absl::StatusOr<std::string> target = FollowLinks(path);
  return (target.ok() ? *target : path) + ".partial";
}

absl::Status StagedFile::Name(std::string path) {
  path_ = std::move(path);
  // The link stays; the file it names is replaced (or created, where the link dangles).
  absl::StatusOr<std::string> target = FollowLinks(path_);
  if (!target.ok()) return target.status();
  target_ = *std::move(target);
  partial_ = target_ + ".partial";
  return absl::OkStatus();
}

absl::Status StagedFile::Lock() {
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    // Not ours to remove: the run that holds it is still writing it.
    ::close(fd_);
    fd_ = -1;
    if (err == EWOULDBLOCK) {
      return absl::AlreadyExistsError(
          absl::StrCat("'", partial_, "' is being written by another run"));
    }
    return absl::PermissionDeniedError(
        absl::StrCat("cannot lock '", partial_, "': ", ErrnoText(err)));
  }
  return absl::OkStatus();
}

absl::StatusOr<StagedFile> StagedFile::Resume(std::string path, std::string_view header) {
  StagedFile f;
  if (absl::Status n = f.Name(std::move(path)); !n.ok()) return n;
  std::error_code ec;
  if (!fs::exists(f.partial_, ec)) {
    return absl::NotFoundError(absl::StrCat("no '", f.partial_, "' to resume"));
  }
  // Before it is opened: a FIFO's open for writing waits for a reader.
  if (absl::Status k = CheckPartialKind(f.partial_); !k.ok()) return k;
  // Locked before it is read: a run still writing it holds the lock.
  f.fd_ = ::open(f.partial_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (f.fd_ < 0) {
    return absl::PermissionDeniedError(
        absl::StrCat("cannot append to '", f.partial_, "': ", ErrnoText(errno)));
  }
  // Not made by this run: kept whatever happens before it is taken up.
  f.has_data_ = true;
  if (absl::Status l = f.Lock(); !l.ok()) return l;
  const std::optional<std::string> text = ReadAll(f.partial_);
  if (!text) {
    return absl::PermissionDeniedError(absl::StrCat("cannot read '", f.partial_, "'"));
  }
  if (text->compare(0, header.size(), header) != 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("'", f.partial_, "' does not start with the header this run writes"));
  }
  if (!text->empty() && text->back() != '\n') {
    return absl::FailedPreconditionError(
        absl::StrCat("'", f.partial_, "' ends in a line cut short (a run stopped in the middle "
                     "of a write): remove that line first"));
  }
  f.resumed_ = text->substr(header.size());
  f.has_data_ = !f.resumed_.empty();
  return f;
}

StagedFile::StagedFile(StagedFile&& other) noexcept
    : path_(std::move(other.path_)),
      target_(std::move(other.target_)),
      partial_(std::move(other.partial_)),
      resumed_(std::move(other.resumed_)),
      fd_(std::exchange(other.fd_, -1)),
      staged_(other.staged_),
      has_data_(other.has_data_),
      deferred_(std::exchange(other.deferred_, false)),
      pending_(std::move(other.pending_)) {}

StagedFile& StagedFile::operator=(StagedFile&& other) noexcept {
  if (this != &other) {
    Release();
    path_ = std::move(other.path_);
    target_ = std::move(other.target_);
    partial_ = std::move(other.partial_);
    resumed_ = std::move(other.resumed_);
    fd_ = std::exchange(other.fd_, -1);
    staged_ = other.staged_;
    has_data_ = other.has_data_;
    deferred_ = std::exchange(other.deferred_, false);
    pending_ = std::move(other.pending_);
  }
  return *this;
}

StagedFile::~StagedFile() { Release(); }

absl::Status StagedFile::OpenDeferred() {
  if (!deferred_) return absl::OkStatus();
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);  // waits for a reader
  if (fd_ < 0) {
    return absl::PermissionDeniedError(
        absl::StrCat("cannot open '", path_, "': ", ErrnoText(errno)));
  }
  deferred_ = false;
  return WritePending();
}

absl::Status StagedFile::WritePending() {
  if (pending_.empty()) return absl::OkStatus();
  const std::string header = std::exchange(pending_, std::string());
  return WriteAll(header);
}

void StagedFile::Release() {
  deferred_ = false;  // never opened: nothing was written to it
  if (fd_ < 0) return;
  ::close(fd_);
  fd_ = -1;
  if (staged_ && !has_data_) ::unlink(partial_.c_str());
}

absl::Status StagedFile::WriteAll(std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd_, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      return absl::DataLossError(
          absl::StrCat("writing '", partial_, "' failed: ", ErrnoText(n < 0 ? errno : EIO)));
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return absl::OkStatus();
}

absl::Status StagedFile::Append(std::string_view data) {
  if (fd_ < 0 && !deferred_) {
    return absl::FailedPreconditionError(absl::StrCat("'", path_, "' is closed"));
  }
  if (absl::Status o = OpenDeferred(); !o.ok()) return o;
  if (data.empty()) return absl::OkStatus();
  has_data_ = true;  // even a failed write may have left part of it: keep the file
  if (absl::Status h = WritePending(); !h.ok()) return h;
  return WriteAll(data);
}

absl::Status StagedFile::Finish(std::string_view data) {
  absl::Status s = Append(data);
  return s.ok() ? Commit() : s;
}

absl::Status StagedFile::Commit() {
  if (fd_ < 0 && !deferred_) {
    return absl::FailedPreconditionError(absl::StrCat("'", path_, "' is closed"));
  }
  // A FIFO nothing was written to yet still gets its header (a reader waits for it), and so
  // does a descriptor.
  if (absl::Status o = OpenDeferred(); !o.ok()) return o;
  if (absl::Status h = WritePending(); !h.ok()) return h;
  // The file it replaces keeps its permissions (a private 0600 output became 0644 under the
  // usual umask, before session 50). Here, not at Open: a .partial file kept writable while
  // the run writes it (and a resumed one). Best effort: the run's own file, so it fails only
  // where the file system has no modes.
  struct stat target_st;
  if (staged_ && ::stat(target_.c_str(), &target_st) == 0 && S_ISREG(target_st.st_mode)) {
    (void)::fchmod(fd_, target_st.st_mode & 07777);
  }
  const int closed = ::close(fd_);
  const int err = errno;
  fd_ = -1;
  if (closed != 0) {
    return absl::DataLossError(absl::StrCat("closing '", partial_, "' failed: ", ErrnoText(err),
                                            "; what was written is in it"));
  }
  if (!staged_) return absl::OkStatus();
  if (std::rename(partial_.c_str(), target_.c_str()) != 0) {
    return absl::PermissionDeniedError(absl::StrCat("cannot rename '", partial_, "' to '",
                                                    target_, "' (", ErrnoText(errno),
                                                    "); the data is in the former"));
  }
  return absl::OkStatus();
}

}  // namespace streampipe::cli
