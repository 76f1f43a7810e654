#pragma once
// Runs a batch: every item read, processed and written in one process, with
// decoding and encoding spread over worker threads and at most a queue depth
// of images in memory at once.
#include <functional>
#include <string>
#include <vector>

#include "backend.hpp"
#include "batch_items.hpp"
#include "codec.hpp"
#include "pipeline.hpp"

namespace gpuimg {

struct BatchSettings {
  Backend backend = Backend::cpu;
  Pipeline pipeline;
  ReadOptions read;
  WriteOptions write;
  int jobs = 1;  // decode threads, and encode threads
};

enum class Outcome { processed, failed };

// Called once per item that finished, from any thread but never two at once.
// `problem`: the "PATH: problem" line of a failure, else empty.
using ReportFn = std::function<void(const BatchItem&, Outcome, const std::string& problem)>;

// Runs `items`. Once stop() returns true no new item is started; items
// already decoded are dropped unwritten (writes are atomic, so a write in
// progress completes or leaves nothing). CPU: each of `jobs` threads takes
// an item through read, run_cpu and write. CUDA: `jobs` decode threads feed
// one thread that drives the GPU (one context), which feeds `jobs` encode
// threads, through queues `jobs` deep. Parent folders of outputs are created.
// A DeviceError stops the batch and is rethrown once every thread has ended.
void run_batch(const std::vector<BatchItem>& items, const BatchSettings& settings, const std::function<bool()>& stop,
               const ReportFn& report);

// The CUDA shape with any processing stage: `jobs` decode threads, one
// thread calling process(image) for every image, `jobs` encode threads, and
// queues `jobs` deep between them. run_batch passes run_cuda; the tests pass
// run_cpu, so the queues are tested where there is no GPU.
void run_batch_staged(const std::vector<BatchItem>& items, const BatchSettings& settings,
                      const std::function<void(Image&)>& process, const std::function<bool()>& stop,
                      const ReportFn& report);

}  // namespace gpuimg
