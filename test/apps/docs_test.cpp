// The reference pages that are generated from, or list, what the code does: they must not fall
// behind it.
#include <gtest/gtest.h>

#include "run_command.hpp"

namespace streampipe::testing {
namespace {

const std::string kBin = STREAMPIPE_BIN;
const std::string kDocs = STREAMPIPE_SOURCE_DIR "/docs/";

TEST(DocsTest, ConfigPageHoldsTheCurrentKeyTable) {
  CommandResult r = RunCommand(kBin + " config --markdown");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_GT(r.out.size(), 1000u);
  const std::string page = ReadFile(kDocs + "config.md");
  EXPECT_NE(page.find(r.out), std::string::npos)
      << "docs/config.md is out of date: paste the output of `streampipe config --markdown`";
}

TEST(DocsTest, ConfigPageHoldsTheSweepsKeyTable) {
  CommandResult r = RunCommand(kBin + " sweep --config-markdown");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_GT(r.out.size(), 1000u);
  const std::string page = ReadFile(kDocs + "config.md");
  EXPECT_NE(page.find(r.out), std::string::npos)
      << "docs/config.md is out of date: paste the output of `streampipe sweep --config-markdown`";
}

TEST(DocsTest, ErrorsPageListsEveryExitCode) {
  const std::string page = ReadFile(kDocs + "errors.md");
  for (const char* row : {"| 0 |", "| 64 |", "| 65 |", "| 66 |", "| 69 |", "| 70 |", "| 74 |",
                          "| 78 |"}) {
    EXPECT_NE(page.find(row), std::string::npos) << row;
  }
}

}  // namespace
}  // namespace streampipe::testing
