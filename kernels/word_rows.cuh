#pragma once
// The word rows skeleton: for images whose rows are whole 32-bit words and
// whose pixels are at most a word (D bytes, 1 to 4), for work on a 3x3
// neighbourhood done a word at a time: four 8-bit samples, or two 16-bit.
//
// Each thread owns one word column and walks down a band of rows, keeping
// what it made of the rows above, at and below the output row in
// registers; a row's neighbours to the left and right come from the next
// lanes by shuffles, and at a warp's ends from one more load. The rows
// never go through shared memory, and one batch of rows loads while the
// one before it is computed. Sharpen F=1 at 7680x4320 RGB on the H100: 11.6
// instructions a sample and 0.086 ms (a copy: 0.073); the same four-sample
// arithmetic in the shared-memory tile of stencil.cu, which takes any row
// alignment, ran 27.7 instructions a sample and 0.132 ms, bound by
// instruction issue.
//
// What a row becomes and what the output word is are the Work's: each
// thread first calls work.enter(shared), before any thread leaves, which
// may fill the block's dynamic shared memory (and sync), and returns what
// the thread then works with, `ready`:
//   ready.row(const RowWords&)           once per row a thread loads;
//   ready.apply(rows)                    the output word from what row()
//                                        made of the rows above, at, below.
#include <algorithm>
#include <cstdint>

#include "cuda_launch.hpp"
#include "word_rows_fit.hpp"

