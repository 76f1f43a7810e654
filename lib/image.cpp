#include "image.hpp"

namespace gpuimg {

const char* layout_name(int channels) {
  static const char* const names[] = {"?", "gray", "gray+alpha", "RGB", "RGBA"};
  return channels >= 1 && channels <= 4 ? names[channels] : names[0];
}

std::string describe(int channels, Depth depth) {
  return std::string(layout_name(channels)) + (depth == Depth::U8 ? " 8-bit" : " 16-bit");
}

}  // namespace gpuimg
