#include "process_clock.hpp"

#include <time.h>

namespace gpuimg {
namespace {

double ms_of(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

double wall_at_first_initialiser = 0;
double cpu_before_first_initialiser = 0;

// Priority 101, the first a program may use: before every other static
// initialiser of the binary (those of the shared libraries ran before it,
// and count in the CPU time).
__attribute__((constructor(101))) void note_start() {
  wall_at_first_initialiser = ms_of(CLOCK_MONOTONIC);
  cpu_before_first_initialiser = ms_of(CLOCK_PROCESS_CPUTIME_ID);
}

}  // namespace

double ms_since_process_start() {
  return ms_of(CLOCK_MONOTONIC) - wall_at_first_initialiser + cpu_before_first_initialiser;
}

}  // namespace gpuimg
