#include "staged_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <utility>

#include "run_command.hpp"

namespace streampipe::cli {
namespace {

using streampipe::testing::ReadFile;

// A fresh directory per test, with `old.csv` holding an earlier result.
class StagedFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "/staged_file_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    std::ofstream(dir_ + "/old.csv") << "an earlier result\n";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  bool Exists(const std::string& name) const { return std::filesystem::exists(dir_ + "/" + name); }

  std::string dir_;
};

TEST_F(StagedFileTest, CommitReplacesTheFileInOneStep) {
  absl::StatusOr<StagedFile> f = StagedFile::Open(dir_ + "/old.csv", "a,b\n");
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_TRUE(f->Append("1,2\n").ok());
  // Each step is on disk at once; the earlier file is untouched until the commit.
  EXPECT_EQ(ReadFile(dir_ + "/old.csv.partial"), "a,b\n1,2\n");
  EXPECT_EQ(ReadFile(dir_ + "/old.csv"), "an earlier result\n");
  ASSERT_TRUE(f->Append("3,4\n").ok());
  ASSERT_TRUE(f->Commit().ok());
  EXPECT_EQ(ReadFile(dir_ + "/old.csv"), "a,b\n1,2\n3,4\n");
  EXPECT_FALSE(Exists("old.csv.partial"));
  EXPECT_TRUE(absl::IsFailedPrecondition(f->Commit()));
  EXPECT_TRUE(absl::IsFailedPrecondition(f->Append("5,6\n")));
  EXPECT_EQ(ReadFile(dir_ + "/old.csv"), "a,b\n1,2\n3,4\n");
}

// Finish: a file written whole in one step (a summary, a trace, a profile).
TEST_F(StagedFileTest, FinishWritesTheRestAndCommits) {
  absl::StatusOr<StagedFile> f = StagedFile::Open(dir_ + "/old.csv", "a,b\n");
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_TRUE(f->Finish("1,2\n").ok());
  EXPECT_EQ(ReadFile(dir_ + "/old.csv"), "a,b\n1,2\n");
  EXPECT_FALSE(Exists("old.csv.partial"));
  // Once committed the file is closed: a second Finish writes nothing.
  EXPECT_TRUE(absl::IsFailedPrecondition(f->Finish("3,4\n")));
  EXPECT_EQ(ReadFile(dir_ + "/old.csv"), "a,b\n1,2\n");
}

TEST_F(StagedFileTest, AnUncommittedFileKeepsItsDataAndTheEarlierFile) {
  {
    absl::StatusOr<StagedFile> f = StagedFile::Open(dir_ + "/old.csv", "a,b\n");
    ASSERT_TRUE(f.ok()) << f.status();
    ASSERT_TRUE(f->Append("1,2\n").ok());
    EXPECT_TRUE(f->has_data());
  }  // stopped part way: what was written stays, beside the earlier result
  EXPECT_EQ(ReadFile(dir_ + "/old.csv.partial"), "a,b\n1,2\n");
  EXPECT_EQ(ReadFile(dir_ + "/old.csv"), "an earlier result\n");
}

TEST_F(StagedFileTest, AnUncommittedFileWithItsHeaderAloneIsRemoved) {
  {
    absl::StatusOr<StagedFile> f = StagedFile::Open(dir_ + "/new.csv", "a,b\n");
    ASSERT_TRUE(f.ok()) << f.status();
    EXPECT_TRUE(Exists("new.csv.partial"));  // the path is proven writable before any work
    ASSERT_TRUE(f->Append("").ok());         // nothing appended is no data
    EXPECT_FALSE(f->has_data());
  }
  EXPECT_FALSE(Exists("new.csv.partial"));
  EXPECT_FALSE(Exists("new.csv"));
}

TEST_F(StagedFileTest, AMovedFileIsReleasedOnceByItsLastOwner) {
  absl::StatusOr<StagedFile> f = StagedFile::Open(dir_ + "/new.csv", "h\n");
  ASSERT_TRUE(f.ok()) << f.status();
  StagedFile g = std::move(*f);
  {
    StagedFile moved_from = std::move(g);
    ASSERT_TRUE(moved_from.Append("x\n").ok());
    EXPECT_TRUE(absl::IsFailedPrecondition(g.Append("y\n")));  // NOLINT(bugprone-use-after-move)
  }  // the owner left with data: the file stays
  EXPECT_EQ(ReadFile(dir_ + "/new.csv.partial"), "h\nx\n");
  // Assigning over an open file releases it first (no data: removed).
  absl::StatusOr<StagedFile> a = StagedFile::Open(dir_ + "/a.csv", "h\n");
  absl::StatusOr<StagedFile> b = StagedFile::Open(dir_ + "/b.csv", "h\n");
  ASSERT_TRUE(a.ok() && b.ok());
  *a = std::move(*b);
  EXPECT_FALSE(Exists("a.csv.partial"));
  EXPECT_TRUE(Exists("b.csv.partial"));
  ASSERT_TRUE(a->Commit().ok());
  EXPECT_EQ(ReadFile(dir_ + "/b.csv"), "h\n");
}

TEST_F(StagedFileTest, ABadPathFailsAtOpenAndNamesTheFile) {
  absl::StatusOr<StagedFile> f = StagedFile::Open(dir_ + "/no-such-dir/x.csv");
  ASSERT_FALSE(f.ok());
  EXPECT_TRUE(absl::IsPermissionDenied(f.status())) << f.status();
  EXPECT_NE(f.status().message().find("cannot create '" + dir_ + "/no-such-dir/x.csv.partial'"),
            std::string::npos)
      << f.status();
  f = StagedFile::Open(dir_);  // a directory: its rename at the end would fail
  ASSERT_FALSE(f.ok());
  EXPECT_TRUE(absl::IsFailedPrecondition(f.status())) << f.status();
  EXPECT_NE(f.status().message().find("is a directory"), std::string::npos) << f.status();
  EXPECT_FALSE(std::filesystem::exists(dir_ + ".partial"));
}

TEST_F(StagedFileTest, AFailedRenameKeepsTheDataAndSaysWhere) {
  absl::StatusOr<StagedFile> f = StagedFile::Open(dir_ + "/later-a-dir", "h\n");
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_TRUE(f->Append("row\n").ok());
  // Made a non-empty directory while the work ran: the rename cannot replace it.
  std::filesystem::create_directories(dir_ + "/later-a-dir/inside");
  absl::Status c = f->Commit();
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.message().find("the data is in the former"), std::string::npos) << c;
  EXPECT_EQ(ReadFile(dir_ + "/later-a-dir.partial"), "h\nrow\n");
}

