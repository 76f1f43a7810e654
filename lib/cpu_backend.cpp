// The CPU backend: the same per-pixel code as the CUDA kernels, with rows
// spread over every core. Each stage runs by its op's kind, as on the GPU:
// point and stencil ops through run_rows, remaps in cpu_remap.cpp,
// resamples in cpu_resample.cpp, a pass of table stages in cpu_table.cpp,
// custom ops through their own run_cpu. Stages ping-pong between two
// buffers as large as the largest stage's output (run_cpu).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "backend.hpp"
#include "cpu_remap.hpp"
#include "cpu_resample.hpp"
#include "cpu_table.hpp"
#include "parallel.hpp"
#include "plan.hpp"
#include "view.hpp"

namespace gpuimg {
namespace {

// Rows per thread below which a thread's start costs more than its work.
constexpr int kMinRowsPerThread = 8;

// Pixels at least the halo away from every edge read through InteriorView,
// the border ring through the clamping ImageView: the same apply() either
// way. On 3840x2160 RGB, invert took 80 ms with every pixel clamped. Each
// output pixel has Cout samples (a point op may change the channel count).
template <int C, int Cout, class T, class Apply>
void run_rows(const CpuStage& s, int halo, const Apply& apply) {
  const T* src = static_cast<const T*>(s.src);
  T* dst = static_cast<T*>(s.dst);
  const int width = s.in.width, height = s.in.height;
  parallel_bands(height, kMinRowsPerThread, [&](int y0, int y1) {
    // Views local to the thread: an 8-bit store may alias anything the
    // compiler cannot see is private, which would reload the views' fields
    // for every sample. The same goes for what `apply` captured.
    const Apply apply_here = apply;
    const ImageView<T> clamped{src, width, height, C};
    const InteriorView<T, C> interior{src, width};
    for (int y = y0; y < y1; ++y) {
      T* out = dst + static_cast<std::size_t>(y) * width * Cout;
      if (y < halo || y >= height - halo) {
        for (int x = 0; x < width; ++x) apply_here(clamped, x, y, out + x * Cout);
        continue;
      }
      const int x0 = std::min(halo, width), x1 = std::max(x0, width - halo);
      for (int x = 0; x < x0; ++x) apply_here(clamped, x, y, out + x * Cout);
      for (int x = x0; x < x1; ++x) apply_here(interior, x, y, out + x * Cout);
      for (int x = x1; x < width; ++x) apply_here(clamped, x, y, out + x * Cout);
    }
  }, s.threads);
}

template <class Op, int C, int Cout, class T> void run_pixels(const CpuStage& s, const typename Op::Params& p) {
  if constexpr (has_byte_table<Op> && sizeof(T) == 1) {
    std::vector<std::int32_t> table(Op::table_size);
    for (int i = 0; i < Op::table_size; ++i) table[i] = Op::table_entry(p, i);
    const auto run = [&](auto may_miss) {
      run_rows<C, Cout, T>(s, Op::halo(p), [p, t = table.data()](const auto& view, int x, int y, T* out) {
        Op::template apply<decltype(may_miss)::value>(view, x, y, p, t, out);
      });
    };
    if (std::find(table.begin(), table.end(), kUntabulated) != table.end())
      run(std::true_type{});
    else
      run(std::false_type{});
  } else {
    int halo = 0;
    if constexpr (Op::kind == Kind::stencil) halo = Op::halo(p);
    run_rows<C, Cout, T>(s, halo, [p](const auto& view, int x, int y, T* out) { Op::apply(view, x, y, p, out); });
  }
}

// The channel counts in and out, as template parameters: the same count, or
// colour to gray (3 to 1, 4 to 2).
template <class Op, class T> void run_pixels(const CpuStage& s, const typename Op::Params& p) {
  const int in = s.in.channels, out = s.out.channels;
  if (in == out) {
    switch (in) {
      case 1: return run_pixels<Op, 1, 1, T>(s, p);
      case 2: return run_pixels<Op, 2, 2, T>(s, p);
      case 3: return run_pixels<Op, 3, 3, T>(s, p);
      default: return run_pixels<Op, 4, 4, T>(s, p);
    }
  }
  if constexpr (Op::kind == Kind::point) {
    if (in == 3 && out == 1) return run_pixels<Op, 3, 1, T>(s, p);
    if (in == 4 && out == 2) return run_pixels<Op, 4, 2, T>(s, p);
  }
  throw std::logic_error("no CPU path from " + std::to_string(in) + " to " + std::to_string(out) + " channels");
}

void run_stage(const OpRecord& rec, const CpuStage& s) {
  visit_op(rec.id, [&](auto tag) {
    using Op = typename decltype(tag)::type;
    const auto& p = rec.get<Op>();
    if constexpr (Op::kind == Kind::point || Op::kind == Kind::stencil) {
      if (s.in.bytes == 1)
        run_pixels<Op, std::uint8_t>(s, p);
      else
        run_pixels<Op, std::uint16_t>(s, p);
    } else if constexpr (Op::kind == Kind::remap) {
      remap_cpu(s, Op::map(p, rec.in));
    } else if constexpr (Op::kind == Kind::resample) {
      resample_cpu(s, unpack_resample(s.data, s.data));
    } else if constexpr (Op::kind == Kind::table) {
      lookup_cpu(s);
    } else {
      Op::run_cpu(s, p);
    }
  });
}

}  // namespace

// Stages ping-pong between the image's buffer and a scratch buffer left
// uninitialised, so that its pages are first touched by the first stage's
// threads: zero-filling 25 MB on one thread first took about 20 ms of a
// 3840x2160 run on 2 cores, more than the blur. Both hold the largest
// stage's output. After an odd number of stages the result is copied back,
// on every core.
void run_cpu(Image& img, const Pipeline& pipeline, RunTimes* times, int threads) {
  if (pipeline.empty()) return;
  const Pipeline planned = plan_pipeline(pipeline, shape_of(img));
  const std::size_t largest = largest_buffer(planned);
  const std::unique_ptr<std::uint8_t[]> scratch(new std::uint8_t[largest]);
  if (img.data.size() < largest) img.data.resize(largest);
  std::uint8_t* src = img.data.data();
  std::uint8_t* dst = scratch.get();
  for (std::size_t i = 0; i < planned.size(); ++i) {
    const OpRecord& rec = planned[i];
    if (rec.span == 0) {  // ran in the pass before it
      if (times) times->stage_ms.push_back(0);
      continue;
    }
    const auto start = std::chrono::steady_clock::now();
    const std::vector<std::int32_t> data = is_table_stage(rec) && pass_reads_range(planned, i)
                                               ? pass_tables(planned, i, channel_ranges_cpu(src, rec.in, threads))
                                               : stage_data(planned, i);
    run_stage(rec, CpuStage{src, dst, rec.in, rec.out, threads, data.empty() ? nullptr : data.data()});
    std::swap(src, dst);
    if (times)
      times->stage_ms.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  const Shape out = planned.back().out;
  if (src != img.data.data()) {
    const std::size_t row = std::size_t(out.width) * out.channels * out.bytes;
    parallel_bands(out.height, kMinRowsPerThread, [&](int y0, int y1) {
      std::memcpy(img.data.data() + y0 * row, src + y0 * row, (y1 - y0) * row);
    }, threads);
  }
  img.width = out.width;
  img.height = out.height;
  img.channels = out.channels;
  img.data.resize(out.byte_size());
}

}  // namespace gpuimg
