#pragma once
// exp, log, log2, log10, sin, cos, tan, asin, acos, atan, atan2, hypot,
// pow, sinh, cosh, tanh, asinh, acosh, atanh, log1p, expm1, cbrt and exp2
// of --map expressions, written once for the host and the device: glibc
// and CUDA's libdevice give different bits, so neither is called. Only
// operations IEEE rounds correctly (+ - * / sqrt) or exactly (floor, fabs,
// fmin, fmax, copysign, frexp and ldexp of normal values) are used, never a
// fused multiply-add, so both sides run the same instructions and agree to
// the bit (test/gpu_expr_libm_test.cu). NaN results may differ in their payload
// bits between the sides; any NaN is a NaN to the expressions.
//
// What each guarantees. test/expr_libm_test.cpp holds every one within 2
// ulps of the correctly rounded result (long double references, 100,000
// seeded arguments each from test/support/libm_cases.hpp); in brackets,
// the largest error found over 3,000,000 of them.
//   exp(x)     under 1 ulp (0.75, a subnormal result); +inf above
//              ln(DBL_MAX) = 709.78, 0 below -745.13.
//   log(x)     under 1 ulp (0.79) for every positive double, subnormals
//              included; log(+-0) = -inf, log(x < 0) = NaN, log(inf) = inf.
//   log2, log10(x)  under 1 ulp (0.50, 0.50): e + log m / ln 2 and
//              log x / ln 10 as pairs, rounded once; a power of 2 or 10
//              gives its exponent exactly (log2(8) = 3, log10(1000) = 3,
//              log10(1e-5) = -5); log's values at 0, inf, NaN and x < 0.
//   sin, cos, tan(x)  under 1 ulp (0.75, 0.75, 0.92) for |x| < 2^29 (5.4e8):
//              x - k pi/2 is reduced exactly (Cody-Waite, pi/2 in four
//              24-bit pieces and a fifth double, 149 bits). From 2^29 on
//              the residual is no longer exact; it is clamped to
//              [-pi/4, pi/4], so that sin and cos stay in [-1, 1] and tan
//              is finite or NaN: deterministic, but with no accuracy.
//              sin and tan keep -0; inf and NaN give NaN.
//   atan2(y, x) under 1 ulp (0.69), C99 Annex F's values at zeros and
//              infinities: atan2(+-0, -0) = +-pi, atan2(+-0, +0) = +-0,
//              atan2(+-inf, -inf) = +-3pi/4, atan2(+-y, -inf) = +-pi, ...
//   atan(x)    atan2(x, 1) (0.63); atan(+-inf) = +-pi/2.
//   asin, acos(x)  under 1 ulp (0.75, 0.73): atan2(x, sqrt(1 - x^2)) and
//              atan2(sqrt(1 - x^2), x), the root as a pair; NaN outside
//              [-1, 1]; asin keeps -0, acos(1) = +0.
//   hypot(x, y) under 1 ulp (0.72, a subnormal result), with no
//              overflow or underflow on the way; hypot(+-inf, NaN) = +inf.
//   pow(x, y)  under 1 ulp (0.75), through exp(y log x) with log x as a
//              double-double, for results from subnormal to overflow.
//              C99 Annex F's cases: pow(x, +-0) = 1 and pow(1, y) = 1 even
//              for NaN, pow(-1, +-inf) = 1, a negative x with an integer y
//              signed by y's parity and NaN with any other y, pow(+-0,
//              y < 0) = +inf (-inf for -0 and an odd y). y = 1, 2, -1 and
//              0.5 give x, x * x, 1 / x and sqrt(x), rounded once.
//   sinh, cosh, tanh(x)  under 1 ulp (0.71, 0.58, 0.76): e^|x| and its
//              reciprocal as pairs, so that near 0 their difference keeps
//              its digits; sinh and cosh finite up to ln(2 DBL_MAX) =
//              710.48, tanh(+-inf) = +-1; sinh and tanh keep -0.
//   asinh, acosh, atanh(x)  under 1 ulp (0.50, 0.50, 0.50): the log of a
//              pair (the root's sum, the quotient) as log u.hi + u.lo /
//              u.hi; acosh NaN below 1, atanh +-inf at +-1 and NaN beyond.
//   log1p(x)   under 1 ulp (0.66): log of the pair 1 + x; -inf at -1.
//   expm1(x)   under 1 ulp (0.66): exp's m where k = 0; -1 below -38.
//   cbrt(x)    under 1 ulp (0.50): a Newton step on the cube as pairs
//              after exp(log(m) / 3); a perfect cube's root is exact.
//   exp2(x)    under 1 ulp (0.75); exact at integers, 0 from -1075.
// Any other NaN argument gives NaN.
//
// Algorithms: the textbook ones (Muller, "Elementary Functions"), written
// here: exp and the trig functions reduce by Cody-Waite, log by frexp to
// [sqrt(1/2), sqrt(2)) and s = f / (2 + f), atan by atan(c) + atan((t - c)
// / (1 + t c)) for c in {0, 1/2, 1}; products are made exact by Dekker's
// split. Polynomials are Chebyshev fits by scripts/libm_coefficients.py,
// which also prints every constant below.
namespace gpuimg {
namespace xm {
namespace libm {

// A value held as the unevaluated sum hi + lo, |lo| <= ulp(hi) / 2 once
// normalised.
struct Pair {
  double hi, lo;
};

GPUIMG_XM Pair two_sum(double a, double b) {
  const double s = a + b;
  const double bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}

// Needs |a| >= |b| (or a == 0).
GPUIMG_XM Pair fast_two_sum(double a, double b) {
  const double s = a + b;
  return {s, b - (s - a)};
}

// Dekker: a as two halves of 26 bits, whose products are exact. |a| < 2^995.
GPUIMG_XM Pair split(double a) {
  const double c = 134217729.0 * a;  // 2^27 + 1
  const double hi = c - (c - a);
  return {hi, a - hi};
}

GPUIMG_XM Pair two_prod(double a, double b) {
  const double p = a * b;
  const Pair x = split(a), y = split(b);
  return {p, ((x.hi * y.hi - p) + x.hi * y.lo + x.lo * y.hi) + x.lo * y.lo};
}

GPUIMG_XM Pair mul(Pair a, Pair b) {
  const Pair p = two_prod(a.hi, b.hi);
  return fast_two_sum(p.hi, p.lo + (a.hi * b.lo + a.lo * b.hi));
}

GPUIMG_XM Pair add(Pair a, Pair b) {
  const Pair s = two_sum(a.hi, b.hi);
  return fast_two_sum(s.hi, s.lo + (a.lo + b.lo));
}

// n / d, n and d as pairs (their lo parts small), to about 2^-104.
GPUIMG_XM Pair div(Pair n, Pair d) {
  const double q = n.hi / d.hi;
  const Pair p = two_prod(q, d.hi);
  return {q, (((n.hi - p.hi) - p.lo) + (n.lo - q * d.lo)) / d.hi};
}

// c0 + z (c1 + z (c2 + ...)), unrolled at compile time: no array for the
// device to index.
GPUIMG_XM double horner(double, double c) { return c; }

template <typename... Rest>
GPUIMG_XM double horner(double z, double c, Rest... rest) {
  return c + z * horner(z, rest...);
}

// The Chebyshev fits of scripts/libm_coefficients.py.
// (e^r - 1 - r) / r^2 on |r| <= ln2 / 2, degree 10.
GPUIMG_XM double exp_poly(double r) {
  return horner(r, 0.5, 0.1666666666666667, 0.04166666666666667, 0.008333333333326136, 0.001388888888888375,
                0.00019841269874815834, 2.480158732554432e-05, 2.7557255406285044e-06, 2.7557273647451087e-07,
                2.5105214474751413e-08, 2.0914685161418067e-09);
}

// ((2 atanh s - 2s) / s^3 - 2/3) / z, z = s^2 <= 0.0295, degree 7.
GPUIMG_XM double log_poly(double z) {
  return horner(z, 0.4, 0.28571428571429364, 0.22222222221655885, 0.18181818335392802, 0.1538459496251843,
                0.1333480469384731, 0.11706236339491206, 0.11723178623876518);
}

// (sin r - r) / r^3, z = r^2 <= 0.62, degree 6.
GPUIMG_XM double sin_poly(double z) {
  return horner(z, -0.16666666666666666, 0.008333333333333331, -0.0001984126984126494, 2.7557319219243677e-06,
                -2.505210619936182e-08, 1.6058526388142101e-10, -7.586389554705215e-13);
}

// (cos r - 1 + z/2) / z^2, z = r^2 <= 0.62, degree 5.
GPUIMG_XM double cos_poly(double z) {
  return horner(z, 0.041666666666666664, -0.0013888888888887359, 2.48015872987077e-05, -2.755731724172776e-07,
                2.0876140031390975e-09, -1.138218421447753e-11);
}

// (atan u - u) / u^3, z = u^2 <= 0.1915, degree 11.
GPUIMG_XM double atan_poly(double z) {
  return horner(z, -0.3333333333333333, 0.19999999999999407, -0.1428571428556615, 0.11111111096587765,
                -0.09090908353049669, 0.0769228548876496, -0.06666240859375808, 0.0587693549653035,
                -0.05216607416783708, 0.044919637149159995, -0.033121323310643644, 0.01476642155379467);
}

// Not a constant expression: the compilers warn of one that overflows.
GPUIMG_XM double infinity() { return ::ldexp(1.0, 1024); }

// p 2^k rounded once: ldexp is exact while the result is normal; a
// subnormal result takes one IEEE multiplication, rounded alike on both
// sides.
GPUIMG_XM double scale2(double p, int k) {
  if (k < -1000) return ::ldexp(p, k + 600) * 0x1p-600;
  return ::ldexp(p, k);
}

// frexp, with a subnormal x first scaled to a normal one, so that no side
// relies on its library's subnormal path.
GPUIMG_XM double frexp_exact(double x, int* e) {
  if (!(::fabs(x) < 0x1p-1022)) return ::frexp(x, e);
  const double m = ::frexp(x * 0x1p54, e);
  *e -= 54;
  return m;
}

// ln 2 with a 32-bit head: k ln2_hi is exact for |k| < 2^21.
constexpr double ln2_hi = 0.6931471803691238, ln2_lo = 1.9082149292705877e-10;

// e^(hi + lo) = 2^k (1 + m), |lo| small against hi's ulp, |hi| <= 746:
// k, and m = e^r - 1 as a pair (its lo not normalised), r = hi + lo - k ln 2.
struct ExpParts {
  double k;
  Pair m;
};

GPUIMG_XM ExpParts exp_parts(double hi, double lo) {
  const double k = ::floor(hi * 1.4426950408889634 + 0.5);
  // Exact: k ln2_hi is, and hi lies within a factor 2 of it (Sterbenz).
  const Pair r = two_sum(hi - k * ln2_hi, lo - k * ln2_lo);
  // e^r = 1 + r + r^2 E(r), summed as pairs so that only the last
  // addition rounds at the result's scale; e^(r + lo) ~ e^r (1 + lo).
  const Pair s = fast_two_sum(r.hi, r.hi * r.hi * exp_poly(r.hi));
  return {k, {s.hi, s.lo + r.lo * (1.0 + s.hi)}};
}

// e^(hi + lo), |lo| small against hi's ulp.
GPUIMG_XM double exp_pair(double hi, double lo) {
  if (hi != hi) return hi;
  if (hi > 710.0) return infinity();
  if (hi < -746.0) return 0.0;
  const ExpParts e = exp_parts(hi, lo);
  const Pair one_m = fast_two_sum(1.0, e.m.hi);
  return scale2(one_m.hi + (one_m.lo + e.m.lo), static_cast<int>(e.k));
}

// e^a as a pair, to about 2^-100 relative, for |a| <= 700.
GPUIMG_XM Pair exp_as_pair(double a) {
  const ExpParts e = exp_parts(a, 0.0);
  const Pair one_m = add({1.0, 0.0}, e.m);
  const int k = static_cast<int>(e.k);
  return {::ldexp(one_m.hi, k), ::ldexp(one_m.lo, k)};
}

// e^a / 2 for a > 22, where e^-a is below the result's rounding: e^(a -
// ln 2), which stays finite up to ln(2 DBL_MAX) = 710.48, past e^a's
// overflow.
GPUIMG_XM double half_exp(double a) {
  const Pair h = two_sum(a, -0.6931471805599453);
  return exp_pair(h.hi, h.lo - 2.3190468138462996e-17);
}

// log m as a pair, to about 2^-64 relative, for positive finite x =
// m 2^e with m in [sqrt(1/2), sqrt(2)).
GPUIMG_XM Pair log_mantissa(double x, int* e) {
  double m = frexp_exact(x, e);
  if (m < 0.70710678118654757) {
    m *= 2.0;
    --*e;
  }
  // log m = log(1 + f) = 2 atanh s = 2s + s^3 (2/3 + z Q(z)), z = s^2.
  const double f = m - 1.0;  // exact (Sterbenz)
  const double d = 2.0 + f;
  const Pair s = div({f, 0.0}, {d, f - (d - 2.0)});
  const Pair z = mul(s, s);
  const Pair p = fast_two_sum(0.6666666666666666, z.hi * log_poly(z.hi) + 3.700743415417188e-17);
  return add({2.0 * s.hi, 2.0 * s.lo}, mul(mul(s, z), p));
}

// log x as a pair, to about 2^-64 relative, for positive finite x.
GPUIMG_XM Pair log_pair(double x) {
  int e = 0;
  const Pair log_m = log_mantissa(x, &e);
  const double k = e;
  return add({k * ln2_hi, k * ln2_lo}, log_m);
}

// log(u.hi + u.lo) for u.hi positive and finite, |u.lo| <= ulp(u.hi):
// log u.hi + u.lo / u.hi, the next term, (u.lo / u.hi)^2 / 2, far below
// the result's rounding. Accurate where u is near 1 as far as the pair u
// is: log1p, asinh, acosh and atanh build u as a pair so that it is.
GPUIMG_XM double log_of_pair(Pair u) {
  const Pair l = log_pair(u.hi);
  return l.hi + (l.lo + u.lo / u.hi);
}

// The cases every log shares: NaN, inf, 0 and negative x. True when
// *out holds the answer.
GPUIMG_XM bool log_special(double x, double* out) {
  if (x != x || x == infinity()) *out = x;
  else if (x < 0) *out = (x - x) / (x - x);  // NaN
  else if (x == 0) *out = -infinity();
  else return false;
  return true;
}

// x - k pi/2 as a pair, with k's quadrant (k mod 4).
struct Reduced {
  Pair r;
  int quadrant;
};

GPUIMG_XM Reduced reduce_half_pi(double x) {
  const double k = ::floor(x * 0.6366197723675814 + 0.5);
  // pi/2 in 24-bit pieces: k times each is exact for |k| < 2^29, x - k p1
  // is exact (Sterbenz), and each later difference exact where the
  // residual is small, where it matters.
  Pair a = two_sum(x - k * 1.570796251296997, -k * 7.549789415861596e-08);
  double err = a.lo;
  a = two_sum(a.hi, -k * 5.390302529957765e-15);
  err += a.lo;
  a = two_sum(a.hi, -k * 3.282003415807913e-22);
  err += a.lo;
  Pair r = two_sum(a.hi, err - k * 1.2706558760139879e-29);
  if (!(::fabs(x) < 0x1p29)) r = {::fmin(::fmax(r.hi, -0.7853981633974483), 0.7853981633974483), 0.0};
  return {r, static_cast<int>(k - 4.0 * ::floor(k * 0.25))};
}

// sin and cos of a residual |r| <= pi/4 (and a little), as normalised pairs.
GPUIMG_XM Pair sin_pair(Pair r) {
  const double z = r.hi * r.hi;
  // sin r = r + r^3 S(z); sin(r + lo) ~ sin r + lo (1 - z/2).
  return fast_two_sum(r.hi, z * r.hi * sin_poly(z) + r.lo * (1.0 - 0.5 * z));
}

GPUIMG_XM Pair cos_pair(Pair r) {
  // cos r = 1 - z/2 + z^2 C(z), with z = r^2 exact and 1 - z/2's rounding
  // error recovered; cos(r + lo) ~ cos r - r lo.
  const Pair z = two_prod(r.hi, r.hi);
  const double hz = 0.5 * z.hi;
  const double w = 1.0 - hz;
  return fast_two_sum(w, ((1.0 - w) - hz) + (z.hi * z.hi * cos_poly(z.hi) - (0.5 * z.lo + r.hi * r.lo)));
}

// sin of x, or cos when shift is 1 (cos x = sin(x + pi/2)).
GPUIMG_XM double sin_shifted(double x, int shift) {
  const Reduced red = reduce_half_pi(x);
  const int q = (red.quadrant + shift) & 3;
  const double v = (q & 1) ? cos_pair(red.r).hi : sin_pair(red.r).hi;
  return (q & 2) ? -v : v;
}

// The angle of a ratio t + t_lo in [0, 1] (the smaller side over the
// larger, as a pair): atan t, pi/2 - atan t when steep (y the larger), and
// pi minus that when x < 0.
GPUIMG_XM double atan_ratio(double t, double t_lo, bool steep, bool negative_x) {
  // atan t = atan c + atan u, u = (t - c) / (1 + t c), |u| <= 7/16.
  Pair num{t, t_lo}, den{1.0, 0.0}, c{0.0, 0.0};
  if (t > 0.6875) {
    const double d = t + 1.0;
    num = {t - 1.0, t_lo};
    den = {d, t - (d - 1.0)};
    c = {0.7853981633974483, 3.061616997868383e-17};
  } else if (t > 0.4375) {
    const double d = 2.0 + t;
    num = {2.0 * t - 1.0, 2.0 * t_lo};
    den = {d, t - (d - 2.0)};
    c = {0.4636476090008061, 2.2698777452961687e-17};
  }
  const Pair u = (c.hi == 0.0) ? num : div(num, den);
  const double z = u.hi * u.hi;
  const double tail = u.lo + z * u.hi * atan_poly(z);
  // The angle is offset + sign (c + u + tail): pi/2 - atan t when steep,
  // pi - that when x < 0.
  double sign = steep ? -1.0 : 1.0;
  Pair offset{steep ? 1.5707963267948966 : 0.0, steep ? 6.123233995736766e-17 : 0.0};
  if (negative_x) {
    sign = -sign;
    offset = {3.141592653589793 - offset.hi, 1.2246467991473532e-16 - offset.lo};  // exact: pi_hi - pi_hi / 2
  }
  const Pair k = two_sum(offset.hi, sign * c.hi);
  const Pair m = two_sum(k.hi, sign * u.hi);
  return m.hi + (m.lo + (k.lo + (offset.lo + sign * c.lo)) + sign * tail);
}

// atan2(y, x) for finite, nonzero x and y, before y's sign.
GPUIMG_XM double atan2_finite(double ay, double ax, bool negative_x) {
  const bool steep = ay > ax;
  const double a = steep ? ax : ay, b = steep ? ay : ax;
  // t = a / b <= 1 as a pair; b scaled to [0.5, 1) keeps Dekker's split
  // from overflowing.
  const double t = a / b;
  double t_lo = 0.0;
  if (t > 0x1p-900) {
    int e = 0;
    const double bs = frexp_exact(b, &e);
    t_lo = div({::ldexp(a, -e), 0.0}, {bs, 0.0}).lo;
  }
  return atan_ratio(t, t_lo, steep, negative_x);
}

// atan2 of two nonnegative pairs, not both zero and neither near overflow.
GPUIMG_XM double atan2_pairs(Pair ay, Pair ax, bool negative_x) {
  const bool steep = ay.hi > ax.hi;
  const Pair t = steep ? div(ax, ay) : div(ay, ax);
  return atan_ratio(t.hi, t.hi > 0x1p-900 ? t.lo : 0.0, steep, negative_x);
}

// sqrt(d) as a pair, for a nonnegative pair d below overflow: the root
// of d.hi and one Newton step on the square, as hypot's.
GPUIMG_XM Pair sqrt_pair(Pair d) {
  const double s = ::sqrt(d.hi);
  if (s == 0) return {0.0, 0.0};
  const Pair ss = two_prod(s, s);
  return {s, (((d.hi - ss.hi) - ss.lo) + d.lo) / (2.0 * s)};
}

// sqrt(1 - x^2) as a pair for |x| <= 1, from 1 - x^2 to about 2^-104:
// (1 - |x|)(1 + |x|) from 1/2 on, where 1 - |x| is exact (Sterbenz), and
// 1 - x x with x x exact below. The textbook form, sqrt of the rounded
// (1 - x)(1 + x), cost asin up to 1.66 ulp (at x = -0.0624) and acos 1.49
// (near 1) over 3,000,000 arguments; this form 0.75 and 0.73.
GPUIMG_XM Pair cos_of_sin(double x) {
  const double ax = ::fabs(x);
  Pair d;
  if (ax >= 0.5) {
    d = mul({1.0 - ax, 0.0}, two_sum(1.0, ax));
  } else {
    const Pair sq = two_prod(ax, ax);
    const Pair q = two_sum(1.0, -sq.hi);
    d = fast_two_sum(q.hi, q.lo - sq.lo);
  }
  return sqrt_pair(d);
}
}  // namespace libm

GPUIMG_XM_CALL double exp(double a) { return libm::exp_pair(a, 0.0); }

GPUIMG_XM_CALL double log(double a) {
  double special = 0;
  if (libm::log_special(a, &special)) return special;
  // log_pair's steps in plain doubles, ordered as fdlibm's log so that
  // log(1 + f) = f - f^2/2 + s (f^2/2 + R) rounds f, the largest term, last.
  int e = 0;
  double m = libm::frexp_exact(a, &e);
  if (m < 0.70710678118654757) {
    m *= 2.0;
    --e;
  }
  const double f = m - 1.0, k = e;
  const double s = f / (2.0 + f), z = s * s;
  const double half_f2 = 0.5 * f * f;
  const double r = z * (0.6666666666666666 + z * libm::log_poly(z));
  return k * libm::ln2_hi - ((half_f2 - (s * (half_f2 + r) + k * libm::ln2_lo)) - f);
}

// e + log m / ln 2, as pairs, rounded once: exactly e at m = 1.
GPUIMG_XM_CALL double log2(double a) {
  double special = 0;
  if (libm::log_special(a, &special)) return special;
  int e = 0;
  const libm::Pair log_m = libm::log_mantissa(a, &e);
  return libm::add({static_cast<double>(e), 0.0}, libm::mul(log_m, {1.4426950408889634, 2.0355273740931033e-17})).hi;
}

// log x / ln 10, as pairs, rounded once: the pair's 2^-64 leaves a power
// of 10 its exact exponent.
GPUIMG_XM_CALL double log10(double a) {
  double special = 0;
  if (libm::log_special(a, &special)) return special;
  return libm::mul(libm::log_pair(a), {0.4342944819032518, 1.098319650216765e-17}).hi;
}

GPUIMG_XM_CALL double sin(double a) {
  if (!(::fabs(a) < libm::infinity())) return a - a;  // NaN
  if (::fabs(a) < 0x1p-26) return a;                  // a^3 / 6 is below half an ulp; keeps -0
  return libm::sin_shifted(a, 0);
}

GPUIMG_XM_CALL double cos(double a) {
  if (!(::fabs(a) < libm::infinity())) return a - a;
  if (::fabs(a) < 0x1p-27) return 1.0;
  return libm::sin_shifted(a, 1);
}

GPUIMG_XM_CALL double tan(double a) {
  if (!(::fabs(a) < libm::infinity())) return a - a;
  if (::fabs(a) < 0x1p-27) return a;
  const libm::Reduced red = libm::reduce_half_pi(a);
  const libm::Pair s = libm::sin_pair(red.r), c = libm::cos_pair(red.r);
  // tan = sin / cos in even quadrants, -cos / sin in odd ones, divided as
  // pairs so that the quotient is rounded once more only.
  const libm::Pair q = (red.quadrant & 1) ? libm::div({-c.hi, -c.lo}, s) : libm::div(s, c);
  return q.hi + q.lo;
}

GPUIMG_XM_CALL double atan2(double y, double x) {
  if (x != x || y != y) return x + y;
  const double inf = libm::infinity();
  const double ax = ::fabs(x), ay = ::fabs(y);
  const bool negative_x = ::copysign(1.0, x) < 0;  // -0 included
  const double pi = 3.141592653589793, half_pi = 1.5707963267948966;
  double angle;
  if (ay == 0)
    angle = negative_x ? pi : 0.0;
  else if (ax == inf && ay == inf)
    angle = negative_x ? 2.356194490192345 : 0.7853981633974483;
  else if (ax == 0 || ay == inf)
    angle = half_pi;
  else if (ax == inf)
    angle = negative_x ? pi : 0.0;
  else
    angle = libm::atan2_finite(ay, ax, negative_x);
  return ::copysign(angle, y);
}

GPUIMG_XM_CALL double atan(double a) { return xm::atan2(a, 1.0); }

// atan2(x, sqrt(1 - x^2)), the root as a pair (libm::cos_of_sin).
GPUIMG_XM_CALL double asin(double a) {
  if (!(::fabs(a) <= 1.0)) return (a - a) / (a - a);  // NaN, for NaN and |a| > 1
  return ::copysign(libm::atan2_pairs({::fabs(a), 0.0}, libm::cos_of_sin(a), false), a);
}

// atan2(sqrt(1 - x^2), x), likewise.
GPUIMG_XM_CALL double acos(double a) {
  if (!(::fabs(a) <= 1.0)) return (a - a) / (a - a);
  return libm::atan2_pairs(libm::cos_of_sin(a), {::fabs(a), 0.0}, a < 0);
}

GPUIMG_XM_CALL double hypot(double a, double b) {
  const double inf = libm::infinity();
  const double x = ::fabs(a), y = ::fabs(b);
  if (x == inf || y == inf) return inf;
  if (x != x || y != y) return x + y;
  const double big = ::fmax(x, y), small = ::fmin(x, y);
  if (big == 0) return 0.0;
  // Scaled so that big is in [0.5, 1): no overflow, and a small that
  // underflows there is below big's rounding anyway.
  int e = 0;
  const double bs = libm::frexp_exact(big, &e), ss = ::ldexp(small, -e);
  const libm::Pair sum = libm::add(libm::two_prod(bs, bs), libm::two_prod(ss, ss));
  const double h = ::sqrt(sum.hi);
  // One Newton step on the exact square: h + (sum - h^2) / 2h.
  const libm::Pair hh = libm::two_prod(h, h);
  const double corrected = h + (((sum.hi - hh.hi) - hh.lo) + sum.lo) / (2.0 * h);
  return libm::scale2(corrected, e);
}

GPUIMG_XM_CALL double pow(double x, double y) {
  if (y == 0 || x == 1) return 1.0;
  if (x != x || y != y) return x + y;
  const double inf = libm::infinity();
  const double ax = ::fabs(x);
  if (::fabs(y) == inf) {
    if (ax == 1) return 1.0;
    return (ax < 1) == (y < 0) ? inf : 0.0;
  }
  const bool integer = ::floor(y) == y;
  if (x < 0 && ax != inf && !integer) return (x - x) / (x - x);  // NaN
  // y / 2 is exact; every y of 2^53 and more is even.
  const bool odd = integer && ::floor(y * 0.5) * 2.0 != y;
  const double sign = odd && ::copysign(1.0, x) < 0 ? -1.0 : 1.0;  // -0 and -inf included
  if (ax == 0) return sign * (y < 0 ? inf : 0.0);
  if (ax == inf) return sign * (y < 0 ? 0.0 : inf);
  if (ax == 1) return sign;  // x = -1
  // Rounded once where one operation is the power.
  if (y == 1) return x;
  if (y == 2) return x * x;
  if (y == -1) return 1.0 / x;
  if (y == 0.5) return ::sqrt(x);
  const libm::Pair l = libm::log_pair(ax);
  // Far past overflow or underflow (checked first, as a y this large would
  // overflow the split of y * log x).
  const double guess = y * l.hi;
  if (!(::fabs(guess) < 746.0)) return sign * (guess > 0 ? inf : 0.0);
  const libm::Pair p = libm::two_prod(y, l.hi);
  return sign * libm::exp_pair(p.hi, p.lo + y * l.lo);
}

// e^x - 1, through e^x = 2^k (1 + m): m itself where k = 0, so that it
// keeps the digits of a small x that e^x - 1 would cancel; else 2^k (1 +
// m - 2^-k), the subtraction in pairs.
GPUIMG_XM_CALL double expm1(double a) {
  if (a != a) return a;
  if (a > 710.0) return libm::infinity();
  if (a < -38.0) return -1.0;         // e^a is below half an ulp of 1
  if (::fabs(a) < 0x1p-54) return a;  // a^2 / 2 is below half an ulp of a; keeps -0
  const libm::ExpParts e = libm::exp_parts(a, 0.0);
  if (e.k == 0) return e.m.hi + e.m.lo;
  const libm::Pair t = libm::add(libm::two_sum(1.0, -::ldexp(1.0, -static_cast<int>(e.k))), e.m);
  return libm::scale2(t.hi + t.lo, static_cast<int>(e.k));
}

// log(1 + x), 1 + x taken exactly as a pair.
GPUIMG_XM_CALL double log1p(double a) {
  if (a != a || a == libm::infinity()) return a;
  if (a < -1.0) return (a - a) / (a - a);  // NaN
  if (a == -1.0) return -libm::infinity();
  if (::fabs(a) < 0x1p-54) return a;  // keeps -0
  return libm::log_of_pair(libm::two_sum(1.0, a));
}

// 2^x: exact at integers; else 2^k e^(f ln 2), x = k + f, |f| <= 1/2
// exactly, f ln 2 as a pair.
GPUIMG_XM_CALL double exp2(double a) {
  if (a != a) return a;
  if (a >= 1024.0) return libm::infinity();
  if (a <= -1075.0) return 0.0;  // 2^-1075 is halfway to the smallest subnormal, and rounds to even 0
  const double k = ::floor(a + 0.5), f = a - k;
  if (f == 0) return libm::scale2(1.0, static_cast<int>(k));
  const libm::Pair p = libm::two_prod(f, 0.6931471805599453);
  return libm::scale2(libm::exp_pair(p.hi, p.lo + f * 2.3190468138462996e-17), static_cast<int>(k));
}

// Of x = m 2^3q (m in [1/2, 4)): 2^q times exp(log(m) / 3), with one Newton
// step on the cube taken in pairs, so that a perfect cube's root is exact.
GPUIMG_XM_CALL double cbrt(double a) {
  const double ax = ::fabs(a);
  if (ax == 0 || !(ax < libm::infinity())) return a;  // +-0, +-inf, NaN
  int e = 0;
  double m = libm::frexp_exact(ax, &e);
  const int q = (e >= 0 ? e : e - 2) / 3;  // floor(e / 3)
  m = ::ldexp(m, e - 3 * q);
  const double y = xm::exp(xm::log(m) / 3.0);
  const libm::Pair cube = libm::mul(libm::two_prod(y, y), {y, 0.0});
  const double residual = (m - cube.hi) - cube.lo;  // m - cube.hi is exact (Sterbenz)
  return ::copysign(::ldexp(y + residual / (3.0 * y * y), q), a);
}

// (e^x - e^-x) / 2 with e^|x| and its reciprocal as pairs: their
// difference cancels, but not the pairs' digits, down to |x| = 2^-26,
// below which sinh x rounds to x.
GPUIMG_XM_CALL double sinh(double a) {
  const double ax = ::fabs(a);
  if (!(ax < libm::infinity()) || ax < 0x1p-26) return a;  // +-inf, NaN, and keeps -0
  if (ax > 22.0) return ::copysign(libm::half_exp(ax), a);
  const libm::Pair p = libm::exp_as_pair(ax), q = libm::div({1.0, 0.0}, p);
  const libm::Pair d = libm::add(p, {-q.hi, -q.lo});
  return ::copysign(0.5 * (d.hi + d.lo), a);
}

GPUIMG_XM_CALL double cosh(double a) {
  const double ax = ::fabs(a);
  if (!(ax < libm::infinity())) return ax;
  if (ax < 0x1p-26) return 1.0;  // x^2 / 2 is below half an ulp of 1
  if (ax > 22.0) return libm::half_exp(ax);
  const libm::Pair p = libm::exp_as_pair(ax), q = libm::div({1.0, 0.0}, p);
  const libm::Pair s = libm::add(p, q);
  return 0.5 * (s.hi + s.lo);
}

// (e^2x - 1) / (e^2x + 1), e^2|x| - 1 as a pair.
GPUIMG_XM_CALL double tanh(double a) {
  const double ax = ::fabs(a);
  if (a != a || ax < 0x1p-27) return a;  // x^3 / 3 is below half an ulp of x; keeps -0
  if (ax >= 20.0) return ::copysign(1.0, a);  // 1 - tanh x < 2 e^-2x, below half an ulp of 1
  const libm::Pair d = libm::add(libm::exp_as_pair(2.0 * ax), {-1.0, 0.0});
  const libm::Pair t = libm::div(d, libm::add(d, {2.0, 0.0}));
  return ::copysign(t.hi + t.lo, a);
}

// log(|x| + sqrt(x^2 + 1)), the sum and root as pairs; past 2^28,
// log|x| + ln 2 (x^2 would overflow, and 1/x^2 is below the rounding).
GPUIMG_XM_CALL double asinh(double a) {
  const double ax = ::fabs(a);
  if (!(ax < libm::infinity()) || ax < 0x1p-26) return a;  // x^3 / 6 is below half an ulp of x
  if (ax > 0x1p28)
    return ::copysign(libm::add(libm::log_pair(ax), {0.6931471805599453, 2.3190468138462996e-17}).hi, a);
  const libm::Pair root = libm::sqrt_pair(libm::add({1.0, 0.0}, libm::two_prod(ax, ax)));
  return ::copysign(libm::log_of_pair(libm::add({ax, 0.0}, root)), a);
}

// log(x + sqrt(x^2 - 1)), x^2 - 1 as (x - 1)(x + 1) in pairs near 1,
// where x - 1 is exact; NaN below 1.
GPUIMG_XM_CALL double acosh(double a) {
  if (!(a >= 1.0)) return (a - a) / (a - a);  // NaN, for NaN too
  if (a == libm::infinity()) return a;
  if (a > 0x1p28) return libm::add(libm::log_pair(a), {0.6931471805599453, 2.3190468138462996e-17}).hi;
  const libm::Pair square = a <= 2.0 ? libm::mul({a - 1.0, 0.0}, libm::two_sum(a, 1.0))
                                     : libm::add(libm::two_prod(a, a), {-1.0, 0.0});
  return libm::log_of_pair(libm::add({a, 0.0}, libm::sqrt_pair(square)));
}

// log((1 + x) / (1 - x)) / 2, the quotient as a pair; +-inf at +-1, NaN
// beyond.
GPUIMG_XM_CALL double atanh(double a) {
  const double ax = ::fabs(a);
  if (!(ax <= 1.0)) return (a - a) / (a - a);  // NaN, for NaN too
  if (ax == 1.0) return ::copysign(libm::infinity(), a);
  if (ax < 0x1p-27) return a;  // x^3 / 3 is below half an ulp of x; keeps -0
  const libm::Pair q = libm::div(libm::two_sum(1.0, ax), libm::two_sum(1.0, -ax));
  return ::copysign(0.5 * libm::log_of_pair(q), a);
}

}  // namespace xm
}  // namespace gpuimg
