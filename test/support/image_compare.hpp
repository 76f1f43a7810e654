#pragma once
// Exact image comparison that reports the first differing samples.
#include <gtest/gtest.h>

#include <sstream>

#include "random_image.hpp"

namespace gpuimg::test {

inline testing::AssertionResult same_samples(const Image& expected, const Image& actual) {
  if (expected.width != actual.width || expected.height != actual.height || expected.channels != actual.channels ||
      expected.depth != actual.depth)
    return testing::AssertionFailure() << "shape " << shape(actual) << ", expected " << shape(expected);
  const std::size_t n = expected.pixel_count() * expected.channels;
  std::ostringstream out;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (sample(expected, i) == sample(actual, i)) continue;
    if (bad++ < 5) {
      const std::size_t px = i / expected.channels;
      out << "\n  (x=" << px % expected.width << ", y=" << px / expected.width << ", c=" << i % expected.channels
          << "): " << sample(actual, i) << ", expected " << sample(expected, i);
    }
  }
  if (bad == 0) return testing::AssertionSuccess();
  return testing::AssertionFailure() << bad << " of " << n << " samples differ in " << shape(actual) << ":"
                                     << out.str();
}

}  // namespace gpuimg::test
