#pragma once
// Min and max for the selection networks of median_select.hpp on the GPU:
// lane by lane over two 16-bit samples a word, each one instruction on
// Hopper (VIMNMX.U16x2, three-way VIMNMX3).
#include <cstdint>

namespace gpuimg {

// -1, which the compiler cannot see: its subtractions become multiply-adds
// by a constant-bank operand (IMAD, the FMA pipe) where they would be IADD3
// (the ALU, which the min and max keep busy).
static __constant__ std::uint32_t kMinusOne = 0xffffffffu;

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
  // sum of its lanes. Additions where XORs took two LOP3 (2% on the 3x3
  // median), and the subtractions moved to the FMA pipe by kMinusOne (3%
  // more with word_rows' whole batches; docs/PERFORMANCE.md, "Median R = 1").
  __device__ static std::uint32_t mid3(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return a + b + c + lo3(a, b, c) * kMinusOne + hi3(a, b, c) * kMinusOne;
  }
};

}  // namespace gpuimg
