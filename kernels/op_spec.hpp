#pragma once
// What every op header declares about itself. The registry, the CLI, the
// validation, both backends and the test matrix read these declarations.
#include <cstddef>
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "param_values.hpp"
#include "shape.hpp"

namespace gpuimg {

// Each op header declares: name, summary, example, kind, a trivially
// copyable Params, `params` (one ParamSpec per value on the command line,
// param_values.hpp), make() from those values and values() back, and
// optionally plan() (below). Then, by kind: point and stencil ops the
// per-pixel apply() (stencil ops also halo()); remap ops map() (remap.hpp);
// resample ops resample_plan() (resample_plan.hpp); custom ops run_cpu(),
// launch() and scratch_bytes(), and optionally stage_data() (below); table
// ops map(params, v, context) (tables.hpp).
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
// (stencil_words.cu); the GPU tests hold it to the CPU backend's bytes,
// and an op's own tests to its apply().
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

// How a stage runs: which kernel skeleton (and which CPU loop) takes it.
// Each skeleton's dispatch switches over the ops of its own kind only.
enum class Kind {
  point,     // reads only its own pixel, may change the channel count: apply(view, x, y, p, out)
  stencil,   // reads a neighbourhood of Op::halo pixels: apply() on the shared-memory tile
  remap,     // copies pixels by an integer axis map (remap.hpp): crop, flips, rotations
  resample,  // separable weighted sums through per-axis tables (resample.hpp): resize
  custom,    // brings its own paths: run_cpu() and launch(), declared in the op's header
  table,     // maps each colour sample by its value alone: map(), fused into one lookup (tables.hpp)
};

// An op may declare plan(Params& p, const Shape& in), returning its output
// shape and resolving p for that input (a centred crop's offsets, say);
// without one, a stage keeps its input's shape. A plan that cannot be made
// for this input (a crop outside the image) throws PlanError: the planner
// (lib/plan.hpp) names the stage and the file.
struct PlanError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What a stage runs on, in host memory (the CPU backend): its input and
// output buffers, which do not overlap, and their shapes. threads: at most
// this many at once (0: one per hardware thread).
struct CpuStage {
  const void* src;
  void* dst;
  Shape in, out;
  int threads;
  const std::int32_t* data;  // the stage's data (stage_data in plan.hpp); null where it has none
};

// The same on the GPU (kernels/cuda_launch.hpp), for ops' own launch paths.
struct CudaStage;

// An op whose stage holds more than its input and output at once (a
// resize's pass between its two, its tables) declares
// working_pixels(p, in, out): that much more, in pixels, or in entries of
// its tables, whichever is more. The planner holds it to --max-pixels too.
template <class Op, class = void> struct HasWorkingPixels : std::false_type {};
template <class Op>
struct HasWorkingPixels<Op, std::void_t<decltype(Op::working_pixels(std::declval<const typename Op::Params&>(),
                                                                    std::declval<const Shape&>(),
                                                                    std::declval<const Shape&>()))>>
    : std::true_type {};

// An op whose values must agree with each other (levels: B < W) declares
// check(const Params&), returning null or what is wrong ("B must be below
// W"), or a std::string, empty or what is wrong, where the message holds
// the values; the parser prefixes the flag.
template <class Op, class = void> struct HasCheck : std::false_type {};
template <class Op>
struct HasCheck<Op, std::void_t<decltype(Op::check(std::declval<const typename Op::Params&>()))>> : std::true_type {};

// An op that needs data beside its record on both backends (a
// convolution's weights, a Gaussian's) declares stage_data(const Params&,
// const Shape& in), returning it as int32 words: built on the host once per
// plan (stage_data in lib/plan.hpp), read through CpuStage::data and
// CudaStage::data.
template <class Op, class = void> struct HasStageData : std::false_type {};
template <class Op>
struct HasStageData<Op, std::void_t<decltype(Op::stage_data(std::declval<const typename Op::Params&>(),
                                                             std::declval<const Shape&>()))>> : std::true_type {};

// An op whose GPU paths can apply lookup tables to the samples they load
// and store declares takes_tables(const Params&, const Shape& in): whether
// its path for these parameters and this input does. On the GPU the planner
// then runs the runs of table stages just before and after such a stage in
// its pass (lib/table_pass.hpp), unless a run reads its input's range, and
// CudaStage::tables holds their tables (PassTables in tables.hpp), so the
// image is read and written once for all of them.
template <class Op, class = void> struct TakesTables : std::false_type {};
template <class Op>
struct TakesTables<Op, std::void_t<decltype(Op::takes_tables(std::declval<const typename Op::Params&>(),
                                                             std::declval<const Shape&>()))>> : std::true_type {};

// An op whose GPU path needs host work once per input shape before any
// launch (--map compiles its kernel) declares prepare_cuda(const Params&,
// const Shape& in): the lane calls it as it plans, outside every stage's
// time, and a failure there is the run's, before any pixel moves. With it,
// builds_kernel(const Params&): whether that work compiles a kernel at run
// time (NVRTC), which the CLI then opens beside CUDA's start-up.
template <class Op, class = void> struct HasPrepareCuda : std::false_type {};
template <class Op>
struct HasPrepareCuda<Op, std::void_t<decltype(Op::prepare_cuda(std::declval<const typename Op::Params&>(),
                                                                std::declval<const Shape&>()))>> : std::true_type {};

template <class Op, class = void> struct HasPlan : std::false_type {};
template <class Op>
struct HasPlan<Op, std::void_t<decltype(Op::plan(std::declval<typename Op::Params&>(), std::declval<const Shape&>()))>>
    : std::true_type {};

template <class Op> Shape plan_stage(typename Op::Params& p, const Shape& in) {
  if constexpr (HasPlan<Op>::value)
    return Op::plan(p, in);
  else
    return in;
}

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
