#pragma once
// The box blur's one-pass CUDA paths; box_blur.cu chooses among them and
// its own two passes.
#include <cstdint>

#include "cuda_launch.hpp"

namespace gpuimg {

// One pass, no scratch, for radius <= Blur::kMaxFusedRadius: at 8 bits
// (box_blur_fused_u8.cu) or 16 (box_blur_fused_u16.cu).
template <class T> cudaError_t launch_fused_blur_of(const CudaStage& s, int radius);
inline cudaError_t launch_fused_blur(const CudaStage& s, int radius) {
  return s.in.bytes == 1 ? launch_fused_blur_of<std::uint8_t>(s, radius)
                         : launch_fused_blur_of<std::uint16_t>(s, radius);
}

// The same radii for 8-bit images whose rows are whole 16-byte vectors:
// one pass, no shared memory, where fits_vector_blur says so.
bool fits_vector_blur(const CudaStage& s, int radius);
cudaError_t launch_vector_blur(const CudaStage& s, int radius);

// One pass, no scratch, for 8-bit images and radius in
// (Blur::kMaxFusedRadius, Blur::kMaxWideRadius]. A block of kWideThreads
// owns a strip of wide_strip_px(channels) pixels, of which all but R at
// either end are output.
cudaError_t launch_wide_blur(const CudaStage& s, int radius);
constexpr int kWideThreads = 256;
constexpr int wide_pixels_per_thread(int channels) { return channels == 1 ? 16 : channels == 4 ? 4 : 8; }
constexpr int wide_strip_px(int channels) { return kWideThreads * wide_pixels_per_thread(channels); }

// One pass for 8-bit images whose rows are whole 32-bit words and radius in
// (Blur::kMaxFusedRadius, Blur::kMaxStripRadius], where fits_strip_blur says
// so: about half the wide blur's instructions a sample. From R = 32 to 48,
// by channel count, it writes the sums of 16-row chunks to the stage's
// scratch, 2 bytes a sample a chunk. A block owns a strip of
// kStripBlurSamples samples of each row.
constexpr int kStripBlurSamples = 256 * 36;
bool fits_strip_blur(const CudaStage& s, int radius);
cudaError_t launch_strip_blur(const CudaStage& s, int radius);

}  // namespace gpuimg
