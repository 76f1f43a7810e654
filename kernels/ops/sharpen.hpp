#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include "byte_lanes.hpp"
#include "op_spec.hpp"
#include "pixel.hpp"

namespace gpuimg {

// The 3x3 kernel with centre 1+4F, edge neighbours -F, corners 0. Pinned as
// v = c + F * (4c - n - s - e - w) in IEEE double: the Laplacian is an exact
// integer, so the product and the sum are each rounded once, identically on
// every backend; then rounded half up and clamped.
struct Sharpen {
  static constexpr const char* name = "sharpen";
  static constexpr const char* summary =
      "Sharpen with the 3x3 kernel [0,-F,0; -F,1+4F,-F; 0,-F,0]; F = 1 is the classic 5-point sharpen.";
  static constexpr const char* example = "--sharpen 0.8";
  static constexpr Kind kind = Kind::stencil;

  // F as a / 2^shift, for apply_bytes, if `fits`; `bias` is B / 2^shift there.
  struct Dyadic {
    bool fits;
    std::int32_t a, shift, bias;
  };
  struct Params {
    double amount;
    Dyadic dyadic;
  };
  static constexpr std::array<ParamSpec, 1> params{{{"F", ParamType::real, 0.0, 1000.0, "strength"}}};
  static Params make(const ParamValue* v) { return with_amount(v[0].number); }
  static Params with_amount(double f) { return {f, dyadic_form(f)}; }
  static std::array<ParamValue, 1> values(const Params& p) {
    ParamValue v{};
    v.number = p.amount;
    return {v};
  }
  GPUIMG_HD static int halo(const Params&) { return 1; }
  // On the 2-core development machine (scripts/bench_cpu_cost.sh): 8-bit
  // through the table below, 2.1 to 3.0 ns a sample; 16-bit, the pinned
  // double arithmetic, 8 to 11 ns, and up to 14.3 while the machine was busy.
  static CpuCost cpu_cost(const Params&) { return {4, 16}; }

  template <class View>
  GPUIMG_HD static void apply(const View& in, int x, int y, const Params& p, typename View::value_type* out) {
    using T = typename View::value_type;
    for (int c = 0; c < in.channels; ++c) {
      const int centre = in.at(x, y, c);
      const int lap = laplacian(in, x, y, c);
      out[c] = pinned<T>(centre, lap, p);
    }
  }

  // 8-bit samples (see ByteTable in op_spec.hpp). The Laplacian takes one
  // of 2041 values, and the result is clamp(c + round(F * L)) with F * L
  // rounded once, as the pinned formula has it, unless that product lies
  // within 2^-32 of a half-integer without being one. |c + F * L| < 2^20,
  // so the sum's own rounding moves it by at most 2^-34: it crosses no tie
  // of round-half-up otherwise, and rounding commutes with adding the
  // integer c. Those few entries are kUntabulated instead.
  static constexpr int table_size = 2041;

  GPUIMG_HD static std::int32_t table_entry(const Params& p, int index) {
    const double product = mul_rn(p.amount, exact_double(index - 1020));
    const double below = floor(product);
    const double frac = product - below;  // exact
    if (frac != 0.5 && fabs(frac - 0.5) <= 0x1p-32) return kUntabulated;
    const double rounded = below + (frac >= 0.5 ? 1 : 0);
    // c is 0..255, so any |k| >= 255 saturates the same way.
    return static_cast<std::int32_t>(rounded < -255 ? -255 : (rounded > 255 ? 255 : rounded));
  }

  template <bool MayMiss, class View>
  GPUIMG_HD static void apply(const View& in, int x, int y, const Params& p, const std::int32_t* table,
                              std::uint8_t* out) {
    for (int c = 0; c < in.channels; ++c) {
      const int centre = in.at(x, y, c);
      const int lap = laplacian(in, x, y, c);
      const int k = table[lap + 1020];
      if (MayMiss && k == kUntabulated) {
        out[c] = pinned<std::uint8_t>(centre, lap, p);
      } else {
        const int v = centre + k;
        out[c] = static_cast<std::uint8_t>(v < 0 ? 0 : (v > 255 ? 255 : v));
      }
    }
  }

  // ByteWords (see op_spec.hpp): four 8-bit samples at once, at any F.
  // Where F = a / 2^k, F * L and c + F * L are exact in doubles, and the
  // pinned result is floor(((2^k + 4a) c - a (n + s + e + w) + 2^k / 2) / 2^k),
  // clamped: integers. Each of the two 16-bit lanes adds a bias B >= 1020a,
  // a multiple of 2^k, so that it stays non-negative (and below 2^15, which
  // dyadic_form() checks), and the final add-and-clamp takes B / 2^k off
  // again. Any other F reads the word table.
  GPUIMG_HD static bool packs_bytes(const Params&) { return true; }
  static bool uses_word_table(const Params& p) { return !p.dyadic.fits; }

