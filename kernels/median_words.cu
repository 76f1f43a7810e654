// The 3x3 median (R = 1) for images the word rows skeleton takes
// (word_rows.cuh): rows of whole 32-bit words, pixels of at most a word,
// and no tables around the stage. A thread's word holds four 8-bit samples,
// taken apart into two words of two 16-bit lanes (byte_lanes.hpp), or two
// 16-bit samples as they are. Each row the thread loads is sorted across,
// pixel left, itself, pixel right, once; the median of a window is then the
// middle of the largest of its three rows' lows, the middle of their
// middles and the smallest of their highs (median9), so every output word
// costs one row's sort and one median9 per pair of lanes.
#include <cstdint>

#include "byte_lanes.hpp"
#include "median_paths.hpp"
#include "median_select.hpp"
#include "pair_min_max.cuh"
#include "word_rows.cuh"

namespace gpuimg {
namespace {

using Sorted = SortedColumn<std::uint32_t>;

// A row sorted across, per word of two 16-bit lanes: one word of them for
// 16-bit samples, two (even and odd bytes) for 8-bit ones.
template <int Halves> struct SortedRow {
  Sorted half[Halves];
};

template <int D, int Bytes> struct MedianWork {
  static constexpr int kHalves = Bytes == 1 ? 2 : 1;

  __device__ MedianWork enter(std::uint32_t*) const { return *this; }

  __device__ SortedRow<kHalves> row(const RowWords& r) const {
    const std::uint32_t w = word_rows::west_pixel<D>(r), c = r.centre, e = word_rows::east_pixel<D>(r);
    if constexpr (Bytes == 1) {
      // The odd bytes by one permute, the even ones by a multiply-add off the
      // word (x less odd times 256), and the result joined by another: the
      // FMA pipe takes them from the ALU, which the min and max keep busy.
      const std::uint32_t ow = odd_bytes(w), oc = odd_bytes(c), oe = odd_bytes(e);
      return {{sort_column<std::uint32_t, PairMinMax>(w - ow * 256u, c - oc * 256u, e - oe * 256u),
               sort_column<std::uint32_t, PairMinMax>(ow, oc, oe)}};
    } else
      return {{sort_column<std::uint32_t, PairMinMax>(w, c, e)}};
  }

  __device__ std::uint32_t apply(const SortedRow<kHalves> (&rows)[3]) const {
    std::uint32_t m[kHalves];
#pragma unroll
    for (int h = 0; h < kHalves; ++h)
      m[h] = median9<std::uint32_t, PairMinMax>(rows[0].half[h], rows[1].half[h], rows[2].half[h]);
    if constexpr (Bytes == 1)
      return m[0] + m[1] * 256u;
    else
      return m[0];
  }
};

template <int Bytes> cudaError_t launch(const CudaStage& s) {
  return with_channels(s, [&](auto c) -> cudaError_t {
    constexpr int D = decltype(c)::value * Bytes;
    if constexpr (D > 4)
      return cudaErrorInvalidValue;  // fits_median_words keeps these out
    else
      return word_rows::launch<D>(s, MedianWork<D, Bytes>{}, 0);
  });
}

}  // namespace

bool fits_median_words(const CudaStage& s, int radius) {
  return !s.tables.any() && Median::word_rows_path(radius, s.in);
}

cudaError_t launch_median_words(const CudaStage& s) { return s.in.bytes == 1 ? launch<1>(s) : launch<2>(s); }

}  // namespace gpuimg
