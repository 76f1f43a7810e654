// The table skeleton: a pass of table stages (lib/table_pass.hpp) looks
// every colour sample up in its composed tables, in one read and one write
// of the image. As in point.cu, a thread moves a group of whole 16-byte
// vectors (16 bytes, or 48 where a pixel is 3 or 6 bytes), so that each
// sample's channel is known at compile time.
//
// The tables sit in shared memory: at 8 bits the colour channels' entries
// side by side, laid out so that a warp's lookups never conflict, and the
// image streamed through shared memory beside them by the copy engine
// (lookup8_stream_kernel) where the device has one; at 16 bits one 128 KiB
// table where the colour channels share it (every pass without
// --normalize, and gray's with it), and the global int32 tables, through
// the read-only cache, where each channel has its own or the device has
// too little shared memory. table_paths.hpp names the paths.
//
// A pass that reads its input's range first runs channel_ranges_kernel:
// each thread's smallest and largest sample per channel (kRangeGroups
// groups in flight at a time), then the warp's (__reduce_min_sync), then
// one atomic per warp.
#include <algorithm>
#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

#include "bulk_copy.cuh"
#include "cuda_launch.hpp"
#include "table_paths.hpp"
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
// At 16 bits only one lookup block (128 KiB of table) fits an SM: it takes
// as many threads as a block may have, half the SM's.
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
// `ready()` runs once before the first lookup, after the first loads.
template <class T, int C, class Lookup, class Ready>
__device__ __forceinline__ void look_up_groups(const T* __restrict__ src, T* __restrict__ dst, long long samples,
                                               const Lookup& lookup, const Ready& ready) {
  using G = Group<T, C>;
  const long long groups = samples / G::N;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  bool waiting = true;
  for (long long g = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; g < groups; g += 2 * stride) {
    const bool second = g + stride < groups;
    G in[2], out[2];
    in[0].load(src, g);
    if (second) in[1].load(src, g + stride);
    if (waiting) ready(), waiting = false;
#pragma unroll
    for (int k = 0; k < G::N; ++k) out[0].s[k] = lookup(k % C, in[0].s[k]);
    out[0].store(dst, g);
    if (second) {
#pragma unroll
      for (int k = 0; k < G::N; ++k) out[1].s[k] = lookup(k % C, in[1].s[k]);
      out[1].store(dst, g + stride);
    }
  }
  if (waiting) ready();
  // The last samples, fewer than a group, one per thread of the first block.
  const long long i = groups * G::N + threadIdx.x;
  if (blockIdx.x == 0 && i < samples) dst[i] = lookup(static_cast<int>(i % C), src[i]);
}

template <class T, int C, class Lookup>
__device__ __forceinline__ void look_up_groups(const T* __restrict__ src, T* __restrict__ dst, long long samples,
                                               const Lookup& lookup) {
  look_up_groups<T, C>(src, dst, samples, lookup, [] {});
}

template <int C> constexpr int kColourChannels = C == 2 || C == 4 ? C - 1 : C;

// The 8-bit tables: entry v of every colour channel in one word (channel c
// its byte c), that word repeated in all 32 banks, 32 KiB: lane l reads
// its copy in bank l, at 4 (32 v + l) + c, so that a warp's lookups never
// conflict whatever the values (a plain byte table made the pass 1.31
// times a copy on the H100, bank conflicts the cause), and a lookup is a
// shift, a mask and a byte load, the channel an immediate offset.
constexpr int kBanks = 32;
constexpr int kTableWords8 = 256 * kBanks;
constexpr std::size_t kTableBytes8 = kTableWords8 * sizeof(std::uint32_t);

