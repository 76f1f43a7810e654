#include "runtime_kernels.hpp"

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include <cuda_runtime.h>

#include "cubin_cache.hpp"
#include "cuda_resources.hpp"
#include "nvrtc_library.hpp"

namespace gpuimg {
namespace {

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// Length-prefixed, so that no two different lists of texts read the same.
void add_text(std::string& out, const std::string& text) {
  out += std::to_string(text.size());
  out += ':';
  out += text;
  out += '\n';
}

std::string source_text(const std::string& source, const SourceHeaders& headers) {
  std::string out;
  add_text(out, std::to_string(headers.size()));
  for (const auto& [name, text] : headers) {
    add_text(out, name);
    add_text(out, text);
  }
  add_text(out, source);
  return out;
}

std::string cache_key(const NvrtcLibrary& nv, const std::string& source, const SourceHeaders& headers,
                      const std::vector<std::string>& options) {
  std::string key;
  add_text(key, "nvrtc " + nv.version());
  add_text(key, std::to_string(options.size()));
  for (const std::string& option : options) add_text(key, option);
  return key + source_text(source, headers);
}

// The log's first `count` lines that say something, joined into one.
std::string first_lines(const std::string& log, int count) {
  std::string out;
  std::size_t begin = 0;
  while (begin < log.size()) {
    std::size_t end = log.find('\n', begin);
    if (end == std::string::npos) end = log.size();
    if (end > begin) {
      if (count-- == 0) return out + " / ...";
      out += (out.empty() ? "" : " / ") + log.substr(begin, end - begin);
    }
    begin = end + 1;
  }
  return out;
}

class Program {
 public:
  Program(const NvrtcLibrary& nv, const std::string& source, const SourceHeaders& headers) : nv_(nv) {
    std::vector<const char*> names, texts;
    for (const auto& [name, text] : headers) {
      names.push_back(name.c_str());
      texts.push_back(text.c_str());
    }
    check(nv_.create_program(&program_, source.c_str(), "runtime_kernel.cu", static_cast<int>(headers.size()),
                             texts.data(), names.data()),
          "creating a program");
  }
  ~Program() {
    if (program_) nv_.destroy_program(&program_);
  }
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  std::vector<char> compile(const std::vector<std::string>& options) {
    std::vector<const char*> words;
    for (const std::string& option : options) words.push_back(option.c_str());
    const nvrtcResult result = nv_.compile_program(program_, static_cast<int>(words.size()), words.data());
    if (result != NVRTC_SUCCESS) {
      const std::string log = this->log();
      const char* blame = result == NVRTC_ERROR_COMPILATION ? "; a bug in gpuimg, please report it" : "";
      throw KernelCompileError("NVRTC " + nv_.version() + " could not compile the CUDA source gpuimg generated (" +
                                   nv_.get_error_string(result) + blame + "): " + first_lines(log, 3),
                               log);
    }
    std::size_t size = 0;
    check(nv_.get_cubin_size(program_, &size), "measuring the cubin");
    if (size == 0) throw DeviceError("NVRTC made no cubin (was a virtual architecture asked for?)");
    std::vector<char> cubin(size);
    check(nv_.get_cubin(program_, cubin.data()), "copying the cubin");
    return cubin;
  }

 private:
  void check(nvrtcResult result, const std::string& what) const {
    if (result != NVRTC_SUCCESS)
      throw DeviceError("NVRTC failed while " + what + ": " + nv_.get_error_string(result));
  }

  std::string log() const {
    std::size_t size = 0;
    check(nv_.get_program_log_size(program_, &size), "measuring the compile log");
    std::string text(size, '\0');
    if (size > 0) check(nv_.get_program_log(program_, text.data()), "copying the compile log");
    while (!text.empty() && (text.back() == '\0' || text.back() == '\n')) text.pop_back();
    return text;
  }