// A run stopped part way left its data in the .partial file; the next run must not wipe it,
// even where that run then fails before it has measured anything (a review found both).
TEST_F(StagedFileTest, AnEarlierRunsDataIsNeverOverwritten) {
  std::ofstream(dir_ + "/old.csv.partial") << "a,b\n1,2\n";
  absl::StatusOr<StagedFile> f = StagedFile::Open(dir_ + "/old.csv", "a,b\n");
  ASSERT_FALSE(f.ok());
  EXPECT_TRUE(absl::IsAlreadyExists(f.status())) << f.status();
  EXPECT_NE(f.status().message().find("'" + dir_ + "/old.csv.partial' is there from an earlier run"),
            std::string::npos)
      << f.status();
  EXPECT_EQ(ReadFile(dir_ + "/old.csv.partial"), "a,b\n1,2\n");
  EXPECT_EQ(ReadFile(dir_ + "/old.csv"), "an earlier result\n");
  // One that holds the header alone (a run stopped before its first step) is taken over.
  std::ofstream(dir_ + "/old.csv.partial", std::ios::trunc) << "a,b\n";
  f = StagedFile::Open(dir_ + "/old.csv", "a,b\n");
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_TRUE(f->Append("3,4\n").ok());
  ASSERT_TRUE(f->Commit().ok());
  EXPECT_EQ(ReadFile(dir_ + "/old.csv"), "a,b\n3,4\n");
  // A run that fails before its first step removes only a file it made.
  std::ofstream(dir_ + "/old.csv.partial") << "a,b\n5,6\n";
  { EXPECT_FALSE(StagedFile::Open(dir_ + "/old.csv", "a,b\n").ok()); }
  EXPECT_EQ(ReadFile(dir_ + "/old.csv.partial"), "a,b\n5,6\n");
}

