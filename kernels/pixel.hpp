#pragma once
// Border, rounding and saturation rules, shared by the CPU backend, the
// shared-memory tile loader and every kernel, so both backends agree to the bit.
#include <cmath>
#include <cstdint>

#if defined(__CUDACC__)
#define GPUIMG_HD __host__ __device__ __forceinline__
#else
#define GPUIMG_HD inline
#endif

namespace gpuimg {

template <class T> struct SampleTraits;
template <> struct SampleTraits<std::uint8_t> { static constexpr int max = 255; };
template <> struct SampleTraits<std::uint16_t> { static constexpr int max = 65535; };

// Border replicate: coordinates outside [0, n) take the nearest edge sample.
GPUIMG_HD int clamp_index(int i, int n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }

// Gray from RGB: Y = (4899 R + 9617 G + 1868 B + 8192) >> 14, the BT.601
// weights in 14-bit fixed point, as OpenCV's cvtColor(RGB2GRAY) computes
// 8-bit images; the same at 16 bits, where the sum still fits 31 bits
// (65535 * 2^14 + 2^13). --grayscale and the writers' colour-to-gray
// conversion both use it, so the two give the same bytes.
GPUIMG_HD int bt601_gray(int r, int g, int b) { return (4899 * r + 9617 * g + 1868 * b + 8192) >> 14; }

// Alpha is the last channel of gray+alpha and RGBA.
GPUIMG_HD bool is_alpha(int c, int channels) { return (channels == 2 || channels == 4) && c == channels - 1; }

// IEEE double multiply, add and divide, each rounded once. On the device the explicit
// _rn intrinsics keep nvcc from fusing them into an FMA whatever the flags;
// on the host -ffp-contract=off does the same.
GPUIMG_HD double mul_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
GPUIMG_HD double add_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}

GPUIMG_HD double div_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __ddiv_rn(a, b);
#else
  return a / b;
#endif
}

// An int as a double, exactly. On the device this assembles 2^52 + 2^51 +
// 2^31 + i from its bits and subtracts the offset: one full-rate add where
// a conversion instruction runs at a quarter of the rate.
GPUIMG_HD double exact_double(int i) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(__hiloint2double(0x43380000, static_cast<int>(static_cast<unsigned>(i) ^ 0x80000000u)),
                   -6755401588539392.0);
#else
  return i;
#endif
}

// Round half up, then clamp to the sample range. v - floor(v) is exact, so
// no value just under .5 is pushed over by the addition that floor(v + 0.5)
// would do.
template <class T> GPUIMG_HD T round_saturate(double v) {
  constexpr int hi = SampleTraits<T>::max;
#if defined(__CUDA_ARCH__)
  // v + 2^52 rounded down lands on the integer grid: floor(v) + 2^52, whose
  // low word is floor(v). Full-rate adds instead of floor and a conversion,
  // and selects instead of branches; out-of-range v is selected away.
  const double r = __dadd_rd(v, 0x1p52);
  const double f = __dadd_rn(r, -0x1p52);
  const int rounded = __double2loint(r) + (__dadd_rn(v, -f) >= 0.5 ? 1 : 0);
  return T(v >= 0.5 ? (v >= hi ? hi : rounded) : 0);
#else
  if (!(v >= 0.5)) return T(0);
  if (v >= hi) return T(hi);
  const double f = floor(v);
  return T(static_cast<int>(f) + (v - f >= 0.5 ? 1 : 0));
#endif
}

// Mean of n integer samples, rounded half up: (sum + n/2) / n.
template <class Acc> GPUIMG_HD Acc rounded_mean(Acc sum, Acc n) { return (sum + n / 2) / n; }

// Whether `mean`, a map monotone in the sum, gives (sum + n/2) / n for every
// sum in [0, max_sum]. Monotone, it suffices that it is right on both sides
// of every step of the true quotient: at the smallest sum of each quotient
// and at the sum just below. Host only: it checks a divider before use.
template <class Mean> bool matches_rounded_mean(const Mean& mean, std::uint64_t n, std::uint64_t max_sum) {
  const std::uint64_t last = (max_sum + n / 2) / n;
  for (std::uint64_t q = 1; q <= last; ++q) {
    const std::uint64_t s = q * n - n / 2;  // the smallest sum whose rounded mean is q
    if (mean(s - 1) != q - 1 || mean(s) != q) return false;
  }
  return mean(std::uint64_t{0}) == 0 && mean(max_sum) == last;
}

}  // namespace gpuimg
