// Any command line through parse_command_line, one argument a line of the
// input: it returns one command to run, or none and an exit status (after
// a usage error, --help, ...); it never crashes or throws. What it prints
// is thrown away.
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "fuzz_target.hpp"

using gpuimg::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args = {"gpuimg"};
  std::istringstream lines(std::string(reinterpret_cast<const char*>(data), size));
  for (std::string line; std::getline(lines, line);) args.push_back(line);
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());

  std::ostringstream sink;
  std::streambuf* const out = std::cout.rdbuf(sink.rdbuf());
  std::streambuf* const err = std::cerr.rdbuf(sink.rdbuf());
  const gpuimg::ParseResult r = gpuimg::parse_command_line(static_cast<int>(argv.size()), argv.data());
  std::cout.rdbuf(out);
  std::cerr.rdbuf(err);

  const int chosen = int(r.run) + int(r.batch.has_value()) + int(r.compare.has_value()) + int(r.golden.has_value());
  require(chosen <= 1, "at most one command is chosen");
  require(chosen == 0 || r.exit_code == 0, "a usage error runs nothing");
  return 0;
}
