#pragma once
// GPU tests skip, never fail, where no usable GPU exists; the device script
// runs them where one does.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "backend.hpp"

#define GPUIMG_REQUIRE_GPU()                                              \
  do {                                                                    \
    std::string why_not;                                                  \
    if (!::gpuimg::cuda_usable(&why_not)) GTEST_SKIP() << why_not;        \
  } while (0)

namespace gpuimg::test {

// Whether a sweep over many small images takes its case numbered `key`:
// the case's image's seed or, where an image has several cases, a number
// made of that seed and the case's place among them. ctest takes every
// case. Under compute-sanitizer, which runs kernels 10-100x slower,
// scripts/gpu_suite.sh sets GPUIMG_SANITIZER_SHARE to N, and a sweep takes
// about one case in N, picked by a hash of the key so that every radius,
// shape and channel count of the sweep keeps some of its cases (a stride
// would drop whole rows of a nested loop). A case keeps its image either way.
inline bool sweep_takes(std::uint32_t key) {
  static const std::uint32_t share = [] {
    const char* v = std::getenv("GPUIMG_SANITIZER_SHARE");
    const long n = v ? std::strtol(v, nullptr, 10) : 1;
    return static_cast<std::uint32_t>(n > 1 ? n : 1);
  }();
  // The hash's top bits as a fraction, below 1 / share: its low bits step
  // almost evenly from key to key, and would make a stride after all.
  return (std::uint64_t{key * 0x9E3779B1u} * share >> 32) == 0;
}

}  // namespace gpuimg::test
