// Box blur in one pass, for radii up to Blur::kMaxFusedRadius: the input is
// read once and the output written once, with no intermediate image.
//
// Each warp owns a strip of 32 * P pixels and walks down a band of rows. Per
// row, every lane adds the entering row's samples to, and takes the leaving
// row's from, the vertical window sums of its P pixels' columns, held in
// registers. The warp then shares those sums through shared memory, and each
// lane slides the horizontal window over its P pixels. Neighbouring strips
// overlap by 2R pixels, the reach of a lane at a strip's edge, so a warp
// never waits for another. Rows go in and out through 16-byte vectors.
//
// R is a template parameter: the window indices then fold to constants and
// the sums stay in registers, and (2R+1)^2 is a constant divisor, which
// compiles to a multiply.
#include <algorithm>
#include <cstdint>

#include "box_blur_paths.hpp"
#include "register_views.hpp"
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
  static constexpr int kInStride = round_up(kStripPx * kPixelBytes + 30, 16);
  // Column sums of the strip at kPad + x * C + c, with room for the reach
  // of the first and last lanes, whose extra outputs are thrown away.
  static constexpr int kPad = round_up(R * C, 4) + 4;
  static constexpr int kSumLen = round_up(kPad + kStripPx * C + R * C + 8, 4);
  // The window a lane reads starts kSkew entries into its first vector.
  static constexpr int kSkew = (4 - (R * C) % 4) % 4;
  static constexpr int kWinVectors = ((P + 2 * R) * C + kSkew + 3) / 4;
  static constexpr int kOutStride = round_up(kStripPx * kPixelBytes + 8, 16);
  static constexpr int kWarpBytes = 2 * kInStride + 4 * kSumLen + kOutStride;
  static constexpr int kLaneWords = (kLaneCols * static_cast<int>(sizeof(T)) + 3) / 4;
  static constexpr int kStripBytes = kStripPx * kPixelBytes;
  static constexpr int kVectorsPerLane = row_vectors_per_lane(kStripBytes);
};

// Stages strip row `y` (clamped) in shared memory and returns where its
// first byte landed; pixels outside the image replicate the border.
template <class T, int C, int R>
__device__ __forceinline__ int stage_row(const T* src, int width, int height, int y, int px0, bool inside,
                                         unsigned char* buf) {
  using S = FusedShape<T, C, R>;
  const auto* in = reinterpret_cast<const unsigned char*>(src);
  const std::size_t row = static_cast<std::size_t>(clamp_index(y, height)) * width;
  if (inside)
    return copy_row_in<S::kVectorsPerLane>(in + (row + px0) * S::kPixelBytes, S::kStripBytes, in,
                                           in + static_cast<std::size_t>(width) * height * S::kPixelBytes, buf);
  for (int b = threadIdx.x % 32; b < S::kStripPx * S::kPixelBytes; b += 32) {
    const int x = clamp_index(px0 + b / S::kPixelBytes, width);
    buf[b] = in[(row + x) * S::kPixelBytes + b % S::kPixelBytes];
  }
  return 0;
}

// This lane's kLaneCols samples of a staged row.
template <class T, int C, int R>
__device__ __forceinline__ void lane_samples(const unsigned char* buf, int first, std::uint32_t* out) {
  using S = FusedShape<T, C, R>;
  const int at = (threadIdx.x % 32) * S::P * S::kPixelBytes + first;
  const auto* w = reinterpret_cast<const std::uint32_t*>(buf) + (at >> 2);
  std::uint32_t words[S::kLaneWords];
#pragma unroll
  for (int k = 0; k < S::kLaneWords; ++k) words[k] = __funnelshift_r(w[k], w[k + 1], 8 * (at & 3));
#pragma unroll
  for (int i = 0; i < S::kLaneCols; ++i) out[i] = sample_at<T>(words, i * static_cast<int>(sizeof(T)));
}