TEST_F(StagedFileTest, ALinkStaysAndTheFileItNamesIsReplaced) {
  std::filesystem::create_symlink(dir_ + "/old.csv", dir_ + "/link.csv");
  absl::StatusOr<StagedFile> f = StagedFile::Open(dir_ + "/link.csv", "h\n");
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_TRUE(std::filesystem::equivalent(f->partial_path(), dir_ + "/old.csv.partial"));
  ASSERT_TRUE(f->Append("x\n").ok());
  ASSERT_TRUE(f->Commit().ok());
  EXPECT_TRUE(std::filesystem::is_symlink(dir_ + "/link.csv"));
  EXPECT_EQ(ReadFile(dir_ + "/old.csv"), "h\nx\n");
  EXPECT_FALSE(Exists("old.csv.partial"));
  EXPECT_FALSE(Exists("link.csv.partial"));
}

// The replaced file's permissions carry over (a private output stayed private only by the
// umask's luck before session 50); a new file gets the umask's.
TEST_F(StagedFileTest, TheReplacedFileKeepsItsPermissions) {
  for (const std::filesystem::perms mode :
       {std::filesystem::perms::owner_read | std::filesystem::perms::owner_write,
        std::filesystem::perms::owner_all | std::filesystem::perms::group_read}) {
    std::filesystem::permissions(dir_ + "/old.csv", mode);
    absl::StatusOr<StagedFile> f = StagedFile::Open(dir_ + "/old.csv", "h\n");
    ASSERT_TRUE(f.ok()) << f.status();
    ASSERT_TRUE(f->Finish("x\n").ok());
    EXPECT_EQ(ReadFile(dir_ + "/old.csv"), "h\nx\n");
    EXPECT_EQ(std::filesystem::status(dir_ + "/old.csv").permissions(), mode);
  }
  // A read-only file is replaced too (the directory is what allows it), and stays read-only.
  std::filesystem::permissions(dir_ + "/old.csv", std::filesystem::perms::owner_read);
  absl::StatusOr<StagedFile> f = StagedFile::Open(dir_ + "/old.csv", "h\n");
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_TRUE(f->Finish("y\n").ok());
  EXPECT_EQ(ReadFile(dir_ + "/old.csv"), "h\ny\n");
  EXPECT_EQ(std::filesystem::status(dir_ + "/old.csv").permissions(),
            std::filesystem::perms::owner_read);
}

// PartialPathFor says where Open would stage, for the commands' same-file checks.
TEST_F(StagedFileTest, PartialPathForNamesTheFileOpenStagesIn) {
  std::filesystem::create_symlink(dir_ + "/old.csv", dir_ + "/link.csv");
  for (const std::string name : {"old.csv", "link.csv", "new.csv"}) {
    const std::string predicted = StagedFile::PartialPathFor(dir_ + "/" + name);
    absl::StatusOr<StagedFile> f = StagedFile::Open(dir_ + "/" + name, "h\n");
    ASSERT_TRUE(f.ok()) << f.status();
    EXPECT_EQ(predicted, f->partial_path()) << name;
  }
  EXPECT_EQ(StagedFile::PartialPathFor(""), "");
  EXPECT_EQ(StagedFile::PartialPathFor("-"), "");
  EXPECT_EQ(StagedFile::PartialPathFor("/dev/null"), "");  // written as it is
  EXPECT_EQ(StagedFile::PartialPathFor(dir_), "");         // a directory: refused by Open
}

// The histograms' choice: an earlier run's .partial file with data is replaced (the sweep's,
// the default, refuses it); one a running run holds is still refused.
TEST_F(StagedFileTest, AStaleFileIsReplacedWhereTheCallerSaysSo) {
  std::ofstream(dir_ + "/old.csv.partial") << "h\n1,2\n";
  absl::StatusOr<StagedFile> f =
      StagedFile::Open(dir_ + "/old.csv", "h\n", StagedFile::StaleData::kReplace);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(ReadFile(dir_ + "/old.csv.partial"), "h\n");
  absl::StatusOr<StagedFile> second =
      StagedFile::Open(dir_ + "/old.csv", "h\n", StagedFile::StaleData::kReplace);
  EXPECT_TRUE(absl::IsAlreadyExists(second.status())) << second.status();
  ASSERT_TRUE(f->Finish("3,4\n").ok());
  EXPECT_EQ(ReadFile(dir_ + "/old.csv"), "h\n3,4\n");
}

