#include "cli.hpp"
#include "run.hpp"
#include "stop_signals.hpp"

int main(int argc, char** argv) {
  const gpuimg::ParseResult parsed = gpuimg::parse_command_line(argc, argv);
  if (!parsed.run && !parsed.compare && !parsed.golden && !parsed.batch && !parsed.report) return parsed.exit_code;
  gpuimg::take_stop_signals();
  const auto run = [&] {
    if (parsed.compare) return gpuimg::run_compare(*parsed.compare);
    if (parsed.golden) return gpuimg::run_golden(*parsed.golden);
    if (parsed.report) return gpuimg::run_report(*parsed.report);
    if (parsed.batch) return gpuimg::run_batch_command(*parsed.batch);
    return gpuimg::run_command(parsed.command);
  };
  return gpuimg::settle_stop_signals(run());
}