// Fills `banked` (kTableWords8) through `packed` (256 words); every thread
// of the block calls it, then synchronises before any lookup.
template <int C>
__device__ __forceinline__ void fill_tables8(const TableData& tables, std::uint32_t* banked, std::uint32_t* packed) {
  for (int v = threadIdx.x; v < 256; v += blockDim.x) {
    std::uint32_t word = 0;
#pragma unroll
    for (int c = 0; c < kColourChannels<C>; ++c) word |= std::uint32_t(tables.table(c)[v]) << (8 * c);
    packed[v] = word;
  }
  __syncthreads();
  for (int i = threadIdx.x; i < kTableWords8; i += blockDim.x) banked[i] = packed[i / kBanks];
}

// 48 bytes, whole pixels at every channel count, so that each byte's
// channel is known at compile time.
constexpr int kGroupBytes = 48;

union ByteGroup {
  uint4 v[kGroupBytes / 16];
  std::uint32_t words[kGroupBytes / 4];
};

// Word k of a group through the tables, `lane` this thread's 4 l: byte j
// is channel (4 k + j) % C. Alpha, at odd bytes only, is kept.
template <int C>
__device__ __forceinline__ std::uint32_t look_up_word(std::uint32_t w, int k, const unsigned char* table,
                                                      std::uint32_t lane) {
  static_assert(C >= 1 && C <= 4, "alpha, where there is one, is the last of 2 or 4: an odd byte");
  std::uint32_t b[4];
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    const std::uint32_t at = (j == 0 ? w << 7 : w >> (8 * j - 7)) & 0x7f80u;  // 128 v
    b[j] = table[(at | lane) + (4 * k + j) % C];
  }
  // Bytes 2p and 2p + 1 side by side, then the two halves.
  std::uint32_t half[2];
#pragma unroll
  for (int p = 0; p < 2; ++p) {
    const bool alpha = is_alpha((4 * k + 2 * p + 1) % C, C);
    half[p] = __byte_perm(b[2 * p], alpha ? w : b[2 * p + 1], alpha ? (4 + 2 * p + 1) << 4 : 0x40);
  }
  return __byte_perm(half[0], half[1], 0x5410);
}

template <int C>
__device__ __forceinline__ void look_up_group(ByteGroup& g, const unsigned char* table, std::uint32_t lane) {
#pragma unroll
  for (int k = 0; k < kGroupBytes / 4; ++k) g.words[k] = look_up_word<C>(g.words[k], k, table, lane);
}

// The streamed lookup (sm_90 and later): the image in chunks of
// kChunkBytes, each block taking every gridDim.x-th, as many blocks as the
// SMs hold. The copy engine brings each chunk into a ring of kStages8
// buffers in shared memory and takes it back out (bulk_copy.cuh);
// kStreamThreads threads look its samples up in place, a group each, and
// one more warp moves the chunks, so that no thread that looks up waits on
// a copy but for its chunk's arrival. A pass of one table over 7680x4320
// RGB on the H200 (scripts/ab_gpu.sh, three runs, a copy 0.053-0.055 ms):
// each thread loading, looking up and storing its own groups, 0.063-0.065
// ms, the loads waiting while the lookups ran; streamed, the block
// synchronising on every chunk, 0.059-0.062; with the warp that moves
// them, 0.058-0.061; the stream alone, nothing looked up, 0.057-0.058. At
// 16 bits the stream was slower (0.057 against 0.045 ms at gray), its 128
// KiB table filled from the int32 entries by 288 threads: measured before
// the table had 16-bit entries to bring in by one bulk copy (lookup16).
constexpr int kStreamThreads = 256;
constexpr int kStreamBlock = kStreamThreads + 32;  // and the warp that moves the chunks
constexpr int kChunkBytes = kStreamThreads * kGroupBytes;
constexpr int kStages8 = 12;
constexpr std::size_t kStreamSmem8 = kTableBytes8 + std::size_t{kStages8} * kChunkBytes;
static_assert(kChunkBytes % 16 == 0 && kTableBytes8 % 16 == 0, "bulk copies move multiples of 16 bytes");