  // Entry L + 1020 of the word table gives the result at Laplacian L for
  // every centre c: clamp(c + k + (c >= c1)), with k + 256 in bits 0-8 and c1
  // in bits 16-24. c1 is 256 (no step) but at the entries that table_entry()
  // leaves kUntabulated. There F * L is a double p within 2^-32 below a
  // half-integer t, and c + p rounds up onto c + t where the doubles around
  // c + t are coarse enough: t - p is a multiple of p's ulp, so c + t must
  // be positive and, as c grows, at least one binade above |t|. Bit 15
  // marks those entries, so that words without them skip the step.
  static constexpr int word_table_size = table_size;
  static std::uint32_t word_table_entry(const Params& p, int index) {
    const std::int32_t k = table_entry(p, index);
    if (k != kUntabulated) return word_entry(k, 256);
    const double product = mul_rn(p.amount, exact_double(index - 1020));
    const double tie = std::floor(product) + 0.5;
    const int below = static_cast<int>(std::max(-256.0, std::min(255.0, tie - 0.5)));  // saturates as k does
    int c1 = 0;
    while (c1 <= 255 && add_rn(c1, product) < c1 + tie) ++c1;  // c + tie is exact
    if (c1 == 0) return word_entry(std::min(below + 1, 255), 256);
    return c1 == 256 ? word_entry(below, 256) : word_entry(below, c1) | kStepMark;
  }

  template <class Words>
  GPUIMG_HD static std::uint32_t apply_bytes(const Words& in, const Params& p, const std::uint32_t* table) {
    const std::uint32_t c = in.word(0, 0), n = in.word(0, -1), s = in.word(0, 1), w = in.word(-1, 0),
                        e = in.word(1, 0);
    const std::uint32_t even_c = even_bytes(c), odd_c = odd_bytes(c);
    const std::uint32_t even_n = even_bytes(n) + even_bytes(s) + even_bytes(w) + even_bytes(e);
    const std::uint32_t odd_n = odd_bytes(n) + odd_bytes(s) + odd_bytes(w) + odd_bytes(e);
    if (p.dyadic.fits) return join_bytes(lanes(even_c, even_n, p), lanes(odd_c, odd_n, p));
    return join_bytes(looked_up(even_c, even_n, table), looked_up(odd_c, odd_n, table));
  }

  // The lane form of F, if F = a / 2^k with k <= 15 and a lane's largest
  // value, (2^k + 4a) 255 + B + 2^k / 2, below 2^15.
  static Dyadic dyadic_form(double f) {
    for (int k = 0; k <= 15; ++k) {
      const double scaled = std::ldexp(f, k);  // exact
      if (scaled != std::floor(scaled)) continue;
      const std::int64_t a = static_cast<std::int64_t>(scaled), step = std::int64_t{1} << k;
      const std::int64_t bias = (1020 * a + step - 1) / step;
      if ((step + 4 * a) * 255 + bias * step + step / 2 >= 0x8000) break;  // a larger k only adds
      return {true, static_cast<std::int32_t>(a), k, static_cast<std::int32_t>(bias)};
    }
    return {false, 0, 0, 0};
  }

 private:
  // Two samples' results from their centres and neighbour sums, a lane each.
  GPUIMG_HD static std::uint32_t lanes(std::uint32_t centre, std::uint32_t neighbours, const Params& p) {
    const Dyadic& d = p.dyadic;
    const std::uint32_t t = centre * ((1u << d.shift) + 4 * d.a) +
                            both_lanes((d.bias << d.shift) + (1 << d.shift >> 1)) - neighbours * d.a;
    return add_clamp_lanes(t >> d.shift & both_lanes(0xffffu >> d.shift), both_lanes(0x10000u - d.bias),
                           both_lanes(255));
  }

  static constexpr std::uint32_t kStepMark = 0x8000;
  static std::uint32_t word_entry(int k, int c1) {
    return static_cast<std::uint32_t>(k + 256) | static_cast<std::uint32_t>(c1) << 16;
  }

  // The same from the word table: lane by lane, the index L + 1020 =
  // 4c + 1020 - neighbours (0..2040), the entry's k + 256 and, where marked,
  // its step, then c - 256 added and clamped.
  GPUIMG_HD static std::uint32_t looked_up(std::uint32_t centre, std::uint32_t neighbours,
                                           const std::uint32_t* table) {
    const std::uint32_t index = centre * 4 + both_lanes(1020) - neighbours;
    const std::uint32_t lo = table[index & 0xffffu], hi = table[index >> 16];
    std::uint32_t k = low_halves(lo, hi);
    if (k & both_lanes(kStepMark)) {
      // Bit 15 of a lane 0x8000 + c - c1 (c1 <= 256) is c >= c1.
      const std::uint32_t steps = ((centre | both_lanes(0x8000)) - high_halves(lo, hi)) >> 15 & both_lanes(1);
      k = (k & ~both_lanes(kStepMark)) + steps;
    }
    return add_clamp_lanes(centre | both_lanes(0xff00), k, both_lanes(255));
  }

  template <class View> GPUIMG_HD static int laplacian(const View& in, int x, int y, int c) {
    return 4 * in.at(x, y, c) - in.at(x, y - 1, c) - in.at(x - 1, y, c) - in.at(x + 1, y, c) - in.at(x, y + 1, c);
  }

  template <class T> GPUIMG_HD static T pinned(int centre, int lap, const Params& p) {
    return round_saturate<T>(add_rn(exact_double(centre), mul_rn(p.amount, exact_double(lap))));
  }
};

}  // namespace gpuimg
