#pragma once
// What --resize's two tile kernels share (resample_tiles.cu sums four taps
// an instruction, resample_tiles_mma.cu a matrix of them on the tensor
// cores): a block makes a tile of kTileW output columns by some rows, from
// the input pixels it stages in shared memory, a plane a channel, and
// writes the tile from shared memory at the end.
#include <algorithm>
#include <cstdint>

#include "resample_paths.hpp"

namespace gpuimg::resample_tiles {

constexpr int kTileW = 64;  // output columns a block
// Shared memory a block: the most for five (four) blocks an H100 SM, and
// for two (within the 99 KB a block that other GPUs allow).
constexpr std::size_t kRoomForFive = 40 * 1024, kRoomForFour = 56 * 1024, kRoomForTwo = 96 * 1024;

// This block's tile: output columns x0 .. x0 + width - 1, rows y0 .. y0 +
// height - 1, and the runs of input columns and rows they read.
struct Tile {
  int x0, y0, width, height;
  ResampleSpan sx, sy;
};
__device__ inline Tile block_tile(const ResampleTable& tx, const ResampleTable& ty, int out_w, int out_h, int rows) {
  const int x0 = blockIdx.x * kTileW, x1 = min(x0 + kTileW, out_w);
  const int y0 = blockIdx.y * rows, y1 = min(y0 + rows, out_h);
  return {x0, y0, x1 - x0, y1 - y0, resample_span(tx, x0, x1), resample_span(ty, y0, y1)};
}

// The word of the image's bytes from byte 4 i, any bytes past `size` zero.
__device__ inline std::uint32_t image_word(const std::uint8_t* src, std::size_t i, std::size_t size) {
  std::uint32_t w = 0;
  for (std::size_t b = 4 * i; b < size && b < 4 * i + 4; ++b) w |= std::uint32_t(src[b]) << (8 * (b - 4 * i));
  return w;
}

// Four pixels of C channels from 4C bytes in C words, as a word a channel.
template <int C> __device__ __forceinline__ void planar(std::uint32_t (&w)[C]);
template <> __device__ __forceinline__ void planar<1>(std::uint32_t (&)[1]) {}
template <> __device__ __forceinline__ void planar<3>(std::uint32_t (&w)[3]) {
  // Bytes 0..11 are R G B of pixels 0..3: R at 0 3 6 9, G at 1 4 7 10, B at 2 5 8 11.
  const std::uint32_t r = __byte_perm(__byte_perm(w[0], w[1], 0x0630), w[2], 0x5210);
  const std::uint32_t g = __byte_perm(__byte_perm(w[0], w[1], 0x0741), w[2], 0x6210);
  const std::uint32_t b = __byte_perm(__byte_perm(w[0], w[1], 0x0052), w[2], 0x7410);
  w[0] = r, w[1] = g, w[2] = b;
}

// Four pixels of C channels from the C + 1 words from the word at or
// before `p`, as a word a channel; the words' loads and the rest are apart
// so that a thread can have several groups' loads in flight.
template <int C> struct Group {
  std::uint32_t u[C + 1];
  unsigned shift;
  __device__ __forceinline__ void load(const std::uint8_t* p) {
    const auto* w = reinterpret_cast<const std::uint32_t*>(reinterpret_cast<std::uintptr_t>(p) & ~std::uintptr_t{3});
#pragma unroll
    for (int k = 0; k <= C; ++k) u[k] = __ldg(w + k);
    shift = 8 * (reinterpret_cast<std::uintptr_t>(p) & 3);
  }
  __device__ __forceinline__ void load_inside(const std::uint8_t* src, std::size_t at, std::size_t size) {
#pragma unroll
    for (int k = 0; k <= C; ++k) u[k] = image_word(src, at / 4 + k, size);
    shift = 8 * (at % 4);
  }
  __device__ __forceinline__ void store(std::uint8_t* plane, int plane_bytes) const {
    std::uint32_t w[C];
#pragma unroll
    for (int k = 0; k < C; ++k) w[k] = __funnelshift_r(u[k], u[k + 1], shift);
    planar<C>(w);
#pragma unroll
    for (int c = 0; c < C; ++c) *reinterpret_cast<std::uint32_t*>(plane + c * plane_bytes) = w[c];
  }
};

// The input pixels of span sx of rows sy into shared memory, four pixels a
// thread of T, plane c's row r at planes + c plane_bytes + r pitch, where
// a group of four might end past the image (the last tiles) or a row has
// more groups than the block threads: each group's words read byte by byte
// where they would pass the end; (r, q) steps through the rows' groups of
// four without a division a step.
template <int C, int T>
__device__ void stage_input_checked(const std::uint8_t* __restrict__ src, std::size_t first, std::size_t row_bytes,
                                    std::size_t size, int groups, int rows, std::uint8_t* planes, int plane_bytes,
                                    int pitch) {
  const int rows_a_step = T / groups, groups_a_step = T - rows_a_step * groups;
  for (int r = threadIdx.x / groups, q = threadIdx.x - r * groups; r < rows;) {
    const std::size_t at = first + std::size_t(r) * row_bytes + 4 * C * q;
    Group<C> g;
    if (at / 4 * 4 + 4 * (C + 1) <= size)
      g.load(src + at);
    else
      g.load_inside(src, at, size);
    g.store(planes + r * pitch + 4 * q, plane_bytes);
    r += rows_a_step, q += groups_a_step;
    if (q >= groups) q -= groups, ++r;
  }
}

// The same, everywhere else: each thread keeps one group of the rows,
// stepping down them, and loads kInFlight groups before it stores any.
// One group at a time, the loads' latency was the kernel's longest stall,
// and the (r, q) stepping's 64-bit offsets and end checks took 67
// instructions a group (ncu, lanczos3 halving 7680x4320 RGB on the H100).
template <int C, int T>
__device__ void stage_input(const std::uint8_t* __restrict__ src, int in_w, int in_h, ResampleSpan sx,
                            ResampleSpan sy, std::uint8_t* planes, int plane_bytes, int pitch) {
  constexpr int kInFlight = 4;
  const int groups = (sx.pixels + 3) / 4;
  const std::size_t row_bytes = std::size_t(in_w) * C, size = row_bytes * in_h;
  const std::size_t first = std::size_t(sy.first) * row_bytes + std::size_t(sx.first) * C;
  const std::size_t last = first + std::size_t(sy.pixels - 1) * row_bytes + 4 * C * std::size_t(groups - 1);
  if (groups > T || last / 4 * 4 + 4 * (C + 1) > size) {
    stage_input_checked<C, T>(src, first, row_bytes, size, groups, sy.pixels, planes, plane_bytes, pitch);
    return;
  }
  const int rows_a_pass = T / groups, q = threadIdx.x % groups;
  int r = threadIdx.x / groups;
  if (r >= rows_a_pass) return;
  const std::uint8_t* from = src + first + std::size_t(r) * row_bytes + 4 * C * q;
  const std::size_t from_step = std::size_t(rows_a_pass) * row_bytes;
  std::uint8_t* to = planes + r * pitch + 4 * q;
  const int to_step = rows_a_pass * pitch;
  for (; r < sy.pixels; r += kInFlight * rows_a_pass) {
    Group<C> g[kInFlight];
#pragma unroll
    for (int k = 0; k < kInFlight; ++k)
      if (r + k * rows_a_pass < sy.pixels) g[k].load(from + k * from_step);
#pragma unroll
    for (int k = 0; k < kInFlight; ++k)
      if (r + k * rows_a_pass < sy.pixels) g[k].store(to + k * to_step, plane_bytes);
    from += kInFlight * from_step, to += kInFlight * to_step;
  }
}

// The tile's `height` rows of `width` pixels from shared memory (kTileW C
// bytes a row) to the image at (x0, y0): 16-byte vectors where every row
// of the tile and the image starts on 16 bytes and the tile's rows are
// whole vectors, else words where the image's rows start on words, else
// bytes. (In words, the tile's store took an eighth of the instructions of
// the lanczos3 halving above.)
template <int C, int T>
__device__ void store_tile(const std::uint8_t* out, std::uint8_t* __restrict__ dst, int out_w, int x0, int y0,
                           int width, int height) {
  const unsigned row_bytes = width * C;
  const std::size_t out_row = std::size_t(out_w) * C;
  std::uint8_t* to = dst + std::size_t(y0) * out_row + std::size_t(x0) * C;
  const auto on_16 = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  if (out_row % 16 == 0 && row_bytes % 16 == 0 && on_16(out) && on_16(to)) {
    const unsigned vectors = row_bytes / 16;
    for (unsigned i = threadIdx.x; i < height * vectors; i += T) {
      const unsigned j = i / vectors, k = i - j * vectors;
      reinterpret_cast<uint4*>(to + j * out_row)[k] = reinterpret_cast<const uint4*>(out + j * kTileW * C)[k];
    }
  } else if (out_row % 4 == 0) {
    const unsigned words = row_bytes / 4;
    for (unsigned i = threadIdx.x; i < height * words; i += T) {
      const unsigned j = i / words, k = i - j * words;
      reinterpret_cast<std::uint32_t*>(to + j * out_row)[k] =
          reinterpret_cast<const std::uint32_t*>(out + j * kTileW * C)[k];
    }
  } else {
    for (unsigned i = threadIdx.x; i < height * row_bytes; i += T) {
      const unsigned j = i / row_bytes, k = i - j * row_bytes;
      to[j * out_row + k] = out[j * kTileW * C + k];
    }
  }
}

inline int round_up(int v, int m) { return (v + m - 1) / m * m; }

// Where the output tile goes in shared memory, from the first free byte:
// on 16 bytes, for store_tile's vectors.
inline std::size_t out_tile_at(std::size_t free) { return (free + 15) / 16 * 16; }

// The longest span of any tile of `n` outputs along a table of `len` outputs.
inline int longest_span(const ResampleTable& t, int len, int n) {
  int longest = 0;
  for (int i0 = 0; i0 < len; i0 += n)
    longest = std::max(longest, resample_span(t, i0, std::min(i0 + n, len)).pixels);
  return longest;
}

// The layout `plan` makes for the tallest tile, of `tallest` rows (a power
// of two, 64 unless the kernel takes more) down to 8, whose shared memory fits
// `first` bytes, else `then`: fewer input rows made twice where tiles meet,
// against more blocks an SM to hide each one's loads. False where none fits.
template <class Plan, class Layout>
bool tallest_tile(std::size_t first, std::size_t then, int out_h, Plan plan, Layout& layout, int tallest = 64) {
  for (std::size_t most : {first, then})
    for (int rows = tallest; rows >= 8; rows /= 2) {
      layout = plan(rows);
      if (layout.bytes <= most && (out_h + rows - 1) / rows <= kMaxGridY) return true;
    }
  return false;
}

// One launch of a tile kernel over the stage's output, `layout.rows` rows
// a tile.
template <class Kernel, class Layout>
cudaError_t launch_tiles(Kernel kernel, int threads, const CudaStage& s, const ResampleTables& t,
                         const Layout& layout) {
  // The limit belongs to the kernel, not the launch, and batch lanes launch
  // from several threads: always the same one, the most any layout takes.
  if (cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kRoomForTwo));
      e != cudaSuccess)
    return e;
  const dim3 grid((s.out.width + kTileW - 1) / kTileW, (s.out.height + layout.rows - 1) / layout.rows);
  kernel<<<grid, threads, layout.bytes, s.stream>>>(static_cast<const std::uint8_t*>(s.src),
                                                    static_cast<std::uint8_t*>(s.dst), s.in.width, s.in.height,
                                                    s.out.width, s.out.height, t.x, t.y, layout);
  return cudaGetLastError();
}

}  // namespace gpuimg::resample_tiles