template <int C>
__global__ void __launch_bounds__(kStreamBlock) lookup8_stream_kernel(const std::uint8_t* __restrict__ src,
                                                                      std::uint8_t* __restrict__ dst,
                                                                      long long samples, TableData tables) {
  extern __shared__ __align__(16) std::uint32_t banked[];  // then the ring
  __shared__ std::uint32_t packed[256];
  __shared__ std::uint64_t landed[kStages8], looked_up[kStages8];
  unsigned char* ring = reinterpret_cast<unsigned char*>(banked + kTableWords8);
  const long long chunks = samples / kChunkBytes;
  const long long mine = blockIdx.x < chunks ? (chunks - blockIdx.x + gridDim.x - 1) / gridDim.x : 0;
  const auto offset = [&](long long i) { return (blockIdx.x + i * gridDim.x) * static_cast<long long>(kChunkBytes); };
  const auto buffer = [&](long long i) { return ring + (i % kStages8) * kChunkBytes; };
  const auto parity = [](long long i) { return static_cast<unsigned>(i / kStages8) & 1; };
  const bool mover = threadIdx.x == kStreamThreads;
  // The first chunks are on their way while the tables fill.
  if (mover) {
#pragma unroll
    for (int s = 0; s < kStages8; ++s) {
      bulk::init_barrier(&landed[s], 1);
      bulk::init_barrier(&looked_up[s], kStreamThreads);
    }
    bulk::fence_barrier_init();
    for (int i = 0; i < kStages8 && i < mine; ++i) bulk::load(buffer(i), src + offset(i), kChunkBytes, &landed[i]);
  }
  fill_tables8<C>(tables, banked, packed);
  __syncthreads();
  if (threadIdx.x >= kStreamThreads) {
    if (mover) {
      // Chunk i goes out once looked up; then the buffer of the one before
      // it takes the chunk kStages8 after that, once its store has read it.
      for (long long i = 0; i < mine; ++i) {
        bulk::wait(&looked_up[i % kStages8], parity(i));
        bulk::store(dst + offset(i), buffer(i), kChunkBytes);
        if (i >= 1 && i - 1 + kStages8 < mine) {
          bulk::store_read_wait<1>();
          bulk::load(buffer(i - 1), src + offset(i - 1 + kStages8), kChunkBytes, &landed[(i - 1) % kStages8]);
        }
      }
      bulk::store_wait_all();
    }
    return;
  }
  const auto* table = reinterpret_cast<const unsigned char*>(banked);
  const std::uint32_t lane = 4 * (threadIdx.x % kBanks);
  // The samples after the last whole chunk, one a thread of the grid (the
  // launch gives it enough), while the first chunks land: one a thread of
  // one block after its ring took up to 48 loads one after another, and
  // the pass at 1920x1080 RGB (3,072 of them) 0.0159 ms against 0.0138.
  for (long long k = chunks * kChunkBytes + blockIdx.x * kStreamThreads + threadIdx.x; k < samples;
       k += static_cast<long long>(gridDim.x) * kStreamThreads) {
    const int c = static_cast<int>(k % C);
    dst[k] = is_alpha(c, C) ? src[k] : table[128 * src[k] + lane + c];
  }
  for (long long i = 0; i < mine; ++i) {
    bulk::wait(&landed[i % kStages8], parity(i));
    auto* at = reinterpret_cast<uint4*>(buffer(i)) + kGroupBytes / 16 * threadIdx.x;
    ByteGroup g;
#pragma unroll
    for (int k = 0; k < kGroupBytes / 16; ++k) g.v[k] = at[k];
    look_up_group<C>(g, table, lane);
#pragma unroll
    for (int k = 0; k < kGroupBytes / 16; ++k) at[k] = g.v[k];
    bulk::fence_shared_writes();
    bulk::arrive(&looked_up[i % kStages8]);
  }
}

