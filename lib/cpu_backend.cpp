// The CPU backend: the same per-pixel code as the CUDA kernels, with rows
// spread over every core; blur, which is no per-pixel code, in cpu_blur.cpp.
// Stages ping-pong between the image's buffer and one scratch buffer of the
// same size (run_all).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "backend.hpp"
#include "cpu_blur.hpp"
#include "parallel.hpp"
#include "view.hpp"

namespace gpuimg {
namespace {

// Rows per thread below which a thread's start costs more than its work.
constexpr int kMinRowsPerThread = 8;

template <class T> struct CpuStage {
  const T* src;
  T* dst;
  int width, height, channels;
  int threads;  // for parallel_bands
};

// Pixels at least the halo away from every edge read through InteriorView,
// the border ring through the clamping ImageView: the same apply() either
// way. On 3840x2160 RGB, invert took 80 ms with every pixel clamped.
template <int C, class T, class Apply> void run_rows(const CpuStage<T>& s, int halo, const Apply& apply) {
  parallel_bands(s.height, kMinRowsPerThread, [&](int y0, int y1) {
    // Views local to the thread: an 8-bit store may alias anything the
    // compiler cannot see is private, which would reload the views' fields
    // for every sample. The same goes for what `apply` captured.
    const Apply apply_here = apply;
    const ImageView<T> clamped{s.src, s.width, s.height, C};
    const InteriorView<T, C> interior{s.src, s.width};
    for (int y = y0; y < y1; ++y) {
      T* out = s.dst + static_cast<std::size_t>(y) * s.width * C;
      if (y < halo || y >= s.height - halo) {
        for (int x = 0; x < s.width; ++x) apply_here(clamped, x, y, out + x * C);
        continue;
      }
      const int x0 = std::min(halo, s.width), x1 = std::max(x0, s.width - halo);
      for (int x = 0; x < x0; ++x) apply_here(clamped, x, y, out + x * C);
      for (int x = x0; x < x1; ++x) apply_here(interior, x, y, out + x * C);
      for (int x = x1; x < s.width; ++x) apply_here(clamped, x, y, out + x * C);
    }
  }, s.threads);
}

template <class Op, int C, class T> void run_stencil(const CpuStage<T>& s, const typename Op::Params& p) {
  if constexpr (has_byte_table<Op> && sizeof(T) == 1) {
    std::vector<std::int32_t> table(Op::table_size);
    for (int i = 0; i < Op::table_size; ++i) table[i] = Op::table_entry(p, i);
    const auto run = [&](auto may_miss) {
      run_rows<C>(s, Op::halo(p), [p, t = table.data()](const auto& view, int x, int y, T* out) {
        Op::template apply<decltype(may_miss)::value>(view, x, y, p, t, out);
      });
    };
    if (std::find(table.begin(), table.end(), kUntabulated) != table.end())
      run(std::true_type{});
    else
      run(std::false_type{});
  } else {
    run_rows<C>(s, Op::halo(p), [p](const auto& view, int x, int y, T* out) { Op::apply(view, x, y, p, out); });
  }
}

template <class Op, class T> void run_stencil(const CpuStage<T>& s, const typename Op::Params& p) {
  switch (s.channels) {
    case 1: return run_stencil<Op, 1>(s, p);
    case 2: return run_stencil<Op, 2>(s, p);
    case 3: return run_stencil<Op, 3>(s, p);
    default: return run_stencil<Op, 4>(s, p);
  }
}

template <class T> void run_custom(OpTag<Blur>, const CpuStage<T>& s, const Blur::Params& p) {
  blur_cpu(s.src, s.dst, s.width, s.height, s.channels, p.radius, s.threads);
}

template <class T> void run_stage(const OpRecord& rec, const CpuStage<T>& s) {
  visit_op(rec.id, [&](auto tag) {
    using Op = typename decltype(tag)::type;
    if constexpr (Op::kind == Kind::stencil)
      run_stencil<Op>(s, rec.get<Op>());
    else
      run_custom(tag, s, rec.get<Op>());
  });
}

// Stages ping-pong between the image's buffer and a scratch buffer left
// uninitialised, so that its pages are first touched by the first stage's
// threads: zero-filling 25 MB on one thread first took about 20 ms of a
// 3840x2160 run on 2 cores, more than the blur. After an odd number of
// stages the result is copied back, on every core.
template <class T> void run_all(Image& img, const Pipeline& pipeline, RunTimes* times, int threads) {
  if (pipeline.empty()) return;
  const std::unique_ptr<std::uint8_t[]> scratch(new std::uint8_t[img.data.size()]);
  std::uint8_t* src = img.data.data();
  std::uint8_t* dst = scratch.get();
  for (const OpRecord& rec : pipeline) {
    const auto start = std::chrono::steady_clock::now();
    run_stage(rec, CpuStage<T>{reinterpret_cast<const T*>(src), reinterpret_cast<T*>(dst), img.width, img.height,
                               img.channels, threads});
    std::swap(src, dst);
    if (times)
      times->stage_ms.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  if (src != img.data.data()) {
    const std::size_t row = img.row_bytes();
    parallel_bands(img.height, kMinRowsPerThread, [&](int y0, int y1) {
      std::memcpy(img.data.data() + y0 * row, src + y0 * row, (y1 - y0) * row);
    }, threads);
  }
}

}  // namespace

void run_cpu(Image& img, const Pipeline& pipeline, RunTimes* times, int threads) {
  if (img.depth == Depth::U8)
    run_all<std::uint8_t>(img, pipeline, times, threads);
  else
    run_all<std::uint16_t>(img, pipeline, times, threads);
}

}  // namespace gpuimg
