#pragma once
// Box blur in one pass, for radii up to Blur::kMaxFusedRadius: the input is
// read once and the output written once, with no intermediate image.
//
// Each warp owns a strip of 32 * P pixels and walks down a band of rows. Per
// row, every lane adds the entering row's samples to, and takes the leaving
// row's from, the vertical window sums of its P pixels' columns, held in
// registers. Each lane then takes the R columns on either side from its
// neighbours' registers by warp shuffles and slides the horizontal window
// over its P pixels. Neighbouring strips overlap by 2R pixels, the reach of
// a lane at a strip's edge, so a warp never waits for another. Rows go in
// and out through 16-byte vectors.
//
// R is a template parameter: the window indices then fold to constants and
// the sums stay in registers, and (2R+1)^2 is a constant divisor, which
// compiles to a multiply. Fused (8-bit): the pass's tables apply to each
// sample a lane takes from a staged row and to each result (pass_tables.cuh).
//
// Compiled once a depth (box_blur_fused_u8.cu, box_blur_fused_u16.cu), so
// that the two halves, each of many kernels, build side by side.
#include <algorithm>
#include <cstdint>

#include "box_blur_paths.hpp"
#include "pass_tables.cuh"
#include "row_io.cuh"

namespace gpuimg {
namespace {

constexpr int kWarps = 4;

constexpr int round_up(int v, int m) { return (v + m - 1) / m * m; }

template <class T, int C, int R> struct FusedShape {
  static constexpr int kPixelBytes = C * static_cast<int>(sizeof(T));
  static constexpr int P = kPixelBytes == 8 ? 4 : 8;  // pixels per lane; P * C is a multiple of 4
  static constexpr int kLaneCols = P * C;
  static constexpr int kStripPx = 32 * P;
  static constexpr int kOutPx = kStripPx - 2 * R;
  // A staged row lands kLeftRoom bytes in, leaving room before it for the
  // replicated pixels left of the image; room after for the 16-byte
  // vectors' slack and the word lane_samples reads past its own.
  static constexpr int kLeftRoom = round_up(R * kPixelBytes, 16);
  static constexpr int kInStride = round_up(kLeftRoom + kStripPx * kPixelBytes + 34, 16);
  static constexpr int kOutStride = round_up(kStripPx * kPixelBytes + 8, 16);
  static constexpr int kWarpBytes = 2 * kInStride + kOutStride;
  static constexpr int kLaneWords = (kLaneCols * static_cast<int>(sizeof(T)) + 3) / 4;
  static constexpr int kStripBytes = kStripPx * kPixelBytes;
  static constexpr int kVectorsPerLane = row_vectors_per_lane(kStripBytes);
};

// The part of a strip inside the image: strip pixels [left, right_from).
struct StripSpan {
  int left, right_from;
};

// Lands a fetched strip row (its pixels inside the image) in `buf` and
// returns where strip pixel 0 starts. Pixels outside the image replicate
// the edge pixel, but only R of them on each side: an output that reads
// further lies in the strips' overlap and is thrown away. So the strips at
// the image's edges cost the same vector loads as the rest.
template <class T, int C, int R>
__device__ __forceinline__ int land_row(const RowInFlight<FusedShape<T, C, R>::kVectorsPerLane>& row, int bytes,
                                        StripSpan span, unsigned char* buf) {
  using S = FusedShape<T, C, R>;
  constexpr int pb = S::kPixelBytes;
  const int first = S::kLeftRoom + store_row(row, bytes, buf + S::kLeftRoom) - span.left * pb;
  if (span.left > 0 || span.right_from < S::kStripPx) {
    __syncwarp();
    replicate_edges<pb>(buf + first, span.left, span.right_from, min(span.right_from + R, S::kStripPx));
  }
  return first;
}

// This lane's kLaneCols samples of a staged row.
template <class T, int C, int R>
__device__ __forceinline__ void lane_samples(const unsigned char* buf, int first, std::uint32_t* out) {
  using S = FusedShape<T, C, R>;
  staged_samples<T, S::kLaneCols>(buf, (threadIdx.x % 32) * S::P * S::kPixelBytes + first, out);
}

// The column sums of strip pixels lane * P - R .. lane * P + P + R - 1, at
// (pixel + R) * C + c: this lane's own and, by shuffles, its neighbours'
// (at most two lanes away, as R <= 2 * P). The first and last lanes get
// their own values where the strip has no neighbour; the outputs those
// feed lie in the strip's overlap and are thrown away.
template <class T, int C, int R>
__device__ __forceinline__ void window_columns(const std::uint32_t (&col)[FusedShape<T, C, R>::kLaneCols],
                                               std::uint32_t (&ext)[(FusedShape<T, C, R>::P + 2 * R) * C]) {
  constexpr int P = FusedShape<T, C, R>::P;
  static_assert(R <= 2 * P, "a window reaches at most two lanes away");
#pragma unroll
  for (int q = -R; q < P + R; ++q) {
    const int lanes = q < 0 ? -((P - 1 - q) / P) : q / P;  // floor(q / P)
    const int i = q - lanes * P;
#pragma unroll
    for (int c = 0; c < C; ++c) {
      const std::uint32_t v = col[i * C + c];
      ext[(q + R) * C + c] =
          lanes == 0 ? v : (lanes < 0 ? __shfl_up_sync(~0u, v, -lanes) : __shfl_down_sync(~0u, v, lanes));
    }
  }
}

// Each of the lane's 8-bit samples through a table of the pass. The index
// is cut to 8 bits: the lanes whose outputs lie in the strips' overlap
// slide their sums over rows they never started, so their means (thrown
// away) may be anything.
template <int C, int N> __device__ __forceinline__ void map_lane(std::uint32_t (&v)[N], const unsigned char* table) {
#pragma unroll
  for (int i = 0; i < N; ++i) v[i] = is_alpha(i % C, C) ? v[i] : table[v[i] & 0xffu];
}

template <class T, int C, int R, bool Fused>
__global__ void __launch_bounds__(32 * kWarps)
    fused_blur_kernel(const T* __restrict__ src, T* __restrict__ dst, int width, int height, int strips,
                      int band_len, int bands, PassTables tables) {
  using S = FusedShape<T, C, R>;
  constexpr std::uint32_t n = (2 * R + 1) * (2 * R + 1);
  extern __shared__ __align__(16) unsigned char smem[];
  static_assert(!Fused || sizeof(T) == 1, "tables fuse at 8 bits (Blur::takes_tables)");
  // The tables sit after the warps' buffers (smem_bytes).
  auto& byte_tables = *reinterpret_cast<ByteTables*>(smem + kWarps * S::kWarpBytes);
  if constexpr (Fused) {
    stage_byte_tables(tables, byte_tables);
    __syncthreads();
  }
  const auto taken = [&](std::uint32_t(&v)[S::kLaneCols]) {
    if constexpr (Fused) map_lane<C>(v, byte_tables.load);
  };
  const int lane = threadIdx.x % 32;
  unsigned char* mine = smem + (threadIdx.x / 32) * S::kWarpBytes;
  unsigned char* enter_buf = mine;
  unsigned char* leave_buf = mine + S::kInStride;
  unsigned char* staged = mine + 2 * S::kInStride;

  const long long work = static_cast<long long>(strips) * bands;
  for (long long item = static_cast<long long>(blockIdx.x) * kWarps + threadIdx.x / 32; item < work;
       item += static_cast<long long>(gridDim.x) * kWarps) {
    const int strip = static_cast<int>(item % strips);
    const int y0 = static_cast<int>(item / strips) * band_len;
    const int y1 = min(y0 + band_len, height);
    const int px0 = strip * S::kOutPx - R;
    const int lo_px = max(px0, 0), hi_px = min(px0 + S::kStripPx, width);
    const StripSpan span{lo_px - px0, hi_px - px0};
    const int bytes = (hi_px - lo_px) * S::kPixelBytes;
    const auto* in = reinterpret_cast<const unsigned char*>(src);
    const unsigned char* in_end = in + static_cast<std::size_t>(width) * height * S::kPixelBytes;
    auto fetch = [&](int y) {
      return load_row<S::kVectorsPerLane>(
          in + (static_cast<std::size_t>(clamp_index(y, height)) * width + lo_px) * S::kPixelBytes, bytes, in,
          in_end);
    };

    // The vertical sums of row y0's window, rows y0 - R .. y0 + R.
    std::uint32_t col[S::kLaneCols] = {};
    for (int y = y0 - R; y <= y0 + R; ++y) {
      const int first = land_row<T, C, R>(fetch(y), bytes, span, enter_buf);
      __syncwarp();
      std::uint32_t v[S::kLaneCols];
      lane_samples<T, C, R>(enter_buf, first, v);
      taken(v);
#pragma unroll
      for (int i = 0; i < S::kLaneCols; ++i) col[i] += v[i];
      __syncwarp();
    }

    // The next update's rows load while the current row is summed and written.
    RowInFlight<S::kVectorsPerLane> entering{}, leaving{};
    if (y0 + 1 < y1) {
      entering = fetch(y0 + R + 1);
      leaving = fetch(y0 - R);
    }

    const int out_x = px0 + R;
    const int out_bytes = (min(out_x + S::kOutPx, width) - out_x) * S::kPixelBytes;
    for (int y = y0; y < y1; ++y) {
      // Row y + R + 1 enters the window after this row, row y - R leaves.
      const bool more = y + 1 < y1;
      int enter_at = 0, leave_at = 0;
      if (more) {
        enter_at = land_row<T, C, R>(entering, bytes, span, enter_buf);
        leave_at = land_row<T, C, R>(leaving, bytes, span, leave_buf);
        if (y + 2 < y1) {
          entering = fetch(y + R + 2);
          leaving = fetch(y - R + 1);
        }
      }

      // Horizontal: slide over this lane's pixels.
      std::uint32_t win[(S::P + 2 * R) * C];
      window_columns<T, C, R>(col, win);
      std::uint32_t means[S::kLaneCols];
#pragma unroll
      for (int c = 0; c < C; ++c) {
        std::uint32_t h = 0;
#pragma unroll
        for (int q = 0; q <= 2 * R; ++q) h += win[q * C + c];
        means[c] = (h + n / 2) / n;
#pragma unroll
        for (int p = 1; p < S::P; ++p) {
          h += win[(p + 2 * R) * C + c] - win[(p - 1) * C + c];
          means[p * C + c] = (h + n / 2) / n;
        }
      }
      if constexpr (Fused) map_lane<C>(means, byte_tables.store);
      union {
        T s[S::kLaneCols];
        std::uint32_t w[S::kLaneWords];
      } out;
#pragma unroll
      for (int i = 0; i < S::kLaneCols; ++i) out.s[i] = static_cast<T>(means[i]);
      auto* o = reinterpret_cast<std::uint32_t*>(staged) + lane * S::kLaneWords;
#pragma unroll
      for (int k = 0; k < S::kLaneWords; ++k) o[k] = out.w[k];
      __syncwarp();
      copy_row_out(staged + R * S::kPixelBytes,
                   reinterpret_cast<unsigned char*>(dst) +
                       (static_cast<std::size_t>(y) * width + out_x) * S::kPixelBytes,
                   out_bytes);

      if (more) {
        std::uint32_t e[S::kLaneCols], l[S::kLaneCols];
        lane_samples<T, C, R>(enter_buf, enter_at, e);
        lane_samples<T, C, R>(leave_buf, leave_at, l);
        taken(e);
        taken(l);
#pragma unroll
        for (int i = 0; i < S::kLaneCols; ++i) col[i] += e[i] - l[i];
      }
      __syncwarp();
    }
  }
}

template <class T, int C, int R, bool Fused> cudaError_t launch(const CudaStage& s) {
  using S = FusedShape<T, C, R>;
  constexpr std::size_t smem_bytes = kWarps * S::kWarpBytes + (Fused ? sizeof(ByteTables) : 0);
  const int strips = (s.in.width + S::kOutPx - 1) / S::kOutPx;
  // One wave: as many warps as the GPU holds at once, each a band of rows.
  // (A second, partial wave would leave most SMs idle while it runs.) A
  // band is no shorter than twice the window, so that starting a band's
  // window costs at most half a read per output row, unless the image fits
  // in L2 twice over: then those reads hit L2, and more, shorter bands
  // keep more warps busy on a small image.
  int device = 0, slots = 0, l2_bytes = 0;
  if (cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) return e;
  if (cudaError_t e = cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device); e != cudaSuccess) return e;
  if (cudaError_t e = resident_blocks(fused_blur_kernel<T, C, R, Fused>, 32 * kWarps, smem_bytes, slots);
      e != cudaSuccess)
    return e;
  const bool in_l2 = 2 * static_cast<long long>(s.in.width) * s.in.height * S::kPixelBytes <= l2_bytes;
  const int band_len = one_wave_band_len(s.in.height, slots * kWarps / strips, in_l2 ? 0 : 4 * R + 2);
  const int bands = (s.in.height + band_len - 1) / band_len;
  const long long warps = 1LL * strips * bands;
  const int blocks = static_cast<int>(std::min<long long>((warps + kWarps - 1) / kWarps, 1 << 20));
  fused_blur_kernel<T, C, R, Fused><<<blocks, 32 * kWarps, smem_bytes, s.stream>>>(
      static_cast<const T*>(s.src), static_cast<T*>(s.dst), s.in.width, s.in.height, strips, band_len, bands,
      s.tables);
  return cudaGetLastError();
}

template <class T, int C, int R> cudaError_t launch_radius(const CudaStage& s, int radius) {
  if constexpr (R > Blur::kMaxFusedRadius)
    return cudaErrorInvalidValue;
  else if (radius != R)
    return launch_radius<T, C, R + 1>(s, radius);
  else if constexpr (sizeof(T) == 1)
    return s.tables.any() ? launch<T, C, R, true>(s) : launch<T, C, R, false>(s);
  else
    return s.tables.any() ? cudaErrorInvalidValue : launch<T, C, R, false>(s);
}

template <class T> cudaError_t launch_channels(const CudaStage& s, int radius) {
  return with_channels(s, [&](auto c) { return launch_radius<T, decltype(c)::value, 1>(s, radius); });
}

}  // namespace

template <class T> cudaError_t launch_fused_blur_of(const CudaStage& s, int radius) {
  return launch_channels<T>(s, radius);
}

}  // namespace gpuimg
