#pragma once
// The functions of kernels/expr_libm.hpp (and the six of expr_math.hpp
// that call the C library) with seeded arguments across their ranges, for
// the host's accuracy test and the device's bit-for-bit comparison.
#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "expr_math.hpp"

namespace gpuimg::test {

// Each function with the arguments it takes, for the enum, the names and
// the calls below and the tests' references.
#define GPUIMG_LIBM_FUNCTIONS(X) \
  X(exp, (a))                    \
  X(log, (a))                    \
  X(log2, (a))                   \
  X(log10, (a))                  \
  X(sin, (a))                    \
  X(cos, (a))                    \
  X(tan, (a))                    \
  X(asin, (a))                   \
  X(acos, (a))                   \
  X(atan, (a))                   \
  X(sinh, (a))                   \
  X(cosh, (a))                   \
  X(tanh, (a))                   \
  X(asinh, (a))                  \
  X(acosh, (a))                  \
  X(atanh, (a))                  \
  X(log1p, (a))                  \
  X(expm1, (a))                  \
  X(cbrt, (a))                   \
  X(exp2, (a))                   \
  X(atan2, (a, b))               \
  X(hypot, (a, b))               \
  X(pow, (a, b))                 \
  X(fmod, (a, b))                \
  X(sqrt, (a))                   \
  X(round, (a))                  \
  X(trunc, (a))                  \
  X(floor, (a))                  \
  X(ceil, (a))

#define GPUIMG_LIBM_ENUM(name, args) name,
enum class LibmFn { GPUIMG_LIBM_FUNCTIONS(GPUIMG_LIBM_ENUM) };
constexpr LibmFn kLibmFns[] = {
#define GPUIMG_LIBM_VALUE(name, args) LibmFn::name,
    GPUIMG_LIBM_FUNCTIONS(GPUIMG_LIBM_VALUE)};

inline const char* libm_name(LibmFn f) {
#define GPUIMG_LIBM_NAME(name, args) #name,
  constexpr const char* names[] = {GPUIMG_LIBM_FUNCTIONS(GPUIMG_LIBM_NAME)};
  return names[static_cast<int>(f)];
}

GPUIMG_XM double libm_eval(LibmFn f, double a, double b) {
#define GPUIMG_LIBM_CALL(name, args) \
  case LibmFn::name:                 \
    return xm::name args;
  switch (f) { GPUIMG_LIBM_FUNCTIONS(GPUIMG_LIBM_CALL) }
  return 0.0;
}

using LibmArgs = std::array<double, 2>;

// Values every function meets: zeros, infinities, NaN, the smallest
// subnormal and normal, the largest double, 1, -1.
inline std::vector<double> libm_specials() {
  const double inf = HUGE_VAL, big = 1.7976931348623157e308;
  return {0.0, -0.0, inf, -inf, NAN, 4.9406564584124654e-324, -4.9406564584124654e-324, 2.2250738585072014e-308,
          -2.2250738585072014e-308, big, -big, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, -3.0, 1e-300, 1e300};
}

// A magnitude log-uniform in [2^lo, 2^hi), with a random sign when signed.
inline double log_uniform(std::mt19937_64& rng, int lo, int hi, bool signed_) {
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  std::uniform_int_distribution<int> exponent(lo, hi - 1);
  const double m = std::ldexp(mantissa(rng), exponent(rng));
  return signed_ && (rng() & 1) ? -m : m;
}

// About n seeded arguments of f: each range in turn, then the specials
// (every pair of them for the two-argument functions).
inline std::vector<LibmArgs> libm_inputs(LibmFn f, int n = 100000) {
  std::mt19937_64 rng(0x5eed0000u + static_cast<unsigned>(f));
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const auto uniform = [&](double lo, double hi) { return lo + (hi - lo) * unit(rng); };
  std::vector<LibmArgs> in;
  const auto add = [&](double a, double b = 1.0) { in.push_back({a, b}); };
  for (int i = 0; i < n; ++i) {
    switch (f) {
      case LibmFn::exp:
        add(i % 3 ? uniform(-746.0, 710.0) : log_uniform(rng, -60, 3, true));
        break;
      case LibmFn::log:
      case LibmFn::log2:
      case LibmFn::log10:
        // Subnormals through the largest double, and just either side of 1.
        add(i % 4 ? std::ldexp(uniform(0.5, 1.0), static_cast<int>(uniform(-1073, 1025)))
                  : 1.0 + log_uniform(rng, -53, -1, true));
        break;
      case LibmFn::sin:
      case LibmFn::cos:
      case LibmFn::tan: {
        // Near multiples of pi/2 (k up to 2^20) the residual is smallest;
        // from 2^29 on the result is pinned, not accurate, but still the
        // same on both sides.
        const double k = std::floor(uniform(0.0, i / 4 % 2 ? 64.0 : 1048576.0));
        const double nearest = static_cast<double>(k * 1.5707963267948966192313216916397514L);
        const int side = static_cast<int>(rng() % 3);
        const double near = side == 0 ? nearest : std::nextafter(nearest, side == 1 ? HUGE_VAL : -HUGE_VAL);
        const double ranges[] = {near, log_uniform(rng, -30, 29, true), uniform(-10.0, 10.0),
                                 log_uniform(rng, 29, 1024, true)};
        add(ranges[i % 4]);
        break;
      }
      case LibmFn::asin:
      case LibmFn::acos:
      case LibmFn::atanh: {
        // Anywhere in [-1, 1], within 2^-53 of either end (where each is
        // steepest) and down to the subnormals.
        const double ranges[] = {uniform(-1.0, 1.0), (rng() & 1 ? -1.0 : 1.0) * (1.0 - log_uniform(rng, -53, -1, false)),
                                 log_uniform(rng, -1074, 0, true)};
        add(ranges[i % 3]);
        break;
      }
      case LibmFn::atan:
        add(i % 2 ? log_uniform(rng, -1074, 1024, true) : uniform(-4.0, 4.0));
        break;
      case LibmFn::sinh:
      case LibmFn::cosh: {
        // Near 0, where e^x - e^-x cancels, through the thresholds 2^-26
        // and 22, to past e^x's overflow (710.48 for e^x / 2).
        const double ranges[] = {log_uniform(rng, -40, 5, true), uniform(-711.0, 711.0), uniform(-25.0, 25.0)};
        add(ranges[i % 3]);
        break;
      }
      case LibmFn::tanh:
        add(i % 2 ? log_uniform(rng, -40, 5, true) : uniform(-21.0, 21.0));
        break;
      case LibmFn::asinh:
        add(i % 2 ? log_uniform(rng, -1074, 1024, true) : (i % 4 == 1 ? uniform(-4.0, 4.0) : log_uniform(rng, -30, 30, true)));
        break;
      case LibmFn::acosh: {
        // Within 2^-52 of 1, where x + sqrt(x^2 - 1) is near 1, to the largest double.
        const double ranges[] = {1.0 + log_uniform(rng, -52, 1, false), uniform(1.0, 4.0), log_uniform(rng, 0, 1024, false)};
        add(ranges[i % 3]);
        break;
      }
      case LibmFn::log1p: {
        // Tiny, either side of 0, near -1 and up to the largest double.
        const double ranges[] = {log_uniform(rng, -1074, 0, true), -1.0 + log_uniform(rng, -53, 0, false),
                                 log_uniform(rng, 0, 1024, false), uniform(-1.0, 2.0)};
        add(ranges[i % 4]);
        break;
      }
      case LibmFn::expm1:
        add(i % 3 ? log_uniform(rng, -1074, 3, true) : uniform(-40.0, 710.0));
        break;
      case LibmFn::cbrt:
        // Every exponent, and perfect cubes.
        if (i % 5 == 4) {
          const double root = std::round(uniform(-2e5, 2e5));
          add(root * root * root);
        } else {
          add(log_uniform(rng, -1074, 1024, true));
        }
        break;
      case LibmFn::exp2:
        add(i % 3 == 0 ? uniform(-1076.0, 1025.0) : i % 3 == 1 ? log_uniform(rng, -60, 4, true) : std::round(uniform(-1076.0, 1025.0)));
        break;
      case LibmFn::fmod:
        // Quotients from below 1 to 2^2000, and ones near whole numbers.
        if (i % 3 == 2) {
          const double b = log_uniform(rng, -20, 20, true);
          add(b * std::round(uniform(-1e6, 1e6)) * (1.0 + log_uniform(rng, -53, -40, true)), b);
        } else {
          add(log_uniform(rng, i % 3 ? -1074 : -30, i % 3 ? 1024 : 30, true),
              log_uniform(rng, i % 3 ? -1074 : -30, i % 3 ? 1024 : 30, true));
        }
        break;
      case LibmFn::atan2:
        add(log_uniform(rng, i % 2 ? -1074 : -8, i % 2 ? 1024 : 8, true),
            log_uniform(rng, i % 2 ? -1074 : -8, i % 2 ? 1024 : 8, true));
        break;
      case LibmFn::hypot:
        add(log_uniform(rng, i % 2 ? -1074 : -4, i % 2 ? 1024 : 4, true),
            log_uniform(rng, i % 2 ? -1074 : -30, i % 2 ? 1024 : 4, true));
        break;
      case LibmFn::pow: {
        // x anywhere, y such that x^y is anywhere from subnormal to overflow;
        // every fourth a negative x with an integer y, every eighth x near 1.
        const double x = i % 8 == 7 ? 1.0 + log_uniform(rng, -52, -4, true) : log_uniform(rng, -1074, 1024, false);
        const double y = uniform(-1080.0, 1030.0) / std::log2(x);
        if (i % 4 == 0)
          add(-log_uniform(rng, -8, 8, false), std::round(uniform(-120.0, 120.0)));
        else
          add(x, y);
        break;
      }
      case LibmFn::sqrt:
        add(log_uniform(rng, -1074, 1024, false));
        break;
      case LibmFn::round:
      case LibmFn::trunc:
      case LibmFn::floor:
      case LibmFn::ceil:
        add(i % 2 ? log_uniform(rng, -4, 60, true) : std::round(uniform(-50.0, 50.0)) * 0.5);
        break;
    }
  }
  const bool binary = f == LibmFn::atan2 || f == LibmFn::hypot || f == LibmFn::pow || f == LibmFn::fmod;
  for (double a : libm_specials()) {
    if (!binary)
      add(a);
    else
      for (double b : libm_specials()) add(a, b);
  }
  return in;
}

}  // namespace gpuimg::test
