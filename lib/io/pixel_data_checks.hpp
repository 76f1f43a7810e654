#pragma once
// Walks over pixel data, before decoding, for what a decoder would fill in
// silently: stb_image draws whatever a GIF frame's LZW data never reaches
// as the background. Each walk reads the data by its decoder's own rules,
// so it refuses exactly what that decoder would invent, and throws
// CodecFailure with the problem alone.
#include <cstdint>
#include <vector>

namespace gpuimg {

// The first frame's LZW data must yield every one of the frame's pixels
// before its end code or its last sub-block. A frame smaller than the
// screen is legal: the screen around it is the background.
void check_gif_first_frame(const std::vector<std::uint8_t>& file);

}  // namespace gpuimg
