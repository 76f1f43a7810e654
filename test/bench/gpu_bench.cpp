// Times each op's kernels on the GPU against a device-to-device copy of the
// same bytes (the memory-bandwidth limit), with CUDA events: warm-up, then
// the median of many runs, rotating over enough buffers that no run finds
// its input in the 50 MB L2. Prints one table row per (op, size, type).
// Usage: gpuimg_bench [repetitions]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "cuda_launch.hpp"
#include "pipeline.hpp"

namespace {

void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "gpuimg_bench: %s: %s\n", what, cudaGetErrorString(e));
  std::exit(1);
}

struct Shape {
  int width, height, channels, bytes_per_sample;
  const char* name;
};

double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Median milliseconds of `run(i)` over `reps` runs; run(i) enqueues on `s`.
template <class F> double time_ms(int reps, cudaStream_t s, F run) {
  cudaEvent_t a, b;
  check(cudaEventCreate(&a), "event");
  check(cudaEventCreate(&b), "event");
  for (int i = 0; i < 3; ++i) run(i);
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    check(cudaEventRecord(a, s), "record");
    run(i);
    check(cudaEventRecord(b, s), "record");
    check(cudaEventSynchronize(b), "sync");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, a, b), "elapsed");
    t.push_back(ms);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return median(t);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace gpuimg;
  const int reps = argc > 1 ? std::atoi(argv[1]) : 30;
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "device properties");
  std::printf("device: %s, %d SMs, %d MB L2\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20);
  std::printf("%-14s %-10s %-6s %10s %9s %8s\n", "op", "size", "type", "ms", "GB/s", "x copy");

  const std::vector<Shape> shapes = {{1920, 1080, 3, 1, "rgb8"},  {3840, 2160, 3, 1, "rgb8"},
                                     {7680, 4320, 3, 1, "rgb8"},  {1920, 1080, 1, 2, "gray16"},
                                     {3840, 2160, 1, 2, "gray16"}, {7680, 4320, 1, 2, "gray16"}};
  std::vector<OpRecord> records = {parse_stage("invert", {}), parse_stage("sharpen", {"1"})};
  for (const char* r : {"1", "3", "8", "25", "64", "256"}) records.push_back(parse_stage("blur", {r}));

  cudaStream_t s;
  check(cudaStreamCreate(&s), "stream");
  for (const Shape& sh : shapes) {
    const size_t bytes = size_t(sh.width) * sh.height * sh.channels * sh.bytes_per_sample;
    const int sets = static_cast<int>(std::max<size_t>(2, (400u << 20) / (2 * bytes)));
    std::vector<void*> src(sets), dst(sets);
    std::vector<unsigned char> host(bytes);
    std::mt19937 rng(1);
    for (auto& b : host) b = static_cast<unsigned char>(rng());
    for (int i = 0; i < sets; ++i) {
      check(cudaMalloc(&src[i], bytes), "malloc");
      check(cudaMalloc(&dst[i], bytes), "malloc");
      check(cudaMemcpy(src[i], host.data(), bytes, cudaMemcpyHostToDevice), "upload");
    }
    void* scratch = nullptr;
    check(cudaMalloc(&scratch, scratch_bytes(records, sh.width, sh.height, sh.channels)), "malloc");
    OpRecord* d_ops = nullptr;
    check(cudaMalloc(&d_ops, sizeof(OpRecord)), "malloc");

    const std::string size = std::to_string(sh.width) + "x" + std::to_string(sh.height);
    const double copy = time_ms(reps, s, [&](int i) {
      check(cudaMemcpyAsync(dst[i % sets], src[i % sets], bytes, cudaMemcpyDeviceToDevice, s), "copy");
    });
    std::printf("%-14s %-10s %-6s %10.4f %9.0f %8.2f\n", "copy", size.c_str(), sh.name, copy, 2 * bytes / copy / 1e6,
                1.0);
    for (const OpRecord& rec : records) {
      check(cudaMemcpy(d_ops, &rec, sizeof rec, cudaMemcpyHostToDevice), "upload op");
      const double ms = time_ms(reps, s, [&](int i) {
        const CudaStage st{src[i % sets], dst[i % sets], sh.width, sh.height, sh.channels, sh.bytes_per_sample,
                           scratch, s};
        check(launch_stage(rec, 0, st, d_ops), "launch");
      });
      std::string label = describe(rec);
      std::replace(label.begin(), label.end(), ' ', '_');
      std::printf("%-14s %-10s %-6s %10.4f %9.0f %8.2f\n", label.c_str(), size.c_str(), sh.name, ms,
                  2 * bytes / ms / 1e6, ms / copy);
    }
    for (int i = 0; i < sets; ++i) {
      cudaFree(src[i]);
      cudaFree(dst[i]);
    }
    cudaFree(scratch);
    cudaFree(d_ops);
  }
  check(cudaDeviceSynchronize(), "final sync");
  return 0;
}
