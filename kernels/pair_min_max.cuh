#pragma once
// Min and max for the selection networks of median_select.hpp on the GPU:
// lane by lane over two 16-bit samples a word, each one instruction on
// Hopper (VIMNMX.U16x2, three-way VIMNMX3).
#include <cstdint>

namespace gpuimg {

struct PairMinMax {
  __device__ static std::uint32_t lo(std::uint32_t a, std::uint32_t b) { return __vminu2(a, b); }
  __device__ static std::uint32_t hi(std::uint32_t a, std::uint32_t b) { return __vmaxu2(a, b); }
  __device__ static std::uint32_t lo3(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return __vimin3_u16x2(a, b, c);
  }
  __device__ static std::uint32_t hi3(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return __vimax3_u16x2(a, b, c);
  }
  // Of three values, the one neither smallest nor largest: the three added,
  // less those two, exact lane by lane modulo 2^32 since a word is a linear
  // sum of its lanes. Two IADD3 where XORs took two LOP3, and the 3x3
  // median 2% faster for it (docs/PERFORMANCE.md, "Median R = 1").
  __device__ static std::uint32_t mid3(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return a + b + c - lo3(a, b, c) - hi3(a, b, c);
  }
};

}  // namespace gpuimg
