#pragma once
// Box blur as two exact integer passes, each a sliding window sum: O(1) work
// per pixel at any radius. The line functions below are the CUDA kernels'
// algorithm; the CPU backend (lib/cpu_blur.cpp) computes the same sums in
// the other order, columns first, a band of rows per thread.
#include <array>
#include <cstddef>
#include <cstdint>

#include "op_spec.hpp"
#include "pixel.hpp"

namespace gpuimg {

struct Blur {
  static constexpr const char* name = "blur";
  static constexpr const char* summary =
      "Box blur: the mean over the (2R+1)x(2R+1) window, border replicate, exact, rounded half up.";
  static constexpr const char* example = "--blur 3";
  static constexpr Kind kind = Kind::custom;

  struct Params {
    std::int32_t radius;
  };
  static constexpr std::array<ParamSpec, 1> params{{{"R", ParamType::integer, 1, 4096, "radius in pixels"}}};
  static Params make(const ParamValue* v) { return {static_cast<std::int32_t>(v[0].number)}; }
  static std::array<ParamValue, 1> values(const Params& p) {
    ParamValue v{};
    v.number = p.radius;
    return {v};
  }

  // Its own paths: lib/cpu_blur.cpp and kernels/box_blur.cu.
  static void run_cpu(const CpuStage& s, const Params& p);
  static int launch(const CudaStage& s, const Params& p);  // a cudaError_t

  // lib/cpu_blur.cpp keeps window sums in signed 32 bits while n * max fits
  // (8-bit up to R = 1450, 16-bit up to R = 90), in 64 bits beyond. Measured
  // on the 2-core development machine, the slowest channel count and run:
  // 2.85 and 6.65 ns at 8 bits, 4.60 and 8.50 at 16.
  static CpuCost cpu_cost(const Params& p) {
    return {cpu_sums_fit_int32(p.radius, 255) ? 3.0 : 7.0, cpu_sums_fit_int32(p.radius, 65535) ? 5.0 : 8.5};
  }

  // The samples in one window: (2R + 1)^2.
  static std::uint64_t window_samples(int radius) {
    return std::uint64_t(2 * radius + 1) * std::uint64_t(2 * radius + 1);
  }

  // Whether the CPU's window sums, up to (2R + 1)^2 * max, fit signed 32 bits.
  static bool cpu_sums_fit_int32(int radius, int max_sample) {
    return window_samples(radius) * max_sample <= 0x7fffffff;
  }

  // On the GPU, radii up to this run in one pass with each warp's window in
  // registers (box_blur_fused.cuh; box_blur_vectors.cu for 8-bit rows of whole
  // 16-byte vectors), and need no scratch.
  static constexpr int kMaxFusedRadius = 8;

  // Those one-pass paths also apply a fused pass's tables (op_spec.hpp) at
  // 8 bits. At 16 bits a table has 65536 entries, too many to sit in shared
  // memory beside the blur's rows: looked up in L2, a fused levels, gamma,
  // R = 3 and invert took 0.78 ms on the H100 at 7680x4320, where the
  // blur alone took 0.092 and a lookup pass takes 0.067.
  static bool takes_tables(const Params& p, const Shape& in) { return in.bytes == 1 && p.radius <= kMaxFusedRadius; }

  // Past it, 8-bit images whose rows are whole 32-bit words run in one
  // pass up to kMaxStripRadius (box_blur_strips.cu), a block scanning each
  // row of its strip into prefix sums. Measured on the H100 with
  // gpuimg_bench, RGB, R = 9 / 64 / 256: 0.14 / 0.18 / 0.27 ms at
  // 7680x4320, where two passes took 0.48 to 0.76; 0.058 / 0.071 / 0.137
  // at 3840x2160 and 0.037 / 0.049 / 0.109 at 1920x1080, where they took
  // 0.147 / 0.200 / 0.338 and 0.045 / 0.066 / 0.161. Its column sums fit
  // 16 bits up to kMaxWideRadius, and it keeps them two to a register there;
  // past it, a word each.
  //
  // Other 8-bit rows run in one pass up to kMaxWideRadius (box_blur_wide.cu),
  // unless the two passes' 16-bit sums, twice the image's bytes, fit in L2:
  // at 7680x4320 RGB it takes 0.29 to 0.60 ms for R = 9 to 128 where two
  // passes take 0.48 to 0.76, and at 1920x1080 1.7 to 2.5 times as long as
  // two; on 16-bit gray at 7680x4320 it gained nothing.
  static constexpr int kMaxWideRadius = 128;
  static constexpr int kMaxStripRadius = 256;

