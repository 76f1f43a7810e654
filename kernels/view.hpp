#pragma once
// Read access to a stage's input that the per-pixel code of an op sees. Both
// views answer at(x, y, c) for any (x, y), in or out of the image, with the
// border-replicated sample, so an op's apply() is literally the same code on
// the CPU and inside the CUDA tile.
#include <cstddef>

#include "pixel.hpp"

namespace gpuimg {

// The whole image in host memory; clamps every access.
template <class T> struct ImageView {
  using value_type = T;
  const T* data;
  int width, height, channels;

  GPUIMG_HD T at(int x, int y, int c) const {
    const std::size_t row = static_cast<std::size_t>(clamp_index(y, height)) * width;
    return data[(row + clamp_index(x, width)) * channels + c];
  }
};

// The whole image in host memory, read only where no access can leave it
// (the CPU backend's interior pixels, at least the op's halo from every
// edge): no clamping, and the channel count a constant, so that the
// compiler unrolls and vectorises an op's loop over channels.
template <class T, int C> struct InteriorView {
  using value_type = T;
  static constexpr int channels = C;
  const T* data;
  int width;

  T at(int x, int y, int c) const { return data[(static_cast<std::size_t>(y) * width + x) * C + c]; }
};

// A block's tile in shared memory, origin (ox, oy) in image coordinates,
// already filled with border-replicated samples by the loader, so reads
// need no clamping.
template <class T> struct TileView {
  using value_type = T;
  const T* tile;
  int ox, oy, tile_width, channels;

  GPUIMG_HD T at(int x, int y, int c) const { return tile[((y - oy) * tile_width + (x - ox)) * channels + c]; }
};

}  // namespace gpuimg
