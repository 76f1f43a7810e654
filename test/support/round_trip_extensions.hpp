#pragma once
// The extensions this build both writes and reads back: what a test can
// write with gpuimg and then decode. A build with OpenCV but without
// libtiff writes TIFF and refuses to read it.
#include <algorithm>
#include <string>
#include <vector>

#include "codec.hpp"

namespace gpuimg::test {

inline std::vector<std::string> round_trip_extensions() {
  const std::vector<std::string> readable = readable_extensions();
  std::vector<std::string> out;
  for (const std::string& ext : writable_extensions())
    if (std::find(readable.begin(), readable.end(), ext) != readable.end()) out.push_back(ext);
  return out;
}

}  // namespace gpuimg::test
