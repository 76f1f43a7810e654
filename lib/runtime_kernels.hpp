#pragma once
// CUDA source compiled at run time, by NVRTC (nvrtc_library.hpp), for the
// device's own architecture, cached on disk (cubin_cache.hpp) and loaded
// once per process. The cache key is the source, its headers, the NVRTC
// options (the architecture among them) and NVRTC's version.
//
// Source conventions: the kernel is declared extern "C" __global__, so that
// it is found by its plain name; headers are included by the names given
// with them (#include "expr_math.hpp"); nothing else is on the include path.
#include <string>
#include <utility>
#include <vector>

#include "error.hpp"

namespace gpuimg {

// (include name, text) pairs.
using SourceHeaders = std::vector<std::pair<std::string, std::string>>;

// NVRTC refused the source: a bug in the source gpuimg generated. The
// message is one line with the log's first lines; log() holds all of it.
class KernelCompileError : public DeviceError {
 public:
  KernelCompileError(const std::string& message, std::string log) : DeviceError(message), log_(std::move(log)) {}
  const std::string& log() const { return log_; }

 private:
  std::string log_;
};

// The options every compile gets: the architecture (sm_XX, so machine code,
// never PTX left to the driver), C++17, and no fused multiply-add, so the
// kernel rounds as the CPU backend does (no --use_fast_math either); then
// `extra`.
std::vector<std::string> compile_options(int arch, const std::vector<std::string>& extra = {});

// `source` compiled by NVRTC with `options`, as a cubin. KernelCompileError
// when it does not compile; DeviceError when NVRTC fails, or is missing:
// then the message names `needed_for`, what asked for the kernel (--map is
// the one user so far).
std::vector<char> compile_cubin(const std::string& source, const SourceHeaders& headers,
                                const std::vector<std::string>& options, const std::string& needed_for = "--map");

struct Cubin {
  std::vector<char> bytes;
  std::string hash;     // of the cache key: the entry's name, and what -v shows
  bool cached = false;  // read from the disk cache, not compiled
  double milliseconds = 0;
};

// compile_cubin's result for sm_`arch` through the disk cache: found there,
// or compiled and stored. Needs no GPU.
Cubin cached_cubin(const std::string& source, const SourceHeaders& headers, int arch,
                   const std::vector<std::string>& extra_options = {}, const std::string& needed_for = "--map");

struct RuntimeKernel {
  const void* function = nullptr;  // for cudaLaunchKernel
  std::string hash;
  bool cached = false;
  double milliseconds = 0;  // the first call's: compiling or reading, and loading
};

// The extern "C" kernel `kernel_name` of `source`, built for the current
// device (cached_cubin) and loaded, for every device of its architecture.
// Memoised: later calls for the same source, headers, architecture and name,
// from any thread, return the first call's record, which stays valid for the
// process's life. Every failure is a DeviceError naming what failed.
RuntimeKernel runtime_kernel(const std::string& source, const SourceHeaders& headers, const std::string& kernel_name,
                             const std::string& needed_for = "--map");

}  // namespace gpuimg
