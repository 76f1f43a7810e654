#pragma once
// Which convolutions take the tensor cores' path (convolve_mma.cu): images
// whose rows are whole 32-bit words, on the exact path (ops/convolve.hpp),
// sides up to kMaxMmaConvolveSide, weights that are bytes (all in
// [-128, 127], or all in [0, 255]), and a reach across of at most
// kMaxMmaReach bytes. 16-bit samples take it as two bytes each, summed
// apart and joined (convolve_mma.cu). The launch also asks for
// word-aligned buffers and a GPU with byte mma; elsewhere the small tiles
// take it.
#include <cstdint>
#include <vector>

#include "ops/convolve.hpp"

namespace gpuimg {

constexpr int kMaxMmaConvolveSide = 7;
// A product's 32 input bytes run from 8 before its 16 output bytes to 8 after.
constexpr int kMaxMmaReach = 8;

enum class MmaWeights { none, signed_bytes, unsigned_bytes };

// The weights' kind, from the stage's host data, where the rest fits.
inline MmaWeights mma_convolve_weights(const Shape& in, const Convolve::Params& p, const std::int32_t* data) {
  const int kw = p.size.width, kh = p.size.height;
  const int pixel = in.channels * in.bytes;
  if (!Convolve::sums(data).exact) return MmaWeights::none;
  if (kw > kMaxMmaConvolveSide || kh > kMaxMmaConvolveSide || kw / 2 * pixel > kMaxMmaReach) return MmaWeights::none;
  if (static_cast<long long>(in.width) * pixel % 4 != 0) return MmaWeights::none;
  float lo = 0, hi = 0;
  for (int i = 0; i < kw * kh; ++i) {
    const float k = Convolve::float_weight(data, i);  // an integer on the exact path
    lo = k < lo ? k : lo;
    hi = k > hi ? k : hi;
  }
  if (lo >= -128 && hi <= 127) return MmaWeights::signed_bytes;
  if (lo >= 0 && hi <= 255) return MmaWeights::unsigned_bytes;
  return MmaWeights::none;
}

// The byte of a product's 16 output bytes that row j of A sums: byte j at
// 8 bits; at 16 the low bytes of samples 0 to 7 in rows 0 to 7 and their
// high bytes in rows 8 to 15, so that one lane's results hold both halves
// of a sample (byte_mma.cuh: rows g and g + 8).
constexpr int mma_output_byte(int j, int sample_bytes) { return sample_bytes == 1 ? j : 2 * (j % 8) + j / 8; }

// A's fragments for each kernel row (convolve_mma.cu), as the lanes of a
// warp hold them: word (4 dy + q) 32 + lane, lane (g, t) holding in byte i
// A[j][k0 + i], j = g + 8 (q & 1) and k0 = 4 t + 16 (q >> 1) (byte_mma.cuh),
// where A[j][k] is weight dx of kernel row dy at k = b + 8 + P (dx - W / 2)
// for b = mma_output_byte(j) and P the pixel's bytes, else 0. Built once on
// the host, so that no thread makes them.
inline std::vector<std::uint32_t> mma_weight_fragments(const Convolve::Params& p, const Shape& in,
                                                        const std::int32_t* data) {
  const int kw = p.size.width, kh = p.size.height, pixel = in.channels * in.bytes, reach = kw / 2 * pixel;
  std::vector<std::uint32_t> words(static_cast<std::size_t>(kh) * 4 * 32, 0);
  for (int dy = 0; dy < kh; ++dy)
    for (int q = 0; q < 4; ++q)
      for (int lane = 0; lane < 32; ++lane) {
        const int j = lane / 4 + 8 * (q & 1), k0 = lane % 4 * 4 + 16 * (q >> 1);
        std::uint32_t& word = words[(4 * dy + q) * 32 + lane];
        for (int dx = 0; dx < kw; ++dx) {
          const int k = mma_output_byte(j, in.bytes) + 8 + pixel * dx - reach;
          if (k < k0 || k >= k0 + 4) continue;
          const auto weight = static_cast<std::int32_t>(Convolve::float_weight(data, dy * kw + dx));
          word |= (static_cast<std::uint32_t>(weight) & 0xffu) << (8 * (k - k0));
        }
      }
  return words;
}

}  // namespace gpuimg
