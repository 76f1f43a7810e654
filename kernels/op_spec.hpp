#pragma once
// What every op header declares about itself. The registry, the CLI, the
// validation, both backends and the test matrix read these declarations.
#include <cstddef>
#include <climits>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace gpuimg {

// Each op header declares: name, summary, example, kind, a trivially
// copyable Params, `params` (one ParamSpec per value on the command line),
// make() from those values and values() back; stencil ops add halo() and
// the per-pixel apply(); custom ops add scratch_bytes() and their launch paths.
//
// ByteTable (optional, stencil ops): an op whose 8-bit result is cheaper
// to look up than to compute declares table_size, table_entry(params, i)
// returning an int32, and apply<MayMiss>(view, x, y, params, table, out)
// for 8-bit samples. An entry may be kUntabulated: apply() then computes
// that sample in full, and MayMiss says whether any entry is, so that tables
// without one cost no check per sample. The CPU backend fills the table once
// per stage and uses it for 8-bit images; the tests check it against the
// plain apply() exhaustively. The GPU's shared-memory tile computes instead:
// with the table in shared memory it was slower there (sharpen at 7680x4320
// RGB: 0.31 to 0.35 ms against 0.21, from bank conflicts on the table and
// the registers it took); its word rows have a table of their own (below).
//
// ByteWords (optional, stencil ops, the GPU's 8-bit path): an op that can
// work on four 8-bit samples at once for some parameters declares
// packs_bytes(params) and apply_bytes(words, params, table), which returns
// the results of four consecutive samples of a row packed in a word,
// reading words.word(dx, dy): the four samples dx pixels right and dy rows
// down. Where uses_word_table(params) holds, apply_bytes also reads
// `table`, word_table_size entries of word_table_entry(params, i): filled
// on the host once per pipeline (word_table() in cuda_launch.hpp), copied
// into shared memory by each block; elsewhere `table` may be null. The GPU
// runs it for 8-bit images whose rows are whole words, for ops of halo 1
// (dispatch_words.cu); the GPU tests hold it to the CPU backend's bytes,
// and an op's own tests to its apply().
enum class ParamType { integer, real };

struct ParamSpec {
  const char* name;  // shown in --help: --blur R
  ParamType type;
  double min, max;   // inclusive
  const char* meaning;
};

// Every op also declares cpu_cost(params): what one stage costs the CPU
// backend, in nanoseconds per sample (width x height x channels) on one
// thread, the slowest of 1, 3 and 4 channels, scratch buffer and copy-back
// included, as scripts/bench_cpu_cost.sh measures it. --device auto adds
// these up to tell whether one image's pipeline is worth CUDA's start-up
// (lib/device_choice.hpp).
struct CpuCost {
  double ns_per_sample_8bit;
  double ns_per_sample_16bit;
};

// How a stage runs. Stencil ops are one case of the dispatch kernel (tile
// plus halo in shared memory); ops whose shape does not fit a tile (a
// separable filter of any radius, a resize) bring their own launch path.
enum class Kind { stencil, custom };

// The largest halo a stencil op may declare. The dispatch kernel holds each
// thread's (4 + 2H) x (2 + 2H) pixel window in registers and is instantiated
// for every halo up to this; an op that needs more raises it (and pays in
// registers and compile time).
constexpr int kMaxStencilHalo = 1;

template <class Op, class = void> struct HasByteTable : std::false_type {};
template <class Op>
struct HasByteTable<Op, std::void_t<decltype(Op::table_size)>> : std::true_type {};
template <class Op> constexpr bool has_byte_table = HasByteTable<Op>::value;

constexpr std::int32_t kUntabulated = INT32_MIN;

template <class Op, class = void> struct HasByteWords : std::false_type {};
template <class Op>
struct HasByteWords<Op, std::void_t<decltype(Op::packs_bytes(std::declval<const typename Op::Params&>()))>>
    : std::true_type {};
template <class Op> constexpr bool has_byte_words = HasByteWords<Op>::value;

template <class Op, class = void> struct HasWordTable : std::false_type {};
template <class Op> struct HasWordTable<Op, std::void_t<decltype(Op::word_table_size)>> : std::true_type {};
template <class Op> constexpr bool has_word_table = HasWordTable<Op>::value;

}  // namespace gpuimg
