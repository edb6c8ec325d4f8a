// streampipe: one program, several subcommands. `streampipe help` lists them.
#include <csignal>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "commands.hpp"

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

}  // namespace

int main(int argc, char** argv) {
  // A reader that closes its end of a pipe (`streampipe histogram ... | head`) makes the next
  // write fail with EPIPE instead of killing the process: the command then says what it could
  // not write, writes its summary and exits 74 (docs/errors.md), as for a full disk.
  std::signal(SIGPIPE, SIG_IGN);
  if (argc < 2) {
    PrintHelp(std::cerr);
    return streampipe::cli::kExitUsage;
  }
  const std::string name = argv[1];
  if (name == "help" || name == "--help" || name == "-h") {
    PrintHelp(std::cout);
    return streampipe::cli::kExitOk;
  }
  std::vector<std::string> args(argv + 2, argv + argc);
  for (const Command& c : kCommands) {
    if (name == c.name) return c.run(args);
  }
  std::cerr << "streampipe: unknown command '" << name << "'\n";
  PrintHelp(std::cerr);
  return streampipe::cli::kExitUsage;
}
