// The table skeleton: a pass of table stages (lib/table_pass.hpp) looks
// every colour sample up in its composed tables, in one read and one write
// of the image. As in point.cu, a thread moves a group of whole 16-byte
// vectors (16 bytes, or 48 where a pixel is 3 or 6 bytes), so that each
// sample's channel is known at compile time.
//
// The tables sit in shared memory: at 8 bits each colour channel's, laid
// out so that a warp's lookups never conflict (lookup8_kernel); at 16 bits
// one 128 KiB table where the colour channels share it (every pass without
// --normalize), and the global int32 tables, through the read-only cache,
// where each channel has its own.
//
// A pass that reads its input's range first runs channel_ranges_kernel:
// each thread's smallest and largest sample per channel (kRangeGroups
// groups in flight at a time), then the warp's (__reduce_min_sync), then
// one atomic per warp.
#include <algorithm>
#include <cstdint>

#include "cuda_launch.hpp"
#include "tables.hpp"

namespace gpuimg {
namespace {

constexpr int kThreads = 256;
// Groups a thread of the range pass loads at a time, all before it folds
// the first in: with one at a time the pass read at about half the memory's
// bandwidth. --normalize at 7680x4320 RGB 8-bit on the H200 (range pass
// and lookup) took 0.134 ms with one, 0.123 with two, 0.113 with four,
// 0.110 with eight.
constexpr int kRangeGroups = 8;
// A lookup block fills its tables before it starts, and at 16 bits only
// one block (128 KiB of table) fits an SM: it takes as many threads as a
// block may have, half the SM's.
constexpr int kLookupThreads = 1024;
constexpr int kMax16 = 65535;
constexpr long long kMaxBlocks = 1 << 20;  // past it, the grid-stride loops take the rest

// Samples per group: the fewest whole 16-byte vectors that hold whole pixels.
template <class T, int C> constexpr int group_samples() {
  constexpr int vectors = (C * sizeof(T)) % 3 == 0 ? 3 : 1;
  return vectors * 16 / static_cast<int>(sizeof(T));
}

template <class T, int C> struct Group {
  static constexpr int N = group_samples<T, C>();
  static constexpr int kVectors = N * sizeof(T) / 16;
  union {
    uint4 v[kVectors];
    T s[N];
  };
  __device__ void load(const T* src, long long g) {
#pragma unroll
    for (int k = 0; k < kVectors; ++k) v[k] = reinterpret_cast<const uint4*>(src)[g * kVectors + k];
  }
  __device__ void store(T* dst, long long g) const {
#pragma unroll
    for (int k = 0; k < kVectors; ++k) reinterpret_cast<uint4*>(dst)[g * kVectors + k] = v[k];
  }
};

// Two groups a thread at a time, both loads issued before either lookup:
// with one block of 1024 threads an SM (the 16-bit table), one would leave
// too few bytes in flight to reach the memory's bandwidth.
template <class T, int C, class Lookup>
__device__ __forceinline__ void look_up_groups(const T* __restrict__ src, T* __restrict__ dst, long long samples,
                                               const Lookup& lookup) {
  using G = Group<T, C>;
  const long long groups = samples / G::N;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long g = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; g < groups; g += 2 * stride) {
    const bool second = g + stride < groups;
    G in[2], out[2];
    in[0].load(src, g);
    if (second) in[1].load(src, g + stride);
#pragma unroll
    for (int k = 0; k < G::N; ++k) out[0].s[k] = lookup(k % C, in[0].s[k]);
    out[0].store(dst, g);
    if (second) {
#pragma unroll
      for (int k = 0; k < G::N; ++k) out[1].s[k] = lookup(k % C, in[1].s[k]);
      out[1].store(dst, g + stride);
    }
  }
  // The last samples, fewer than a group, one per thread of the first block.
  const long long i = groups * G::N + threadIdx.x;
  if (blockIdx.x == 0 && i < samples) dst[i] = lookup(static_cast<int>(i % C), src[i]);
}

template <int C> constexpr int kColourChannels = C == 2 || C == 4 ? C - 1 : C;

// 8-bit: each colour channel's 256-byte table as 64 words, every word
// repeated in all 32 banks, so that lane l reads its copy in bank l and a
// warp's lookups never conflict, whatever the values (a plain byte table
// made the pass 1.31 times a copy on the H100, bank conflicts the cause).
// 8 KiB a colour channel. A lookup loads its entry's byte where it lies,
// at 4 (32 (v / 4) + l) + v % 4, rather than the word and a shift: fewer
// instructions a sample took a pass at 7680x4320 RGB from 1.24 times a
// copy to 1.15 on the H100. Entry v of every channel in one word (the
// channel an immediate offset, half the instructions again) was no
// faster: the loads' queue (MIO) then held it back.
constexpr int kBanks = 32;
constexpr int kWordsPerTable = 256 / 4 * kBanks;

template <int C>
__global__ void __launch_bounds__(kLookupThreads) lookup8_kernel(const std::uint8_t* __restrict__ src,
                                                                 std::uint8_t* __restrict__ dst, long long samples,
                                                                 TableData tables) {
  extern __shared__ std::uint32_t banked[];
  __shared__ std::uint32_t packed[kColourChannels<C> * 64];  // each table's 64 words, once
  // A block reads each entry once, all in one round of loads, and copies
  // the words to the banks from shared memory. Reading an entry for each
  // copy took six rounds, one after the other, at every block's start;
  // an SM holds one block (its registers), so nothing else ran meanwhile.
  static_assert(kColourChannels<C> * 64 <= kLookupThreads && kWordsPerTable % kLookupThreads == 0, "whole rounds");
  if (const int i = threadIdx.x; i < kColourChannels<C> * 64) {
    const std::int32_t* t = tables.table(i / 64) + 4 * (i % 64);
    packed[i] = std::uint32_t(t[0]) | std::uint32_t(t[1]) << 8 | std::uint32_t(t[2]) << 16 |
                std::uint32_t(t[3]) << 24;
  }
  __syncthreads();
#pragma unroll
  for (int i = threadIdx.x; i < kColourChannels<C> * kWordsPerTable; i += kLookupThreads)
    banked[i] = packed[i / kBanks];  // word w of table c in bank b: 32 (64 c + w) + b
  __syncthreads();
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(banked) + 4 * (threadIdx.x % kBanks);
  look_up_groups<std::uint8_t, C>(src, dst, samples, [&](int c, std::uint8_t v) {
    if (is_alpha(c, C)) return v;
    return bytes[c * 4 * kWordsPerTable + ((v & 0xfc) << 5) + (v & 3)];  // 4 (32 (v / 4)) + v % 4
  });
}

// 16-bit, the colour channels sharing one table (or an image with one): 128
// KiB of shared memory.
template <int C>
__global__ void __launch_bounds__(kLookupThreads) lookup16_kernel(const std::uint16_t* __restrict__ src,
                                                                  std::uint16_t* __restrict__ dst, long long samples,
                                                                  TableData tables) {
  extern __shared__ std::uint32_t pairs[];  // entries 2i and 2i + 1, low half first
  const std::int32_t* t = tables.table(0);
  // Eight rounds of loads in flight at a time (the block has kLookupThreads
  // threads): it waits four times for its table, not 32. One round a wait
  // made the pass of one table 1.30 times a copy at 7680x4320, this 1.12.
  constexpr int kRounds = (kMax16 + 1) / 2 / kLookupThreads, kBatch = 8;
  static_assert(kRounds % kBatch == 0, "whole batches");
#pragma unroll 1
  for (int r0 = 0; r0 < kRounds; r0 += kBatch) {
    std::uint32_t pair[kBatch];
#pragma unroll
    for (int r = 0; r < kBatch; ++r) {
      const int i = threadIdx.x + (r0 + r) * kLookupThreads;
      pair[r] = std::uint32_t(t[2 * i]) | std::uint32_t(t[2 * i + 1]) << 16;
    }
#pragma unroll
    for (int r = 0; r < kBatch; ++r) pairs[threadIdx.x + (r0 + r) * kLookupThreads] = pair[r];
  }
  __syncthreads();
  const auto* table = reinterpret_cast<const std::uint16_t*>(pairs);
  look_up_groups<std::uint16_t, C>(src, dst, samples, [&](int c, std::uint16_t v) {
    return is_alpha(c, C) ? v : table[v];
  });
}

// A pass whose tables are the complement, max - v (a lone --invert): no
// tables to fill, the arithmetic, at the copy's speed (looked up, 1.19x).
template <class T, int C>
__global__ void __launch_bounds__(kLookupThreads) complement_kernel(const T* __restrict__ src, T* __restrict__ dst,
                                                                    long long samples, TableData) {
  look_up_groups<T, C>(src, dst, samples,
                       [](int c, T v) { return is_alpha(c, C) ? v : T(SampleTraits<T>::max - v); });
}

// 16-bit with a table per colour channel: too large for shared memory.
template <int C>
__global__ void __launch_bounds__(kLookupThreads) lookup_global_kernel(const std::uint16_t* __restrict__ src,
                                                                  std::uint16_t* __restrict__ dst, long long samples,
                                                                  TableData tables) {
  look_up_groups<std::uint16_t, C>(src, dst, samples, [&](int c, std::uint16_t v) {
    return is_alpha(c, C) ? v : std::uint16_t(__ldg(tables.table(c) + v));
  });
}

template <class T, int C>
__global__ void __launch_bounds__(kThreads) channel_ranges_kernel(const T* __restrict__ src, long long samples,
                                                                   unsigned* __restrict__ lo_hi) {
  using G = Group<T, C>;
  unsigned lo[C], hi[C];
#pragma unroll
  for (int c = 0; c < C; ++c) lo[c] = 0xffffffffu, hi[c] = 0;
  const long long groups = samples / G::N;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long g = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; g < groups;
       g += kRangeGroups * stride) {
    G in[kRangeGroups];
#pragma unroll
    for (int u = 0; u < kRangeGroups; ++u)
      if (g + u * stride < groups) in[u].load(src, g + u * stride);
#pragma unroll
    for (int u = 0; u < kRangeGroups; ++u)
      if (g + u * stride < groups) {
#pragma unroll
        for (int k = 0; k < G::N; ++k) {
          lo[k % C] = min(lo[k % C], unsigned(in[u].s[k]));
          hi[k % C] = max(hi[k % C], unsigned(in[u].s[k]));
        }
      }
  }
  const long long i = groups * G::N + threadIdx.x;
  if (blockIdx.x == 0 && i < samples) {
#pragma unroll
    for (int c = 0; c < C; ++c)
      if (i % C == c) lo[c] = min(lo[c], unsigned(src[i])), hi[c] = max(hi[c], unsigned(src[i]));
  }
#pragma unroll
  for (int c = 0; c < C; ++c) {
    const unsigned l = __reduce_min_sync(0xffffffffu, lo[c]), h = __reduce_max_sync(0xffffffffu, hi[c]);
    if (threadIdx.x % 32 == 0 && !is_alpha(c, C)) {
      atomicMin(lo_hi + 2 * c, l);
      atomicMax(lo_hi + 2 * c + 1, h);
    }
  }
}

