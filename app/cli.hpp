#pragma once
// The command line: `gpuimg INPUT [OP ...] OUTPUT`, ops applied in the order given.
#include <cstdint>
#include <string>
#include <vector>

#include <optional>

#include "backend.hpp"
#include "batch_command.hpp"
#include "codec.hpp"
#include "compare_command.hpp"
#include "golden_command.hpp"
#include "info_command.hpp"
#include "pipeline.hpp"
#include "report_command.hpp"

namespace gpuimg {

struct Command {
  std::string input, output;
  Pipeline pipeline;
  DeviceChoice device = DeviceChoice::automatic;
  ReadOptions read;
  WriteOptions write;
  bool verbose = false;
  bool quiet = false;  // -q: no warnings
  std::string report;  // --report FILE; empty: none
};

// What parse_command_line decided: run `command` (one image) or `batch`
// (several), run one of the subcommands, or just exit with `exit_code` (after --help, --version,
// --list-ops, or a usage error it has printed).
struct ParseResult {
  bool run = false;
  int exit_code = 0;
  Command command;
  std::optional<CompareCommand> compare;
  std::optional<GoldenCommand> golden;
  std::optional<BatchCommand> batch;
  std::optional<ReportCommand> report;
  std::optional<InfoCommand> info;
};

ParseResult parse_command_line(int argc, const char* const* argv);

// Option values shared by the commands. Throw UsageError.
DeviceChoice parse_device(const std::string& text);
std::uint64_t parse_max_pixels(const std::string& text);
DeviceSet parse_devices(const std::string& text);  // "all", or GPU numbers such as "0,1"
Depth parse_depth(const std::string& text);        // "8" or "16"

// The table --list-ops prints.
std::string op_table();

}  // namespace gpuimg