  // Two passes keep horizontal window sums in scratch, one uint32 per sample
  // at most (8193 * 65535 < 2^32; see row_sums_fit_16_bits).
  static std::size_t scratch_bytes(const Params& p, const Shape& in) {
    if (p.radius <= kMaxFusedRadius) return 0;
    return static_cast<std::size_t>(in.pixels() * in.channels * sizeof(std::uint32_t));
  }

  // The vertical sum needs 64 bits once n * max + n/2 passes 2^32 (16-bit
  // images from R = 128, 8-bit from R = 2048); below that 32 bits are exact
  // and cheaper on the GPU.
  static bool needs_wide_sums(int radius, int max_sample) {
    const std::uint64_t n = window_samples(radius);
    return n * max_sample + n / 2 > 0xffffffffu;
  }

  // A row's window sum fits 16 bits while (2R + 1) * max does: 8-bit
  // images up to R = 128. The GPU then keeps half the bytes between passes.
  static bool row_sums_fit_16_bits(int radius, int max_sample) {
    return std::uint64_t(2 * radius + 1) * std::uint64_t(max_sample) <= 0xffffu;
  }
};

// Sum of line[clamp(i)] for i in [lo, hi], in O(min(hi - lo, len)) reads:
// the replicated border contributes its edge sample once per index outside.
template <class Acc, class Get>
GPUIMG_HD Acc clamped_window_sum(int lo, int hi, int len, const Get& get) {
  Acc sum = 0;
  if (lo < 0) sum += Acc(-lo) * get(0);
  if (hi > len - 1) sum += Acc(hi - (len - 1)) * get(len - 1);
  const int a = lo < 0 ? 0 : lo;
  const int b = hi > len - 1 ? len - 1 : hi;
  for (int i = a; i <= b; ++i) sum += get(i);
  return sum;
}

// Horizontal pass over samples [x0, x1) of one row, every channel.
template <class T>
GPUIMG_HD void box_row_sums(const T* row, int width, int channels, int radius, int x0, int x1, std::uint32_t* out) {
  for (int c = 0; c < channels; ++c) {
    auto get = [&](int i) { return std::uint32_t(row[i * channels + c]); };
    std::uint32_t sum = clamped_window_sum<std::uint32_t>(x0 - radius, x0 + radius, width, get);
    for (int x = x0; x < x1; ++x) {
      out[x * channels + c] = sum;
      sum += get(clamp_index(x + radius + 1, width));
      sum -= get(clamp_index(x - radius, width));
    }
  }
}

// Vertical pass over rows [y0, y1) of columns [j0, j1) of the row sums
// (a column is one sample position: x * channels + c), writing the rounded
// means. acc holds j1 - j0 running sums; rows are walked outermost so that
// a CPU thread streams whole rows while a GPU thread owns one column.
template <class T, class Acc, class Sum>
GPUIMG_HD void box_columns(const Sum* sums, std::size_t stride, int height, int radius, int j0, int j1,
                           int y0, int y1, T* out, Acc* acc) {
  const Acc n = Acc(2 * radius + 1) * Acc(2 * radius + 1);
  for (int j = j0; j < j1; ++j) acc[j - j0] = 0;
  const int lo = y0 - radius, hi = y0 + radius;
  const int a = lo < 0 ? 0 : lo, b = hi > height - 1 ? height - 1 : hi;
  for (int r = a; r <= b; ++r)
    for (int j = j0; j < j1; ++j) acc[j - j0] += sums[r * stride + j];
  if (lo < 0)
    for (int j = j0; j < j1; ++j) acc[j - j0] += Acc(-lo) * sums[j];
  if (hi > height - 1)
    for (int j = j0; j < j1; ++j) acc[j - j0] += Acc(hi - (height - 1)) * sums[(height - 1) * stride + j];

  for (int y = y0; y < y1; ++y) {
    const Sum* enter = sums + clamp_index(y + radius + 1, height) * stride;
    const Sum* leave = sums + clamp_index(y - radius, height) * stride;
    T* dst = out + y * stride;
    for (int j = j0; j < j1; ++j) {
      Acc& s = acc[j - j0];
      dst[j] = T(rounded_mean(s, n));
      s += enter[j];
      s -= leave[j];
    }
  }
}

}  // namespace gpuimg
