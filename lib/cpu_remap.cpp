// Maps that keep the axes copy rows: whole ones with memcpy where the row
// keeps its direction (crop, flip), pixel by pixel reversed where it does not
// (flop). Maps that swap them (quarter turns, transpose) go through square
// blocks, so that both the rows read and the rows written stay in cache.
#include "cpu_remap.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "parallel.hpp"

namespace gpuimg {
namespace {

constexpr int kMinRowsPerThread = 8;
constexpr int kBlock = 64;  // pixels a side

template <std::size_t PixelBytes> struct Pixel {
  unsigned char b[PixelBytes];
};

template <class P> void remap_pixels(const CpuStage& s, const AxisMap& m) {
  const P* src = static_cast<const P*>(s.src);
  P* dst = static_cast<P*>(s.dst);
  const std::size_t in_w = s.in.width;
  const int out_w = s.out.width;
  if (!m.swaps_axes()) {
    parallel_bands(s.out.height, kMinRowsPerThread, [&](int y0, int y1) {
      for (int y = y0; y < y1; ++y) {
        const P* row = src + static_cast<std::size_t>(m.source_y(0, y)) * in_w + m.source_x(0, y);
        P* out = dst + static_cast<std::size_t>(y) * out_w;
        if (m.xx == 1)
          std::memcpy(out, row, sizeof(P) * out_w);
        else
          for (int x = 0; x < out_w; ++x) out[x] = row[-x];
      }
    }, s.threads);
    return;
  }
  parallel_bands((s.out.height + kBlock - 1) / kBlock, 1, [&](int b0, int b1) {
    for (int by = b0 * kBlock; by < std::min(b1 * kBlock, s.out.height); by += kBlock)
      for (int bx = 0; bx < out_w; bx += kBlock)
        for (int y = by; y < std::min(by + kBlock, s.out.height); ++y) {
          P* out = dst + static_cast<std::size_t>(y) * out_w;
          const int sx = m.source_x(0, y);
          for (int x = bx; x < std::min(bx + kBlock, out_w); ++x)
            out[x] = src[static_cast<std::size_t>(m.source_y(x, y)) * in_w + sx];
        }
  }, s.threads);
}

}  // namespace

void remap_cpu(const CpuStage& s, const AxisMap& map) {
  switch (s.in.channels * s.in.bytes) {
    case 1: return remap_pixels<Pixel<1>>(s, map);
    case 2: return remap_pixels<Pixel<2>>(s, map);
    case 3: return remap_pixels<Pixel<3>>(s, map);
    case 4: return remap_pixels<Pixel<4>>(s, map);
    case 6: return remap_pixels<Pixel<6>>(s, map);
    default: return remap_pixels<Pixel<8>>(s, map);
  }
}

}  // namespace gpuimg
