#pragma once
// What an image will be once decoded, read from its header alone: for
// --device auto, which weighs a pipeline's CPU time against CUDA's start-up
// before deciding whether to start CUDA at all.
#include <cstdint>
#include <optional>
#include <vector>

#include "image.hpp"

namespace gpuimg {

struct ImageShape {
  std::uint64_t width;
  std::uint64_t height;
  // As decoded. Where the header leaves them open (a PNG's tRNS chunk past
  // the part read, a TIFF's sample format), the most the decoder can give.
  int channels;
  Depth depth;
};

// The shape of the image `file` holds, without decoding it; nullopt for a
// format or header that does not say (Radiance HDR, a header cut short, a
// JPEG whose height comes later). Reads only what it bounds-checks, never
// throws: it runs on untrusted bytes, before the decoder has looked at them.
std::optional<ImageShape> probe_image(const std::vector<std::uint8_t>& file);

}  // namespace gpuimg
