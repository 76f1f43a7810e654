#include "cli.hpp"
#include "run.hpp"

int main(int argc, char** argv) {
  const gpuimg::ParseResult parsed = gpuimg::parse_command_line(argc, argv);
  if (parsed.compare) return gpuimg::run_compare(*parsed.compare);
  if (parsed.golden) return gpuimg::run_golden(*parsed.golden);
  if (parsed.batch) return gpuimg::run_batch_command(*parsed.batch);
  return parsed.run ? gpuimg::run_command(parsed.command) : parsed.exit_code;
}