// One wave of blocks of `threads`, or fewer where the groups run out.
template <class Kernel>
cudaError_t grid_for(Kernel kernel, int threads, std::size_t smem, long long groups, int& blocks) {
  int resident = 0;
  if (cudaError_t e = resident_blocks(kernel, threads, smem, resident); e != cudaSuccess) return e;
  blocks = static_cast<int>(std::clamp<long long>((groups + threads - 1) / threads, 1, resident));
  return cudaSuccess;
}

// A block takes per_thread groups a thread (all of them, in one wave, where
// 0). The complement fills no tables: a group a thread where groups are 48
// bytes (one wave of it measured 1.55 times a copy on the H100, the full
// grid 1.0), four where they are one vector, so that each thread has two
// in flight (gray 16-bit on the H200: 1.13 at one group a thread, about
// 1.05 at four). The 8-bit
// tables, 24 KiB at RGB, two groups a thread: a pass of one table over
// 7680x4320 RGB took 1.13 to 1.16 times a copy in one wave, 1.08 to 1.09
// with two groups, 1.11 to 1.13 with three, 1.09 to 1.10 with four. The
// 16-bit table, 128 KiB a block to fill, one wave (gray 16-bit: 1.15, and
// 1.45 with four groups a thread).
template <class Kernel, class T>
cudaError_t run_lookup(Kernel kernel, std::size_t smem, const CudaStage& s, long long samples, long long groups,
                       TableData tables, int per_thread) {
  if (smem > 48 * 1024)
    if (cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
        e != cudaSuccess)
      return e;
  const long long per_block = 1LL * kLookupThreads * std::max(per_thread, 1);
  int blocks = static_cast<int>(std::clamp<long long>((groups + per_block - 1) / per_block, 1, kMaxBlocks));
  if (per_thread == 0)
    if (cudaError_t e = grid_for(kernel, kLookupThreads, smem, groups, blocks); e != cudaSuccess) return e;
  kernel<<<blocks, kLookupThreads, smem, s.stream>>>(static_cast<const T*>(s.src), static_cast<T*>(s.dst), samples,
                                                     tables);
  return cudaGetLastError();
}

