// What run-time compilation costs (docs/RUNTIME_COMPILATION.md): loading
// NVRTC, a process's first compile of a --map-sized kernel (about 50 lines
// and a 200-line header, test/support/runtime_kernel_sources.hpp), later
// compiles of fresh sources, and a cache hit (read and check); on a GPU, a
// cached kernel's load too. The cache is a fresh temporary folder, never
// the user's. Usage: gpuimg_runtime_kernel_bench [ARCH] (default: 90, or
// the GPU's when there is one).
//
// `gpuimg_runtime_kernel_bench start alone|beside`: one process's CUDA
// start-up (select_backend), alone or with NVRTC opened on a thread beside
// it as a --map run does (app/run.cpp); each in a fresh process, since a
// library opens once a process, so run it in a loop.
#include <stdlib.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>

#include <cuda_runtime.h>

#include "backend.hpp"
#include "nvrtc_library.hpp"
#include "runtime_kernel_sources.hpp"
#include "runtime_kernels.hpp"

namespace {

double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

int start_up(const std::string& how) {
  const auto start = std::chrono::steady_clock::now();
  double nvrtc_ms = 0;
  std::string missing;
  std::thread nvrtc;
  if (how == "beside") nvrtc = std::thread([&] {
    missing = gpuimg::open_runtime_compiler();
    nvrtc_ms = ms_since(start);
  });
  gpuimg::BackendSelection s{gpuimg::Backend::cpu, ""};
  try {
    s = gpuimg::select_backend(gpuimg::DeviceChoice::cuda);
  } catch (const std::exception& e) {
    s.detail = e.what();
  }
  const double cuda_ms = ms_since(start);
  if (nvrtc.joinable()) nvrtc.join();
  std::printf("start %s: %.1f ms (CUDA %.1f ms, NVRTC open %.1f ms) %s%s\n", how.c_str(), ms_since(start), cuda_ms,
              nvrtc_ms, s.detail.c_str(), missing.empty() ? "" : ("; " + missing).c_str());
  return s.backend == gpuimg::Backend::cuda && missing.empty() ? 0 : 1;
}

int main(int argc, char** argv) try {
  if (argc > 1 && std::string(argv[1]) == "start") {
    if (argc == 3 && (std::string(argv[2]) == "alone" || std::string(argv[2]) == "beside")) return start_up(argv[2]);
    std::fprintf(stderr, "usage: gpuimg_runtime_kernel_bench start alone|beside\n");
    return 2;
  }
  std::string folder = (std::filesystem::temp_directory_path() / "gpuimg-bench-XXXXXX").string();
  if (!::mkdtemp(folder.data())) return 1;
  ::setenv("XDG_CACHE_HOME", folder.c_str(), 1);
  const auto start = std::chrono::steady_clock::now();
  const gpuimg::NvrtcLibrary& nv = gpuimg::nvrtc("the benchmark");
  std::printf("NVRTC %s loaded in %.1f ms\n", nv.version().c_str(), ms_since(start));

  std::string gpu;
  const bool on_gpu = gpuimg::cuda_usable(&gpu);
  int arch = argc > 1 ? std::atoi(argv[1]) : 90;
  if (on_gpu && argc == 1) {
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, 0);
    arch = prop.major * 10 + prop.minor;
  }
  const std::string source = gpuimg::test::sample_kernel_source();
  const gpuimg::SourceHeaders headers = gpuimg::test::sample_headers();
  const gpuimg::Cubin first = gpuimg::cached_cubin(source, headers, arch, {}, "the benchmark");
  std::printf("first compile, sm_%d: %.1f ms (%zu bytes, cached %d)\n", arch, first.milliseconds, first.bytes.size(),
              first.cached);
  for (int i = 1; i <= 3; ++i) {
    const std::string fresh = source + "// " + std::to_string(i) + "\n";  // a new key each time
    std::printf("compile %d: %.1f ms\n", i + 1, gpuimg::cached_cubin(fresh, headers, arch, {}, "the benchmark").milliseconds);
  }
  for (int i = 0; i < 3; ++i) {
    const gpuimg::Cubin hit = gpuimg::cached_cubin(source, headers, arch, {}, "the benchmark");
    std::printf("cache hit (read, check): %.3f ms (cached %d)\n", hit.milliseconds, hit.cached);
  }
  if (on_gpu) {
    std::printf("%s\n", gpu.c_str());
    const gpuimg::RuntimeKernel k = gpuimg::runtime_kernel(source, headers, "fill_samples", "the benchmark");
    std::printf("runtime_kernel, cached %d: %.3f ms (read, check, cudaLibraryLoadData, cudaLibraryGetKernel)\n",
                k.cached, k.milliseconds);
  }
  std::filesystem::remove_all(folder);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "gpuimg_runtime_kernel_bench: %s\n", e.what());
  return 1;
}
