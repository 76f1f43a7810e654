// Each thread takes a band of rows and keeps one row of vertical window sums
// of the source for the output row at hand: moving down a row adds the row
// entering the window and subtracts the one leaving. Each output row is then
// a running horizontal sum over that row of sums, and a rounded division.
// No intermediate image: a band reads its source rows twice and writes its
// output once, where a rows-then-columns order writes and reads back a
// row-sums image four times the size of the source.
//
// Only the running horizontal sum is a chain from one sample to the next;
// every other step is a loop over a whole row of independent samples, which
// the compiler vectorises, and the running sum is kept to one add.
#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "avx2_clones.hpp"
#include "ops/blur.hpp"
#include "parallel.hpp"
#include "reciprocal_mean.hpp"

namespace gpuimg {
namespace {

// Rows per thread below which a thread's start costs more than its work.
constexpr int kMinRowsPerThread = 8;

// The window sums of the output row y0: each row of the clamped window once,
// the edge rows once more for each replicated row beyond the image.
template <class T>
GPUIMG_AVX2_CLONES void start_column_sums(const T* src, std::size_t row_len, int height, int radius, int y0, std::uint32_t* col) {
  std::fill(col, col + row_len, 0u);
  const int lo = y0 - radius, hi = y0 + radius;
  auto add_rows = [&](int y, std::uint32_t times) {
    const T* row = src + static_cast<std::size_t>(y) * row_len;
    for (std::size_t j = 0; j < row_len; ++j) col[j] += times * row[j];
  };
  for (int y = std::max(lo, 0); y <= std::min(hi, height - 1); ++y) add_rows(y, 1);
  if (lo < 0) add_rows(0, static_cast<std::uint32_t>(-lo));
  if (hi > height - 1) add_rows(height - 1, static_cast<std::uint32_t>(hi - (height - 1)));
}

// Slides the column sums down one row. Every sum stays a true window sum
// (at most 8193 * 65535 < 2^32), so the unsigned arithmetic never wraps in
// the end result.
template <class T>
GPUIMG_AVX2_CLONES void slide_column_sums(std::uint32_t* col, const T* enter, const T* leave, std::size_t row_len) {
  for (std::size_t j = 0; j < row_len; ++j) col[j] = col[j] + enter[j] - leave[j];
}

// One output row from its column sums. acc holds width * C values: first
// the change of each channel's window sum from x to x + 1 (column x + R + 1
// enters, column x - R leaves, both clamped to the row), then, in place, the
// window sums themselves, then the rounded means. `mean` is taken by value:
// 8-bit stores may alias anything in memory, and its constants would be
// reloaded for every sample.
template <int C, class Sum, class Mean, class T>
GPUIMG_AVX2_CLONES void blur_row(const std::uint32_t* col, Sum* acc, T* out, int width, int radius, const Mean mean) {
  auto change = [&](int x, int enter, int leave) {
    for (int c = 0; c < C; ++c)
      acc[x * C + c] = static_cast<Sum>(col[enter * C + c]) - static_cast<Sum>(col[leave * C + c]);
  };
  auto clamped = [&](int x) { change(x, std::min(x + radius + 1, width - 1), std::max(x - radius, 0)); };
  // Columns x - R and x + R + 1 are both inside the row for x in [R, width - R - 1).
  const int inner_end = std::max(width - radius - 1, 0);
  int x = 0;
  for (; x < std::min(radius, inner_end); ++x) clamped(x);
  for (int j = x * C; j < inner_end * C; ++j)
    acc[j] = static_cast<Sum>(col[j + (radius + 1) * C]) - static_cast<Sum>(col[j - radius * C]);
  for (x = std::max(x, inner_end); x < width; ++x) clamped(x);

  Sum sum[C];
  for (int c = 0; c < C; ++c)
    sum[c] = clamped_window_sum<Sum>(-radius, radius, width, [&](int i) { return Sum(col[i * C + c]); });
  for (int j = 0; j < width * C; j += C)
    for (int c = 0; c < C; ++c) {
      const Sum d = acc[j + c];
      acc[j + c] = sum[c];
      sum[c] += d;
    }

  for (int j = 0; j < width * C; ++j) out[j] = static_cast<T>(mean(acc[j]));
}

template <int C, class Sum, class T, class Mean>
void blur_bands(const T* src, T* dst, int width, int height, int radius, int threads, const Mean& mean) {
  const std::size_t row_len = static_cast<std::size_t>(width) * C;
  parallel_bands(height, kMinRowsPerThread, [&](int y0, int y1) {
    std::vector<std::uint32_t> col(row_len);
    std::vector<Sum> acc(row_len);
    start_column_sums(src, row_len, height, radius, y0, col.data());
    for (int y = y0; y < y1; ++y) {
      blur_row<C>(col.data(), acc.data(), dst + y * row_len, width, radius, mean);
      if (y + 1 < y1)
        slide_column_sums(col.data(), src + clamp_index(y + radius + 1, height) * row_len,
                          src + clamp_index(y - radius, height) * row_len, row_len);
    }
  }, threads);
}

// Window sums in signed 32 bits where they fit, for vector conversions to
// float and double (x86 converts only signed integers in vectors).
template <int C, class T, class Mean>
void blur_with(const T* src, T* dst, int width, int height, int radius, int threads, const Mean& mean) {
  if (Blur::cpu_sums_fit_int32(radius, SampleTraits<T>::max))
    blur_bands<C, std::int32_t>(src, dst, width, height, radius, threads, mean);
  else
    blur_bands<C, std::int64_t>(src, dst, width, height, radius, threads, mean);
}

template <int C, class T> void blur_channels(const T* src, T* dst, int width, int height, int radius, int threads) {
  const std::uint64_t n = Blur::window_samples(radius);
  const std::uint64_t max_sum = n * SampleTraits<T>::max;
  const ReciprocalMean<float> by_float(n);
  if (by_float.exact(max_sum))
    blur_with<C>(src, dst, width, height, radius, threads, by_float);
  else
    blur_with<C>(src, dst, width, height, radius, threads, ReciprocalMean<double>(n));
}


template <class T> void blur_rows(const CpuStage& s, int radius) {
  const T* src = static_cast<const T*>(s.src);
  T* dst = static_cast<T*>(s.dst);
  const int w = s.in.width, h = s.in.height;
  switch (s.in.channels) {
    case 1: return blur_channels<1>(src, dst, w, h, radius, s.threads);
    case 2: return blur_channels<2>(src, dst, w, h, radius, s.threads);
    case 3: return blur_channels<3>(src, dst, w, h, radius, s.threads);
    default: return blur_channels<4>(src, dst, w, h, radius, s.threads);
  }
}

}  // namespace

void Blur::run_cpu(const CpuStage& s, const Params& p) {
  if (s.in.bytes == 1)
    blur_rows<std::uint8_t>(s, p.radius);
  else
    blur_rows<std::uint16_t>(s, p.radius);
}

}  // namespace gpuimg
