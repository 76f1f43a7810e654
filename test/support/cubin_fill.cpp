// One process of the disk cache's concurrency test
// (runtime_kernels_cuda_test.cpp): cubin_fill SOURCE ARCH GO OUT loads
// NVRTC, waits for the file GO to exist, so that every process starts
// together, fills the cache the environment names with SOURCE's kernel for
// sm_ARCH, and writes the cubin it got to OUT.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include "nvrtc_library.hpp"
#include "runtime_kernels.hpp"

int main(int argc, char** argv) try {
  if (argc != 5) {
    std::fprintf(stderr, "usage: cubin_fill SOURCE ARCH GO OUT\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  const std::string source((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  gpuimg::nvrtc("the cache test");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!std::filesystem::exists(argv[3])) {
    if (std::chrono::steady_clock::now() > deadline) return 3;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  const gpuimg::Cubin cubin = gpuimg::cached_cubin(source, {}, std::stoi(argv[2]), {}, "the cache test");
  std::ofstream(argv[4], std::ios::binary).write(cubin.bytes.data(), static_cast<std::streamsize>(cubin.bytes.size()));
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "%s\n", e.what());
  return 1;
}
