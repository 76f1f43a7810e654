#pragma once
// Host-side entry points of the CUDA kernels. Each enqueues its work on the
// stage's stream and returns the launch's error code; the caller turns a
// failure into a DeviceError naming the stage.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <cuda_runtime.h>

#include "registry.hpp"
#include "remap.hpp"
#include "resample.hpp"
#include "tables.hpp"

namespace gpuimg {

struct CudaStage {
  const void* src;
  void* dst;
  Shape in, out;
  void* scratch;         // at least the largest scratch_bytes() of the pipeline
  cudaStream_t stream;
  const std::uint32_t* word_table;  // word_table() of the stage's record, on the device; null where that is empty
  // The stage's data (stage_data in lib/plan.hpp): on the device, and the
  // host's copy of it, which launch paths read to size their grids; null
  // where it has none.
  const std::int32_t* data;
  const std::int32_t* host_data;
  PassTables tables;  // on the device; both null but where the stage's op takes tables (op_spec.hpp)
};

// The most blocks a grid may have along y.
constexpr int kMaxGridY = 65535;

// Whether a launch path's vector loads or stores of `bytes` may start at p.
inline bool aligned_to(const void* p, std::size_t bytes) { return reinterpret_cast<std::uintptr_t>(p) % bytes == 0; }

// Blocks of `threads` for a grid-stride loop over `items`: one item a
// thread, up to 2^20 blocks, past which the threads loop.
inline int grid_stride_blocks(long long items, int threads) {
  return static_cast<int>(std::clamp<long long>((items + threads - 1) / threads, 1, 1 << 20));
}

// The current device's SMs.
inline cudaError_t current_sms(int& sms) {
  int device = 0;
  if (cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) return e;
  return cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
}

// How many blocks of `kernel`, with `threads` threads and `smem` bytes of
// dynamic shared memory each, the current device holds at once over all its
// SMs (at least one an SM): what a launch path sizes its grid by.
template <class Kernel> cudaError_t resident_blocks(Kernel kernel, int threads, std::size_t smem, int& blocks) {
  int sms = 0, per_sm = 0;
  if (cudaError_t e = current_sms(sms); e != cudaSuccess) return e;
  if (cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem); e != cudaSuccess)
    return e;
  blocks = sms * std::max(per_sm, 1);
  return cudaSuccess;
}

// The band length that splits `height` rows into at most `bands` bands (at
// least one), but no shorter than `shortest` or 16 rows: how a launch path
// makes one wave of bands, each long enough that its start pays off.
inline int one_wave_band_len(int height, int bands, int shortest) {
  bands = std::max(bands, 1);
  return std::max({(height + bands - 1) / bands, shortest, 16});
}

// Calls f(std::integral_constant<int, C>{}) for the stage's channel count C,
// 1 to 4, so that a launch path can make C a template parameter.
template <class F> cudaError_t with_channels(const CudaStage& s, F&& f) {
  switch (s.in.channels) {
    case 1: return f(std::integral_constant<int, 1>{});
    case 2: return f(std::integral_constant<int, 2>{});
    case 3: return f(std::integral_constant<int, 3>{});
    case 4: return f(std::integral_constant<int, 4>{});
    default: return cudaErrorInvalidValue;
  }
}

