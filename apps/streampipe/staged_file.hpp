// An output file written in steps under `<path>.partial` and renamed onto `<path>` when whole.
//
// A command that measures for minutes (`streampipe sweep`) must neither lose what it measured
// when it stops part way (an error, a signal, a timeout), nor find out only at the end that its
// output cannot be written. So the file is opened before the work starts (a bad path fails at
// once), each step is on disk when Append returns, and an earlier `<path>` stays as it was until
// Commit replaces it in one rename. Left uncommitted, the .partial file is kept where it holds
// data (what was measured) and removed where it holds the header alone.
#ifndef STREAMPIPE_APPS_STAGED_FILE_HPP_
#define STREAMPIPE_APPS_STAGED_FILE_HPP_

#include <fstream>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace streampipe::cli {

class StagedFile {
 public:
  // Creates (or empties) `<path>.partial` and writes `header` to it (not counted as data).
  // FailedPrecondition where `path` is a directory; PermissionDenied naming the file where it
  // cannot be created.
  static absl::StatusOr<StagedFile> Open(std::string path, std::string_view header = "");

  StagedFile(StagedFile&& other) noexcept;
  StagedFile& operator=(StagedFile&& other) noexcept;
  StagedFile(const StagedFile&) = delete;
  StagedFile& operator=(const StagedFile&) = delete;
  ~StagedFile();

  // Appends `data` and flushes it. DataLoss naming the file where the write fails (a full disk).
  absl::Status Append(std::string_view data);
  // Closes the file and renames it onto `path`. Where the rename fails the .partial file is kept
  // and the error names both files. Commit twice, or after a move, is FailedPrecondition.
  absl::Status Commit();

  const std::string& path() const { return path_; }
  std::string partial_path() const { return path_ + ".partial"; }
  // Whether anything beyond the header was appended.
  bool has_data() const { return has_data_; }

 private:
  explicit StagedFile(std::string path) : path_(std::move(path)) {}
  // Uncommitted: closes, and removes the file where it holds no data.
  void Release();

  std::string path_;
  std::ofstream out_;
  bool has_data_ = false;
  bool open_ = false;  // false once committed, released or moved from
};

}  // namespace streampipe::cli

#endif  // STREAMPIPE_APPS_STAGED_FILE_HPP_
