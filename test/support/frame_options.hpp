#pragma once
// The read options of --frame K, for the tests of multi-frame input.
#include "codec.hpp"

namespace gpuimg::test {

inline ReadOptions frame(int k) {
  ReadOptions opts;
  opts.frame = k;
  return opts;
}

}  // namespace gpuimg::test
