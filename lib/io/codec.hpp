#pragma once
// Reading and writing image files. The format of an output follows its
// extension; inputs are recognised by their content, not their name.
#include <cstdint>
#include <string>
#include <vector>

#include "image.hpp"

namespace gpuimg {

struct ReadOptions {
  // Refuse, from the header and before allocating, images with more pixels.
  // It also bounds the input read: max_pixels * 8 bytes + 64 MiB.
  std::uint64_t max_pixels = std::uint64_t{1} << 28;
};

struct WriteOptions {
  int jpeg_quality = 95;  // 1..100
  // PNG: kPngRunLength (zlib's run-length strategy, fast, the smallest
  // files for photos), 0 (stored uncompressed) or 1..9 (zlib's LZ77 search
  // at that level: slower, smaller for graphics with repeated patterns).
  int png_level = kPngRunLength;
  static constexpr int kPngRunLength = -1;
};

// Throws InputError naming `path` and the problem (missing, a directory,
// empty, not an image, truncated, corrupt, over max_pixels, ...).
Image read_image(const std::string& path, const ReadOptions& opts = {});

// read_image in two steps, for a caller that looks at the bytes in between
// (probe_image) without reading the file twice: the file's bytes, bounded as
// read_image bounds them; then the image they hold. Both throw InputError
// naming `path`, as read_image does.
std::vector<std::uint8_t> read_image_bytes(const std::string& path, const ReadOptions& opts = {});
Image decode_image_bytes(const std::string& path, const std::vector<std::uint8_t>& file, const ReadOptions& opts = {});

// Encodes to a temporary file beside `path` and renames it into place only
// after a complete encode, so a failure leaves no partial file and never
// destroys one already there. Converts what the format cannot hold, as the
// README documents (JPEG: 16-bit to 8-bit, alpha dropped). Throws OutputError.
void write_image(const std::string& path, const Image& img, const WriteOptions& opts = {});

// Fails fast, before any decoding, on an output the run could never write:
// an unsupported extension, a missing or unwritable directory. Throws OutputError.
void check_output_path(const std::string& path);

// The same, after refusing (UsageError) an output that is one of `inputs`,
// compared by device and inode so that links count: an input is never
// overwritten.
void check_output_path(const std::string& path, const std::vector<std::string>& inputs);

// Lower-case extensions (without the dot) this build can write / read.
std::vector<std::string> writable_extensions();
std::vector<std::string> readable_extensions();

// One line naming the codec libraries and versions in this build, for --version.
std::string codec_versions();

}  // namespace gpuimg
