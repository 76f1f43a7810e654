#include "cpu_resample.hpp"

#include <cstdint>
#include <cstring>
#include <memory>

#include "parallel.hpp"

namespace gpuimg {
namespace {

constexpr int kMinRowsPerThread = 8;

// One pass along x (rows) or y (columns) from `src` (width x height pixels)
// to `dst`, whose side along the pass is the table's output size.
template <class T, int C>
void run_pass(const T* src, T* dst, int width, int height, bool along_x, const ResampleTable& t, int out_len,
              bool premultiply_in, bool unpremultiply_out, int threads) {
  const int out_w = along_x ? out_len : width, out_h = along_x ? height : out_len;
  parallel_bands(out_h, kMinRowsPerThread, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y) {
      T* out = dst + static_cast<std::size_t>(y) * out_w * C;
      for (int x = 0; x < out_w; ++x) {
        const int i = along_x ? x : y;
        const T* line = along_x ? src + static_cast<std::size_t>(y) * width * C : src + std::size_t(x) * C;
        const std::ptrdiff_t step = along_x ? C : std::ptrdiff_t(width) * C;
        resample_pixel<T, C>(line, step, t.bounds[2 * i], t.bounds[2 * i + 1],
                             t.weights + std::ptrdiff_t(i) * t.taps, premultiply_in, unpremultiply_out,
                             out + std::size_t(x) * C);
      }
    }
  }, threads);
}

template <class T, int C> void nearest(const CpuStage& s, const ResampleTables& t) {
  const T* src = static_cast<const T*>(s.src);
  T* dst = static_cast<T*>(s.dst);
  parallel_bands(s.out.height, kMinRowsPerThread, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y) {
      const T* row = src + static_cast<std::size_t>(resample_nearest_index(t.y, y)) * s.in.width * C;
      T* out = dst + static_cast<std::size_t>(y) * s.out.width * C;
      for (int x = 0; x < s.out.width; ++x)
        std::memcpy(out + std::size_t(x) * C, row + std::size_t(resample_nearest_index(t.x, x)) * C, sizeof(T) * C);
    }
  }, s.threads);
}

template <class T, int C> void resample(const CpuStage& s, const ResampleTables& t) {
  if (t.x_kept && t.y_kept) {
    std::memcpy(s.dst, s.src, s.in.byte_size());
    return;
  }
  if (t.filter == ResizeFilter::nearest) return nearest<T, C>(s, t);
  const bool alpha = resize_premultiplies(t.filter, C);
  const T* src = static_cast<const T*>(s.src);
  T* dst = static_cast<T*>(s.dst);
  if (t.y_kept)
    return run_pass<T, C>(src, dst, s.in.width, s.in.height, true, t.x, s.out.width, alpha, alpha, s.threads);
  if (t.x_kept)
    return run_pass<T, C>(src, dst, s.in.width, s.in.height, false, t.y, s.out.height, alpha, alpha, s.threads);
  const std::unique_ptr<T[]> between(new T[std::size_t(s.out.width) * s.in.height * C]);
  run_pass<T, C>(src, between.get(), s.in.width, s.in.height, true, t.x, s.out.width, alpha, false, s.threads);
  run_pass<T, C>(between.get(), dst, s.out.width, s.in.height, false, t.y, s.out.height, false, alpha, s.threads);
}

template <class T> void resample(const CpuStage& s, const ResampleTables& t) {
  switch (s.in.channels) {
    case 1: return resample<T, 1>(s, t);
    case 2: return resample<T, 2>(s, t);
    case 3: return resample<T, 3>(s, t);
    default: return resample<T, 4>(s, t);
  }
}

}  // namespace

void resample_cpu(const CpuStage& s, const ResampleTables& t) {
  if (s.in.bytes == 1)
    resample<std::uint8_t>(s, t);
  else
    resample<std::uint16_t>(s, t);
}

}  // namespace gpuimg