// The skeletons, one per kind of op (Kind in op_spec.hpp). Each runs stage
// `stage` of the records at `device_ops`, whose host copy is `rec`.
// Stencil ops take the shared-memory tile (stencil.cu), or the word rows
// (stencil_words.cu) where fits_word_rows says so; point ops the vector
// groups of point.cu; remaps the tiles of remap.cu; resamples the passes of
// resample.cu, through the tables in the stage's data.
cudaError_t launch_point(const CudaStage& s, const OpRecord* device_ops, int stage);
cudaError_t launch_stencil(const CudaStage& s, const OpRecord& rec, const OpRecord* device_ops, int stage);
bool fits_word_rows(const CudaStage& s, const OpRecord& rec);
cudaError_t launch_word_rows(const CudaStage& s, const OpRecord& rec, const OpRecord* device_ops, int stage);
// s.src and s.dst aligned to the pixel's size, as cudaMalloc's buffers
// are: remap.cu moves 2-, 4- and 8-byte pixels as words.
cudaError_t launch_remap(const CudaStage& s, const AxisMap& map);
cudaError_t launch_resample(const CudaStage& s);
// A pass of table stages, through the tables in the stage's data
// (tables.hpp); its record is the pass's first.
cudaError_t launch_lookup(const CudaStage& s);
// Each channel's smallest and largest sample of the image at `src`, into
// lo_hi (8 unsigned: lo and hi of channel 0, then 1, ...; alpha's left as
// they start): what a pass that reads its input's range waits for.
cudaError_t launch_channel_ranges(const void* src, const Shape& shape, unsigned* lo_hi, cudaStream_t stream);

// cudaSuccess when this binary holds code the current device can run.
cudaError_t check_kernel_image();

// Launches the stage `rec`, which is record `stage` of `device_ops`, by its
// op's kind: a skeleton, or the op's own launch path. Tables go only to a
// stage whose op says it takes them for these parameters and this input
// (TakesTables): a path that would drop them, or read a 16-bit sample's
// entry from 8-bit tables, is refused rather than run.
inline cudaError_t launch_stage(const OpRecord& rec, int stage, const CudaStage& s, const OpRecord* device_ops) {
  cudaError_t result = cudaErrorInvalidValue;
  visit_op(rec.id, [&](auto tag) {
    using Op = typename decltype(tag)::type;
    if constexpr (TakesTables<Op>::value) {
      if (s.tables.any() && !Op::takes_tables(rec.get<Op>(), s.in)) return;
    } else if (s.tables.any()) {
      return;
    }
    if constexpr (Op::kind == Kind::point)
      result = launch_point(s, device_ops, stage);
    else if constexpr (Op::kind == Kind::stencil)
      result = launch_stencil(s, rec, device_ops, stage);
    else if constexpr (Op::kind == Kind::remap)
      result = launch_remap(s, Op::map(rec.get<Op>(), rec.in));
    else if constexpr (Op::kind == Kind::resample)
      result = launch_resample(s);
    else if constexpr (Op::kind == Kind::table)
      result = launch_lookup(s);
    else
      result = static_cast<cudaError_t>(Op::launch(s, rec.get<Op>()));
  });
  return result;
}

// The entries of the table the word rows kernel reads for record `rec`
// (see ByteWords in op_spec.hpp): 0 where it reads none.
inline int word_table_size(const OpRecord& rec) {
  int size = 0;
  visit_op(rec.id, [&](auto tag) {
    using Op = typename decltype(tag)::type;
    if constexpr (has_word_table<Op>)
      if (Op::uses_word_table(rec.get<Op>())) size = Op::word_table_size;
  });
  return size;
}

// That table: host work, done once per pipeline.
inline std::vector<std::uint32_t> word_table(const OpRecord& rec) {
  std::vector<std::uint32_t> table(word_table_size(rec));
  visit_op(rec.id, [&](auto tag) {
    using Op = typename decltype(tag)::type;
    if constexpr (has_word_table<Op>)
      for (std::size_t i = 0; i < table.size(); ++i)
        table[i] = Op::word_table_entry(rec.get<Op>(), static_cast<int>(i));
  });
  return table;
}

// The scratch the custom ops of a planned pipeline need at once.
template <class Records> std::size_t scratch_bytes(const Records& planned) {
  std::size_t most = 0;
  for (const OpRecord& rec : planned)
    visit_op(rec.id, [&](auto tag) {
      using Op = typename decltype(tag)::type;
      if constexpr (Op::kind == Kind::custom) most = std::max(most, Op::scratch_bytes(rec.get<Op>(), rec.in));
      if constexpr (Op::kind == Kind::resample) most = std::max(most, resample_scratch_bytes(rec.in, rec.out));
    });
  return most;
}

}  // namespace gpuimg
