#include "nvrtc_library.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <memory>
#include <mutex>
#include <vector>

#include <cuda_runtime_api.h>

#include "error.hpp"

namespace gpuimg {
namespace {

// The NVRTC of this build's CUDA major version: NVRTC keeps its interface
// within a major version, and says so in its soname.
const std::string kSoname = "libnvrtc.so." + std::to_string(CUDART_VERSION / 1000);

std::vector<std::string> candidates() {
  std::vector<std::string> out = {kSoname};
  const char* cuda_home = std::getenv("CUDA_HOME");
  if (cuda_home && *cuda_home) out.push_back(std::string(cuda_home) + "/lib64/" + kSoname);
  out.push_back("/usr/local/cuda/lib64/" + kSoname);
  return out;
}

std::string loader_error() {
  const char* e = ::dlerror();
  return e ? e : "unknown error";
}

template <class F> void resolve(void* handle, const char* name, F& f, std::string* error) {
  if (!error->empty()) return;
  ::dlerror();
  f = reinterpret_cast<F>(::dlsym(handle, name));
  if (!f) *error = loader_error();
}

}  // namespace

NvrtcLibrary::NvrtcLibrary(const std::string& needed_for) {
  const char* chosen = std::getenv("GPUIMG_NVRTC");
  const bool from_environment = chosen && *chosen;
  const std::vector<std::string> names = from_environment ? std::vector<std::string>{chosen} : candidates();
  const std::string named = from_environment ? names[0] + ", from GPUIMG_NVRTC" : kSoname;
  // The first name's reason: the later ones are the same library off the
  // loader's path, so "no such file" there says nothing new.
  std::string error;
  for (const std::string& name : names) {
    if ((handle_ = ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL))) break;
    if (error.empty()) error = loader_error();
  }
  if (handle_) {
    error.clear();
    decltype(&::nvrtcVersion) get_version = nullptr;
    resolve(handle_, "nvrtcVersion", get_version, &error);
    resolve(handle_, "nvrtcCreateProgram", create_program, &error);
    resolve(handle_, "nvrtcCompileProgram", compile_program, &error);
    resolve(handle_, "nvrtcGetCUBINSize", get_cubin_size, &error);
    resolve(handle_, "nvrtcGetCUBIN", get_cubin, &error);
    resolve(handle_, "nvrtcGetProgramLogSize", get_program_log_size, &error);
    resolve(handle_, "nvrtcGetProgramLog", get_program_log, &error);
    resolve(handle_, "nvrtcDestroyProgram", destroy_program, &error);
    resolve(handle_, "nvrtcGetErrorString", get_error_string, &error);
    if (error.empty() && get_version(&major_, &minor_) != NVRTC_SUCCESS) error = "nvrtcVersion failed";
  }
  if (error.empty()) return;
  if (handle_) ::dlclose(handle_);
  throw DeviceError(needed_for + " needs NVRTC (" + named + "), which could not be loaded: " + error +
                    "; run with --device cpu");
}

NvrtcLibrary::~NvrtcLibrary() { ::dlclose(handle_); }

const NvrtcLibrary& nvrtc(const std::string& needed_for) {
  // Never freed: a batch's lane threads may still be compiling while exit()
  // runs static destructors.
  struct Loaded {
    std::mutex mutex;
    std::unique_ptr<NvrtcLibrary> library;
  };
  static Loaded* const loaded = new Loaded;
  std::lock_guard<std::mutex> lock(loaded->mutex);
  if (!loaded->library) loaded->library = std::make_unique<NvrtcLibrary>(needed_for);
  return *loaded->library;
}

}  // namespace gpuimg