  const NvrtcLibrary& nv_;
  nvrtcProgram program_ = nullptr;
};

std::vector<char> compile_with(const NvrtcLibrary& nv, const std::string& source, const SourceHeaders& headers,
                               const std::vector<std::string>& options) {
  return Program(nv, source, headers).compile(options);
}

}  // namespace

std::vector<std::string> compile_options(int arch, const std::vector<std::string>& extra) {
  std::vector<std::string> options = {"-arch=sm_" + std::to_string(arch), "-std=c++17", "--fmad=false"};
  options.insert(options.end(), extra.begin(), extra.end());
  return options;
}

std::vector<char> compile_cubin(const std::string& source, const SourceHeaders& headers,
                                const std::vector<std::string>& options, const std::string& needed_for) {
  return compile_with(nvrtc(needed_for), source, headers, options);
}

Cubin cached_cubin(const std::string& source, const SourceHeaders& headers, int arch,
                   const std::vector<std::string>& extra_options, const std::string& needed_for) {
  const auto start = std::chrono::steady_clock::now();
  const NvrtcLibrary& nv = nvrtc(needed_for);
  const std::vector<std::string> options = compile_options(arch, extra_options);
  const std::string key = cache_key(nv, source, headers, options);
  Cubin out;
  out.hash = key_hash(key);
  const CubinCache cache;
  if (std::optional<std::vector<char>> found = cache.find(key)) {
    out.bytes = std::move(*found);
    out.cached = true;
  } else {
    out.bytes = compile_with(nv, source, headers, options);
    cache.store(key, out.bytes);
  }
  out.milliseconds = milliseconds_since(start);
  return out;
}

RuntimeKernel runtime_kernel(const std::string& source, const SourceHeaders& headers, const std::string& kernel_name,
                             const std::string& needed_for) {
  const auto start = std::chrono::steady_clock::now();
  int device = 0, major = 0, minor = 0;
  check_cuda(cudaGetDevice(&device), "asking which GPU is current");
  const std::string which = "GPU " + std::to_string(device);
  check_cuda(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device),
             "asking the compute capability of " + which);
  check_cuda(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device),
             "asking the compute capability of " + which);
  const int arch = major * 10 + minor;

  // Never freed: kernels stay loaded for the process's life, and a lane may
  // still launch one while exit() runs static destructors.
  struct Loaded {
    std::mutex mutex;
    std::optional<RuntimeKernel> kernel;
    // Kept: the CUDA documentation does not say that the driver copies the
    // image, and with lazy loading it is read at each device's first launch.
    std::vector<char> cubin;
  };
  struct Memo {
    std::mutex mutex;
    std::map<std::string, std::unique_ptr<Loaded>> loaded;
  };
  static Memo* const memo = new Memo;
  Loaded* slot = nullptr;
  {
    std::lock_guard<std::mutex> lock(memo->mutex);
    std::unique_ptr<Loaded>& entry =
        memo->loaded[std::to_string(arch) + ' ' + kernel_name + '\n' + source_text(source, headers)];
    if (!entry) entry = std::make_unique<Loaded>();
    slot = entry.get();
  }
  // Held while compiling: a second thread wanting the same kernel waits for
  // it rather than compiling it again.
  std::lock_guard<std::mutex> lock(slot->mutex);
  if (slot->kernel) return *slot->kernel;

  Cubin cubin = cached_cubin(source, headers, arch, {}, needed_for);
  const std::string what = "kernel " + kernel_name + " (" + cubin.hash + ") compiled at run time";
  cudaLibrary_t library = nullptr;
  check_cuda(cudaLibraryLoadData(&library, cubin.bytes.data(), nullptr, nullptr, 0, nullptr, nullptr, 0),
             "loading " + what);
  cudaKernel_t kernel = nullptr;
  const cudaError_t found = cudaLibraryGetKernel(&kernel, library, kernel_name.c_str());
  if (found != cudaSuccess) {
    cudaLibraryUnload(library);
    // Taken off the runtime's last error, which a later launch's check
    // reads: the failure is reported here, as this throw.
    cudaGetLastError();
  }
  check_cuda(found, "finding " + what);
  slot->cubin = std::move(cubin.bytes);
  slot->kernel = RuntimeKernel{reinterpret_cast<const void*>(kernel), cubin.hash, cubin.cached,
                               milliseconds_since(start)};
  return *slot->kernel;
}

}  // namespace gpuimg
