#pragma once
// Median filter: each sample becomes the median of its (2R+1)x(2R+1) window,
// border replicated, every channel on its own. A median selects, it does
// not compute, so every path below gives the same bytes by construction;
// they differ in speed only. The CPU backend's paths are in
// lib/cpu_median.cpp, the GPU's in kernels/median*.cu.
#include <array>
#include <cstddef>
#include <cstdint>

#include "op_spec.hpp"
#include "pixel.hpp"
#include "word_rows_fit.hpp"

namespace gpuimg {

struct Median {
  static constexpr const char* name = "median";
  static constexpr const char* summary =
      "Median filter: the median of the (2R+1)x(2R+1) window, border replicate, every channel.";
  static constexpr const char* example = "--median 2";
  static constexpr Kind kind = Kind::custom;

  struct Params {
    std::int32_t radius;
  };
  static constexpr std::array<ParamSpec, 1> params{{{"R", ParamType::integer, 1, 15, "radius in pixels"}}};
  static Params make(const ParamValue* v) { return {static_cast<std::int32_t>(v[0].number)}; }
  static std::array<ParamValue, 1> values(const Params& p) {
    ParamValue v{};
    v.number = p.radius;
    return {v};
  }

  static void run_cpu(const CpuStage& s, const Params& p);
  static int launch(const CudaStage& s, const Params& p);  // a cudaError_t
  static std::size_t scratch_bytes(const Params&, const Shape&) { return 0; }

  // The CPU backend runs the selection network of median_select.hpp, one
  // sample per call in loops the compiler vectorises, up to this radius;
  // past it, a sliding histogram along each row (Huang's), whose work per
  // sample grows as R where the network's grows as R^4. On the 2-core
  // development machine, at R = 3 the network took 2.9 ns a sample (8-bit)
  // and 7.8 (16-bit), at R = 4 9 and 17 where the histogram takes 26 and
  // 55; but R = 4's network more than doubled the file's compile time, and
  // R = 5's no longer vectorised (1200 ns).
  static constexpr int kMaxCpuNetworkRadius = 3;

  // Measured on that machine (scripts/bench_cpu_cost.sh, and every radius
  // at 1920x1080), the slowest of 1, 3 and 4 channels, on random samples,
  // which move the histograms' tracked median further than photographs do:
  // the networks 0.8 / 0.7 / 3.4 ns a sample at R = 1 / 2 / 3 and 8 bits,
  // 1.7 / 2.5 / 7.8 at 16; the histograms from 26 (R = 4) to 52 (R = 15) at
  // 8 bits, 55 to 141 at 16, and up to 63 and 190 while the machine was busy.
  static CpuCost cpu_cost(const Params& p) {
    static_assert(kMaxCpuNetworkRadius == 3, "a cost for each network radius");
    constexpr CpuCost networks[] = {{1, 2}, {1, 3}, {3.5, 8}};
    if (p.radius <= kMaxCpuNetworkRadius) return networks[p.radius - 1];
    return {20 + 2.8 * p.radius, 40 + 10.0 * p.radius};
  }

  // The GPU's selection networks (median_networks.cu) hold a window in
  // registers up to this radius: 3x3 from sorted columns, 5x5 and 7x7 by
  // forgetful selection. Past it, 8-bit images take per-thread sliding
  // histograms in shared memory (median_histogram.cu) and 16-bit images a
  // bitwise radix select over a shared-memory tile (median_radix.cu).
  // Set before any H100 run: at 8 bits the histograms may already win at
  // R = 2 or 3 (gpuimg_bench times R = 1, 2, 3 and 7).
  static constexpr int kMaxGpuNetworkRadius = 3;

  // The networks also apply a fused pass's tables (op_spec.hpp), at 8 bits
  // only, as the blur's do (ops/blur.hpp), both after the selection: as the
  // tables are monotone, the median of looked-up samples is the looked-up
  // median: the planner gives it no others (tables.hpp).
  static constexpr bool monotone_tables_only = true;
  // At R = 1 the word rows path (median_words.cu) takes rows of whole
  // words first, and no tables: there they run as passes of their own.
  // --levels --gamma --median 1 --invert in the networks' one pass took
  // 0.364 ms, where a pass of one table, --median 1 alone and --invert
  // alone took 0.066, 0.104 and 0.055 (H200, 7680x4320 RGB, the suite's
  // run at 0267509).
  static bool takes_tables(const Params& p, const Shape& in) {
    return in.bytes == 1 && p.radius <= kMaxGpuNetworkRadius && !word_rows_path(p.radius, in);
  }
  // Whether the word rows path takes this radius and shape, tables aside:
  // what its launch checks (median_words.cu) and what the planner asks.
  static bool word_rows_path(int radius, const Shape& in) { return radius == 1 && word_rows::fits(in); }

  // The samples in one window, and the rank of its median (from 0).
  GPUIMG_HD static constexpr int window_samples(int radius) { return (2 * radius + 1) * (2 * radius + 1); }
  GPUIMG_HD static constexpr int median_rank(int radius) { return (window_samples(radius) - 1) / 2; }
};

}  // namespace gpuimg
