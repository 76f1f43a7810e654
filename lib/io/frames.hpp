#pragma once
// Inputs of several frames: an animated GIF, PNG (APNG) or WebP, a
// multi-page TIFF. Each is refused unless --frame picks one, so that no
// frame is dropped unsaid.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sniff.hpp"

namespace gpuimg {

// ReadOptions::frame when none was picked.
constexpr int kNoFrame = -1;

// The frames of a GIF: its image descriptors, walked as stb_image walks
// them (extensions and each frame's data sub-blocks skipped) up to the
// trailer, a block stb would refuse, or the file's end. At least 1 for a
// file stb decodes.
std::size_t gif_frame_count(const std::vector<std::uint8_t>& file);

// The frame to decode of the `count` a `format` file holds: `frame` where
// it is one of them; the first where there is one alone and none was
// picked. Throws CodecFailure otherwise, naming the count and how to pick.
// (An APNG's count: apng.hpp's image_count.)
std::size_t frame_to_decode(Format format, std::size_t count, int frame);

}  // namespace gpuimg