// Where the device has no bulk copies or no room for the ring: the same
// tables, each thread looking up groups it loads and stores itself, one
// wave of blocks.
template <int C>
__global__ void __launch_bounds__(kStreamThreads) lookup8_grid_kernel(const std::uint8_t* __restrict__ src,
                                                                      std::uint8_t* __restrict__ dst,
                                                                      long long samples, TableData tables) {
  extern __shared__ __align__(16) std::uint32_t banked[];
  __shared__ std::uint32_t packed[256];
  fill_tables8<C>(tables, banked, packed);
  __syncthreads();
  const auto* table = reinterpret_cast<const unsigned char*>(banked);
  const std::uint32_t lane = 4 * (threadIdx.x % kBanks);
  const long long groups = samples / kGroupBytes;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long g = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; g < groups; g += stride) {
    ByteGroup group;
    const auto* in = reinterpret_cast<const uint4*>(src) + kGroupBytes / 16 * g;
#pragma unroll
    for (int k = 0; k < kGroupBytes / 16; ++k) group.v[k] = in[k];
    look_up_group<C>(group, table, lane);
    auto* out = reinterpret_cast<uint4*>(dst) + kGroupBytes / 16 * g;
#pragma unroll
    for (int k = 0; k < kGroupBytes / 16; ++k) out[k] = group.v[k];
  }
  // The last samples, fewer than a group, one a thread of the first block.
  if (const long long k = groups * kGroupBytes + threadIdx.x; blockIdx.x == 0 && k < samples) {
    const int c = static_cast<int>(k % C);
    dst[k] = is_alpha(c, C) ? src[k] : table[128 * src[k] + lane + c];
  }
}

// 16-bit, the colour channels sharing one table (or an image with one): 128
// KiB of shared memory, from the data's 16-bit entries (packed16). Where
// the device has bulk copies, one brings the whole table in while each
// thread's first loads of the image are on their way, and the threads wait
// for it only before their first lookup; elsewhere the block copies it
// first, eight 16-byte vectors a thread, all in flight at once. At
// 7680x4320 gray on the H200 (scripts/ab_gpu.sh, three runs, copy
// 0.037-0.040 ms) one table took 0.044-0.046 ms filled from the int32
// entries, a pair a thread at a time, 0.045-0.047 copied from the 16-bit
// ones, 0.041-0.043 by the bulk copy; at 1920x1080, 0.014, 0.011-0.013
// and 0.010.
constexpr int kTable16Bytes = kPacked16Words * sizeof(std::uint32_t);

