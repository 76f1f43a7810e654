#pragma once
// The EXIF block read and rewritten through libexif (exif_block.cpp, the
// only file that includes it): a maintained parser, fuzzed by OSS-Fuzz,
// rather than one of gpuimg's own over bytes any camera or hostile file
// may have written.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpuimg {

// What libexif makes of a TIFF-structured EXIF block (metadata.hpp's form).
struct ExifReading {
  bool corrupt = false;  // libexif reported corrupt data: the block is not to be trusted
  std::string problem;   // then, libexif's first complaint
  int orientation = 1;   // the Orientation tag of IFD0, 1 to 8; 1 where absent or out of range
};

ExifReading read_exif(const std::vector<std::uint8_t>& exif);

// `exif` with its Orientation tag set to 1, written back by libexif: each
// IFD's entries, its maker note and its thumbnail as libexif keeps them
// (every entry it can read, in its own layout).
std::vector<std::uint8_t> exif_upright(const std::vector<std::uint8_t>& exif);

}  // namespace gpuimg
