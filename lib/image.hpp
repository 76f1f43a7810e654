#pragma once
// The in-memory image every layer shares: interleaved samples, channels in
// R,G,B,A order (gray, gray+alpha, RGB, RGBA), 8- or 16-bit unsigned, rows
// tightly packed. 16-bit samples are in host byte order.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpuimg {

enum class Depth : std::uint8_t { U8 = 1, U16 = 2 };  // value = bytes per sample

inline int bytes_per_sample(Depth d) { return static_cast<int>(d); }
inline int max_sample(Depth d) { return d == Depth::U8 ? 255 : 65535; }
const char* layout_name(int channels);            // "gray", "gray+alpha", "RGB", "RGBA"
std::string describe(int channels, Depth depth);  // "RGBA 16-bit"

struct Image {
  int width = 0;
  int height = 0;
  int channels = 0;  // 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA
  Depth depth = Depth::U8;
  std::vector<std::uint8_t> data;

  Image() = default;
  Image(int w, int h, int c, Depth d)
      : width(w), height(h), channels(c), depth(d), data(byte_size(w, h, c, d)) {}

  static std::size_t byte_size(int w, int h, int c, Depth d) {
    return static_cast<std::size_t>(w) * h * c * bytes_per_sample(d);
  }
  std::size_t pixel_count() const { return static_cast<std::size_t>(width) * height; }
  std::size_t row_bytes() const { return static_cast<std::size_t>(width) * channels * bytes_per_sample(depth); }
  bool has_alpha() const { return channels == 2 || channels == 4; }

  template <class T> T* samples() { return reinterpret_cast<T*>(data.data()); }
  template <class T> const T* samples() const { return reinterpret_cast<const T*>(data.data()); }
};

}  // namespace gpuimg
