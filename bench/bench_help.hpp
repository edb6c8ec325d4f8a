// `--help` for the benchmark tools: each tool's synopsis on stdout, exit 0, and where every flag
// and what the tool prints is explained (the comment at the top of its source file). Before
// session 50 `--help` was an unknown flag (64). Plain C++ (no Abseil): every tool includes it.
#ifndef STREAMPIPE_BENCH_BENCH_HELP_HPP_
#define STREAMPIPE_BENCH_BENCH_HELP_HPP_

#include <cstdio>
#include <cstring>

namespace streampipe::bench {

// True, having printed "usage: TOOL SYNOPSIS" and the pointer to bench/TOOL.cpp, where an
// argument is --help or -h; the caller returns 0.
inline bool PrintedHelp(int argc, char** argv, const char* tool, const char* synopsis) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::printf(
          "usage: %s %s\nWhat each flag does and what the tool prints: the comment at the top "
          "of bench/%s.cpp.\n",
          tool, synopsis, tool);
      return true;
    }
  }
  return false;
}

}  // namespace streampipe::bench

#endif  // STREAMPIPE_BENCH_BENCH_HELP_HPP_
