// Runs a command line in a shell and captures stdout, stderr and the exit code (tests only).
#ifndef STREAMPIPE_TEST_APPS_RUN_COMMAND_HPP_
#define STREAMPIPE_TEST_APPS_RUN_COMMAND_HPP_

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace streampipe::testing {

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// `command` is passed to /bin/sh; stdout and stderr go to temporary files.
inline CommandResult RunCommand(const std::string& command) {
  char out_path[] = "/tmp/streampipe_cmd_out_XXXXXX";
  char err_path[] = "/tmp/streampipe_cmd_err_XXXXXX";
  const int out_fd = mkstemp(out_path);
  const int err_fd = mkstemp(err_path);
  CommandResult r;
  // The descriptors are not the command's (its shell opens the paths itself): closed here,
  // else every call left two open, inherited by every later command (before session 51 a test
  // found /dev/fd/197 open in its child).
  if (out_fd >= 0) close(out_fd);
  if (err_fd >= 0) close(err_fd);
  if (out_fd < 0 || err_fd < 0) return r;
  const std::string full = command + " >" + out_path + " 2>" + err_path;
  const int status = std::system(full.c_str());
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = ReadFile(out_path);
  r.err = ReadFile(err_path);
  std::remove(out_path);
  std::remove(err_path);
  return r;
}

}  // namespace streampipe::testing

#endif  // STREAMPIPE_TEST_APPS_RUN_COMMAND_HPP_
