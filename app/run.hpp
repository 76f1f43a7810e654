#pragma once
#include "cli.hpp"

namespace gpuimg {

// Reads, runs and writes one command; prints any failure as one line on
// stderr and returns the exit status.
int run_command(const Command& cmd);

}  // namespace gpuimg
