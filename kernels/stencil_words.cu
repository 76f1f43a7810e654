// The dispatch kernel's path for 8-bit images whose rows are whole 32-bit
// words (width * channels a multiple of 4), for ops of halo 1 that work on
// four samples at once (ByteWords in op_spec.hpp) with the stage's
// parameters, and with its word table where it has one: each block copies
// the table into shared memory first.
//
// Each thread owns one word column and walks down a band of rows, keeping
// the words of the rows above, at and below the output row in registers; a
// row's neighbours to the left and right come from the next lanes by
// shuffles, and at a warp's ends from one more load. Nothing goes through
// shared memory, and one batch of rows loads while the one before it is
// computed. Sharpen F=1 at 7680x4320 RGB on the H100: 11.6 instructions a
// sample and 0.086 ms (a copy: 0.073); the same four-sample arithmetic in
// the shared-memory tile of stencil.cu, which takes any row alignment,
// ran 27.7 instructions a sample and 0.132 ms, bound by instruction issue.
#include <algorithm>
#include <cstdint>

#include "cuda_launch.hpp"
#include "dispatch_switch.cuh"

namespace gpuimg {
namespace {

constexpr int kWarps = 8;        // side by side: a block spans 256 words of a row
constexpr int kAhead = 8;        // rows a batch: one batch loads while the one before is computed
// Bands enough for two blocks in every slot the GPU has (resident_blocks):
// each band reads two rows past its own, so longer bands are cheaper
// while the GPU stays full and the last blocks still find work beside them.
// Sharpen at 7680x4320 RGB took 0.089, 0.087 and 0.088 ms with 2, 4 and 8.
constexpr int kWaves = 2;
constexpr int kMinBand = 8;

// One row as a thread sees it: its word, and the words before and after it.
struct RowWords {
  std::uint32_t west, centre, east;
};

// The words four samples around: word(dx, dy) is the thread's word moved
// dx pixels right and dy rows down, for |dx|, |dy| <= 1.
template <int C> struct RowsView {
  const RowWords* rows;  // the rows above, at and below

  __device__ __forceinline__ std::uint32_t word(int dx, int dy) const {
    const RowWords& r = rows[dy + 1];
    if (dx == 0) return r.centre;
    if (C == 4) return dx < 0 ? r.west : r.east;
    return dx < 0 ? __funnelshift_r(r.west, r.centre, 8 * (4 - C)) : __funnelshift_r(r.centre, r.east, 8 * C);
  }
};

template <int C>
__global__ void __launch_bounds__(32 * kWarps)
    word_rows_kernel(const std::uint32_t* __restrict__ src, std::uint32_t* __restrict__ dst, int words, int height,
                     int band, const OpRecord* __restrict__ ops, int stage, const std::uint32_t* __restrict__ table,
                     int table_size) {
  // The stage's word table, if it has one, copied before any warp leaves.
  extern __shared__ std::uint32_t shared_table[];
  for (int i = threadIdx.x; i < table_size; i += blockDim.x) shared_table[i] = table[i];
  if (table_size > 0) __syncthreads();
  const int lane = threadIdx.x % 32;
  const int first = (blockIdx.x * kWarps + threadIdx.x / 32) * 32;  // the warp's first word
  if (first >= words) return;                                      // the whole warp
  const OpRecord rec = ops[stage];
  const int k = first + lane;
  const bool inside = k < words;
  const int own = min(k, words - 1);  // lanes past the row's end shadow its last word and store nothing
  // Lane 0 also loads the word before the warp's and lane 31 the one after;
  // the other lanes load their own word again (the same sectors).
  const int beside = lane == 0 && first > 0 ? -1 : (lane == 31 && first + 32 < words ? 1 : 0);
  const int y0 = blockIdx.y * band, y1 = min(y0 + band, height);
  // Word offsets fit an int: fits_word_rows keeps images below 2^31 words.

  // Rows y + 1 .. y + kAhead, those the band needs; past the image's bottom, its last row.
  const auto load_batch = [&](int y, std::uint32_t(&centre)[kAhead], std::uint32_t(&side)[kAhead]) {
    if (y + kAhead <= y1 && y + kAhead < height) {
      int at = (y + 1) * words + own;
#pragma unroll
      for (int i = 0; i < kAhead; ++i, at += words) {
        centre[i] = src[at];
        side[i] = src[at + beside];
      }
    } else {
#pragma unroll
      for (int i = 0; i < kAhead; ++i) {
        if (y + i >= y1) break;
        const int at = clamp_index(y + i + 1, height) * words + own;
        centre[i] = src[at];
        side[i] = src[at + beside];
      }
    }
  };
  // Past the image's left and right edges, the edge pixel's samples.
  constexpr unsigned kLeftEdge = C == 1 ? 0x0000 : C == 2 ? 0x1010 : C == 3 ? 0x2100 : 0x3210;
  constexpr unsigned kRightEdge = C == 1 ? 0x3333 : C == 2 ? 0x3232 : C == 3 ? 0x3321 : 0x3210;
  const auto lift = [&](std::uint32_t centre, std::uint32_t side) {
    const std::uint32_t before = __shfl_up_sync(0xffffffffu, centre, 1);
    const std::uint32_t after = __shfl_down_sync(0xffffffffu, centre, 1);
    RowWords r{lane == 0 ? side : before, centre, lane == 31 ? side : after};
    if (k == 0) r.west = __byte_perm(centre, 0, kLeftEdge);
    if (k == words - 1) r.east = __byte_perm(centre, 0, kRightEdge);
    return r;
  };

  RowWords rows[3];
  {
    const int above = clamp_index(y0 - 1, height) * words + own, at = y0 * words + own;
    rows[1] = lift(src[above], src[above + beside]);
    rows[2] = lift(src[at], src[at + beside]);
  }
  const auto compute_batch = [&](int y, const std::uint32_t(&centre)[kAhead], const std::uint32_t(&side)[kAhead]) {
#pragma unroll
    for (int i = 0; i < kAhead; ++i) {
      if (y + i >= y1) break;
      rows[0] = rows[1];
      rows[1] = rows[2];
      rows[2] = lift(centre[i], side[i]);
      const std::uint32_t out = dispatch_bytes(RowsView<C>{rows}, rec, shared_table);
      if (inside) dst[(y + i) * words + k] = out;
    }
  };
  // Two batches of rows in registers: one is computed while the other loads.
  std::uint32_t centre_a[kAhead], side_a[kAhead], centre_b[kAhead], side_b[kAhead];
  load_batch(y0, centre_a, side_a);
  for (int y = y0; y < y1; y += 2 * kAhead) {
    if (y + kAhead < y1) load_batch(y + kAhead, centre_b, side_b);
    compute_batch(y, centre_a, side_a);
    if (y + kAhead >= y1) break;
    if (y + 2 * kAhead < y1) load_batch(y + 2 * kAhead, centre_a, side_a);
    compute_batch(y + kAhead, centre_b, side_b);
  }
}

}  // namespace

bool fits_word_rows(const CudaStage& s, const OpRecord& rec) {
  return s.in.bytes == 1 && rec.halo == 1 && 1LL * s.in.width * s.in.channels % 4 == 0 &&
         static_cast<long long>(s.in.width) * s.in.height * s.in.channels / 4 < (1LL << 31) && packs_bytes(rec);
}

cudaError_t launch_word_rows(const CudaStage& s, const OpRecord& rec, const OpRecord* device_ops, int stage) {
  const int table_size = word_table_size(rec);
  if (table_size > 0 && s.word_table == nullptr) return cudaErrorInvalidValue;
  const std::size_t smem = sizeof(std::uint32_t) * table_size;
  return with_channels(s, [&](auto c) {
    const auto kernel = word_rows_kernel<decltype(c)::value>;
    int slots = 0;
    if (cudaError_t e = resident_blocks(kernel, 32 * kWarps, smem, slots); e != cudaSuccess) return e;
    const int words = s.in.width * s.in.channels / 4;
    const int across = (words + 32 * kWarps - 1) / (32 * kWarps);
    const int bands = std::max(1, kWaves * slots / across);
    const int band = std::max({(s.in.height + bands - 1) / bands, kMinBand, (s.in.height + kMaxGridY - 1) / kMaxGridY});
    const dim3 grid(across, (s.in.height + band - 1) / band);
    kernel<<<grid, 32 * kWarps, smem, s.stream>>>(static_cast<const std::uint32_t*>(s.src),
                                                 static_cast<std::uint32_t*>(s.dst), words, s.in.height, band, device_ops,
                                                 stage, s.word_table, table_size);
    return cudaGetLastError();
  });
}

}  // namespace gpuimg