template <class T, int C, int R>
__global__ void __launch_bounds__(32 * kWarps)
    fused_blur_kernel(const T* __restrict__ src, T* __restrict__ dst, int width, int height, int strips,
                      int band_len, int bands) {
  using S = FusedShape<T, C, R>;
  constexpr std::uint32_t n = (2 * R + 1) * (2 * R + 1);
  extern __shared__ __align__(16) unsigned char smem[];
  const int lane = threadIdx.x % 32;
  unsigned char* mine = smem + (threadIdx.x / 32) * S::kWarpBytes;
  unsigned char* enter_buf = mine;
  unsigned char* leave_buf = mine + S::kInStride;
  auto* sums = reinterpret_cast<std::uint32_t*>(mine + 2 * S::kInStride);
  unsigned char* staged = mine + 2 * S::kInStride + 4 * S::kSumLen;

  const long long work = static_cast<long long>(strips) * bands;
  for (long long item = static_cast<long long>(blockIdx.x) * kWarps + threadIdx.x / 32; item < work;
       item += static_cast<long long>(gridDim.x) * kWarps) {
    const int strip = static_cast<int>(item % strips);
    const int y0 = static_cast<int>(item / strips) * band_len;
    const int y1 = min(y0 + band_len, height);
    const int px0 = strip * S::kOutPx - R;
    const bool inside = px0 >= 0 && px0 + S::kStripPx <= width;

    // The vertical sums of row y0's window, rows y0 - R .. y0 + R.
    std::uint32_t col[S::kLaneCols] = {};
    for (int y = y0 - R; y <= y0 + R; ++y) {
      const int first = stage_row<T, C, R>(src, width, height, y, px0, inside, enter_buf);
      __syncwarp();
      std::uint32_t v[S::kLaneCols];
      lane_samples<T, C, R>(enter_buf, first, v);
#pragma unroll
      for (int i = 0; i < S::kLaneCols; ++i) col[i] += v[i];
      __syncwarp();
    }

    // Strips inside the image load the next update's rows while the
    // current row is summed and written; the two edge strips, which
    // replicate the border byte by byte, stage them when they are needed.
    const auto* in = reinterpret_cast<const unsigned char*>(src);
    const unsigned char* in_end = in + static_cast<std::size_t>(width) * height * S::kPixelBytes;
    auto fetch = [&](int y) {
      return load_row<S::kVectorsPerLane>(
          in + (static_cast<std::size_t>(clamp_index(y, height)) * width + px0) * S::kPixelBytes, S::kStripBytes,
          in, in_end);
    };
    RowInFlight<S::kVectorsPerLane> entering{}, leaving{};
    if (inside && y0 + 1 < y1) {
      entering = fetch(y0 + R + 1);
      leaving = fetch(y0 - R);
    }

    const int out_x = px0 + R;
    const int out_bytes = (min(out_x + S::kOutPx, width) - out_x) * S::kPixelBytes;
    for (int y = y0; y < y1; ++y) {
      // Row y + R + 1 enters the window after this row, row y - R leaves.
      const bool more = y + 1 < y1;
      int enter_at = 0, leave_at = 0;
      if (more && inside) {
        enter_at = store_row(entering, S::kStripBytes, enter_buf);
        leave_at = store_row(leaving, S::kStripBytes, leave_buf);
        if (y + 2 < y1) {
          entering = fetch(y + R + 2);
          leaving = fetch(y - R + 1);
        }
      } else if (more) {
        enter_at = stage_row<T, C, R>(src, width, height, y + R + 1, px0, false, enter_buf);
        leave_at = stage_row<T, C, R>(src, width, height, y - R, px0, false, leave_buf);
      }

      // Horizontal: share the column sums, slide over this lane's pixels.
#pragma unroll
      for (int i = 0; i < S::kLaneCols; i += 4)
        *reinterpret_cast<uint4*>(sums + S::kPad + lane * S::kLaneCols + i) =
            make_uint4(col[i], col[i + 1], col[i + 2], col[i + 3]);
      __syncwarp();
      std::uint32_t win[4 * S::kWinVectors];
      const std::uint32_t* from = sums + S::kPad + lane * S::kLaneCols - R * C - S::kSkew;
#pragma unroll
      for (int k = 0; k < S::kWinVectors; ++k) {
        const uint4 q = reinterpret_cast<const uint4*>(from)[k];
        win[4 * k] = q.x;
        win[4 * k + 1] = q.y;
        win[4 * k + 2] = q.z;
        win[4 * k + 3] = q.w;
      }
      union {
        T s[S::kLaneCols];
        std::uint32_t w[S::kLaneWords];
      } out;
#pragma unroll
      for (int c = 0; c < C; ++c) {
        std::uint32_t h = 0;
#pragma unroll
        for (int q = 0; q <= 2 * R; ++q) h += win[S::kSkew + q * C + c];
        out.s[c] = static_cast<T>((h + n / 2) / n);
#pragma unroll
        for (int p = 1; p < S::P; ++p) {
          h += win[S::kSkew + (p + 2 * R) * C + c] - win[S::kSkew + (p - 1) * C + c];
          out.s[p * C + c] = static_cast<T>((h + n / 2) / n);
        }
      }
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
#pragma unroll
        for (int i = 0; i < S::kLaneCols; ++i) col[i] += e[i] - l[i];
      }
      __syncwarp();
    }
  }
}

template <class T, int C, int R> cudaError_t launch(const CudaStage& s) {
  using S = FusedShape<T, C, R>;
  const int strips = (s.width + S::kOutPx - 1) / S::kOutPx;
  // A wave of about 24 warps per SM (what registers allow), in bands no
  // shorter than twice the window, so that starting a band's window costs
  // at most half a read per output row.
  int device = 0, sms = 0;
  if (cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) return e;
  if (cudaError_t e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device); e != cudaSuccess) return e;
  const int wanted_bands = std::max(1, sms * 24 / strips);
  const int band_len = std::max({(s.height + wanted_bands - 1) / wanted_bands, 4 * R + 2, 16});
  const int bands = (s.height + band_len - 1) / band_len;
  const long long warps = 1LL * strips * bands;
  const int blocks = static_cast<int>(std::min<long long>((warps + kWarps - 1) / kWarps, 1 << 20));
  fused_blur_kernel<T, C, R><<<blocks, 32 * kWarps, kWarps * S::kWarpBytes, s.stream>>>(
      static_cast<const T*>(s.src), static_cast<T*>(s.dst), s.width, s.height, strips, band_len, bands);
  return cudaGetLastError();
}

template <class T, int C, int R> cudaError_t launch_radius(const CudaStage& s, int radius) {
  if constexpr (R > Blur::kMaxFusedRadius)
    return cudaErrorInvalidValue;
  else
    return radius == R ? launch<T, C, R>(s) : launch_radius<T, C, R + 1>(s, radius);
}

template <class T> cudaError_t launch_channels(const CudaStage& s, int radius) {
  switch (s.channels) {
    case 1: return launch_radius<T, 1, 1>(s, radius);
    case 2: return launch_radius<T, 2, 1>(s, radius);
    case 3: return launch_radius<T, 3, 1>(s, radius);
    case 4: return launch_radius<T, 4, 1>(s, radius);
    default: return cudaErrorInvalidValue;
  }
}

}  // namespace

cudaError_t launch_fused_blur(const CudaStage& s, int radius) {
  return s.bytes_per_sample == 1 ? launch_channels<std::uint8_t>(s, radius)
                                 : launch_channels<std::uint16_t>(s, radius);
}

}  // namespace gpuimg
