#pragma once
// Each instruction's xm:: function as a type, so that the scalar evaluator,
// the compiler's constant folding and the row evaluator's loops all call
// the one function of kernels/expr_math.hpp, inlined into their loops.
#include <stdexcept>

#include "expr/program.hpp"
#include "expr_math.hpp"

namespace gpuimg::expr {

template <double (*F)(double)> struct Fn1 {
  static constexpr int arity = 1;
  static double apply(double a, double, double) { return F(a); }
};
template <double (*F)(double, double)> struct Fn2 {
  static constexpr int arity = 2;
  static double apply(double a, double b, double) { return F(a, b); }
};
template <double (*F)(double, double, double)> struct Fn3 {
  static constexpr int arity = 3;
  static double apply(double a, double b, double c) { return F(a, b, c); }
};

// visit(Fn, "name") for the code's function; constant and name have none.
template <class Visit> decltype(auto) visit_code(Code code, Visit&& visit) {
  switch (code) {
#define GPUIMG_EXPR_CODE(f, n) \
  case Code::f:                \
    return visit(Fn##n<xm::f>{}, #f);
    GPUIMG_EXPR_CODE(neg, 1)
    GPUIMG_EXPR_CODE(lnot, 1)
    GPUIMG_EXPR_CODE(abs, 1)
    GPUIMG_EXPR_CODE(floor, 1)
    GPUIMG_EXPR_CODE(ceil, 1)
    GPUIMG_EXPR_CODE(round, 1)
    GPUIMG_EXPR_CODE(trunc, 1)
    GPUIMG_EXPR_CODE(sign, 1)
    GPUIMG_EXPR_CODE(sqrt, 1)
    GPUIMG_EXPR_CODE(exp, 1)
    GPUIMG_EXPR_CODE(log, 1)
    GPUIMG_EXPR_CODE(log2, 1)
    GPUIMG_EXPR_CODE(log10, 1)
    GPUIMG_EXPR_CODE(sin, 1)
    GPUIMG_EXPR_CODE(cos, 1)
    GPUIMG_EXPR_CODE(tan, 1)
    GPUIMG_EXPR_CODE(asin, 1)
    GPUIMG_EXPR_CODE(acos, 1)
    GPUIMG_EXPR_CODE(atan, 1)
    GPUIMG_EXPR_CODE(sinh, 1)
    GPUIMG_EXPR_CODE(cosh, 1)
    GPUIMG_EXPR_CODE(tanh, 1)
    GPUIMG_EXPR_CODE(asinh, 1)
    GPUIMG_EXPR_CODE(acosh, 1)
    GPUIMG_EXPR_CODE(atanh, 1)
    GPUIMG_EXPR_CODE(log1p, 1)
    GPUIMG_EXPR_CODE(expm1, 1)
    GPUIMG_EXPR_CODE(cbrt, 1)
    GPUIMG_EXPR_CODE(exp2, 1)
    GPUIMG_EXPR_CODE(add, 2)
    GPUIMG_EXPR_CODE(sub, 2)
    GPUIMG_EXPR_CODE(mul, 2)
    GPUIMG_EXPR_CODE(div, 2)
    GPUIMG_EXPR_CODE(fmod, 2)
    GPUIMG_EXPR_CODE(pow, 2)
    GPUIMG_EXPR_CODE(lt, 2)
    GPUIMG_EXPR_CODE(le, 2)
    GPUIMG_EXPR_CODE(gt, 2)
    GPUIMG_EXPR_CODE(ge, 2)
    GPUIMG_EXPR_CODE(eq, 2)
    GPUIMG_EXPR_CODE(ne, 2)
    GPUIMG_EXPR_CODE(land, 2)
    GPUIMG_EXPR_CODE(lor, 2)
    GPUIMG_EXPR_CODE(min, 2)
    GPUIMG_EXPR_CODE(max, 2)
    GPUIMG_EXPR_CODE(atan2, 2)
    GPUIMG_EXPR_CODE(hypot, 2)
    GPUIMG_EXPR_CODE(step, 2)
    GPUIMG_EXPR_CODE(select, 3)
    GPUIMG_EXPR_CODE(clamp, 3)
    GPUIMG_EXPR_CODE(mix, 3)
    GPUIMG_EXPR_CODE(smoothstep, 3)
#undef GPUIMG_EXPR_CODE
    case Code::constant:
    case Code::name:
      break;
  }
  throw std::logic_error("expr: no function for this code");
}

// One instruction's function on scalar arguments (those past its arity ignored).
inline double apply_code(Code code, double a, double b, double c) {
  return visit_code(code, [&](auto fn, const char*) { return decltype(fn)::apply(a, b, c); });
}

}  // namespace gpuimg::expr
