// --map's host side (kernels/ops/map.hpp): its plan, its tables and its CPU
// path. The GPU's is in map_cuda.cpp.
#include <string>

#include "cpu_table.hpp"
#include "expr/kept_expressions.hpp"
#include "expr/row_eval.hpp"
#include "registry.hpp"
#include "table_pass.hpp"

namespace gpuimg {
namespace {

const std::vector<expr::Program>& programs(const Map::Params& p) { return kept_expression(p.expression).programs; }

// Nanoseconds a sample for each instruction on one thread, measured on the
// 2-core development machine: a few for arithmetic, far more for our own
// transcendental functions (docs/map.md has their costs).
double instruction_ns(expr::Code code) {
  switch (code) {
    case expr::Code::cbrt: return 80;
    case expr::Code::pow:
    // A root and a log, each as a pair.
    case expr::Code::asinh:
    case expr::Code::acosh: return 70;
    // e^x and its reciprocal, or a quotient, as pairs, then a log or not.
    case expr::Code::sinh:
    case expr::Code::cosh:
    case expr::Code::tanh:
    case expr::Code::atanh:
    case expr::Code::log1p:
    // log as a pair, then a product of pairs: 0.65 of pow's time, 3.5 of log's.
    case expr::Code::log2:
    case expr::Code::log10: return 45;
    // atan2 and a square root as a pair: 1.1 of atan2's time.
    case expr::Code::asin:
    case expr::Code::acos: return 35;
    case expr::Code::hypot:
    case expr::Code::sin:
    case expr::Code::cos:
    case expr::Code::tan:
    case expr::Code::atan:
    case expr::Code::atan2: return 30;
    case expr::Code::exp:
    case expr::Code::exp2:
    case expr::Code::expm1:
    case expr::Code::log: return 15;
    default: return 2;
  }
}

}  // namespace

const char* Map::check(const Params& p) {
  const std::size_t given = programs(p).size();
  return given == 1 || given == 3 ? nullptr : "EXPR must give one expression, or three between ';' (one for each colour channel)";
}

Shape Map::plan(Params& p, const Shape& in) {
  const std::size_t given = programs(p).size();
  const int colours = colour_channels(in);
  if (given > 1 && given != static_cast<std::size_t>(colours))
    throw PlanError("EXPR gives " + std::to_string(given) + " expressions, one for each colour channel, but the image has " +
                    std::to_string(colours) + " colour channel" + (colours == 1 ? "" : "s"));
  return in;
}

// A table costs a lookup; a program its instructions, and a sample's load
// and store.
CpuCost Map::cpu_cost(const Params& p) {
  if (is_table(p)) return {2.5, 3};
  double ns = 0;
  for (const expr::Program& program : programs(p))
    for (const expr::Instr& in : program.code) ns += instruction_ns(in.code);
  const double each = 3 + ns / static_cast<double>(programs(p).size());
  return {each, each};
}

bool Map::is_table(const Params& p) {
  for (const expr::Program& program : programs(p))
    if (!program.only_v()) return false;
  return true;
}

bool Map::per_channel(const Params& p) { return programs(p).size() > 1; }

void Map::map_table(const Params& p, std::int32_t* entries, std::size_t n, const TableContext& t) {
  const std::vector<expr::Program>& all = programs(p);
  const expr::Program& program = all.size() > 1 ? all[static_cast<std::size_t>(t.channel)] : all[0];
  expr::map_values(program, entries, static_cast<int>(n), t.max);
}

void Map::run_cpu(const CpuStage& s, const Params& p) {
  if (is_table(p))
    lookup_cpu(s);
  else
    expr::map_image(programs(p), s.src, s.dst, s.in, s.threads);
}

}  // namespace gpuimg
