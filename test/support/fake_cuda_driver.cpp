// Built as libcuda.so.1 and put first on LD_LIBRARY_PATH, where the CUDA
// runtime looks for the driver: loading it creates the file named by
// GPUIMG_TEST_DRIVER_MARKER, so a test can tell whether gpuimg initialised
// CUDA at all. It exports none of the driver's functions, so the runtime
// then finds no usable GPU.
#include <cstdio>
#include <cstdlib>

namespace {

__attribute__((constructor)) void record_load() {
  const char* marker = std::getenv("GPUIMG_TEST_DRIVER_MARKER");
  if (!marker) return;
  if (std::FILE* f = std::fopen(marker, "w")) std::fclose(f);
}

}  // namespace
