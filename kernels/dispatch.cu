// The dispatch kernel: one launch per stencil stage. Each block loads its
// tile plus the stage's halo into shared memory (border replicate), then every
// thread runs the stage's op on its pixel. The op id is the same for the
// whole grid, so the switch never diverges.
#include <algorithm>
#include <cstdint>

#include "cuda_launch.hpp"
#include "view.hpp"

namespace gpuimg {
namespace {

constexpr int kBlockX = 32;
constexpr int kBlockY = 8;
constexpr int kMaxGridY = 65535;

template <class Op, class T>
__device__ void apply_stencil(const TileView<T>& view, int x, int y, const OpRecord& rec, T* out) {
  if constexpr (Op::kind == Kind::stencil)
    Op::apply(view, x, y, rec.get<Op>(), out);
  else
    __trap();  // the host never sends a custom op here
}

template <class T>
__global__ void dispatch_kernel(const T* __restrict__ src, T* __restrict__ dst, int width, int height,
                                int channels, const OpRecord* __restrict__ ops, int stage, int tiles_y) {
  extern __shared__ __align__(16) unsigned char smem[];
  T* tile = reinterpret_cast<T*>(smem);
  const OpRecord& rec = ops[stage];
  const int halo = rec.halo;
  const int tile_w = kBlockX + 2 * halo;
  const int tile_h = kBlockY + 2 * halo;
  const int tid = threadIdx.y * kBlockX + threadIdx.x;
  const int ox = blockIdx.x * kBlockX - halo;
  const int x = blockIdx.x * kBlockX + threadIdx.x;

  // Tall images have more tile rows than a grid may hold: walk them.
  for (int ty = blockIdx.y; ty < tiles_y; ty += gridDim.y) {
    const int oy = ty * kBlockY - halo;
    for (int i = tid; i < tile_w * tile_h; i += kBlockX * kBlockY) {
      const int sx = clamp_index(ox + i % tile_w, width);
      const int sy = clamp_index(oy + i / tile_w, height);
      const T* s = src + (static_cast<size_t>(sy) * width + sx) * channels;
      for (int c = 0; c < channels; ++c) tile[i * channels + c] = s[c];
    }
    __syncthreads();

    const int y = ty * kBlockY + threadIdx.y;
    if (x < width && y < height) {
      const TileView<T> view{tile, ox, oy, tile_w, channels};
      T* out = dst + (static_cast<size_t>(y) * width + x) * channels;
      switch (rec.id) {
#define GPUIMG_STENCIL_CASE(Op)               \
  case OpId::Op:                              \
    apply_stencil<Op>(view, x, y, rec, out); \
    break;
        GPUIMG_OPS(GPUIMG_STENCIL_CASE)
#undef GPUIMG_STENCIL_CASE
        default:
          __trap();
      }
    }
    __syncthreads();  // the tile is reloaded for the next tile row
  }
}

template <class T> cudaError_t launch(const CudaStage& s, const OpRecord* ops, int stage, int halo) {
  const int tiles_x = (s.width + kBlockX - 1) / kBlockX;
  const int tiles_y = (s.height + kBlockY - 1) / kBlockY;
  const dim3 grid(tiles_x, std::min(tiles_y, kMaxGridY));
  const size_t smem = size_t(kBlockX + 2 * halo) * (kBlockY + 2 * halo) * s.channels * sizeof(T);
  dispatch_kernel<T><<<grid, dim3(kBlockX, kBlockY), smem, s.stream>>>(
      static_cast<const T*>(s.src), static_cast<T*>(s.dst), s.width, s.height, s.channels, ops, stage, tiles_y);
  return cudaGetLastError();
}

}  // namespace

cudaError_t launch_stencil(const CudaStage& s, const OpRecord* device_ops, int stage, int halo) {
  if (halo < 0 || halo > kMaxStencilHalo) return cudaErrorInvalidValue;
  return s.bytes_per_sample == 1 ? launch<std::uint8_t>(s, device_ops, stage, halo)
                                 : launch<std::uint16_t>(s, device_ops, stage, halo);
}

cudaError_t check_kernel_image() {
  cudaFuncAttributes attr;
  return cudaFuncGetAttributes(&attr, dispatch_kernel<std::uint8_t>);
}

}  // namespace gpuimg