template <int C, bool Bulk>
__global__ void __launch_bounds__(kLookupThreads) lookup16_kernel(const std::uint16_t* __restrict__ src,
                                                                  std::uint16_t* __restrict__ dst, long long samples,
                                                                  TableData tables) {
  extern __shared__ uint4 table16[];
  __shared__ std::uint64_t landed;
  const auto* packed = static_cast<const uint4*>(tables.packed16());
  if constexpr (Bulk) {
    if (threadIdx.x == 0) {
      bulk::init_barrier(&landed, 1);
      bulk::fence_barrier_init();
      bulk::load(table16, packed, kTable16Bytes, &landed);
    }
  } else {
    constexpr int kVectors = kTable16Bytes / 16 / kLookupThreads;
    uint4 v[kVectors];
#pragma unroll
    for (int r = 0; r < kVectors; ++r) v[r] = packed[threadIdx.x + r * kLookupThreads];
#pragma unroll
    for (int r = 0; r < kVectors; ++r) table16[threadIdx.x + r * kLookupThreads] = v[r];
  }
  __syncthreads();
  const auto* table = reinterpret_cast<const std::uint16_t*>(table16);
  look_up_groups<std::uint16_t, C>(
      src, dst, samples, [&](int c, std::uint16_t v) { return is_alpha(c, C) ? v : table[v]; },
      [&] {
        if constexpr (Bulk) bulk::wait(&landed, 0);
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
// 1.05 at four). The 16-bit table, 128 KiB a block to fill, one wave (gray
// 16-bit: 1.15, and 1.45 with four groups a thread).
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

// As many blocks as the SMs hold at once (one an SM), or one a chunk, but
// enough for the samples after the last whole chunk to take one a thread.
template <int C> cudaError_t stream8(const CudaStage& s, long long samples, TableData tables) {
  const auto kernel = lookup8_stream_kernel<C>;
  if (cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kStreamSmem8));
      e != cudaSuccess)
    return e;
  int resident = 0;
  if (cudaError_t e = resident_blocks(kernel, kStreamBlock, kStreamSmem8, resident); e != cudaSuccess) return e;
  const long long chunks = samples / kChunkBytes, tail = samples % kChunkBytes;
  const long long wanted = std::max(chunks, (tail + kStreamThreads - 1) / kStreamThreads);
  const int blocks = static_cast<int>(std::clamp<long long>(wanted, 1, resident));
  kernel<<<blocks, kStreamBlock, kStreamSmem8, s.stream>>>(static_cast<const std::uint8_t*>(s.src),
                                                           static_cast<std::uint8_t*>(s.dst), samples, tables);
  return cudaGetLastError();
}

template <int C> cudaError_t grid8(const CudaStage& s, long long samples, TableData tables) {
  int blocks = 0;
  if (cudaError_t e = grid_for(lookup8_grid_kernel<C>, kStreamThreads, kTableBytes8, samples / kGroupBytes, blocks);
      e != cudaSuccess)
    return e;
  lookup8_grid_kernel<C><<<blocks, kStreamThreads, kTableBytes8, s.stream>>>(
      static_cast<const std::uint8_t*>(s.src), static_cast<std::uint8_t*>(s.dst), samples, tables);
  return cudaGetLastError();
}

template <class T, int C> cudaError_t lookup(const CudaStage& s, TablePath path) {
  const long long samples = 1LL * s.in.width * s.in.height * C;
  const long long groups = samples / group_samples<T, C>();
  const TableData tables{s.data, s.in.bytes == 1 ? 255 : kMax16};
  if constexpr (sizeof(T) == 1) {
    if (path == TablePath::stream8) return stream8<C>(s, samples, tables);
    if (path == TablePath::grid8) return grid8<C>(s, samples, tables);
  } else {
    if (path == TablePath::bulk16)
      return run_lookup<decltype(&lookup16_kernel<C, true>), T>(lookup16_kernel<C, true>, kTable16Bytes, s, samples,
                                                                groups, tables, 0);
    if (path == TablePath::copied16)
      return run_lookup<decltype(&lookup16_kernel<C, false>), T>(lookup16_kernel<C, false>, kTable16Bytes, s,
                                                                 samples, groups, tables, 0);
    if (path == TablePath::global16)
      return run_lookup<decltype(&lookup_global_kernel<C>), T>(lookup_global_kernel<C>, 0, s, samples, groups, tables,
                                                               0);
  }
  return cudaErrorNotSupported;
}

// A lone --invert: the arithmetic, no tables.
template <class T, int C> cudaError_t complement(const CudaStage& s) {
  const long long samples = 1LL * s.in.width * s.in.height * C;
  const int per_thread = group_samples<T, C>() * sizeof(T) == 16 ? 4 : 1;
  const TableData tables{s.data, SampleTraits<T>::max};
  return run_lookup<decltype(&complement_kernel<T, C>), T>(complement_kernel<T, C>, 0, s, samples,
                                                           samples / group_samples<T, C>(), tables, per_thread);
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

cudaError_t table_device(TableDevice& d) {
  int device = 0;
  if (cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) return e;
  // Asked once a device, not at every pass's launch; lanes on several
  // threads share the answers.
  static std::mutex lock;
  static std::vector<std::optional<TableDevice>> asked;
  {
    const std::lock_guard<std::mutex> hold(lock);
    if (static_cast<std::size_t>(device) < asked.size() && asked[device]) {
      d = *asked[device];
      return cudaSuccess;
    }
  }
  TableDevice found{};
  cudaFuncAttributes bulk{};
  if (cudaError_t e = cudaDeviceGetAttribute(&found.major, cudaDevAttrComputeCapabilityMajor, device);
      e != cudaSuccess)
    return e;
  if (cudaError_t e = cudaDeviceGetAttribute(&found.room, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
      e != cudaSuccess)
    return e;
  if (cudaError_t e = cudaFuncGetAttributes(&bulk, lookup16_kernel<1, true>); e != cudaSuccess) return e;
  found.ptx_version = bulk.ptxVersion;
  const std::lock_guard<std::mutex> hold(lock);
  if (asked.size() <= static_cast<std::size_t>(device)) asked.resize(device + 1);
  asked[device] = d = found;
  return cudaSuccess;
}

bool table_path_runs(TablePath path, const TableDevice& d) {
  // Beside each kernel's dynamic shared memory, its static arrays: the
  // 8-bit entries before they are spread over the banks, and the barriers
  // (16 bytes a barrier as ptxas places one alone).
  constexpr int kStatic8 = 256 * sizeof(std::uint32_t), kBarrier = 16;
  const bool bulk = d.major >= 9 && d.ptx_version >= 90;
  switch (path) {
    case TablePath::stream8: return bulk && d.room >= int(kStreamSmem8) + kStatic8 + 2 * kStages8 * kBarrier;
    case TablePath::grid8: return d.room >= int(kTableBytes8) + kStatic8;
    case TablePath::bulk16: return bulk && d.room >= kTable16Bytes + kBarrier;
    case TablePath::copied16: return d.room >= kTable16Bytes + kBarrier;
    case TablePath::global16: return true;
  }
  return false;
}

namespace {

// Whether the stage's tables suit the path: its depth, and for a 16-bit
// table in shared memory, the 16-bit entries, on a 16-byte boundary.
bool suits(const CudaStage& s, TablePath path) {
  const TableData host{s.host_data, s.in.bytes == 1 ? 255 : kMax16};  // the host's copy: s.data is the device's
  switch (path) {
    case TablePath::stream8:
    case TablePath::grid8: return s.in.bytes == 1;
    case TablePath::bulk16:
    case TablePath::copied16:
      return s.in.bytes == 2 && host.has_packed16() && aligned(TableData{s.data, kMax16}.packed16());
    case TablePath::global16: return s.in.bytes == 2;
  }
  return false;
}

bool valid(const CudaStage& s) { return aligned(s.src) && aligned(s.dst) && s.in == s.out && s.data && s.host_data; }

cudaError_t launch(const CudaStage& s, TablePath path) {
  return with_type(s.in, [&](auto zero, auto c) { return lookup<decltype(zero), decltype(c)::value>(s, path); });
}

}  // namespace

cudaError_t launch_lookup_path(const CudaStage& s, TablePath path) {
  TableDevice d{};
  if (!valid(s)) return cudaErrorInvalidValue;
  if (cudaError_t e = table_device(d); e != cudaSuccess) return e;
  return table_path_runs(path, d) && suits(s, path) ? launch(s, path) : cudaErrorNotSupported;
}

cudaError_t launch_lookup(const CudaStage& s) {
  if (!valid(s)) return cudaErrorInvalidValue;
  if (TableData{s.host_data, s.in.bytes == 1 ? 255 : kMax16}.complement())
    return with_type(s.in, [&](auto zero, auto c) { return complement<decltype(zero), decltype(c)::value>(s); });
  TableDevice d{};
  if (cudaError_t e = table_device(d); e != cudaSuccess) return e;
  // The first path, fastest first, that suits the stage and the device runs.
  for (TablePath path :
       {TablePath::stream8, TablePath::grid8, TablePath::bulk16, TablePath::copied16, TablePath::global16})
    if (suits(s, path) && table_path_runs(path, d)) return launch(s, path);
  return cudaErrorNotSupported;
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
