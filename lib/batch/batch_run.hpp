#pragma once
// Runs a batch: every item read, processed and written in one process, with
// decoding and encoding spread over worker threads and at most a queue depth
// of images in memory at once.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "backend.hpp"
#include "batch_items.hpp"
#include "codec.hpp"
#include "metadata.hpp"
#include "pipeline.hpp"

namespace gpuimg {

struct BatchSettings {
  Backend backend = Backend::cpu;
  std::vector<int> devices = {0};  // CUDA: the GPUs the images are spread over
  Pipeline pipeline;
  ReadOptions read;
  WriteOptions write;
  int jobs = 1;  // decode threads, and encode threads
};

enum class Outcome { processed, failed };

// Called once per item that finished, from any thread but never two at once.
// `problem`: the "PATH: problem" line of a failure; for an item processed,
// what its output's format could not hold ("BMP holds no ICC profile;
// written without it"), else empty. `ignored`: for an item processed, the
// damaged metadata set aside ("a PNG eXIf chunk with a wrong CRC"), each
// a warning of its own, apart from `problem`, which only -v shows.
using ReportFn =
    std::function<void(const BatchItem&, Outcome, const std::string& problem, const std::vector<std::string>& ignored)>;

// Lanes per GPU: one uploading, one running kernels, one downloading.
constexpr int kLanesPerDevice = 3;

// Runs `items`. Once stop() returns true no new item is started; items
// already decoded are dropped unwritten (writes are atomic, so a write in
// progress completes or leaves nothing). CPU: each of `jobs` threads takes
// an item through read, run_cpu and write, the cores shared out between
// them. CUDA: `jobs` decode threads feed kLanesPerDevice CudaLanes per GPU
// of settings.devices, each on its own thread (one context per GPU), which
// feed `jobs` encode threads, through queues `jobs` deep. Parent folders of
// outputs are made, and those it made that are empty at the end removed
// (made_folders.hpp). A DeviceError stops the batch and is rethrown once
// every thread has ended. Returns the images each GPU processed, in the
// order of settings.devices (nothing on the CPU).
std::vector<std::size_t> run_batch(const std::vector<BatchItem>& items, const BatchSettings& settings,
                                   const std::function<bool()>& stop, const ReportFn& report);

// One image at a time through a processing step, from its own thread.
using Lane = std::function<void(Image&)>;

// The CUDA shape with any lanes: `jobs` decode threads, one thread per lane
// calling lanes[i](image) for the images it takes, `jobs` encode threads,
// and queues `jobs` deep between them. Returns the images each lane
// processed. run_batch passes CudaLanes; the tests pass run_cpu, so the
// queues are tested where there is no GPU.
std::vector<std::size_t> run_batch_staged(const std::vector<BatchItem>& items, const BatchSettings& settings,
                                          const std::vector<Lane>& lanes, const std::function<bool()>& stop,
                                          const ReportFn& report);

}  // namespace gpuimg
