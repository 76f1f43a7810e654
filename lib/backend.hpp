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

// Whether a stage of `pipeline` builds a kernel at run time on the GPU
// (builds_kernel, op_spec.hpp: --map).
bool builds_kernels(const Pipeline& pipeline);

// Opens the run-time compiler (NVRTC, some 10 ms) that such a pipeline
// needs: the CLI calls it beside CUDA's start-up, so that a cached kernel
// adds almost nothing to a run. Returns why it could not be opened (--device
// auto then runs on the CPU), or nothing; nothing in a build without CUDA.
std::string open_runtime_compiler();

// --devices: every GPU, or those listed by number.
struct DeviceSet {
  bool all = false;
  std::vector<int> listed;
  bool given() const { return all || !listed.empty(); }
};

// The GPUs of `set`, each checked as cuda_usable checks GPU 0. Throws
// UsageError for a number that no GPU has, and DeviceError when there is no
// usable GPU or one cannot run this build.
std::vector<int> resolve_devices(const DeviceSet& set);

// Where the time went, for -v. Stage times are per stage, in order.
struct RunTimes {
  double upload_ms = 0;
  double download_ms = 0;
  std::vector<double> stage_ms;
};

// Runs every stage in order, in place. Throws DeviceError on a CUDA failure.
void run_pipeline(Backend backend, Image& img, const Pipeline& pipeline, RunTimes* times = nullptr);

// `threads`: the most it may use at once; 0: one per hardware thread.
void run_cpu(Image& img, const Pipeline& pipeline, RunTimes* times = nullptr, int threads = 0);

// Implemented by cuda_backend.cpp, or by cuda_backend_none.cpp in a build without CUDA.
bool cuda_usable(std::string* detail);  // GPU 0; detail: the device name, or why not
int cuda_device_count();                // 0 without a driver or a GPU
bool cuda_device_usable(int device, std::string* detail);
void run_cuda(Image& img, const Pipeline& pipeline, RunTimes* times = nullptr);

}  // namespace gpuimg
