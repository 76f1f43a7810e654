#pragma once
// Kernels for --convolve's tests, CPU and GPU: every size of the GPU's
// fast tiles and past them, both paths, sums of every sign and 0, ties,
// and weights at the edges of the exact path.
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "number_text.hpp"

namespace gpuimg::test {

// "WxH:k1,k2,...", the weights drawn from [lo, hi], integers or not.
inline std::string random_kernel(int w, int h, double lo, double hi, bool integers, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> weight(lo, hi);
  std::string text = std::to_string(w) + "x" + std::to_string(h) + ":";
  for (int i = 0; i < w * h; ++i) {
    const double k = integers ? std::round(weight(rng)) : weight(rng);
    text += (i ? "," : "") + number_text(k);
  }
  return text;
}

inline std::string ones(int w, int h) {
  std::string text = std::to_string(w) + "x" + std::to_string(h) + ":1";
  for (int i = 1; i < w * h; ++i) text += ",1";
  return text;
}

// The list the header describes.
inline std::vector<std::string> convolve_kernels() {
  return {"1x1:1",
          "1x1:-3",
          "3x1:1,2,1",
          "1x3:1,0,1",  // (a + b) / 2: ties, half away from zero
          "3x3:1,2,1,2,4,2,1,2,1",
          "3x3:0,-1,0,-1,5,-1,0,-1,0",    // sharpen: sum 1
          "3x3:-1,0,1,-2,0,2,-1,0,1",     // Sobel: sum 0, no division
          "3x3:-1,-1,-1,-1,-1,-1,-1,-1,-1",  // a negative sum
          "3x3:-0.1,-0.1,-0.1,-0.1,0.8,-0.1,-0.1,-0.1,-0.1",  // sum 2.8e-17 in double: 0, no division
          "3x1:0.1,0.2,-0.3",                                 // sum 5.6e-17: 0
          random_kernel(3, 5, -4, 9, true, 1),
          ones(5, 5),
          random_kernel(5, 5, -9, 9, true, 2),
          random_kernel(7, 7, -3, 12, true, 3),
          random_kernel(7, 1, -5, 5, true, 4),
          random_kernel(1, 5, -5, 5, true, 10),
          random_kernel(9, 9, -2, 5, true, 5),
          ones(1, 31),
          ones(31, 1),
          random_kernel(31, 31, -1, 3, true, 6),
          "1x3:128,0,128",  // A = 256: exact at 16 bits, just
          "1x3:128,1,128",  // A = 257: exact at 8 bits only; the most the 8-bit GPU path pairs
          "3x1:-128,1,128",   // A = 257, the paired sums' widest bias
          "1x3:-128,1,-128",  // the same, its sum negative
          "3x1:-128,2,128",   // A = 258: past the paired sums
          random_kernel(5, 5, -30, 30, true, 12),  // A of some hundreds: 8-bit sums in float
          random_kernel(7, 7, -20, 20, true, 13),
          "3x3:0.0625,0.125,0.0625,0.125,0.25,0.125,0.0625,0.125,0.0625",
          random_kernel(5, 5, -1, 2, false, 7),
          random_kernel(3, 3, -65536, 65536, true, 8),  // integers past the exact path
          "1x3:1,-1,0.001",                        // a tiny sum: values far past the range
          random_kernel(31, 3, -0.5, 1, false, 9)};
}

}  // namespace gpuimg::test
