#pragma once
// How the box blur's kernels apply the tables of their fused pass
// (PassTables in tables.hpp, 8-bit images only) to the samples they load
// and store: both tables copied into shared memory as bytes, where a
// lookup is one byte load.
#include <cstdint>

#include "pixel.hpp"
#include "tables.hpp"

namespace gpuimg {

// The two tables as bytes, identity where the pass has none.
struct ByteTables {
  unsigned char load[256], store[256];
};

// Fills `t` from `tables`; called by every thread of the block, which then
// synchronises before any lookup.
__device__ __forceinline__ void stage_byte_tables(const PassTables& tables, ByteTables& t) {
  for (int i = threadIdx.x; i < 256; i += blockDim.x) {
    t.load[i] = static_cast<unsigned char>(tables.load ? tables.load[1 + i] : i);
    t.store[i] = static_cast<unsigned char>(tables.store ? tables.store[1 + i] : i);
  }
}

// The four bytes of `w` through `table`, but for those at alpha positions:
// byte j is channel j % C, as a word of a row whose samples start at a
// multiple of C (every word, for C = 1, 2 and 4; for C = 3 there is no alpha).
template <int C>
__device__ __forceinline__ std::uint32_t map_word(std::uint32_t w, const unsigned char* table) {
  std::uint32_t r = 0;
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    const std::uint32_t b = (w >> (8 * j)) & 0xffu;
    r |= (is_alpha(j % C, C) ? b : table[b]) << (8 * j);
  }
  return r;
}

}  // namespace gpuimg