template <class T, int C> cudaError_t lookup(const CudaStage& s) {
  const long long samples = 1LL * s.in.width * s.in.height * C;
  const long long groups = samples / group_samples<T, C>();
  const TableData tables{s.data, s.in.bytes == 1 ? 255 : kMax16};
  if (TableData{s.host_data, tables.max}.complement()) {  // the host's copy: tables.data is the device's
    const int per_thread = group_samples<T, C>() * sizeof(T) == 16 ? 4 : 1;
    return run_lookup<decltype(&complement_kernel<T, C>), T>(complement_kernel<T, C>, 0, s, samples, groups, tables,
                                                             per_thread);
  } else if constexpr (sizeof(T) == 1) {
    const std::size_t smem = kColourChannels<C> * kWordsPerTable * sizeof(std::uint32_t);
    return run_lookup<decltype(&lookup8_kernel<C>), T>(lookup8_kernel<C>, smem, s, samples, groups, tables, 2);
  } else if (TableData{s.host_data, kMax16}.shared() || kColourChannels<C> == 1) {
    const std::size_t smem = (kMax16 + 1) * sizeof(std::uint16_t);
    return run_lookup<decltype(&lookup16_kernel<C>), T>(lookup16_kernel<C>, smem, s, samples, groups, tables, 0);
  } else {
    return run_lookup<decltype(&lookup_global_kernel<C>), T>(lookup_global_kernel<C>, 0, s, samples, groups, tables, 0);
  }
}

