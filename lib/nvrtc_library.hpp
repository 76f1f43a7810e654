#pragma once
// NVRTC, CUDA's run-time compiler, opened with dlopen at first use and never
// linked: a machine without it runs everything that does not compile CUDA
// source at run time. Which library: GPUIMG_NVRTC (a path or a soname) when
// set; otherwise the soname of the CUDA major version this build was made
// with (libnvrtc.so.13 for CUDA 13), then that file under $CUDA_HOME/lib64
// and /usr/local/cuda/lib64, where NVIDIA's installer puts it off the
// loader's path.
#include <string>

#include <nvrtc.h>

namespace gpuimg {

class NvrtcLibrary {
 public:
  // Opens it and resolves every function below, or throws DeviceError (exit
  // 3), one line: "NEEDED_FOR needs NVRTC (libnvrtc.so.13), which could not
  // be loaded: <the loader's reason>; run with --device cpu". NEEDED_FOR
  // names what asked ("--map").
  explicit NvrtcLibrary(const std::string& needed_for);
  ~NvrtcLibrary();
  NvrtcLibrary(const NvrtcLibrary&) = delete;
  NvrtcLibrary& operator=(const NvrtcLibrary&) = delete;

  // "13.0": part of every cache key, so a new NVRTC rebuilds its kernels.
  std::string version() const { return std::to_string(major_) + "." + std::to_string(minor_); }

  decltype(&::nvrtcCreateProgram) create_program = nullptr;
  decltype(&::nvrtcCompileProgram) compile_program = nullptr;
  decltype(&::nvrtcGetCUBINSize) get_cubin_size = nullptr;
  decltype(&::nvrtcGetCUBIN) get_cubin = nullptr;
  decltype(&::nvrtcGetProgramLogSize) get_program_log_size = nullptr;
  decltype(&::nvrtcGetProgramLog) get_program_log = nullptr;
  decltype(&::nvrtcDestroyProgram) destroy_program = nullptr;
  decltype(&::nvrtcGetErrorString) get_error_string = nullptr;

 private:
  void* handle_ = nullptr;
  int major_ = 0, minor_ = 0;
};

// The process's NVRTC: loaded by the first call, kept for the process's
// life, shared by every thread (later calls wait for a load under way). A
// failed load throws and is tried again by the next call.
const NvrtcLibrary& nvrtc(const std::string& needed_for);

}  // namespace gpuimg
