#pragma once
// `gpuimg INPUT... [OP ...] FOLDER/` and `--files-from`: many images in one
// run, with per-file errors, a progress line, a summary and Ctrl-C handling.
#include <string>

#include "backend.hpp"
#include "batch_items.hpp"
#include "codec.hpp"
#include "pipeline.hpp"
#include "run_report.hpp"

namespace gpuimg {

enum class ProgressMode { automatic, always, never };  // automatic: when stderr is a terminal

struct BatchCommand {
  Sources sources;
  std::string files_from;  // a file of paths, one a line; "-" is stdin; empty: none
  std::string output_dir;
  std::string format;      // output extension; empty keeps the input's
  Pipeline pipeline;
  DeviceChoice device = DeviceChoice::automatic;
  DeviceSet devices;       // --devices; given: the GPU backend on those GPUs
  ReadOptions read;
  WriteOptions write;
  int jobs = 1;
  Shard shard;
  bool skip_existing = false;
  bool fail_fast = false;
  ProgressMode progress = ProgressMode::automatic;
  std::string report;      // --report FILE; empty: none
  bool verbose = false;  // -v: the device, and a line a file written
  bool quiet = false;    // -q: no warnings (and no progress line)
};

// Runs the batch; returns 0, 1 (a file failed), 2, 3 (as for one image), or
// 128 + the signal's number after SIGINT (130), SIGTERM (143) or SIGHUP (129).
int run_batch_command(const BatchCommand& cmd);

}  // namespace gpuimg
