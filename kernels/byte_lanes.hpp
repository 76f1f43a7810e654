#pragma once
// Samples in a 32-bit word, and four 8-bit samples taken apart into two
// words of 16-bit lanes (samples 0 and 2, samples 1 and 3) so that integer
// arithmetic on a word works on two samples at once. Lanes are kept within
// [0, 2^15) where they are subtracted or read as signed, within [0, 2^16)
// where they are only added and multiplied by small constants (the steady
// halving's sums), so that each lane acts alone: no lane carries into or
// borrows from the other.
#include <cstdint>

#include "pixel.hpp"

namespace gpuimg {

// Any depth: a 32-bit word holds kWordSamples<T> samples of type T, sample
// j at bit 8 sizeof(T) j (four 8-bit, two 16-bit).
template <class T> constexpr int kWordSamples = 4 / static_cast<int>(sizeof(T));
template <class T> GPUIMG_HD std::uint32_t word_sample(std::uint32_t word, int j) {
  return word >> (8 * sizeof(T) * j) & SampleTraits<T>::max;
}
// The word whose samples are s[0 ..], each within T's range.
template <class T> GPUIMG_HD std::uint32_t word_of(const int (&s)[kWordSamples<T>]) {
  std::uint32_t word = 0;
  for (int j = 0; j < kWordSamples<T>; ++j) word |= std::uint32_t(s[j]) << (8 * sizeof(T) * j);
  return word;
}

// Samples 0 and 2 of x, one to a lane.
GPUIMG_HD std::uint32_t even_bytes(std::uint32_t x) { return x & 0x00ff00ffu; }

// Samples 1 and 3 of x, one to a lane.
GPUIMG_HD std::uint32_t odd_bytes(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __byte_perm(x, 0, 0x4341);  // one permute, where a shift and a mask take two
#else
  return (x >> 8) & 0x00ff00ffu;
#endif
}

// The word whose samples 0 and 2 are even's lanes and 1 and 3 odd's; every
// lane must hold 0..255.
GPUIMG_HD std::uint32_t join_bytes(std::uint32_t even, std::uint32_t odd) {
#if defined(__CUDA_ARCH__)
  return __byte_perm(even, odd, 0x6240);
#else
  return even | odd << 8;
#endif
}

// The low 16 bits of a and of b, in that order: two table entries' low
// fields as lanes.
GPUIMG_HD std::uint32_t low_halves(std::uint32_t a, std::uint32_t b) {
#if defined(__CUDA_ARCH__)
  return __byte_perm(a, b, 0x5410);
#else
  return (a & 0xffffu) | b << 16;
#endif
}

// The high 16 bits of a and of b, in that order.
GPUIMG_HD std::uint32_t high_halves(std::uint32_t a, std::uint32_t b) {
#if defined(__CUDA_ARCH__)
  return __byte_perm(a, b, 0x7632);
#else
  return a >> 16 | (b & 0xffff0000u);
#endif
}

// Running sums of four samples, two to a word in 16-bit lanes (even holds
// samples 0 and 2, odd 1 and 3): adds word `in`'s samples and subtracts
// `out`'s. Exact modulo 2^32; where every lane ends within 16 bits, a
// borrow between lanes in passing undoes itself.
GPUIMG_HD void slide_lanes(std::uint32_t& even, std::uint32_t& odd, std::uint32_t in, std::uint32_t out) {
  even += even_bytes(in) - even_bytes(out);
  odd += odd_bytes(in) - odd_bytes(out);
}

// Both lanes the same 16-bit value.
GPUIMG_HD std::uint32_t both_lanes(std::uint32_t v) { return (v & 0xffffu) * 0x10001u; }

// Per lane, as signed 16-bit numbers: max(min(a + b, hi), 0), the sum
// wrapping at 16 bits. One instruction on sm_90 (a DPX instruction).
GPUIMG_HD std::uint32_t add_clamp_lanes(std::uint32_t a, std::uint32_t b, std::uint32_t hi) {
#if defined(__CUDA_ARCH__)
  return __viaddmin_s16x2_relu(a, b, hi);
#else
  std::uint32_t out = 0;
  for (int shift = 0; shift < 32; shift += 16) {
    const int sum = static_cast<std::int16_t>(static_cast<std::uint16_t>((a >> shift) + (b >> shift)));
    const int top = static_cast<std::int16_t>(hi >> shift);
    const int v = sum > top ? top : sum;
    out |= static_cast<std::uint32_t>(v < 0 ? 0 : v) << shift;
  }
  return out;
#endif
}

}  // namespace gpuimg
