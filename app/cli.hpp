#pragma once
// The command line: `gpuimg INPUT [OP ...] OUTPUT`, ops applied in the order given.
#include <cstdint>
#include <string>
#include <vector>

#include "backend.hpp"
#include "codec.hpp"
#include "pipeline.hpp"

namespace gpuimg {

struct Command {
  std::string input, output;
  Pipeline pipeline;
  DeviceChoice device = DeviceChoice::automatic;
  ReadOptions read;
  WriteOptions write;
  bool verbose = false;
};

// What parse_command_line decided: run `command`, or just exit with `exit_code`
// (after --help, --version, --list-ops, or a usage error it has printed).
struct ParseResult {
  bool run = false;
  int exit_code = 0;
  Command command;
};

ParseResult parse_command_line(int argc, const char* const* argv);

// The table --list-ops prints.
std::string op_table();

}  // namespace gpuimg
