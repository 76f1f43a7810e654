#pragma once
// What `gpuimg info` says of an image file without decoding its pixels:
// what decoding it would give, read from its headers by each decoder's own
// rules (backends.hpp's *_decoded_shape), how many frames it holds, and the
// metadata gpuimg carries (metadata.hpp).
#include <cstddef>
#include <string>

#include "metadata.hpp"

namespace gpuimg {

struct ImageInfo {
  Format format;
  ImageShape shape;    // the first frame's or page's, as --frame 0 decodes it; min_bytes unused
  std::size_t frames;  // an animated GIF, PNG or WebP's frames, a TIFF's pages; 1 for any other
  Metadata metadata;   // the first page's, for a TIFF
};

// An input read by read_input or inspect_input, described from its
// headers. Throws InputError naming its path where its decoder would refuse
// those headers, or the file is cut short as their structure shows without
// decoding (docs/info.md, What is read: not within the pixel data of a
// GIF, TGA, run-length BMP, PackBits PSD or text PNM).
ImageInfo describe_input(const InputFile& input);

// read_input with no limit on the pixels, as none is decoded, but reading
// no more than a run with the default --max-pixels would (the I/O layer
// holds an input in memory: a longer file is refused unread, stdin once it
// goes past it), then describe_input. Throws InputError naming the path:
// missing, empty, too long, not an image, cut short, or headers its
// decoder refuses.
ImageInfo read_image_info(const std::string& path);

}  // namespace gpuimg
