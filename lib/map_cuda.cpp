// --map's GPU path (kernels/ops/map.hpp): its kernel, made from the
// expression at run time (expr/cuda_source.hpp) and compiled by NVRTC or
// found in the disk cache (runtime_kernels.hpp), once a process for each
// expression and image layout.
#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include <cuda_runtime.h>

#include "cuda_launch.hpp"
#include "cuda_resources.hpp"
#include "expr/cuda_source.hpp"
#include "expr/kept_expressions.hpp"
#include "expr/kernel_notes.hpp"
#include "expr/map_headers.hpp"
#include "runtime_kernels.hpp"

namespace gpuimg {
namespace {

// Each expression's kernel for each layout and GPU, found without making
// its source again at every launch; made outside the lock, as
// runtime_kernel compiles each once however many lanes ask at once. -v
// names each the first time.
const void* map_kernel(const Map::Params& p, const Shape& in) {
  int device = 0;
  check_cuda(cudaGetDevice(&device), "asking which GPU is current");
  using Key = std::tuple<std::int32_t, std::int32_t, std::int32_t, int>;
  const Key key{p.expression.handle, in.channels, in.bytes, device};
  static std::mutex mutex;
  static std::map<Key, const void*> made;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto found = made.find(key); found != made.end()) return found->second;
  }
  const KeptExpression& e = kept_expression(p.expression);
  const RuntimeKernel k = runtime_kernel(expr::map_kernel_source(e.programs, in), expr::map_kernel_headers(),
                                         expr::kMapKernel);
  const std::lock_guard<std::mutex> lock(mutex);
  if (made.emplace(key, k.function).second) {
    char ms[32];
    std::snprintf(ms, sizeof ms, "%.1f ms", k.milliseconds);
    note_runtime_kernel("--map " + e.text + ": kernel " + k.hash + (k.cached ? ", from the cache in " : ", compiled in ") +
                        ms);
  }
  return k.function;
}

}  // namespace

void Map::prepare_cuda(const Params& p, const Shape& in) {
  if (!is_table(p)) map_kernel(p, in);
}

int Map::launch(const CudaStage& s, const Params& p) {
  if (is_table(p)) return launch_lookup(s);
  const void* kernel = map_kernel(p, s.in);
  const void* src = s.src;
  void* dst = s.dst;
  int width = s.in.width, height = s.in.height;
  const std::int32_t* load = s.tables.load;
  const std::int32_t* store = s.tables.store;
  constexpr int kThreads = 128;
  static_assert(kThreads >= expr::kMapRows, "the first group_rows threads of a block compute its rows' values");
  constexpr int kColumns = kThreads * expr::kMapPixels;
  const long long across = (width + kColumns - 1) / kColumns;
  // Groups of fewer rows where kMapRows would leave the SMs short of blocks
  // (about eight an SM): a small image, whose few long columns a thread
  // took twice the time of one column a thread (1920x1080 RGB).
  int sms = 0;
  if (cudaError_t e = current_sms(sms); e != cudaSuccess) return e;
  int group_rows = expr::kMapRows;
  while (group_rows > 1 && across * ((height + group_rows - 1) / group_rows) < 8LL * sms) group_rows /= 2;
  void* args[] = {&src, &dst, &width, &height, &group_rows, &load, &store};
  const dim3 grid(static_cast<unsigned>(across), std::min((height + group_rows - 1) / group_rows, kMaxGridY));
  return cudaLaunchKernel(kernel, grid, dim3(kThreads), args, 0, s.stream);
}

}  // namespace gpuimg
