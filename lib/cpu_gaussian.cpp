// --gaussian and --unsharp on the CPU. The sums are exact integers
// (gaussian_weights.hpp), so the passes may run in the order that suits the
// CPU: each thread takes a band of rows, and for each output row sums its
// source rows' columns first, a loop over whole rows that the compiler
// vectorises, then that row of column sums along x, in chunks whose
// accumulators stay in L1. Pairs of taps at -k and +k share their weight,
// so each pass costs r + 1 multiplies a sample.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "avx2_clones.hpp"
#include "ops/gaussian.hpp"
#include "ops/unsharp.hpp"
#include "parallel.hpp"

namespace gpuimg {
namespace {

// Rows per thread below which a thread's start costs more than its work.
constexpr int kMinRowsPerThread = 4;
// Samples of a row summed along x at once: their accumulators fill 8 KiB
// (16 KiB at 16 bits).
constexpr std::size_t kChunk = 512;

// The column sums of output row y over the whole row: w_0 times row y,
// plus w_k times rows y - k and y + k, clamped, for k = 1..r.
template <class T, class Line>
GPUIMG_AVX2_CLONES void column_sums(const T* src, std::size_t row_len, int height, int y, const std::int32_t* w,
                                    int r, Line* out) {
  const T* centre = src + static_cast<std::size_t>(y) * row_len;
  for (std::size_t j = 0; j < row_len; ++j) out[j] = Line(w[0]) * centre[j];
  for (int k = 1; k <= r; ++k) {
    const T* a = src + static_cast<std::size_t>(clamp_index(y - k, height)) * row_len;
    const T* b = src + static_cast<std::size_t>(clamp_index(y + k, height)) * row_len;
    const Line wk = Line(w[k]);
    for (std::size_t j = 0; j < row_len; ++j) out[j] += wk * Line(a[j] + b[j]);
  }
}

// The exact sums along x of samples [j0, j0 + n) of a row of column sums
// that extends r pixels past both ends (the edge pixels replicated).
template <class T, class Line>
GPUIMG_AVX2_CLONES void row_sums(const Line* line, std::size_t j0, std::size_t n, int channels,
                                 const std::int32_t* w, int r, GaussianSums<T>* acc) {
  for (std::size_t i = 0; i < n; ++i) {
    acc[i] = GaussianSums<T>{};
    acc[i].add(w[0], line[j0 + i]);
  }
  for (int k = 1; k <= r; ++k) {
    const Line* a = line + j0 - static_cast<std::size_t>(k) * channels;
    const Line* b = line + j0 + static_cast<std::size_t>(k) * channels;
    const std::uint32_t wk = static_cast<std::uint32_t>(w[k]);
    for (std::size_t i = 0; i < n; ++i) acc[i].add(wk, a[i] + b[i]);
  }
}

// finish(y, j0, n, acc, dst_row) writes samples [j0, j0 + n) of output
// row y from their exact sums.
template <class T, class Finish> void gaussian_rows(const CpuStage& s, const Finish& finish) {
  using Line = typename GaussianSums<T>::Line;
  const T* src = static_cast<const T*>(s.src);
  const int r = s.data[0], channels = s.in.channels, height = s.in.height;
  const std::int32_t* w = s.data + kGaussianWeightsAt;
  const std::size_t row_len = static_cast<std::size_t>(s.in.width) * channels;
  const std::size_t pad = static_cast<std::size_t>(r) * channels;
  parallel_bands(height, kMinRowsPerThread, [&](int y0, int y1) {
    std::vector<Line> line(row_len + 2 * pad);
    std::vector<GaussianSums<T>> acc(kChunk);
    for (int y = y0; y < y1; ++y) {
      column_sums(src, row_len, height, y, w, r, line.data() + pad);
      for (std::size_t p = 0; p < pad; p += channels)
        for (int c = 0; c < channels; ++c) {
          line[p + c] = line[pad + c];
          line[pad + row_len + p + c] = line[pad + row_len - channels + c];
        }
      T* dst = static_cast<T*>(s.dst) + static_cast<std::size_t>(y) * row_len;
      for (std::size_t j0 = 0; j0 < row_len; j0 += kChunk) {
        const std::size_t n = std::min(kChunk, row_len - j0);
        row_sums<T>(line.data() + pad, j0, n, channels, w, r, acc.data());
        finish(y, j0, n, acc.data(), dst);
      }
    }
  }, s.threads);
}

template <class T> void blur_rows(const CpuStage& s) {
  gaussian_rows<T>(s, [](int, std::size_t j0, std::size_t n, const GaussianSums<T>* acc, T* dst) {
    for (std::size_t i = 0; i < n; ++i) dst[j0 + i] = static_cast<T>(acc[i].rounded());
  });
}

template <class T> void unsharp_rows(const CpuStage& s, const Unsharp::Params& p) {
  const int channels = s.in.channels;
  const std::size_t row_len = static_cast<std::size_t>(s.in.width) * channels;
  gaussian_rows<T>(s, [&, p](int y, std::size_t j0, std::size_t n, const GaussianSums<T>* acc, T* dst) {
    const T* src = static_cast<const T*>(s.src) + static_cast<std::size_t>(y) * row_len;
    int c = static_cast<int>(j0 % channels);
    for (std::size_t j = j0; j < j0 + n; ++j) {
      dst[j] = is_alpha(c, channels) ? src[j] : Unsharp::sharpened<T>(src[j], acc[j - j0].rounded(), p);
      c = c + 1 == channels ? 0 : c + 1;
    }
  });
}

}  // namespace

void Gaussian::run_cpu(const CpuStage& s, const Params&) {
  if (s.in.bytes == 1)
    blur_rows<std::uint8_t>(s);
  else
    blur_rows<std::uint16_t>(s);
}

void Unsharp::run_cpu(const CpuStage& s, const Params& p) {
  if (s.in.bytes == 1)
    unsharp_rows<std::uint8_t>(s, p);
  else
    unsharp_rows<std::uint16_t>(s, p);
}

}  // namespace gpuimg
