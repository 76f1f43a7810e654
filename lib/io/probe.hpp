#pragma once
// What an image will be once decoded, read from its header alone, once per
// input: its size is checked against --max-pixels before anything is
// allocated, bounds how much of a stream is read, and with channels and
// depth feeds --device auto, which weighs a pipeline's CPU time against
// CUDA's start-up before deciding whether to start CUDA at all.
#include <cstdint>
#include <optional>
#include <vector>

#include "header_dims.hpp"
#include "image.hpp"
#include "sniff.hpp"

namespace gpuimg {

struct ImageShape {
  std::uint64_t width;
  std::uint64_t height;
  // As decoded. Where the header leaves them open (a PNG's tRNS chunk past
  // the part read, a TIFF's sample format), the most the decoder can give.
  int channels;
  Depth depth;
  // The fewest bytes a whole file of this size can have, from the most its
  // compression can gain (0 where that is unbounded or unknown): a shorter
  // file is refused as truncated before any pixel memory is allocated, so a
  // few bytes of header cannot claim gigabytes. Exact for an uncompressed
  // BMP and a binary PNM (P4 to P6), whose header fixes where the last
  // pixel ends: a file a byte short is refused so, whether it is decoded
  // or only described (gpuimg info).
  std::uint64_t min_bytes = 0;
};

// The shape of the image `file` holds, in `format` (sniffed from its first
// bytes), without decoding it: read by the same rules as the decoder this
// build routes the format to, so that the size checked against the pixel
// limit is the size decoded. nullopt for a header that does not say (cut
// short, Radiance HDR, a JPEG whose height comes later). Reads only what it
// bounds-checks, never throws: it runs on untrusted bytes, before the
// decoder has looked at them.
std::optional<ImageShape> probe_image(Format format, const std::vector<std::uint8_t>& file);

// The same, sniffing the format first; nullopt for an unknown format.
std::optional<ImageShape> probe_image(const std::vector<std::uint8_t>& file);

// A JPEG's shape from the walk over its markers (inspect_jpeg), for a
// caller that keeps the walk's verdict too.
std::optional<ImageShape> jpeg_shape(const JpegLayout& layout);

}  // namespace gpuimg
