#pragma once
// Choosing where a pipeline runs, and running it there.
#include <string>
#include <vector>

#include "image.hpp"
#include "pipeline.hpp"

namespace gpuimg {

enum class DeviceChoice { automatic, cuda, cpu };
enum class Backend { cpu, cuda };

struct BackendSelection {
  Backend backend;
  std::string detail;  // the GPU's name, or why the CPU was chosen
};

// automatic: the GPU when a usable one exists, else the CPU. cuda: throws
// DeviceError saying why when no usable GPU exists. Initialises CUDA, which
// takes a while, so the CLI runs this beside decoding.
BackendSelection select_backend(DeviceChoice choice);

// Where the time went, for -v. Stage times are per stage, in order.
struct RunTimes {
  double upload_ms = 0;
  double download_ms = 0;
  std::vector<double> stage_ms;
};

// Runs every stage in order, in place. Throws DeviceError on a CUDA failure.
void run_pipeline(Backend backend, Image& img, const Pipeline& pipeline, RunTimes* times = nullptr);

void run_cpu(Image& img, const Pipeline& pipeline, RunTimes* times = nullptr);

// Implemented by cuda_backend.cpp, or by cuda_backend_none.cpp in a build without CUDA.
bool cuda_usable(std::string* detail);  // detail: the device name, or why not
void run_cuda(Image& img, const Pipeline& pipeline, RunTimes* times = nullptr);

}  // namespace gpuimg
