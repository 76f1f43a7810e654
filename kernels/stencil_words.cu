// The dispatch kernel's path for 8-bit images whose rows are whole 32-bit
// words (width * channels a multiple of 4), for ops of halo 1 that work on
// four samples at once (ByteWords in op_spec.hpp) with the stage's
// parameters, and with its word table where it has one: each block copies
// the table into shared memory first. The walk down the rows is the word
// rows skeleton's (word_rows.cuh).
#include <cstdint>

#include "cuda_launch.hpp"
#include "dispatch_switch.cuh"
#include "word_rows.cuh"

namespace gpuimg {
namespace {

// The words four samples around: word(dx, dy) is the thread's word moved
// dx pixels right and dy rows down, for |dx|, |dy| <= 1.
template <int C> struct RowsView {
  const RowWords (&rows)[3];  // the rows above, at and below

  __device__ __forceinline__ std::uint32_t word(int dx, int dy) const {
    const RowWords& r = rows[dy + 1];
    if (dx == 0) return r.centre;
    return dx < 0 ? word_rows::west_pixel<C>(r) : word_rows::east_pixel<C>(r);
  }
};

template <int C> struct StencilReady {
  OpRecord rec;
  const std::uint32_t* table;
  __device__ RowWords row(const RowWords& r) const { return r; }
  __device__ std::uint32_t apply(const RowWords (&rows)[3]) const {
    return dispatch_bytes(RowsView<C>{rows}, rec, table);
  }
};

// The stage's record, and its word table, if it has one, copied to shared
// memory before any warp leaves.
template <int C> struct StencilWork {
  const OpRecord* ops;
  int stage;
  const std::uint32_t* table;
  int table_size;
  __device__ StencilReady<C> enter(std::uint32_t* shared) const {
    for (int i = threadIdx.x; i < table_size; i += blockDim.x) shared[i] = table[i];
    if (table_size > 0) __syncthreads();
    return {ops[stage], shared};
  }
};

}  // namespace

bool fits_word_rows(const CudaStage& s, const OpRecord& rec) {
  return s.in.bytes == 1 && rec.halo == 1 && word_rows::fits(s.in) && packs_bytes(rec);
}

cudaError_t launch_word_rows(const CudaStage& s, const OpRecord& rec, const OpRecord* device_ops, int stage) {
  const int table_size = word_table_size(rec);
  if (table_size > 0 && s.word_table == nullptr) return cudaErrorInvalidValue;
  const std::size_t smem = sizeof(std::uint32_t) * table_size;
  return with_channels(s, [&](auto c) {
    constexpr int C = decltype(c)::value;
    return word_rows::launch<C>(s, StencilWork<C>{device_ops, stage, s.word_table, table_size}, smem);
  });
}

}  // namespace gpuimg
