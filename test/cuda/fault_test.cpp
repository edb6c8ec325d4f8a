// GPU faults in the middle of a stream, each in a child process (a sticky error makes the CUDA
// context unusable for the rest of the process): the pipeline stops submitting, names the
// batch, says whether the error is sticky, and never hangs.
#include <unistd.h>

#include <climits>

#include <gtest/gtest.h>

#include "gpu_test_util.hpp"
#include "run_command.hpp"

namespace streampipe {
namespace {

// fault_child sits next to this test binary (in the build tree and in the device bundle).
std::string ChildPath() {
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  std::string self = n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : "";
  return self.substr(0, self.rfind('/') + 1) + "fault_child";
}
const std::string kChild = ChildPath();

class FaultTest : public ::testing::Test {
 protected:
  void SetUp() override { STREAMPIPE_REQUIRE_GPU(); }
};

void ExpectStickyFault(const std::string& mode, const char* cuda_error) {
  // `timeout` bounds the child: a hang fails the test instead of hanging it.
  testing::CommandResult r = testing::RunCommand("timeout 120 " + kChild + " " + mode);
  ASSERT_NE(r.exit_code, 124) << "the child hung:\n" << r.out << r.err;
  EXPECT_EQ(r.exit_code, 70) << r.out << r.err;
  for (int b = 0; b < 5; ++b) {
    EXPECT_NE(r.out.find("batch " + std::to_string(b) + " ok"), std::string::npos) << r.out;
  }
  // The faulting batch is named and flagged sticky...
  EXPECT_NE(r.out.find("batch 5 error:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("sticky=1 batch 5:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(cuda_error), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("process must restart"), std::string::npos) << r.out;
  // ...and afterwards nothing more is submitted.
  EXPECT_NE(r.out.find("batch 6 error: code=9"), std::string::npos) << r.out;  // 9 = FailedPrecondition
  EXPECT_NE(r.out.find("stopped after a sticky CUDA error"), std::string::npos) << r.out;
}

TEST_F(FaultTest, TrappingKernelMidStream) { ExpectStickyFault("trap", "cudaError"); }

TEST_F(FaultTest, OutOfBoundsReadMidStream) {
  ExpectStickyFault("oob", "cudaErrorIllegalAddress");
}

// A continuous run whose batch in flight traps, met by the next batch's Submit (its drain for
// a re-measurement): the run returns that batch's own sticky error, naming it, and delivers
// the batches before it (before session 51 it returned the next batch's refusal,
// FailedPrecondition, not sticky, and dropped the error).
TEST_F(FaultTest, AContinuousRunReturnsTheFaultingBatchsOwnError) {
  testing::CommandResult r = testing::RunCommand("timeout 120 " + kChild + " trap-continuous");
  ASSERT_NE(r.exit_code, 124) << "the child hung:\n" << r.out << r.err;
  EXPECT_EQ(r.exit_code, 70) << r.out << r.err;
  EXPECT_NE(r.out.find("continuous: code="), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("continuous: code=9 "), std::string::npos) << r.out;  // not the refusal
  EXPECT_NE(r.out.find("sticky=1 delivered=8 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("batch 8"), std::string::npos) << r.out;
}

TEST_F(FaultTest, KernelThatNeverFinishesDoesNotHangTheCaller) {
  testing::CommandResult r = testing::RunCommand("timeout 120 " + kChild + " hang");
  ASSERT_NE(r.exit_code, 124) << "the child hung:\n" << r.out << r.err;
  EXPECT_EQ(r.exit_code, 70) << r.out << r.err;
  EXPECT_NE(r.out.find("batch 5 error: code=4"), std::string::npos) << r.out;  // DeadlineExceeded
  EXPECT_NE(r.out.find("did not finish within 1000 ms"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("batch 6 error: code=9"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("the GPU did not finish in time"), std::string::npos) << r.out;
  // A continuous run on the stopped pipeline is refused before its source is asked for a batch.
  EXPECT_NE(r.out.find("continuous after the stop: code=9 fills=0"), std::string::npos) << r.out;
}

// A re-measurement drains the batches in flight first; where one of them timed out there, the
// pipeline had stopped, yet the measurement's batch was still enqueued (on a slot whose buffers
// the stuck kernel may still use) and Submit returned OK (before session 48).
TEST_F(FaultTest, ABatchAfterADrainThatTimedOutIsRefused) {
  testing::CommandResult r = testing::RunCommand("timeout 120 " + kChild + " hang-drain");
  ASSERT_NE(r.exit_code, 124) << "the child hung:\n" << r.out << r.err;
  EXPECT_EQ(r.exit_code, 70) << r.out << r.err;
  EXPECT_NE(r.out.find("submit 5: code=0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("submit 6 after the drain: code=9 the pipeline stopped: the GPU did not "
                       "finish in time"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("in flight: 1"), std::string::npos) << r.out;  // batch 5's result, drained
}

}  // namespace
}  // namespace streampipe
