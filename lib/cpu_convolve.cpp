// The CPU's convolution (ops/convolve.hpp): a band of rows per thread, each
// row in chunks of pixels whose sums stay in L1. For each chunk, every
// weight of the kernel in the pinned order adds its multiple of a span of
// one source row to the whole chunk's sums: each sample's sum takes its
// steps in the pinned order, and each step is a loop over independent
// samples that the compiler vectorises. The exact path sums in float, which
// is exact there and twice as wide as double.
//
// A weight of 0 is skipped: its product is a zero, and adding a zero
// changes no sum but the sign of a zero one, which rounds to 0 either way.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "avx2_clones.hpp"
#include "ops/convolve.hpp"
#include "parallel.hpp"

namespace gpuimg {
namespace {

constexpr int kMinRowsPerThread = 4;
constexpr int kChunkPixels = 512;

template <class Acc>
GPUIMG_AVX2_CLONES void add_multiple(Acc* sums, const Acc* in, Acc weight, int n) {
  for (int j = 0; j < n; ++j) sums[j] = sums[j] + weight * in[j];
}

template <class T, class Acc> GPUIMG_AVX2_CLONES void widen(const T* in, int n, Acc* out) {
  for (int j = 0; j < n; ++j) out[j] = static_cast<Acc>(in[j]);
}

// Pixels [x0, x1) of a source row, all channels, as Acc, the edge pixels
// standing in for those outside it.
template <class T, class Acc> void span_of_row(const T* row, int width, int channels, int x0, int x1, Acc* out) {
  const int a = std::max(x0, 0), b = std::min(x1, width);
  for (int x = x0; x < a; ++x, out += channels) widen(row, channels, out);
  widen(row + static_cast<std::size_t>(a) * channels, (b - a) * channels, out);
  out += (b - a) * channels;
  for (int x = b; x < x1; ++x, out += channels) widen(row + static_cast<std::size_t>(width - 1) * channels, channels, out);
}

template <class T, class Acc, class Finish>
void convolve(const CpuStage& s, int kw, int kh, const std::vector<Acc>& weights, const Finish& finish) {
  const T* src = static_cast<const T*>(s.src);
  T* dst = static_cast<T*>(s.dst);
  const int width = s.in.width, height = s.in.height, channels = s.in.channels;
  const std::size_t row_len = static_cast<std::size_t>(width) * channels;
  const int rx = kw / 2, ry = kh / 2;
  parallel_bands(height, kMinRowsPerThread, [&](int y0, int y1) {
    std::vector<Acc> span(static_cast<std::size_t>(kChunkPixels + kw - 1) * channels);
    std::vector<Acc> sums(static_cast<std::size_t>(kChunkPixels) * channels);
    for (int y = y0; y < y1; ++y)
      for (int x0 = 0; x0 < width; x0 += kChunkPixels) {
        const int x1 = std::min(width, x0 + kChunkPixels);
        const int n = (x1 - x0) * channels;
        std::fill(sums.begin(), sums.begin() + n, Acc(0));
        for (int dy = 0; dy < kh; ++dy) {
          const Acc* row_weights = weights.data() + static_cast<std::size_t>(dy) * kw;
          if (std::all_of(row_weights, row_weights + kw, [](Acc k) { return k == 0; })) continue;
          span_of_row(src + clamp_index(y + dy - ry, height) * row_len, width, channels, x0 - rx, x1 + rx,
                      span.data());
          for (int dx = 0; dx < kw; ++dx)
            if (row_weights[dx] != 0) add_multiple(sums.data(), span.data() + dx * channels, row_weights[dx], n);
        }
        T* out = dst + y * row_len + static_cast<std::size_t>(x0) * channels;
        for (int j = 0; j < n; ++j) out[j] = finish(sums[j]);
      }
  }, s.threads);
}

template <class T> void convolve(const CpuStage& s, const Convolve::Params& p) {
  const int kw = p.size.width, kh = p.size.height, n = kw * kh;
  const ConvolveSums sums = Convolve::sums(s.data);
  if (sums.exact) {
    std::vector<float> weights(n);
    for (int i = 0; i < n; ++i) weights[i] = Convolve::float_weight(s.data, i);
    convolve<T>(s, kw, kh, weights,
                [sums](float sum) { return Convolve::exact_result<T>(static_cast<std::int32_t>(sum), sums); });
  } else {
    std::vector<double> weights(n);
    for (int i = 0; i < n; ++i) weights[i] = Convolve::double_weight(s.data, n, i);
    const double weight_sum = Convolve::double_weight(s.data, n, n);
    convolve<T>(s, kw, kh, weights,
                [weight_sum](double sum) { return Convolve::pinned_result<T>(sum, weight_sum); });
  }
}

}  // namespace

void Convolve::run_cpu(const CpuStage& s, const Params& p) {
  if (s.in.bytes == 1)
    convolve<std::uint8_t>(s, p);
  else
    convolve<std::uint16_t>(s, p);
}

}  // namespace gpuimg