// A dangling link names the file to create: the link stays and now names it. A relative link is
// read against its own directory.
TEST_F(StagedFileTest, ADanglingLinksFileIsCreatedAndTheLinkStays) {
  std::filesystem::create_directories(dir_ + "/sub");
  std::filesystem::create_symlink("../made.csv", dir_ + "/sub/link.csv");
  absl::StatusOr<StagedFile> f = StagedFile::Open(dir_ + "/sub/link.csv", "h\n");
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_TRUE(f->Finish("x\n").ok());
  EXPECT_TRUE(std::filesystem::is_symlink(dir_ + "/sub/link.csv"));
  EXPECT_EQ(ReadFile(dir_ + "/made.csv"), "h\nx\n");
  EXPECT_EQ(ReadFile(dir_ + "/sub/link.csv"), "h\nx\n");
  EXPECT_FALSE(Exists("made.csv.partial"));
}

TEST_F(StagedFileTest, ALoopOfLinksIsRefusedAndKept) {
  std::filesystem::create_symlink(dir_ + "/b.csv", dir_ + "/a.csv");
  std::filesystem::create_symlink(dir_ + "/a.csv", dir_ + "/b.csv");
  for (bool resume : {false, true}) {
    absl::StatusOr<StagedFile> f = resume ? StagedFile::Resume(dir_ + "/a.csv", "h\n")
                                          : StagedFile::Open(dir_ + "/a.csv", "h\n");
    EXPECT_TRUE(absl::IsFailedPrecondition(f.status())) << f.status();
    EXPECT_NE(f.status().message().find("too many levels of symbolic links"), std::string::npos)
        << f.status();
    EXPECT_TRUE(std::filesystem::is_symlink(dir_ + "/a.csv"));
  }
}

// A .partial name taken by a directory or a FIFO is refused, naming it: reading it made the
// stream throw (the process aborted), and a FIFO's open waited for a writer forever.
TEST_F(StagedFileTest, APartialThatIsNoRegularFileIsRefused) {
  std::filesystem::create_directory(dir_ + "/old.csv.partial");
  ASSERT_EQ(::mkfifo((dir_ + "/new.csv.partial").c_str(), 0600), 0);
  for (const char* name : {"/old.csv", "/new.csv"}) {
    for (bool resume : {false, true}) {
      absl::StatusOr<StagedFile> f = resume ? StagedFile::Resume(dir_ + name, "h\n")
                                            : StagedFile::Open(dir_ + name, "h\n");
      EXPECT_TRUE(absl::IsFailedPrecondition(f.status())) << name << ": " << f.status();
      EXPECT_NE(f.status().message().find(dir_ + name + ".partial' is there and is not a regular "
                                                        "file"),
                std::string::npos)
          << f.status();
    }
  }
  EXPECT_TRUE(std::filesystem::is_directory(dir_ + "/old.csv.partial"));
  EXPECT_TRUE(std::filesystem::is_fifo(dir_ + "/new.csv.partial"));
  EXPECT_EQ(ReadFile(dir_ + "/old.csv"), "an earlier result\n");
}

TEST_F(StagedFileTest, ADeviceIsWrittenAsItIs) {
  absl::StatusOr<StagedFile> f = StagedFile::Open("/dev/null", "h\n");
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_FALSE(f->staged());
  ASSERT_TRUE(f->Append("x\n").ok());
  ASSERT_TRUE(f->Commit().ok());
  EXPECT_TRUE(std::filesystem::is_character_file("/dev/null"));
  EXPECT_FALSE(std::filesystem::exists("/dev/null.partial"));
}

