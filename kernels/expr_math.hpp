#pragma once
// What each instruction of a --map expression computes (lib/expr/program.hpp),
// one function per instruction, included by the CPU's row evaluator and by
// the CUDA source NVRTC compiles for the GPU, so that both run the same
// double-precision operations in the same order and agree to the bit. Each
// operation is rounded once (host -ffp-contract=off, NVRTC --fmad=false);
// floor, ceil, round, trunc, fabs, fmod and sqrt are exact on both; the
// functions the two C libraries differ on are written once in
// expr_libm.hpp.
//
// No standard header is included under NVRTC, which compiles this text as
// it is, without the host's include paths.
#if !defined(__CUDACC_RTC__)
#include <cmath>
#include <cstdint>
#include <cstring>
#endif

// GPUIMG_XM_CALL: the functions of expr_libm.hpp, each a call on the
// device, not a copy at every use: a generated kernel uses each expression
// once for every colour channel, and copies of pow's body in each made
// NVRTC take minutes and gigabytes for a 1 KB expression. Inlined or not,
// every operation is the same, so no result changes.
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define GPUIMG_XM __host__ __device__ __forceinline__
#define GPUIMG_XM_CALL inline __host__ __device__ __noinline__
#else
#define GPUIMG_XM inline
#define GPUIMG_XM_CALL inline
#endif

#include "expr_libm.hpp"

namespace gpuimg {
namespace xm {

// Truth: any value but 0 is true, NaN included; comparisons give 1 or 0.
GPUIMG_XM double truth(bool b) { return b ? 1.0 : 0.0; }

GPUIMG_XM double neg(double a) { return -a; }
GPUIMG_XM double lnot(double a) { return truth(a == 0); }
GPUIMG_XM double abs(double a) { return fabs(a); }
GPUIMG_XM double floor(double a) { return ::floor(a); }
GPUIMG_XM double ceil(double a) { return ::ceil(a); }
// Halves away from zero.
GPUIMG_XM double round(double a) { return ::round(a); }
GPUIMG_XM double trunc(double a) { return ::trunc(a); }
// -1 or 1 by the sign; zeros and NaN give themselves (sign(-0) = -0).
GPUIMG_XM double sign(double a) { return a > 0 ? 1.0 : a < 0 ? -1.0 : a; }
GPUIMG_XM double sqrt(double a) { return ::sqrt(a); }

GPUIMG_XM double add(double a, double b) { return a + b; }
GPUIMG_XM double sub(double a, double b) { return a - b; }
GPUIMG_XM double mul(double a, double b) { return a * b; }
GPUIMG_XM double div(double a, double b) { return a / b; }
// a % b: a - n b with n = trunc(a / b) taken exactly, so the sign of a;
// b = 0 and an infinite a give NaN, an infinite b gives a.
GPUIMG_XM double fmod(double a, double b) { return ::fmod(a, b); }
GPUIMG_XM double lt(double a, double b) { return truth(a < b); }
GPUIMG_XM double le(double a, double b) { return truth(a <= b); }
GPUIMG_XM double gt(double a, double b) { return truth(a > b); }
GPUIMG_XM double ge(double a, double b) { return truth(a >= b); }
GPUIMG_XM double eq(double a, double b) { return truth(a == b); }
GPUIMG_XM double ne(double a, double b) { return truth(a != b); }
GPUIMG_XM double land(double a, double b) { return truth(a != 0 && b != 0); }
GPUIMG_XM double lor(double a, double b) { return truth(a != 0 || b != 0); }
// A NaN argument gives the other (IEEE minNum, maxNum); of 0 and -0 the
// first. Written out rather than fmin and fmax: the device's min.f64 gives
// the second of 0 and -0 where glibc gives the first.
GPUIMG_XM double min(double a, double b) { return b < a || a != a ? b : a; }
GPUIMG_XM double max(double a, double b) { return b > a || a != a ? b : a; }
// 0 below the edge, 1 from it on.
GPUIMG_XM double step(double edge, double x) { return truth(!(x < edge)); }

GPUIMG_XM double select(double c, double a, double b) { return c != 0 ? a : b; }
GPUIMG_XM double clamp(double x, double lo, double hi) { return min(max(x, lo), hi); }
GPUIMG_XM double mix(double a, double b, double t) { return a + (b - a) * t; }
GPUIMG_XM double smoothstep(double e0, double e1, double x) {
  const double t = clamp((x - e0) / (e1 - e0), 0.0, 1.0);
  return t * t * (3.0 - 2.0 * t);
}

// A sample as a value, s / 255 or s / 65535, to the bit, without a
// division (the GPU's double division is a long sequence, and a table of
// s / 255 in shared memory made the lookups conflict in its banks, which
// bounded --map's kernel). With R the repunit 0x0101010101010101 (or
// 0x0001000100010001), s / (2^k - 1) = s R / (2^64 - 1) = s R 2^-64 (1 +
// 2^-64 + ...). s R is a = s * 0x01010101 (or 0x00010001) times 2^32 + 1;
// a enters a double exactly through the exponent of 2^52, and a (2^32 + 1)
// 2^-64 is s R 2^-64 with one rounding. That rounding agrees with the
// quotient's wherever s R 2^-64 is not halfway between two doubles: at 8
// bits never; at 16 bits the term a (2^32 + 1) 2^-130, smaller than a step
// of s R's grid and of the same sign as the tail, decides the ties, in one
// fused multiply-add. Checked for every sample by the tests
// (ExprMath.UnitValuesAreTheQuotients).
GPUIMG_XM double unit_integer(unsigned a) {
#if defined(__CUDA_ARCH__)
  const double biased = __hiloint2double(0x43300000, static_cast<int>(a));
#else
  const std::uint64_t bits = std::uint64_t(0x43300000) << 32 | a;
  double biased;
  std::memcpy(&biased, &bits, sizeof biased);
#endif
  return biased - 4503599627370496.0;  // 2^52
}
GPUIMG_XM double unit8(unsigned s) { return unit_integer(s * 0x01010101u) * 0x1.00000001p-32; }
GPUIMG_XM double unit16(unsigned s) {
  const double a = unit_integer(s * 0x00010001u);
  return ::fma(a, 0x1.00000001p-32, a * 0x1.00000001p-98);
}

// A result as a sample of largest value m: clamped to [0, 1], NaN as 0,
// then floor(m * r + 0.5).
GPUIMG_XM int store(double r, double m) {
#if defined(__CUDA_ARCH__)
  // The same sample without comparing doubles or converting one (the
  // conversion and the comparisons made --map's kernel 1.5x a copy, this
  // 1.42x): u = m r + 0.5 added to 2^52, rounding down, is 2^52 + floor(u)
  // wherever 0 <= u < 2^52, whose high word is 2^52's exactly where u <
  // 2^32, floor(u) then in the low word. A larger high word up to
  // infinity's means u >= 2^32 > m + 0.5, so r > 1: m. A smaller one
  // (u < 0), a negative one or a NaN's: 0.
  const double f = __dadd_rd(m * r + 0.5, 4503599627370496.0);
  const int hi = __double2hiint(f);
  const unsigned lo = static_cast<unsigned>(__double2loint(f)), top = static_cast<unsigned>(m);
  if (hi == 0x43300000) return static_cast<int>(lo < top ? lo : top);
  return hi > 0x43300000 && hi <= 0x7ff00000 ? static_cast<int>(top) : 0;
#else
  if (!(r > 0)) return 0;
  if (r >= 1) return int(m);
  return int(::floor(m * r + 0.5));
#endif
}

}  // namespace xm
}  // namespace gpuimg
