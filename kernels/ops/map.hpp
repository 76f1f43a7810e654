#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "op_spec.hpp"
#include "tables.hpp"

namespace gpuimg {

// A user's expression for every colour sample (README: --map). Its
// programs are kept on the host (lib/expr/kept_expressions.hpp); the record
// holds their handle. One that reads only v is a table stage: the host
// tabulates it and it fuses with the table stages beside it like any other.
// Otherwise the CPU runs its programs over rows (lib/expr/row_eval.hpp) and
// the GPU a kernel made from them at run time with NVRTC (lib/map_cuda.cpp),
// which applies the tables of the table stages beside it too.
struct Map {
  static constexpr const char* name = "map";
  static constexpr const char* summary =
      "Evaluate EXPR for each colour sample (v, r, g, b, a in 0..1; c; x, y; w, h): floor(max * clamp(EXPR, 0, 1) + "
      "0.5); E1;E2;E3 gives one per channel.";
  static constexpr const char* example = "--map 'v*(1-0.6*hypot(x/w-0.5,y/h-0.5))'";
  static constexpr Kind kind = Kind::custom;

  struct Params {
    ExpressionRef expression;
  };
  static constexpr std::array<ParamSpec, 1> params{
      {ParamSpec{"EXPR", ParamType::expression, 0, 0, "the expression"}}};
  static Params make(const ParamValue* v) { return {v[0].expression}; }
  static std::array<ParamValue, 1> values(const Params& p) {
    ParamValue e{};
    e.expression = p.expression;
    return {e};
  }
  // Images have 1 or 3 colour channels: 2 or 4 expressions fit none.
  static const char* check(const Params& p);
  // One expression a channel needs as many colour channels as it has.
  static Shape plan(Params& p, const Shape& in);
  static CpuCost cpu_cost(const Params& p);

  // As a table stage (tables.hpp): when it reads nothing but v.
  static bool is_table(const Params& p);
  // Its tables differ by channel (one expression a channel).
  static bool per_channel(const Params& p);
  // Whether its table may fall where v rises: an expression may, so a run
  // holding it never joins a stage that needs monotone tables.
  static bool monotone(const Params&) { return false; }
  // Its program over chunks of a table's entries, in parallel bands at 16
  // bits, rather than an evaluation an entry (tables.hpp).
  static void map_table(const Params& p, std::int32_t* entries, std::size_t n, const TableContext& t);

  // Otherwise a point stage with its own paths.
  static void run_cpu(const CpuStage& s, const Params& p);
  static int launch(const CudaStage& s, const Params& p);  // a cudaError_t
  // Compiles (or finds in the cache) the GPU's kernel for this input, before
  // the pipeline's first launch, so that no stage's time holds a compile.
  static void prepare_cuda(const Params& p, const Shape& in);
  static bool builds_kernel(const Params& p) { return !is_table(p); }
  static std::size_t scratch_bytes(const Params&, const Shape&) { return 0; }
  // Its kernel applies the tables beside it at 8 bits (the blur's reasons:
  // ops/blur.hpp).
  static bool takes_tables(const Params& p, const Shape& in) { return in.bytes == 1 && !is_table(p); }
};

}  // namespace gpuimg
