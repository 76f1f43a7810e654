#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <iostream>

#include "cli.hpp"
#include "file_util.hpp"
#include "message_line.hpp"
#include "run.hpp"
#include "stop_signals.hpp"

namespace {

// Text on stdout (a --json report, a table, --list-ops, a completion
// script) that did not all reach it is a failure, as an image's is: a
// full disk must not leave an empty report behind exit 0. `failed`: the
// status then, unless the run had already failed.
int checked_stdout(int status, int failed) {
  // std::cout writes through stdout's buffer: one fflush sends both.
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  const int err = flushed ? 0 : errno;
  std::cout.flush();
  if (flushed && !std::ferror(stdout) && std::cout) return status;
  // The cause is known where this last write failed, as main's buffer
  // (below) makes it for most text.
  gpuimg::print_message("stdout: cannot write" + (err ? ": " + gpuimg::errno_text(err) : std::string()));
  return status == 0 ? failed : status;
}

}  // namespace

int main(int argc, char** argv) {
  // Text for a file or pipe goes out at the end in one write, up to 1 MiB,
  // so that a failure is seen with its cause (checked_stdout). Row-by-row
  // output (golden check's table) flushes itself.
  if (!::isatty(STDOUT_FILENO)) std::setvbuf(stdout, nullptr, _IOFBF, std::size_t{1} << 20);
  const gpuimg::ParseResult parsed = gpuimg::parse_command_line(argc, argv);
  if (!parsed.run && !parsed.compare && !parsed.golden && !parsed.batch && !parsed.report && !parsed.info)
    return checked_stdout(parsed.exit_code, 1);
  gpuimg::take_stop_signals();
  const auto run = [&] {
    if (parsed.compare) return gpuimg::run_compare(*parsed.compare);
    if (parsed.golden) return gpuimg::run_golden(*parsed.golden);
    if (parsed.report) return gpuimg::run_report(*parsed.report);
    if (parsed.info) return gpuimg::run_info(*parsed.info);
    if (parsed.batch) return gpuimg::run_batch_command(*parsed.batch);
    return gpuimg::run_command(parsed.command);
  };
  // compare, golden and report exit 2 for an error (1 is "different").
  const int failed = parsed.compare || parsed.golden || parsed.report ? 2 : 1;
  return gpuimg::settle_stop_signals(checked_stdout(run(), failed));
}
