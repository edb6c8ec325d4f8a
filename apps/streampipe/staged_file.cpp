#include "staged_file.hpp"

#include <cstdio>
#include <filesystem>
#include <utility>

#include "absl/strings/str_cat.h"

namespace streampipe::cli {

absl::StatusOr<StagedFile> StagedFile::Open(std::string path, std::string_view header) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return absl::FailedPreconditionError(absl::StrCat("'", path, "' is a directory"));
  }
  StagedFile f(std::move(path));
  f.out_.open(f.partial_path(), std::ios::binary | std::ios::trunc);
  if (!f.out_) {
    return absl::PermissionDeniedError(absl::StrCat("cannot create '", f.partial_path(), "'"));
  }
  f.open_ = true;
  f.out_ << header;
  if (!f.out_.flush()) {
    return absl::DataLossError(absl::StrCat("writing '", f.partial_path(), "' failed"));
  }
  return f;
}

StagedFile::StagedFile(StagedFile&& other) noexcept
    : path_(std::move(other.path_)),
      out_(std::move(other.out_)),
      has_data_(other.has_data_),
      open_(std::exchange(other.open_, false)) {}

StagedFile& StagedFile::operator=(StagedFile&& other) noexcept {
  if (this != &other) {
    Release();
    path_ = std::move(other.path_);
    out_ = std::move(other.out_);
    has_data_ = other.has_data_;
    open_ = std::exchange(other.open_, false);
  }
  return *this;
}

StagedFile::~StagedFile() { Release(); }

void StagedFile::Release() {
  if (!open_) return;
  open_ = false;
  out_.close();
  if (!has_data_) std::remove(partial_path().c_str());
}

absl::Status StagedFile::Append(std::string_view data) {
  if (!open_) return absl::FailedPreconditionError(absl::StrCat("'", path_, "' is closed"));
  if (data.empty()) return absl::OkStatus();
  out_.write(data.data(), static_cast<std::streamsize>(data.size()));
  has_data_ = true;  // even a failed write may have left part of it: keep the file
  if (!out_.flush()) {
    return absl::DataLossError(absl::StrCat("writing '", partial_path(), "' failed"));
  }
  return absl::OkStatus();
}

absl::Status StagedFile::Commit() {
  if (!open_) return absl::FailedPreconditionError(absl::StrCat("'", path_, "' is closed"));
  out_.close();
  if (!out_) {
    has_data_ = true;  // keep what reached the disk
    Release();
    return absl::DataLossError(absl::StrCat("closing '", partial_path(), "' failed"));
  }
  open_ = false;
  if (std::rename(partial_path().c_str(), path_.c_str()) != 0) {
    return absl::PermissionDeniedError(absl::StrCat("cannot rename '", partial_path(), "' to '",
                                                    path_, "'; the data is in the former"));
  }
  return absl::OkStatus();
}

}  // namespace streampipe::cli
