#pragma once
// Moving one image row segment between global memory and a warp's staging
// buffer in shared memory, in 16-byte vectors whatever the row's alignment
// (an image row starts wherever width * pixel bytes puts it).
#include <cstddef>
#include <cstdint>

#include "register_views.hpp"

namespace gpuimg {

// A pixel as one U, for moving whole pixels within shared memory: a 1-,
// 2-, 4- or 8-byte pixel as one aligned word (moved as a byte array it took
// a byte access a byte); a 3- or 6-byte pixel as a struct of its samples.
template <int Bytes> struct PixelUnit;
template <> struct PixelUnit<1> { using U = std::uint8_t; };
template <> struct PixelUnit<2> { using U = std::uint16_t; };
template <> struct PixelUnit<3> { struct U { std::uint8_t s[3]; }; };
template <> struct PixelUnit<4> { using U = std::uint32_t; };
template <> struct PixelUnit<6> { struct U { std::uint16_t s[3]; }; };
template <> struct PixelUnit<8> { using U = std::uint64_t; };

// A row segment in flight from global memory: lane L holds its 16-byte
// vectors L, L + 32, ... of the aligned span around it, so that a warp can
// start loading a row, do other work, and only then land it in shared memory.
template <int PerLane> struct RowInFlight {
  uint4 v[PerLane];
  int shift;  // where the segment starts in its first vector
};

// Starts loading `n` bytes from global `src` (at most 32 * PerLane * 16 - 15);
// vectors that are not wholly inside [begin, end) are read byte by byte.
template <int PerLane>
__device__ __forceinline__ RowInFlight<PerLane> load_row(const unsigned char* src, std::size_t n,
                                                         const unsigned char* begin, const unsigned char* end) {
  RowInFlight<PerLane> r;
  r.shift = static_cast<int>(reinterpret_cast<std::uintptr_t>(src) & 15);
  const unsigned char* a = src - r.shift;
  const int vectors = static_cast<int>((r.shift + n + 15) / 16);
#pragma unroll
  for (int i = 0; i < PerLane; ++i) {
    const int k = threadIdx.x % 32 + 32 * i;
    const unsigned char* v = a + 16 * k;
    if (k >= vectors) continue;
    if (v >= begin && v + 16 <= end) {
      r.v[i] = *reinterpret_cast<const uint4*>(v);
    } else {
      union {
        uint4 q;
        unsigned char b[16];
      } u = {};
      for (int b = 0; b < 16; ++b)
        if (v + b >= begin && v + b < end) u.b[b] = v[b];
      r.v[i] = u.q;
    }
  }
  return r;
}

// Lands a loaded row at `dst` + shift (16-byte aligned shared memory, room
// for n + 30 bytes) and returns the shift.
template <int PerLane>
__device__ __forceinline__ int store_row(const RowInFlight<PerLane>& r, std::size_t n, unsigned char* dst) {
  const int vectors = static_cast<int>((r.shift + n + 15) / 16);
#pragma unroll
  for (int i = 0; i < PerLane; ++i) {
    const int k = threadIdx.x % 32 + 32 * i;
    if (k < vectors) *reinterpret_cast<uint4*>(dst + 16 * k) = r.v[i];
  }
  return r.shift;
}

// The most bytes a warp moves at once with PerLane vectors a lane, and a
// staging buffer that holds them wherever they start in a vector, with
// room for the words read past their end.
template <int PerLane> constexpr int kRowRoom = 32 * PerLane * 16 - 15;
template <int PerLane> constexpr int kRowStageBytes = (32 * PerLane * 16 + 32 + 15) / 16 * 16;

// Vectors per lane for a segment of n bytes.
__host__ __device__ constexpr int row_vectors_per_lane(int n) { return ((n + 15 + 15) / 16 + 31) / 32; }

// Copies `n` bytes from global `src` into shared `dst` + (src % 16) and
// returns src % 16. Called by all 32 lanes of a warp.
template <int PerLane>
__device__ __forceinline__ int copy_row_in(const unsigned char* src, std::size_t n, const unsigned char* begin,
                                           const unsigned char* end, unsigned char* dst) {
  return store_row(load_row<PerLane>(src, n, begin, end), n, dst);
}

// The N 32-bit words from `at` bytes into a staged row: aligned word loads
// and funnel shifts, whatever at's alignment. Reads one word past them.
template <int N>
__device__ __forceinline__ void staged_words(const unsigned char* buf, int at, std::uint32_t (&words)[N]) {
  const auto* w = reinterpret_cast<const std::uint32_t*>(buf) + (at >> 2);
#pragma unroll
  for (int k = 0; k < N; ++k) words[k] = __funnelshift_r(w[k], w[k + 1], 8 * (at & 3));
}

// N samples of type T from `at` bytes into a staged row, each widened to
// 32 bits. Reads up to one word past the samples.
template <class T, int N>
__device__ __forceinline__ void staged_samples(const unsigned char* buf, int at, std::uint32_t* out) {
  std::uint32_t words[(N * static_cast<int>(sizeof(T)) + 3) / 4];
  staged_words(buf, at, words);
#pragma unroll
  for (int i = 0; i < N; ++i) out[i] = sample_at<T>(words, i * static_cast<int>(sizeof(T)));
}

// Fills in the pixels of a staged row that lie outside the image, where
// `row` is pixel 0 and pixels [left, right_from) came from the image:
// pixels [0, left) copy pixel `left`, pixels [right_from, right_to) copy
// pixel right_from - 1. Called by all 32 lanes once the row has landed and
// the warp has synchronised.
template <int PixelBytes>
__device__ __forceinline__ void replicate_edges(unsigned char* row, int left, int right_from, int right_to) {
  const int lane = threadIdx.x % 32;
  for (int b = lane; b < left * PixelBytes; b += 32) row[b] = row[left * PixelBytes + b % PixelBytes];
  for (int b = right_from * PixelBytes + lane; b < right_to * PixelBytes; b += 32)
    row[b] = row[(right_from - 1) * PixelBytes + b % PixelBytes];
}

// Writes `n` staged bytes to global `dst`: 16-byte vectors where `dst` is
// aligned, single bytes at both ends. `staged` may sit at any byte of shared
// memory; up to 4 bytes past staged + n are read. Called by all 32 lanes.
__device__ __forceinline__ void copy_row_out(const unsigned char* staged, unsigned char* dst, int n) {
  const int lane = threadIdx.x % 32;
  const int head = static_cast<int>((16 - (reinterpret_cast<std::uintptr_t>(dst) & 15)) & 15);
  const int lead = min(head, n);
  if (lane < lead) dst[lane] = staged[lane];
  const int vectors = (n - lead) / 16;
  const int tail = lead + 16 * vectors;
  if (lane < n - tail) dst[tail + lane] = staged[tail + lane];
  // Each vector is assembled from five aligned words of the staging buffer.
  // Pointer arithmetic, not a round trip through an integer, keeps these
  // loads known to be shared-memory loads.
  const int shift = static_cast<int>(reinterpret_cast<std::uintptr_t>(staged + lead) & 3);
  const std::uint32_t* w = reinterpret_cast<const std::uint32_t*>(staged + lead - shift);
  for (int k = lane; k < vectors; k += 32) {
    std::uint32_t r[5];
#pragma unroll
    for (int j = 0; j < 5; ++j) r[j] = w[4 * k + j];
    uint4 v;
    v.x = __funnelshift_r(r[0], r[1], 8 * shift);
    v.y = __funnelshift_r(r[1], r[2], 8 * shift);
    v.z = __funnelshift_r(r[2], r[3], 8 * shift);
    v.w = __funnelshift_r(r[3], r[4], 8 * shift);
    *reinterpret_cast<uint4*>(dst + lead + 16 * k) = v;
  }
}

}  // namespace gpuimg
