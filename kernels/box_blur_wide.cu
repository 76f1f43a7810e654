// Box blur in one pass on 8-bit images for radii past Blur::kMaxFusedRadius
// up to Blur::kMaxWideRadius: the input is read once and the output written
// once, with no sums in scratch between two passes.
//
// A block owns a strip of columns and walks down a band of rows. As in the
// fused pass, each thread keeps the vertical window sums of its P pixels'
// columns in registers and updates them from the entering and leaving rows,
// which each warp stages through shared memory in 16-byte vectors. The
// horizontal window, up to 257 pixels, is too wide for shuffles: the block
// scans its column sums into prefix sums in shared memory (within a thread,
// then across the warp by shuffles, then across warps), and each output is
// the difference of two of them. Only pixels inside the image are staged;
// where a window reaches past the image's edge, the edge column's sum
// stands in for the missing ones. A strip outputs all but the R pixels at
// either end, so neighbouring strips overlap by 2R.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "box_blur_paths.hpp"
#include "mean_divider.hpp"
#include "row_io.cuh"
#include "warp_scan.cuh"

namespace gpuimg {
namespace {

constexpr int round_up(int v, int m) { return (v + m - 1) / m * m; }
constexpr int kAhead = 4;  // rows in flight per warp while a band's window starts

template <int C> struct WideShape {
  static constexpr int kPixelBytes = C;
  static constexpr int kWarps = kWideThreads / 32;
  static constexpr int P = wide_pixels_per_thread(C);
  static constexpr int kLaneCols = P * C;
  static_assert(kLaneCols % 4 == 0, "a thread's prefix sums go out as 16-byte vectors");
  static constexpr int kStripPx = wide_strip_px(C);
  static constexpr int kWarpPx = 32 * P;
  static constexpr int kWarpBytes = kWarpPx * kPixelBytes;
  static constexpr int kVectorsPerLane = row_vectors_per_lane(kWarpBytes);
  // A staged row segment takes up to 30 bytes more than its own (its
  // vectors' slack) and staged_samples reads a word past it.
  static constexpr int kInStride = round_up(kWarpBytes + 34, 16);
  static constexpr int kOutStride = round_up(kWarpBytes + 8, 16);
  static constexpr int kWarpSmem = 2 * kInStride + kOutStride;
  // Prefix sum j (of strip pixels 0 .. j-1), channel c, is word j * C + c
  // after kPrefixBase words, which puts each thread's first sum, j = its
  // first pixel + 1, on a 16-byte boundary.
  static constexpr int kPrefixBase = (4 - C % 4) % 4;
  static constexpr int kTotalsWords = round_up(kWarps * C, 4);
  static constexpr int kPrefixWords = round_up(kPrefixBase + (kStripPx + 1) * C, 4);
  static constexpr int kSmemBytes = kWarps * kWarpSmem + 4 * (kTotalsWords + kPrefixWords);
  static_assert(kSmemBytes <= 48 * 1024, "no opt-in to more shared memory");
};

struct WideGeometry {
  int width, height, radius;
  int out_px;  // output pixels per strip, all strips but maybe the last
  int strips, band_len, bands;
};

// The C sums of one pixel from the prefix array: one load where they make
// an aligned vector.
template <int C> __device__ __forceinline__ void pixel_sums(const std::uint32_t* p, std::uint32_t (&v)[C]) {
  if constexpr (C == 4) {
    const uint4 q = *reinterpret_cast<const uint4*>(p);
    v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
  } else if constexpr (C == 2) {
    const uint2 q = *reinterpret_cast<const uint2*>(p);
    v[0] = q.x, v[1] = q.y;
  } else {
#pragma unroll
    for (int c = 0; c < C; ++c) v[c] = p[c];
  }
}

// Two blocks an SM (at most 128 registers): with one, every barrier idles
// the SM, and three leave 80 registers. Measured at 7680x4320 RGB, R = 25:
// 0.32 ms with two, 0.46 with three; one (227 registers), on an earlier
// version, took 0.42 where two took 0.40.
template <int C>
__global__ void __launch_bounds__(kWideThreads, 2)
    wide_blur_kernel(const std::uint8_t* __restrict__ src, std::uint8_t* __restrict__ dst, WideGeometry g,
                     MeanDivider mean) {
  using S = WideShape<C>;
  constexpr int P = S::P, pb = S::kPixelBytes, kPairs = S::kLaneCols / 2;
  static_assert(Blur::kMaxWideRadius <= 128, "column sums fit 16 bits");
  extern __shared__ __align__(16) unsigned char smem[];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  unsigned char* enter_buf = smem + warp * S::kWarpSmem;
  unsigned char* leave_buf = enter_buf + S::kInStride;
  unsigned char* staged = leave_buf + S::kInStride;
  auto* totals = reinterpret_cast<std::uint32_t*>(smem + S::kWarps * S::kWarpSmem);  // [warp][c]
  std::uint32_t* prefix = totals + S::kTotalsWords + S::kPrefixBase;
  if (threadIdx.x < C) prefix[threadIdx.x] = 0;  // the empty sum; no thread writes it again

  const int R = g.radius;
  const auto* in = reinterpret_cast<const unsigned char*>(src);
  const unsigned char* in_end = in + static_cast<std::size_t>(g.width) * g.height * pb;
  for (int item = blockIdx.x; item < g.strips * g.bands; item += gridDim.x) {
    const int strip = item % g.strips;
    const int y0 = item / g.strips * g.band_len, y1 = min(y0 + g.band_len, g.height);
    const int out_lo = strip * g.out_px, out_hi = min(out_lo + g.out_px, g.width);
    const int left = max(out_lo - R, 0), right = min(out_hi + R, g.width);  // the pixels staged
    // This warp's part of the strip, and this lane's pixels in it.
    const int wx0 = left + warp * S::kWarpPx, wx1 = min(wx0 + S::kWarpPx, right);
    const int bytes = max(wx1 - wx0, 0) * pb;
    const bool live = wx0 + lane * P < wx1;
    auto fetch = [&](int y) {
      return load_row<S::kVectorsPerLane>(
          in + (static_cast<std::size_t>(clamp_index(y, g.height)) * g.width + wx0) * pb, bytes, in, in_end);
    };
    // Column sums two to a word, in 16-bit halves ((2R + 1) * 255 < 2^16):
    // word 2k holds this lane's samples 4k and 4k + 2, word 2k + 1 samples
    // 4k + 1 and 4k + 3, so that a staged word adds in with two byte
    // permutes and two adds. The word is lo + 2^16 hi, the adds are exact
    // modulo 2^32 and both halves are back within 16 bits after each row,
    // so a carry between them in passing undoes itself.
    auto add_row = [&](const unsigned char* buf, int first, std::uint32_t(&col)[kPairs], bool leaving) {
      std::uint32_t w[S::kLaneCols / 4];
      staged_words(buf, first + lane * P * pb, w);
      if (live)
#pragma unroll
        for (int k = 0; k < S::kLaneCols / 4; ++k) {
          const std::uint32_t even = __byte_perm(w[k], 0, 0x4240), odd = __byte_perm(w[k], 0, 0x4341);
          col[2 * k] += leaving ? 0u - even : even;
          col[2 * k + 1] += leaving ? 0u - odd : odd;
        }
    };

    // The vertical sums of row y0's window, rows y0 - R .. y0 + R, with
    // kAhead rows in flight: one at a time would wait out a memory latency
    // for each of up to 257 rows.
    std::uint32_t col[kPairs] = {};
    {
      RowInFlight<S::kVectorsPerLane> ahead[kAhead];
#pragma unroll
      for (int k = 0; k < kAhead; ++k)
        if (y0 - R + k <= y0 + R) ahead[k] = fetch(y0 - R + k);
      for (int y = y0 - R; y <= y0 + R; y += kAhead)
#pragma unroll
        for (int k = 0; k < kAhead; ++k) {
          if (y + k > y0 + R) break;
          const int first = store_row(ahead[k], bytes, enter_buf);
          if (y + k + kAhead <= y0 + R) ahead[k] = fetch(y + k + kAhead);
          __syncwarp();
          add_row(enter_buf, first, col, false);
          __syncwarp();
        }
    }

    RowInFlight<S::kVectorsPerLane> entering{}, leaving{};
    if (y0 + 1 < y1) {
      entering = fetch(y0 + R + 1);
      leaving = fetch(y0 - R);
    }
    const int ox0 = max(out_lo, wx0), ox1 = min(out_hi, wx0 + S::kWarpPx);  // this warp's output pixels
    const bool clamp_warp = ox0 - R < 0 || ox1 + R > g.width;
    for (int y = y0; y < y1; ++y) {
      const bool more = y + 1 < y1;
      int enter_at = 0, leave_at = 0;
      if (more) {
        enter_at = store_row(entering, bytes, enter_buf);
        leave_at = store_row(leaving, bytes, leave_buf);
        if (y + 2 < y1) {
          entering = fetch(y + R + 2);
          leaving = fetch(y - R + 1);
        }
      }

      // Prefix sums of the column sums: within this thread, then across the warp and the warps before it.
      std::uint32_t sums[S::kLaneCols];
#pragma unroll
      for (int i = 0; i < S::kLaneCols; ++i) {
        const std::uint32_t pair = col[i / 4 * 2 + i % 2], own_sum = i % 4 < 2 ? pair & 0xffff : pair >> 16;
        sums[i] = i < C ? own_sum : sums[i - C] + own_sum;
      }
      std::uint32_t carry[C], own[C];
#pragma unroll
      for (int c = 0; c < C; ++c) own[c] = carry[c] = sums[(P - 1) * C + c];
      warp_exclusive_scan<C>(carry);
      if (lane == 31)
#pragma unroll
        for (int c = 0; c < C; ++c) totals[warp * C + c] = carry[c] + own[c];
      __syncthreads();
#pragma unroll
      for (int c = 0; c < C; ++c) carry[c] += warp_sum(lane < warp ? totals[lane * C + c] : 0u);
      auto* mine = reinterpret_cast<uint4*>(prefix + (threadIdx.x * P + 1) * C);
#pragma unroll
      for (int k = 0; k < S::kLaneCols / 4; ++k)
        mine[k] = make_uint4(sums[4 * k] + carry[(4 * k) % C], sums[4 * k + 1] + carry[(4 * k + 1) % C],
                             sums[4 * k + 2] + carry[(4 * k + 2) % C], sums[4 * k + 3] + carry[(4 * k + 3) % C]);
      __syncthreads();

      // The outputs: lane + 32 j of this warp's pixels, so that neighbouring
      // lanes read neighbouring prefix sums. Only a warp with pixels outside
      // the strip's output checks each, and only one whose windows reach
      // past the image's edge clamps them.
      const int lx = wx0 + lane;  // this lane's first pixel
      const std::uint32_t* hi_at = prefix + (lx - left + R + 1) * C;
      const std::uint32_t* lo_at = hi_at - (2 * R + 1) * C;
      auto emit = [&](auto checked, auto clamped) {
#pragma unroll
        for (int j = 0; j < P; ++j) {
          const int x = lx + 32 * j;
          if (decltype(checked)::value && (x < ox0 || x >= ox1)) continue;
          std::uint32_t hi[C], lo[C];
          if constexpr (!decltype(clamped)::value) {
            pixel_sums<C>(hi_at + 32 * C * j, hi);
            pixel_sums<C>(lo_at + 32 * C * j, lo);
          } else {
            // Columns past the image's edge repeat the edge column.
            const int i = x - left, end = right - left;  // prefix sum `end` is of all staged pixels
            pixel_sums<C>(prefix + min(i + R + 1, end) * C, hi);
            pixel_sums<C>(prefix + max(i - R, 0) * C, lo);
            const int before = max(R - x, 0), after = max(x + R - (g.width - 1), 0);
            std::uint32_t first[C], last[C], last_prev[C];
            pixel_sums<C>(prefix + C, first);
            pixel_sums<C>(prefix + end * C, last);
            pixel_sums<C>(prefix + (end - 1) * C, last_prev);
#pragma unroll
            for (int c = 0; c < C; ++c) hi[c] += before * first[c] + after * (last[c] - last_prev[c]);
          }
          std::uint8_t out[C];
#pragma unroll
          for (int c = 0; c < C; ++c) out[c] = static_cast<std::uint8_t>(mean(hi[c] - lo[c]));
          unsigned char* at = staged + (lane + 32 * j) * C;
          if constexpr (C == 4) {
            *reinterpret_cast<std::uint32_t*>(at) =
                out[0] | out[1] << 8 | out[2] << 16 | static_cast<std::uint32_t>(out[3]) << 24;
          } else {
#pragma unroll
            for (int c = 0; c < C; ++c) at[c] = out[c];
          }
        }
      };
      if (clamp_warp)
        emit(std::true_type{}, std::true_type{});
      else if (ox0 != wx0 || ox1 != wx0 + S::kWarpPx)
        emit(std::true_type{}, std::false_type{});
      else
        emit(std::false_type{}, std::false_type{});
      __syncwarp();
      if (ox1 > ox0)
        copy_row_out(staged + (ox0 - wx0) * pb,
                     reinterpret_cast<unsigned char*>(dst) + (static_cast<std::size_t>(y) * g.width + ox0) * pb,
                     (ox1 - ox0) * pb);

      if (more) {
        add_row(enter_buf, enter_at, col, false);
        add_row(leave_buf, leave_at, col, true);
      }
      __syncwarp();
    }
  }
}

template <int C> cudaError_t launch(const CudaStage& s, int radius, MeanDivider mean) {
  using S = WideShape<C>;
  WideGeometry g{s.in.width, s.in.height, radius, 0, 0, 0, 0};
  g.strips = (s.in.width + S::kStripPx - 2 * radius - 1) / (S::kStripPx - 2 * radius);
  g.out_px = (s.in.width + g.strips - 1) / g.strips;
  // As in the fused pass, one wave of blocks, each a strip of a band of
  // rows. A band is at least a quarter of the window: starting one reads
  // 2R + 1 rows, but only adds them up, and more, shorter bands keep more
  // SMs busy. At 7680x4320 RGB and R = 128, bands of at least half the
  // window took 0.82 ms, a quarter 0.62 and an eighth 0.63.
  int slots = 0;
  if (cudaError_t e = resident_blocks(wide_blur_kernel<C>, kWideThreads, S::kSmemBytes, slots); e != cudaSuccess)
    return e;
  g.band_len = one_wave_band_len(s.in.height, slots / g.strips, (2 * radius + 1) / 4);
  g.bands = (s.in.height + g.band_len - 1) / g.band_len;
  wide_blur_kernel<C><<<g.strips * g.bands, kWideThreads, S::kSmemBytes, s.stream>>>(
      static_cast<const std::uint8_t*>(s.src), static_cast<std::uint8_t*>(s.dst), g, mean);
  return cudaGetLastError();
}

}  // namespace

cudaError_t launch_wide_blur(const CudaStage& s, int radius) {
  const auto mean = MeanDivider::for_mean(Blur::window_samples(radius), 255);
  if (s.in.bytes != 1 || radius <= Blur::kMaxFusedRadius || radius > Blur::kMaxWideRadius || !mean)
    return cudaErrorInvalidValue;
  return with_channels(s, [&](auto c) { return launch<decltype(c)::value>(s, radius, *mean); });
}

}  // namespace gpuimg
