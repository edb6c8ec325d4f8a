// streampipe: one program, several subcommands. `streampipe help` lists them.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "cli.hpp"
#include "commands.hpp"
#include "streampipe/core/toml_schema.hpp"

namespace {

struct Command {
  const char* name;
  int (*run)(const std::vector<std::string>&);
  const char* summary;
};

const Command kCommands[] = {
    {"advise", streampipe::cli::RunAdvise,
     "predict the streamed time for each n and choose the number of streams"},
    {"calibrate", streampipe::cli::RunCalibrate,
     "measure the GPU's copy parameters (LogGP) and write a device profile"},
    {"config", streampipe::cli::RunConfig,
     "validate a configuration file and print it with every key (defaults, flag overrides)"},
    {"devices", streampipe::cli::RunDevices, "list the CUDA devices"},
    {"histogram", streampipe::cli::RunHistogram,
     "stream video frames (Y4M, raw, synthetic) and write a 256-bin histogram per frame"},
    {"sweep", streampipe::cli::RunSweep,
     "the papers' experiments on this card: measured vs predicted time over a grid"},
};

void PrintHelp(std::ostream& os) {
  os << "usage: streampipe <command> [flags]   (streampipe <command> --help for its flags)\n\n"
        "commands:\n";
  for (const Command& c : kCommands) os << "  " << c.name << "\n      " << c.summary << "\n";
}

// A descriptor 0-2 the caller closed (`streampipe ... >&-`) would be the next file the command
// opens: a staged output's, whose rows would then be written with std::cout's. /dev/null, open
// for reading only, holds it instead: a write to a closed stdout still fails, below, as one to a
// full disk does.
void HoldClosedStandardDescriptors() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
      const int held = open("/dev/null", O_RDONLY);  // a write to it fails (EBADF)
      if (held >= 0 && held != fd) {
        dup2(held, fd);
        close(held);
      }
    }
  }
}

// A command's stdout, written: what it printed reached its file or pipe, else the command
// failed to write its output (exit 74, docs/errors.md) whatever it returned.
// (A command that failed already said why; its own output errors included.)
int CheckStdout(const std::string& name, int code) {
  errno = 0;
  std::cout.flush();
  const int cout_errno = errno;
  const bool failed = std::cout.fail() || std::fflush(stdout) != 0 || std::ferror(stdout) != 0;
  if (!failed || code != streampipe::cli::kExitOk) return code;
  const int e = cout_errno != 0 ? cout_errno : errno;
  std::cerr << "streampipe " << name << ": writing to stdout failed"
            << (e != 0 ? std::string(": ") + std::strerror(e) : std::string()) << "\n";
  return streampipe::cli::kExitIoErr;
}

}  // namespace

int main(int argc, char** argv) {
  HoldClosedStandardDescriptors();
  // A reader that closes its end of a pipe (`streampipe histogram ... | head`) makes the next
  // write fail with EPIPE instead of killing the process: the command then says what it could
  // not write, writes its summary and exits 74 (docs/errors.md), as for a full disk.
  std::signal(SIGPIPE, SIG_IGN);
  if (argc < 2) {
    PrintHelp(std::cerr);
    return streampipe::cli::kExitUsage;
  }
  std::string name = argv[1];
  std::vector<std::string> args(argv + 2, argv + argc);
  if (name == "help" && !args.empty()) {
    // `help CMD` is `CMD --help`; `help bogus` printed the general help, exit 0 (before
    // session 49), and is now the unknown command it names.
    if (args.size() > 1) {
      return streampipe::cli::Fail("help", streampipe::cli::kExitUsage,
                                   absl::StrCat("unexpected argument '", args[1],
                                                "'; give one command"));
    }
    name = args[0];
    args = {"--help"};
    // `help help` and `help --help` are help itself (64, "unknown command", before session 51).
    if (name == "help" || name == "--help" || name == "-h") {
      PrintHelp(std::cout);
      return CheckStdout("help", streampipe::cli::kExitOk);
    }
  } else if (name == "help" || name == "--help" || name == "-h") {
    PrintHelp(std::cout);
    return CheckStdout("help", streampipe::cli::kExitOk);
  }
  for (const Command& c : kCommands) {
    if (name != c.name) continue;
    int code = 0;
    try {
      code = c.run(args);
    } catch (const std::bad_alloc&) {
      // What a command could not allocate (a batch of huge frames, a file of endless bytes)
      // ends it with a message, not an abort; the commands name the sizes they know first.
      std::cerr << "streampipe " << name << ": out of memory\n";
      return streampipe::cli::kExitSoftware;
    }
    return CheckStdout(name, code);
  }
  std::cerr << "streampipe: unknown command '" << streampipe::detail::EscapedControls(name)
            << "'\n";
  PrintHelp(std::cerr);
  return streampipe::cli::kExitUsage;
}
