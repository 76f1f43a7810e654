#pragma once
// The EXIF block read through libexif (exif_block.cpp, the only file that
// includes it): a maintained parser, fuzzed by OSS-Fuzz, rather than one of
// gpuimg's own over bytes any camera or hostile file may have written. The
// one change gpuimg makes, the orientation set to 1, is two bytes written
// in place.
#include <cstdint>
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

// `exif` with the value of IFD0's Orientation entry set to 1 in place, every
// other byte as it was. A block libexif saved again would lose what it
// does not keep: the bytes past its first 64 KiB, entries whose data runs
// past the block, and a maker note's offsets, which point into the block's
// old layout.
std::vector<std::uint8_t> exif_upright(std::vector<std::uint8_t> exif);

}  // namespace gpuimg
