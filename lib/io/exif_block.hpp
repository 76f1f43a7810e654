#pragma once
// The EXIF block read through libexif (exif_block.cpp, the only file that
// includes it): a maintained parser, fuzzed by OSS-Fuzz, rather than one of
// gpuimg's own over bytes any camera or hostile file may have written. The
// one change gpuimg makes, the orientation set to 1, is two bytes written
// in place. A TIFF holds EXIF as tags, not as a block: the block is taken
// apart into its entries for it and made again from them (tiff_exif.hpp).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "metadata.hpp"

namespace gpuimg {

// What libexif makes of a TIFF-structured EXIF block (metadata.hpp's form).
struct ExifReading {
  bool corrupt = false;  // libexif reported corrupt data: the block is not to be trusted
  std::string problem;   // then, libexif's first complaint
  int orientation = 1;   // the Orientation tag of IFD0, 1 to 8; 1 where absent or out of range
  // IFD0's XResolution and YResolution in ResolutionUnit (the inch where
  // none is given, aspect where it says none); nothing given where absent.
  Resolution resolution;
  bool bad_resolution = false;  // present, but a value is zero, unbounded or not a RATIONAL, or the unit unknown
};

ExifReading read_exif(const std::vector<std::uint8_t>& exif);

// `exif` with the value of IFD0's Orientation entry set to 1 in place, every
// other byte as it was. A block libexif saved again would lose what it
// does not keep: the bytes past its first 64 KiB, entries whose data runs
// past the block, and a maker note's offsets, which point into the block's
// old layout.
std::vector<std::uint8_t> exif_upright(std::vector<std::uint8_t> exif);

// One entry of a block: its tag, its TIFF type (EXIF's format numbers are
// TIFF's), its count of values, and the values as the block stores them,
// in its byte order.
struct ExifItem {
  std::uint16_t tag = 0;
  std::uint16_t type = 0;
  std::uint32_t count = 0;
  std::vector<std::uint8_t> value;
};

// A block's entries, IFD by IFD; the links between IFDs are the block's
// layout, not entries. IFD1 (the thumbnail and its tags) is only noted.
struct ExifEntries {
  bool big_endian = false;
  std::vector<ExifItem> image, exif, gps;  // IFD0, the Exif IFD, the GPS IFD
  std::size_t interoperability = 0;        // entries of the Interoperability IFD
  bool thumbnail = false;

  bool empty() const { return image.empty() && exif.empty() && gps.empty(); }
};

// The bytes of a block libexif reads: JPEG's APP1 segment caps it, and
// libexif reads no block past it.
constexpr std::size_t kExifRead = 0xfffe - 6;

// The entries libexif reads of `exif` (its first kExifRead bytes), as stored.
ExifEntries exif_entries(const std::vector<std::uint8_t>& exif);

// The block libexif saves from `entries` (no Interoperability IFD, no
// thumbnail), each IFD's entries in tag order. Saved in tag order, the
// entries of a block libexif saved from entries in tag order (as it saves
// any block it loaded) give back its every byte.
std::vector<std::uint8_t> exif_saved(const ExifEntries& entries);

}  // namespace gpuimg
