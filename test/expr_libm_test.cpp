// The double-precision functions of --map expressions (kernels/expr_libm.hpp)
// against the host's long double functions, an independent and more precise
// reference: the largest error over seeded arguments across every range,
// and C99 Annex F's values at zeros, infinities and NaN.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "libm_cases.hpp"

namespace gpuimg::test {
namespace {

long double reference(LibmFn f, long double a, long double b) {
#define GPUIMG_LIBM_REFERENCE(name, args) \
  case LibmFn::name:                      \
    return std::name args;
  switch (f) { GPUIMG_LIBM_FUNCTIONS(GPUIMG_LIBM_REFERENCE) }
  return 0;
}

// |got - want| in units of the last place of the double nearest want
// (2^-1074 among subnormals); infinite where one is NaN or infinite and
// the other is not the same.
double ulp_error(double got, long double want) {
  const double nearest = static_cast<double>(want);
  if (std::isnan(nearest) || std::isinf(nearest) || std::isnan(got) || std::isinf(got))
    return (std::isnan(nearest) && std::isnan(got)) || got == nearest ? 0.0 : HUGE_VAL;
  int e = 0;
  std::frexp(nearest, &e);
  const long double ulp = std::ldexp(1.0L, std::max(e - 53, -1074));
  return static_cast<double>(std::fabs(static_cast<long double>(got) - want) / ulp);
}

struct Worst {
  double ulps = 0;
  LibmArgs at{};
};

Worst worst_error(LibmFn f) {
  Worst w;
  const bool trig = f == LibmFn::sin || f == LibmFn::cos || f == LibmFn::tan;
  for (const LibmArgs& in : libm_inputs(f)) {
    if (trig && std::fabs(in[0]) >= 0x1p29) continue;  // pinned, not accurate: HugeArgumentsStayBounded
    const double e = ulp_error(libm_eval(f, in[0], in[1]), reference(f, in[0], in[1]));
    if (!(e <= w.ulps)) w = {e, in};
  }
  return w;
}

class LibmAccuracy : public ::testing::TestWithParam<LibmFn> {};

TEST_P(LibmAccuracy, WithinTwoUlpsOfLongDouble) {
  const LibmFn f = GetParam();
  const Worst w = worst_error(f);
  std::printf("%-6s max error %.3f ulp at (%.17g, %.17g)\n", libm_name(f), w.ulps, w.at[0], w.at[1]);
  EXPECT_LE(w.ulps, 2.0) << libm_name(f) << "(" << w.at[0] << ", " << w.at[1] << ")";
}

INSTANTIATE_TEST_SUITE_P(, LibmAccuracy, ::testing::ValuesIn(kLibmFns),
                         [](const auto& info) { return std::string(libm_name(info.param)); });

// Beyond 2^29 the reduction is not exact: sin and cos stay in [-1, 1] and
// tan finite or NaN, as expr_libm.hpp pins.
TEST(LibmTrig, HugeArgumentsStayBounded) {
  std::mt19937_64 rng(29);
  for (int i = 0; i < 20000; ++i) {
    const double x = log_uniform(rng, 29, 1024, true);
    EXPECT_LE(std::fabs(xm::sin(x)), 1.0) << x;
    EXPECT_LE(std::fabs(xm::cos(x)), 1.0) << x;
    EXPECT_FALSE(std::isinf(xm::tan(x))) << x;
  }
}

// The sign of a zero is part of the value: compare bits, NaN with NaN.
void expect_same(double got, double want, const char* what) {
  if (std::isnan(want)) {
    EXPECT_TRUE(std::isnan(got)) << what << " gave " << got;
    return;
  }
  EXPECT_TRUE(got == want && std::signbit(got) == std::signbit(want)) << what << " gave " << got << ", not " << want;
}

const double inf = HUGE_VAL, nan = NAN, pi = 3.141592653589793;

TEST(LibmSpecialValues, ExpLogTrig) {
  expect_same(xm::exp(0.0), 1.0, "exp(0)");
  expect_same(xm::exp(-inf), 0.0, "exp(-inf)");
  expect_same(xm::exp(inf), inf, "exp(inf)");
  expect_same(xm::exp(709.8), inf, "exp(709.8)");
  expect_same(xm::exp(-745.2), 0.0, "exp(-745.2)");
  expect_same(xm::exp(-745.0), 4.9406564584124654e-324, "exp(-745)");
  expect_same(xm::exp(nan), nan, "exp(NaN)");
  expect_same(xm::log(1.0), 0.0, "log(1)");
  expect_same(xm::log(0.0), -inf, "log(0)");
  expect_same(xm::log(-0.0), -inf, "log(-0)");
  expect_same(xm::log(-1.0), nan, "log(-1)");
  expect_same(xm::log(-inf), nan, "log(-inf)");
  expect_same(xm::log(inf), inf, "log(inf)");
  expect_same(xm::log(nan), nan, "log(NaN)");
  for (double z : {0.0, -0.0}) {
    expect_same(xm::sin(z), z, "sin(+-0)");
    expect_same(xm::tan(z), z, "tan(+-0)");
    expect_same(xm::cos(z), 1.0, "cos(+-0)");
  }
  for (double v : {inf, -inf, nan}) {
    expect_same(xm::sin(v), nan, "sin(inf or NaN)");
    expect_same(xm::cos(v), nan, "cos(inf or NaN)");
    expect_same(xm::tan(v), nan, "tan(inf or NaN)");
  }
}

// A power of the base is its exact exponent: every power of 2, and every
// power of 10 a double holds exactly or nearest to (10^-k rounded is
// within 2^-53 of it, well inside the half ulp of k that rounds to k).
TEST(LibmSpecialValues, LogsOfPowersAreExact) {
  for (int k = -1074; k <= 1023; ++k) expect_same(xm::log2(std::ldexp(1.0, k)), k, "log2(2^k)");
  for (int k = -300; k <= 300; ++k) {
    const double power = std::stod("1e" + std::to_string(k));
    expect_same(xm::log10(power), k, ("log10(1e" + std::to_string(k) + ")").c_str());
  }
  expect_same(xm::log10(1000.0), 3.0, "log10(1000)");
  expect_same(xm::log2(8.0), 3.0, "log2(8)");
  expect_same(xm::log2(1.0), 0.0, "log2(1)");
  expect_same(xm::log10(1.0), 0.0, "log10(1)");
}

TEST(LibmSpecialValues, Log2Log10Edges) {
  const struct {
    double (*f)(double);
    const char* name;
  } logs[] = {{xm::log2, "log2"}, {xm::log10, "log10"}};
  for (const auto& l : logs) {
    SCOPED_TRACE(l.name);
    expect_same(l.f(0.0), -inf, "(0)");
    expect_same(l.f(-0.0), -inf, "(-0)");
    expect_same(l.f(-1.0), nan, "(-1)");
    expect_same(l.f(-inf), nan, "(-inf)");
    expect_same(l.f(inf), inf, "(inf)");
    expect_same(l.f(nan), nan, "(NaN)");
  }
}

TEST(LibmSpecialValues, InverseTrig) {
  for (double z : {0.0, -0.0}) {
    expect_same(xm::asin(z), z, "asin(+-0)");
    expect_same(xm::atan(z), z, "atan(+-0)");
    expect_same(xm::acos(z), pi / 2, "acos(+-0)");
  }
  expect_same(xm::asin(1.0), pi / 2, "asin(1)");
  expect_same(xm::asin(-1.0), -pi / 2, "asin(-1)");
  expect_same(xm::acos(1.0), 0.0, "acos(1)");
  expect_same(xm::acos(-1.0), pi, "acos(-1)");
  expect_same(xm::atan(1.0), pi / 4, "atan(1)");
  expect_same(xm::atan(inf), pi / 2, "atan(inf)");
  expect_same(xm::atan(-inf), -pi / 2, "atan(-inf)");
  expect_same(xm::asin(4.9406564584124654e-324), 4.9406564584124654e-324, "asin(smallest)");
  for (double out : {1.0000000000000002, -1.0000000000000002, 2.0, inf, -inf, nan}) {
    expect_same(xm::asin(out), nan, "asin(|x| > 1 or NaN)");
    expect_same(xm::acos(out), nan, "acos(|x| > 1 or NaN)");
  }
  expect_same(xm::atan(nan), nan, "atan(NaN)");
}

TEST(LibmSpecialValues, Hyperbolic) {
  for (double z : {0.0, -0.0}) {
    expect_same(xm::sinh(z), z, "sinh(+-0)");
    expect_same(xm::tanh(z), z, "tanh(+-0)");
    expect_same(xm::asinh(z), z, "asinh(+-0)");
    expect_same(xm::atanh(z), z, "atanh(+-0)");
    expect_same(xm::cosh(z), 1.0, "cosh(+-0)");
  }
  for (double s : {1.0, -1.0}) {
    expect_same(xm::sinh(s * inf), s * inf, "sinh(+-inf)");
    expect_same(xm::cosh(s * inf), inf, "cosh(+-inf)");
    expect_same(xm::tanh(s * inf), s, "tanh(+-inf)");
    expect_same(xm::tanh(s * 20), s, "tanh(+-20)");
    expect_same(xm::asinh(s * inf), s * inf, "asinh(+-inf)");
    expect_same(xm::atanh(s), s * inf, "atanh(+-1)");
    expect_same(xm::atanh(s * 1.0000000000000002), nan, "atanh(|x| > 1)");
    // e^x / 2 stays finite past e^x's overflow, to ln(2 DBL_MAX) = 710.4758.
    EXPECT_TRUE(std::isfinite(xm::sinh(s * 710.475))) << s;
    EXPECT_TRUE(std::isfinite(xm::cosh(s * 710.475))) << s;
    expect_same(xm::sinh(s * 710.476), s * inf, "sinh(+-710.476)");
    expect_same(xm::cosh(s * 710.476), inf, "cosh(+-710.476)");
  }
  expect_same(xm::acosh(1.0), 0.0, "acosh(1)");
  expect_same(xm::acosh(inf), inf, "acosh(inf)");
  expect_same(xm::acosh(0.9999999999999999), nan, "acosh(x < 1)");
  expect_same(xm::acosh(-inf), nan, "acosh(-inf)");
  expect_same(xm::asinh(1.7976931348623157e308), 710.475860073944, "asinh(DBL_MAX)");
  expect_same(xm::acosh(1.7976931348623157e308), 710.475860073944, "acosh(DBL_MAX)");
  for (double (*f)(double) : {xm::sinh, xm::cosh, xm::tanh, xm::asinh, xm::acosh, xm::atanh})
    expect_same(f(nan), nan, "hyperbolic(NaN)");
}

TEST(LibmSpecialValues, Log1pExpm1Cbrt) {
  for (double z : {0.0, -0.0}) {
    expect_same(xm::log1p(z), z, "log1p(+-0)");
    expect_same(xm::expm1(z), z, "expm1(+-0)");
    expect_same(xm::cbrt(z), z, "cbrt(+-0)");
  }
  expect_same(xm::log1p(-1.0), -inf, "log1p(-1)");
  expect_same(xm::log1p(-1.0000000000000002), nan, "log1p(x < -1)");
  expect_same(xm::log1p(-inf), nan, "log1p(-inf)");
  expect_same(xm::log1p(inf), inf, "log1p(inf)");
  expect_same(xm::log1p(1e-300), 1e-300, "log1p(1e-300)");
  expect_same(xm::expm1(inf), inf, "expm1(inf)");
  expect_same(xm::expm1(-inf), -1.0, "expm1(-inf)");
  expect_same(xm::expm1(710.0), inf, "expm1(710)");
  expect_same(xm::expm1(-40.0), -1.0, "expm1(-40)");
  expect_same(xm::expm1(-1e-300), -1e-300, "expm1(-1e-300)");
  expect_same(xm::cbrt(inf), inf, "cbrt(inf)");
  expect_same(xm::cbrt(-inf), -inf, "cbrt(-inf)");
  // The smallest subnormal is 2^-1074, whose cube root is 2^-358 exactly.
  // Not std::cbrt: glibc's is one ulp off there, which g++ hid by folding
  // the call at compile time and clang's build showed.
  expect_same(xm::cbrt(4.9406564584124654e-324), std::ldexp(1.0, -358), "cbrt(smallest)");
  for (double (*f)(double) : {xm::log1p, xm::expm1, xm::cbrt, xm::exp2}) expect_same(f(nan), nan, "(NaN)");
  // A perfect cube's root, and a power of 2 at an integer, are exact.
  for (int k = -100000; k <= 100000; k += 7) {
    const double cube = static_cast<double>(k) * k * k;
    expect_same(xm::cbrt(cube), k, ("cbrt(" + std::to_string(k) + "^3)").c_str());
  }
  for (int k = -358; k <= 341; ++k) expect_same(xm::cbrt(std::ldexp(1.0, 3 * k)), std::ldexp(1.0, k), "cbrt(2^3k)");
  for (int k = -1074; k <= 1023; ++k) expect_same(xm::exp2(k), std::ldexp(1.0, k), "exp2(k)");
  expect_same(xm::exp2(1024.0), inf, "exp2(1024)");
  expect_same(xm::exp2(inf), inf, "exp2(inf)");
  expect_same(xm::exp2(-inf), 0.0, "exp2(-inf)");
  expect_same(xm::exp2(-1075.0), 0.0, "exp2(-1075)");
  expect_same(xm::exp2(-1074.9), 4.9406564584124654e-324, "exp2(-1074.9)");
}

// fmod and trunc are exact (the C library's, on either side).
TEST(LibmSpecialValues, FmodAndTrunc) {
  expect_same(xm::fmod(5.5, 2.0), 1.5, "fmod(5.5, 2)");
  expect_same(xm::fmod(-5.5, 2.0), -1.5, "fmod(-5.5, 2)");
  expect_same(xm::fmod(5.5, -2.0), 1.5, "fmod(5.5, -2)");
  expect_same(xm::fmod(-4.0, 2.0), -0.0, "fmod(-4, 2)");
  expect_same(xm::fmod(-0.0, 3.0), -0.0, "fmod(-0, 3)");
  expect_same(xm::fmod(1.0, 0.0), nan, "fmod(1, 0)");
  expect_same(xm::fmod(inf, 1.0), nan, "fmod(inf, 1)");
  expect_same(xm::fmod(1.0, inf), 1.0, "fmod(1, inf)");
  expect_same(xm::fmod(nan, 1.0), nan, "fmod(NaN, 1)");
  expect_same(xm::fmod(0.1, 0.01), 3.469446951953614e-18, "fmod(0.1, 0.01)");  // of the doubles, exactly
  expect_same(xm::trunc(-2.7), -2.0, "trunc(-2.7)");
  expect_same(xm::trunc(-0.5), -0.0, "trunc(-0.5)");
  expect_same(xm::trunc(2.5), 2.0, "trunc(2.5)");
  expect_same(xm::trunc(inf), inf, "trunc(inf)");
}

TEST(LibmSpecialValues, Atan2) {
  expect_same(xm::atan2(0.0, 0.0), 0.0, "atan2(+0, +0)");
  expect_same(xm::atan2(-0.0, 0.0), -0.0, "atan2(-0, +0)");
  expect_same(xm::atan2(0.0, -0.0), pi, "atan2(+0, -0)");
  expect_same(xm::atan2(-0.0, -0.0), -pi, "atan2(-0, -0)");
  expect_same(xm::atan2(0.0, -1.0), pi, "atan2(+0, -1)");
  expect_same(xm::atan2(-0.0, -1.0), -pi, "atan2(-0, -1)");
  expect_same(xm::atan2(-0.0, 1.0), -0.0, "atan2(-0, 1)");
  expect_same(xm::atan2(1.0, 0.0), pi / 2, "atan2(1, +0)");
  expect_same(xm::atan2(-1.0, -0.0), -pi / 2, "atan2(-1, -0)");
  expect_same(xm::atan2(1.0, -inf), pi, "atan2(1, -inf)");
  expect_same(xm::atan2(-1.0, -inf), -pi, "atan2(-1, -inf)");
  expect_same(xm::atan2(1.0, inf), 0.0, "atan2(1, inf)");
  expect_same(xm::atan2(-1.0, inf), -0.0, "atan2(-1, inf)");
  expect_same(xm::atan2(inf, 5.0), pi / 2, "atan2(inf, 5)");
  expect_same(xm::atan2(-inf, -5.0), -pi / 2, "atan2(-inf, -5)");
  expect_same(xm::atan2(inf, inf), pi / 4, "atan2(inf, inf)");
  expect_same(xm::atan2(-inf, -inf), -3 * pi / 4, "atan2(-inf, -inf)");
  expect_same(xm::atan2(nan, 1.0), nan, "atan2(NaN, 1)");
  expect_same(xm::atan2(1.0, nan), nan, "atan2(1, NaN)");
  expect_same(xm::atan2(1.0, 1.0), pi / 4, "atan2(1, 1)");
  expect_same(xm::atan2(1.0, -1.0), 3 * pi / 4, "atan2(1, -1)");
}

TEST(LibmSpecialValues, Hypot) {
  expect_same(xm::hypot(inf, nan), inf, "hypot(inf, NaN)");
  expect_same(xm::hypot(nan, -inf), inf, "hypot(NaN, -inf)");
  expect_same(xm::hypot(nan, 1.0), nan, "hypot(NaN, 1)");
  expect_same(xm::hypot(-0.0, -0.0), 0.0, "hypot(-0, -0)");
  expect_same(xm::hypot(3.0, -4.0), 5.0, "hypot(3, -4)");
  expect_same(xm::hypot(3e300, 4e300), 5e300, "hypot(3e300, 4e300)");
  expect_same(xm::hypot(3e-320, 4e-320), 5e-320, "hypot(3e-320, 4e-320)");
  expect_same(xm::hypot(1.5e308, 1.5e308), inf, "hypot(1.5e308, 1.5e308)");
}

TEST(LibmSpecialValues, PowAnnexF) {
  for (double x : {nan, -inf, -2.0, -0.0, 0.0, 3.0, inf}) {
    expect_same(xm::pow(x, 0.0), 1.0, "pow(x, +0)");
    expect_same(xm::pow(x, -0.0), 1.0, "pow(x, -0)");
  }
  for (double y : {nan, -inf, -2.5, 0.0, 7.0, inf}) expect_same(xm::pow(1.0, y), 1.0, "pow(1, y)");
  expect_same(xm::pow(nan, 1.0), nan, "pow(NaN, 1)");
  expect_same(xm::pow(2.0, nan), nan, "pow(2, NaN)");
  expect_same(xm::pow(-1.0, inf), 1.0, "pow(-1, inf)");
  expect_same(xm::pow(-1.0, -inf), 1.0, "pow(-1, -inf)");
  expect_same(xm::pow(0.5, -inf), inf, "pow(0.5, -inf)");
  expect_same(xm::pow(-0.5, inf), 0.0, "pow(-0.5, inf)");
  expect_same(xm::pow(2.0, -inf), 0.0, "pow(2, -inf)");
  expect_same(xm::pow(-2.0, inf), inf, "pow(-2, inf)");
  expect_same(xm::pow(-8.0, 1.0 / 3), nan, "pow(-8, 1/3)");
  expect_same(xm::pow(-2.0, 3.0), -8.0, "pow(-2, 3)");
  expect_same(xm::pow(-2.0, 4.0), 16.0, "pow(-2, 4)");
  expect_same(xm::pow(-2.0, -1.0), -0.5, "pow(-2, -1)");
  expect_same(xm::pow(-2.0, 1e20), inf, "pow(-2, 1e20)");
  expect_same(xm::pow(0.0, -3.0), inf, "pow(+0, -3)");
  expect_same(xm::pow(-0.0, -3.0), -inf, "pow(-0, -3)");
  expect_same(xm::pow(-0.0, -2.0), inf, "pow(-0, -2)");
  expect_same(xm::pow(-0.0, -0.5), inf, "pow(-0, -0.5)");
  expect_same(xm::pow(-0.0, -inf), inf, "pow(-0, -inf)");
  expect_same(xm::pow(-0.0, 3.0), -0.0, "pow(-0, 3)");
  expect_same(xm::pow(-0.0, 2.0), 0.0, "pow(-0, 2)");
  expect_same(xm::pow(-0.0, 0.5), 0.0, "pow(-0, 0.5)");
  expect_same(xm::pow(-inf, -3.0), -0.0, "pow(-inf, -3)");
  expect_same(xm::pow(-inf, -2.0), 0.0, "pow(-inf, -2)");
  expect_same(xm::pow(-inf, 3.0), -inf, "pow(-inf, 3)");
  expect_same(xm::pow(-inf, 0.5), inf, "pow(-inf, 0.5)");
  expect_same(xm::pow(inf, -1.0), 0.0, "pow(inf, -1)");
  expect_same(xm::pow(inf, 0.5), inf, "pow(inf, 0.5)");
  expect_same(xm::pow(10.0, 309.0), inf, "pow(10, 309)");
  expect_same(xm::pow(10.0, -400.0), 0.0, "pow(10, -400)");
  expect_same(xm::pow(2.0, -1074.0), 4.9406564584124654e-324, "pow(2, -1074)");
  expect_same(xm::pow(2.0, 1023.0), 8.98846567431158e307, "pow(2, 1023)");
}

// Where one IEEE operation is the power, pow gives its correctly rounded
// result rather than exp(y log x)'s nearly so.
TEST(LibmPow, OneOperationPowersRoundOnce) {
  std::mt19937_64 rng(2);
  for (int i = 0; i < 20000; ++i) {
    const double x = log_uniform(rng, -600, 600, true);
    expect_same(xm::pow(x, 1.0), x, "pow(x, 1)");
    expect_same(xm::pow(x, 2.0), x * x, "pow(x, 2)");
    expect_same(xm::pow(x, -1.0), 1.0 / x, "pow(x, -1)");
    expect_same(xm::pow(std::fabs(x), 0.5), std::sqrt(std::fabs(x)), "pow(x, 0.5)");
  }
  for (int k = 0; k <= 22; ++k) expect_same(xm::pow(10.0, k), std::pow(10.0, k), "pow(10, k)");
}

// The divisions the GPU's --map kernel does without dividing
// (expr_math.hpp): every sample of either depth, to the bit.
TEST(ExprMath, UnitValuesAreTheQuotients) {
  for (unsigned s = 0; s <= 255; ++s) ASSERT_EQ(xm::unit8(s), s / 255.0) << s;
  for (unsigned s = 0; s <= 65535; ++s) ASSERT_EQ(xm::unit16(s), s / 65535.0) << s;
}

}  // namespace
}  // namespace gpuimg::test
