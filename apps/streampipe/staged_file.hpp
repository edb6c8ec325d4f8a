// An output file written in steps under `<path>.partial` and renamed onto `<path>` when whole.
//
// A command that measures for minutes (`streampipe sweep`) must neither lose what it measured
// when it stops part way (an error, a signal, a timeout), nor find out only at the end that its
// output cannot be written. So the file is opened before the work starts (a bad path fails at
// once), each step is on disk when Append returns, and an earlier `<path>` stays as it was until
// Commit replaces it in one rename (a new file with the old one's permissions: another hard
// link to the old file keeps the old contents, as after `sed -i` or an editor's save). Left
// uncommitted, the .partial file is kept where it holds data (what was measured) and removed
// where it holds the header alone; a .partial file that an earlier run left with data is never
// overwritten (Open refuses it, naming it).
//
// A path that is a symbolic link stages beside the file it names, and replaces that file (the
// link stays; a dangling link's file is created, a loop of links is refused). A path that
// exists and is not a regular file (/dev/null, a FIFO, /dev/stdout) is written directly: no
// .partial file, no rename; a FIFO no reader has opened yet is opened at the first write (or
// Commit), which waits for one, so that Open never waits.
#ifndef STREAMPIPE_APPS_STAGED_FILE_HPP_
#define STREAMPIPE_APPS_STAGED_FILE_HPP_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace streampipe::cli {

class StagedFile {
 public:
  // Creates `<path>.partial` and writes `header` to it (not counted as data). A .partial file
  // already there is taken over where it holds `header` alone (a run stopped before its first
  // step), and refused otherwise: AlreadyExists naming it (an earlier run's data: summarize it,
  // move it or remove it; or a run still writing it, which holds its lock). FailedPrecondition
  // where `path` is a directory, where `<path>.partial` is there and is not a regular file, or
  // where `path` is a loop of links; PermissionDenied naming the file where it cannot be
  // created.
  // `stale_data`: what to do with a .partial file no run holds that holds data. kRefuse (the
  // sweep's: minutes of measurements), or kReplace (the histograms': a run computes them again,
  // and a stopped run's file would otherwise block every later one).
  enum class StaleData { kRefuse, kReplace };
  static absl::StatusOr<StagedFile> Open(std::string path, std::string_view header = "",
                                         StaleData stale_data = StaleData::kRefuse);
  // Takes up the `<path>.partial` file an earlier run left, to append to it: NotFound naming it
  // where there is none, FailedPrecondition where it does not start with `header`, or does not
  // end with a whole line (`header` ends with one; a run cut in the middle of a write),
  // AlreadyExists where another run is writing it. What it held after the header is
  // resumed_data().
  static absl::StatusOr<StagedFile> Resume(std::string path, std::string_view header);

  StagedFile(StagedFile&& other) noexcept;
  StagedFile& operator=(StagedFile&& other) noexcept;
  StagedFile(const StagedFile&) = delete;
  StagedFile& operator=(const StagedFile&) = delete;
  ~StagedFile();

  // Appends `data`; on disk (written to the file, unbuffered) when it returns. DataLoss naming
  // the file where the write fails (a full disk).
  absl::Status Append(std::string_view data);
  // Closes the file and renames it onto the target. Where the rename fails the .partial file is
  // kept and the error names both files. Commit twice, or after a move, is FailedPrecondition.
  absl::Status Commit();
  // Append(data), then Commit: a file written whole in one step (a summary, a trace, a profile).
  absl::Status Finish(std::string_view data);
  // Says that partial_path() holds data written by other means (a writer that opened it by
  // name): left uncommitted, it is kept, not removed.
  void KeepWhenUncommitted() { has_data_ = true; }

  // The file Open would write until Commit: `<target>.partial`, where the target is `path` or
  // the file it links to; empty where nothing would be staged (an empty path, "-", an existing
  // directory, device or FIFO). For the commands' checks that no output, staged, names a file
  // the run reads.
  static std::string PartialPathFor(const std::string& path);

  const std::string& path() const { return path_; }
  // Where the data is until Commit: `<target>.partial`, or the path itself where unstaged.
  const std::string& partial_path() const { return partial_; }
  // Whether writes go through a .partial file (false for a device, a FIFO and the like).
  bool staged() const { return staged_; }
  // Whether the file holds anything beyond the header (appended, or resumed).
  bool has_data() const { return has_data_; }
  // Resume: what the file held after the header; empty otherwise.
  const std::string& resumed_data() const { return resumed_; }

 private:
  StagedFile() = default;
  // The target and .partial names of `path` (a link: beside the file it names); an error where
  // the link cannot be read or loops.
  absl::Status Name(std::string path);
  // Uncommitted: closes, and removes the .partial file where it holds no data.
  void Release();
  // An exclusive lock on the open .partial file, so that two runs never write one file (a second
  // Open or Resume of it is refused while the first holds it); on failure the file is closed
  // (and left where it is).
  absl::Status Lock();
  absl::Status WriteAll(std::string_view data);
  // A FIFO Open found no reader of: opened now (waiting for one), and given the header.
  absl::Status OpenDeferred();
  absl::Status WritePending();  // the header not written yet, if any

  std::string path_;     // as given
  std::string target_;   // the file Commit replaces: path_, or the file a link names
  std::string partial_;  // where the data goes until Commit
  std::string resumed_;  // Resume: the data already there
  int fd_ = -1;          // open while uncommitted; -1 once committed, released or moved from
  bool staged_ = true;
  bool has_data_ = false;
  bool deferred_ = false;  // a FIFO not opened yet: opened at the first Append or the Commit
  // The header not written yet: a FIFO's until it is opened, a descriptor's (/dev/stdout) until
  // the first data or the commit.
  std::string pending_;
};

}  // namespace streampipe::cli

#endif  // STREAMPIPE_APPS_STAGED_FILE_HPP_