namespace gpuimg {

// One row as a thread sees it: its word, and the words before and after it.
struct RowWords {
  std::uint32_t west, centre, east;
};

namespace word_rows {

constexpr int kWarps = 8;  // side by side: a block spans 256 words of a row
constexpr int kAhead = 8;  // rows a batch: one batch loads while the one before is computed
// Bands enough for two blocks in every slot the GPU has (bands_for):
// each band reads two rows past its own, so longer bands are cheaper
// while the GPU stays full and the last blocks still find work beside them.
// Sharpen at 7680x4320 RGB took 0.089, 0.087 and 0.088 ms with 2, 4 and 8.
constexpr int kWaves = 2;
constexpr int kMinBand = 8;

// The __byte_perm selector that makes a word past a row's end from the
// edge word (a row's first word for the left end, its last for the right):
// t words past the end (t < 0 on the left, t >= 0 counted from the word
// after the last on the right), each byte the same byte of the edge pixel,
// byte (4t + j) mod D of it, which is bytes 0 .. D - 1 of the first word or
// 4 - D .. 3 of the last. Rows are whole words of whole pixels, so on the
// right 4t + j has the phase it has counted from the row's start.
template <int D> GPUIMG_HD constexpr unsigned edge_selector(int t, bool right) {
  unsigned selector = 0;
  for (int j = 0; j < 4; ++j) {
    const int m = ((4 * t + j) % D + D) % D;
    selector |= static_cast<unsigned>(right ? 4 - D + m : m) << (4 * j);
  }
  return selector;
}

// Each band of rows a block walks, and the grid: bands enough for kWaves
// blocks in every slot the GPU has (`slots`, resident_blocks) across rows
// of `words` words in blocks of `warps` warps, at least `min_band` rows, and
// no more bands than a grid's y holds.
struct Bands {
  dim3 grid;
  int band;
};
inline Bands bands_for(int words, int height, int warps, int slots, int min_band) {
  const int across = (words + 32 * warps - 1) / (32 * warps);
  const int bands = std::max(1, kWaves * slots / across);
  const int band = std::max({(height + bands - 1) / bands, min_band, (height + kMaxGridY - 1) / kMaxGridY});
  return {dim3(across, (height + band - 1) / band), band};
}

// The thread's word moved one pixel (D bytes) left or right.
template <int D> __device__ __forceinline__ std::uint32_t west_pixel(const RowWords& r) {
  return D == 4 ? r.west : __funnelshift_r(r.west, r.centre, 8 * (4 - D));
}
template <int D> __device__ __forceinline__ std::uint32_t east_pixel(const RowWords& r) {
  return D == 4 ? r.east : __funnelshift_r(r.centre, r.east, 8 * D);
}

// Four blocks an SM, so 64 registers: the 3x3 median asked 78 (three
// blocks) and spills 24 bytes at 64. Alone that measured the same; with the
// median's work moved to the FMA pipe, the two were 5% faster at RGB 8-bit.
template <int D, class Work>
__global__ void __launch_bounds__(32 * kWarps, 4)
    kernel(const std::uint32_t* __restrict__ src, std::uint32_t* __restrict__ dst, int words, int height, int band,
           Work work) {
  extern __shared__ std::uint32_t shared[];
  const auto ready = work.enter(shared);
  const int lane = threadIdx.x % 32;
  const int first = (blockIdx.x * kWarps + threadIdx.x / 32) * 32;  // the warp's first word
  if (first >= words) return;                                      // the whole warp
  const int k = first + lane;
  const bool inside = k < words;
  const int own = min(k, words - 1);  // lanes past the row's end shadow its last word and store nothing
  // Lane 0 also loads the word before the warp's and lane 31 the one after;
  // the other lanes load their own word again (the same sectors).
  const int beside = lane == 0 && first > 0 ? -1 : (lane == 31 && first + 32 < words ? 1 : 0);
  const int y0 = blockIdx.y * band, y1 = min(y0 + band, height);
  // Word offsets fit an int: fits() keeps images below 2^31 words.

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
  // Past the image's left and right edges, the edge pixel's bytes.
  constexpr unsigned kLeftEdge = edge_selector<D>(-1, false), kRightEdge = edge_selector<D>(0, true);
  const auto lift = [&](std::uint32_t centre, std::uint32_t side) {
    const std::uint32_t before = __shfl_up_sync(0xffffffffu, centre, 1);
    const std::uint32_t after = __shfl_down_sync(0xffffffffu, centre, 1);
    RowWords r{lane == 0 ? side : before, centre, lane == 31 ? side : after};
    if (k == 0) r.west = __byte_perm(centre, 0, kLeftEdge);
    if (k == words - 1) r.east = __byte_perm(centre, 0, kRightEdge);
    return ready.row(r);
  };

  decltype(ready.row(RowWords{})) rows[3];
  {
    const int above = clamp_index(y0 - 1, height) * words + own, at = y0 * words + own;
    rows[1] = lift(src[above], src[above + beside]);
    rows[2] = lift(src[at], src[at + beside]);
  }
  const auto compute_batch = [&](int y, const std::uint32_t(&centre)[kAhead], const std::uint32_t(&side)[kAhead]) {
    const auto step = [&](int i) {
      rows[0] = rows[1];
      rows[1] = rows[2];
      rows[2] = lift(centre[i], side[i]);
      const std::uint32_t out = ready.apply(rows);
      if (inside) dst[(y + i) * words + k] = out;
    };
    // A whole batch without a way out between rows: where the loop may stop
    // after any row, ptxas moves the rows kept back into the same registers
    // after each one (a dozen moves a row at the median, more than the work).
    if (y + kAhead <= y1) {
#pragma unroll
      for (int i = 0; i < kAhead; ++i) step(i);
    } else {
#pragma unroll
      for (int i = 0; i < kAhead; ++i) {
        if (y + i >= y1) break;
        step(i);
      }
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

// Enqueues the skeleton over stage s, whose shape fits() with pixels of D
// bytes, with `work` and `smem` bytes of dynamic shared memory a block.
template <int D, class Work> cudaError_t launch(const CudaStage& s, const Work& work, std::size_t smem) {
  const auto k = kernel<D, Work>;
  int slots = 0;
  if (cudaError_t e = resident_blocks(k, 32 * kWarps, smem, slots); e != cudaSuccess) return e;
  const int words = static_cast<int>(1LL * s.in.width * D / 4);
  const Bands b = bands_for(words, s.in.height, kWarps, slots, kMinBand);
  k<<<b.grid, 32 * kWarps, smem, s.stream>>>(static_cast<const std::uint32_t*>(s.src),
                                             static_cast<std::uint32_t*>(s.dst), words, s.in.height, b.band, work);
  return cudaGetLastError();
}

}  // namespace word_rows
}  // namespace gpuimg
