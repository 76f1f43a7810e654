// Where a process's CUDA start-up time goes, for the end-to-end benchmark
// (scripts/bench_e2e.sh): each step's time since main() began, as gpuimg's
// select_backend() and run_cuda() take them. With `exit-after MS`, a thread
// starts CUDA and the process leaves with _exit() after MS milliseconds,
// initialised or not; timing that whole process shows whether a process that
// no longer needs the GPU can leave without waiting for its start-up.
// Usage: gpuimg_cuda_start_bench [exit-after MS]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include <cuda_runtime.h>
#include <unistd.h>

namespace {

const auto t0 = std::chrono::steady_clock::now();

double ms() { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(); }

void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "gpuimg_cuda_start_bench: %s: %s\n", what, cudaGetErrorString(e));
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "exit-after") == 0) {
    std::thread([] { cudaFree(nullptr); }).detach();
    std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(argv[2])));
    std::fflush(stdout);
    _exit(0);
  }
  int count = 0;
  check(cudaGetDeviceCount(&count), "counting devices");
  const double counted = ms();
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "device properties");
  const double queried = ms();
  check(cudaFree(nullptr), "creating the context");
  const double context = ms();
  const std::size_t bytes = std::size_t(3840) * 2160 * 3;
  void *a = nullptr, *b = nullptr;
  check(cudaMalloc(&a, bytes), "cudaMalloc");
  check(cudaMalloc(&b, bytes), "cudaMalloc");
  const double allocated = ms();
  void* pinned = nullptr;
  check(cudaMallocHost(&pinned, bytes), "cudaMallocHost");
  const double pinned_at = ms();
  std::memset(pinned, 1, bytes);
  const double touched = ms();
  check(cudaMemcpy(a, pinned, bytes, cudaMemcpyHostToDevice), "pinned upload");
  const double up_pinned = ms();
  void* pageable = std::malloc(bytes);
  std::memset(pageable, 1, bytes);
  const double paged = ms();
  check(cudaMemcpy(b, pageable, bytes, cudaMemcpyHostToDevice), "pageable upload");
  const double up_pageable = ms();
  check(cudaHostRegister(pageable, bytes, cudaHostRegisterDefault), "registering");
  const double registered = ms();
  check(cudaMemcpy(b, pageable, bytes, cudaMemcpyHostToDevice), "registered upload");
  const double up_registered = ms();
  std::printf("device %s; ms since main(): devices counted (cuInit) %.1f, properties %.1f, context %.1f, "
              "2 x 24.9 MB cudaMalloc %.1f; 24.9 MB: cudaMallocHost %.1f, upload pinned %.1f, upload pageable %.1f, "
              "cudaHostRegister %.1f, upload registered %.1f\n",
              prop.name, counted, queried - counted, context - queried, allocated - context, pinned_at - allocated,
              up_pinned - touched, up_pageable - paged, registered - up_pageable, up_registered - registered);
  return 0;
}
