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
  // Of three values, the one neither smallest nor largest: all three
  // XORed with those two.
  __device__ static std::uint32_t mid3(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return a ^ b ^ c ^ lo3(a, b, c) ^ hi3(a, b, c);
  }
};

}  // namespace gpuimg