template <class F> cudaError_t with_type(const Shape& shape, F&& f) {
  const auto channels = [&](auto zero) -> cudaError_t {
    using T = decltype(zero);
    switch (shape.channels) {
      case 1: return f(T{}, std::integral_constant<int, 1>{});
      case 2: return f(T{}, std::integral_constant<int, 2>{});
      case 3: return f(T{}, std::integral_constant<int, 3>{});
      case 4: return f(T{}, std::integral_constant<int, 4>{});
      default: return cudaErrorInvalidValue;
    }
  };
  return shape.bytes == 1 ? channels(std::uint8_t{}) : channels(std::uint16_t{});
}

bool aligned(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

}  // namespace

cudaError_t launch_lookup(const CudaStage& s) {
  if (!aligned(s.src) || !aligned(s.dst) || s.in != s.out || !s.data || !s.host_data) return cudaErrorInvalidValue;
  return with_type(s.in, [&](auto zero, auto c) { return lookup<decltype(zero), decltype(c)::value>(s); });
}

cudaError_t launch_channel_ranges(const void* src, const Shape& shape, unsigned* lo_hi, cudaStream_t stream) {
  if (!aligned(src)) return cudaErrorInvalidValue;
  // lo starts at the largest unsigned, hi at 0: every even byte 0xff first.
  if (cudaError_t e = cudaMemsetAsync(lo_hi, 0, 8 * sizeof(unsigned), stream); e != cudaSuccess) return e;
  for (int c = 0; c < 4; ++c)
    if (cudaError_t e = cudaMemsetAsync(lo_hi + 2 * c, 0xff, sizeof(unsigned), stream); e != cudaSuccess) return e;
  return with_type(shape, [&](auto zero, auto c) -> cudaError_t {
    using T = decltype(zero);
    constexpr int C = decltype(c)::value;
    const long long samples = 1LL * shape.width * shape.height * C;
    int blocks = 0;
    if (cudaError_t e = grid_for(channel_ranges_kernel<T, C>, kThreads, 0, samples / group_samples<T, C>(), blocks);
        e != cudaSuccess)
      return e;
    channel_ranges_kernel<T, C><<<blocks, kThreads, 0, stream>>>(static_cast<const T*>(src), samples, lo_hi);
    return cudaGetLastError();
  });
}

}  // namespace gpuimg
