#pragma once
// The time since the process started, for -v's "in all": a run on a small
// image spends most of its time before main (loading shared libraries), so
// a clock started in main would leave that out.

namespace gpuimg {

// Milliseconds of wall time since the process started: the wall time since
// its first static initialiser ran, plus the CPU time it had used by then
// (exec and the dynamic loader, which work on one thread without waiting:
// their wall time, once the libraries are in the page cache). The kernel's
// own record of the start, /proc/self/stat's starttime, counts in 10 ms
// ticks: as long as a whole run.
double ms_since_process_start();

}  // namespace gpuimg
