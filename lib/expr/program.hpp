#pragma once
// A --map expression compiled for evaluation: a straight list of
// instructions over double registers, each one function of
// kernels/expr_math.hpp. The CPU runs it over a row at a time
// (row_eval.hpp); the GPU gets CUDA source made from it (cuda_source.hpp);
// a program that reads only `v` becomes a lookup table.
#include <cstdint>
#include <string>
#include <vector>

namespace gpuimg::expr {

// The values an expression may read, besides constants.
enum class Name : std::uint8_t {
  v,  // this sample, 0..1
  r,  // this pixel's channels, 0..1 (a gray image's r = g = b; a = 1 without alpha)
  g,
  b,
  a,
  c,  // this sample's channel index
  x,  // this pixel's column and row
  y,
  w,  // the image's width and height
  h,
};
constexpr int kNames = 10;

// dst = f(...) where f is the xm:: function of the same name
// (kernels/expr_math.hpp); `constant` loads k, `name` the value of Name(a).
enum class Code : std::uint8_t {
  constant,
  name,
  // one argument: a
  neg, lnot, abs, floor, ceil, round, trunc, sign, sqrt, exp, log, log2, log10, sin, cos, tan, asin, acos, atan,
  sinh, cosh, tanh, asinh, acosh, atanh, log1p, expm1, cbrt, exp2,
  // two: a, b
  add, sub, mul, div, fmod, pow, lt, le, gt, ge, eq, ne, land, lor, min, max, atan2, hypot, step,
  // three: a, b, c (select: a ? b : c)
  select, clamp, mix, smoothstep,
};

// How many register arguments a code takes (0 for constant and name).
int arity(Code code);
// The xm:: function's name: "add", "smoothstep"; "constant", "name".
const char* code_name(Code code);

struct Instr {
  Code code;
  std::uint16_t dst, a, b, c;
  double k;  // constant's value
};

struct Program {
  std::vector<Instr> code;  // in order; each reads only registers written before it
  int registers = 0;        // how many registers it uses (they are reused)
  int result = 0;           // the register holding the result after the last instruction
  std::uint32_t reads = 0;  // bit Name per name read

  bool reads_name(Name n) const { return (reads >> static_cast<int>(n)) & 1u; }
  // Reads nothing but v (or nothing at all): a lookup table does it.
  bool only_v() const { return (reads & ~(1u << static_cast<int>(Name::v))) == 0; }
};

}  // namespace gpuimg::expr