// A FIFO no reader has opened yet: Open returns at once (before session 49 it waited for a
// reader, before the command's own checks: `calibrate` without a GPU hung instead of exiting
// 69), and the first write waits for the reader, who gets the header and the data whole. A
// reader that opens only after Open has returned shows it: on the old code Open returned only
// once the reader had opened.
TEST_F(StagedFileTest, AFifoWithoutAReaderIsOpenedAtItsFirstWrite) {
  const std::string fifo = dir_ + "/out.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::atomic<bool> open_returned{false};
  std::atomic<bool> reader_opened_first{false};
  std::string got;
  std::thread reader([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    reader_opened_first = !open_returned.load();
    std::ifstream in(fifo, std::ios::binary);
    got.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  });
  absl::StatusOr<StagedFile> f = StagedFile::Open(fifo, "h\n");
  open_returned = true;
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_FALSE(f->staged());
  ASSERT_TRUE(f->Append("x\n").ok());
  ASSERT_TRUE(f->Commit().ok());
  reader.join();
  EXPECT_FALSE(reader_opened_first) << "Open waited for the reader";
  EXPECT_EQ(got, "h\nx\n");
  EXPECT_FALSE(Exists("out.fifo.partial"));
  // Committed with nothing appended, the reader still gets the header; released uncommitted
  // (a command that failed its checks), the FIFO is never opened, and Open returned at once.
  std::thread header_reader([&] {
    std::ifstream in(fifo, std::ios::binary);
    got.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  });
  f = StagedFile::Open(fifo, "h2\n");
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_TRUE(f->Commit().ok());
  header_reader.join();
  EXPECT_EQ(got, "h2\n");
  {
    absl::StatusOr<StagedFile> unused = StagedFile::Open(fifo, "h3\n");
    ASSERT_TRUE(unused.ok()) << unused.status();
  }
  EXPECT_TRUE(std::filesystem::is_fifo(fifo));
}

TEST_F(StagedFileTest, ResumeAppendsToWhatAnEarlierRunLeft) {
  std::ofstream(dir_ + "/old.csv.partial") << "a,b\n1,2\n";
  absl::StatusOr<StagedFile> f = StagedFile::Resume(dir_ + "/old.csv", "a,b\n");
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->resumed_data(), "1,2\n");
  EXPECT_TRUE(f->has_data());
  ASSERT_TRUE(f->Append("3,4\n").ok());
  EXPECT_EQ(ReadFile(dir_ + "/old.csv"), "an earlier result\n");
  ASSERT_TRUE(f->Commit().ok());
  EXPECT_EQ(ReadFile(dir_ + "/old.csv"), "a,b\n1,2\n3,4\n");
  EXPECT_FALSE(Exists("old.csv.partial"));
}

TEST_F(StagedFileTest, ResumeRefusesWhatItCannotContinue) {
  absl::StatusOr<StagedFile> f = StagedFile::Resume(dir_ + "/old.csv", "a,b\n");
  EXPECT_TRUE(absl::IsNotFound(f.status())) << f.status();
  EXPECT_NE(f.status().message().find("no '" + dir_ + "/old.csv.partial' to resume"),
            std::string::npos)
      << f.status();
  std::ofstream(dir_ + "/old.csv.partial") << "x,y\n1,2\n";  // another header
  f = StagedFile::Resume(dir_ + "/old.csv", "a,b\n");
  EXPECT_TRUE(absl::IsFailedPrecondition(f.status())) << f.status();
  std::ofstream(dir_ + "/old.csv.partial", std::ios::trunc) << "a,b\n1,2\n3,";  // cut short
  f = StagedFile::Resume(dir_ + "/old.csv", "a,b\n");
  EXPECT_TRUE(absl::IsFailedPrecondition(f.status())) << f.status();
  EXPECT_NE(f.status().message().find("ends in a line cut short"), std::string::npos);
  // Refused, the file is as it was.
  EXPECT_EQ(ReadFile(dir_ + "/old.csv.partial"), "a,b\n1,2\n3,");
}

// Two runs never write one file: while one holds it (even with its header alone, which a new
// run would otherwise take over), Open and Resume of it are refused and leave it as it is.
TEST_F(StagedFileTest, AFileARunIsWritingIsNotTakenOver) {
  absl::StatusOr<StagedFile> first = StagedFile::Open(dir_ + "/new.csv", "h\n");
  ASSERT_TRUE(first.ok()) << first.status();
  absl::StatusOr<StagedFile> second = StagedFile::Open(dir_ + "/new.csv", "h\n");
  ASSERT_FALSE(second.ok());
  EXPECT_TRUE(absl::IsAlreadyExists(second.status())) << second.status();
  EXPECT_NE(second.status().message().find("is being written by another run"), std::string::npos)
      << second.status();
  second = StagedFile::Resume(dir_ + "/new.csv", "h\n");
  EXPECT_TRUE(absl::IsAlreadyExists(second.status())) << second.status();
  // The first run goes on undisturbed: its header not emptied, no hole before its rows.
  ASSERT_TRUE(first->Append("x\n").ok());
  ASSERT_TRUE(first->Commit().ok());
  EXPECT_EQ(ReadFile(dir_ + "/new.csv"), "h\nx\n");
}

}  // namespace
}  // namespace streampipe::cli
