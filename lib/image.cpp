#include "image.hpp"

namespace gpuimg {

std::string describe(int channels, Depth depth) {
  static const char* const names[] = {"?", "gray", "gray+alpha", "RGB", "RGBA"};
  const char* name = channels >= 1 && channels <= 4 ? names[channels] : names[0];
  return std::string(name) + (depth == Depth::U8 ? " 8-bit" : " 16-bit");
}

}  // namespace gpuimg
