#pragma once
// What an image carries besides its pixels, taken from the input and given
// back to the encoder: the ICC profile (how its numbers map to colours),
// the EXIF block (camera, date, orientation, thumbnail) and the XMP packet,
// each as the bytes the file held, so that a conversion keeps them exactly.
#include <cstdint>
#include <string>
#include <vector>

#include "codec.hpp"

namespace gpuimg {

// How large the pixels are on paper: PNG's pHYs, JPEG's JFIF density,
// TIFF's XResolution, YResolution and ResolutionUnit. Each number is kept in
// the unit its file stated, so that a file read and written in one format
// gives the numbers back; PNG's and BMP's pixels per metre are read as
// pixels per inch (resolution.hpp), the unit the tools that show them show.
struct Resolution {
  // aspect: no length, only the pixels' shape, x to y. In JFIF's order, 0 to 2.
  enum class Unit { aspect, inch, centimetre };
  Unit unit = Unit::aspect;
  double x = 1, y = 1;  // pixels per unit; for aspect, the ratio's two terms

  // Square pixels of no stated size say nothing: written as no resolution.
  bool given() const { return unit != Unit::aspect || x != y; }
};

struct Metadata {
  std::vector<std::uint8_t> icc;   // the whole profile, its 128-byte header first
  // TIFF-structured, from its byte-order mark ("II*\0" or "MM\0*"): as PNG's
  // eXIf holds it; JPEG's APP1 adds "Exif\0\0" in front.
  std::vector<std::uint8_t> exif;
  std::vector<std::uint8_t> xmp;   // the packet, as UTF-8 text
  // The EXIF orientation, 1 to 8 (1: as stored); 1 where none is given.
  int orientation = 1;
  Resolution resolution;
  // Each item the input held but gpuimg set aside (a broken ICC chunk
  // sequence, an EXIF block libexif finds corrupt), said in one phrase.
  std::vector<std::string> ignored;

  // No ICC profile, EXIF or XMP (the resolution aside).
  bool no_blocks() const { return icc.empty() && exif.empty() && xmp.empty(); }
};

// The metadata of an input read by read_input: PNG's iCCP, eXIf, XMP iTXt
// and pHYs chunks, JPEG's APP0 (JFIF), APP1 and APP2 segments, the tags of the TIFF page
// `frame` (ReadOptions::frame) picks; none from other formats. Never throws
// for what it finds: an item that is cut short, malformed or fails its
// check is left out and named in `ignored`.
Metadata read_metadata(const InputFile& input, int frame = kNoFrame);

// The ICC colour space an image of `channels` needs ("GRAY" or "RGB "), and
// whether `icc` is for it: a CMYK profile kept on the RGB pixels decoded
// from CMYK, or an RGB one on a gray image, would give wrong colours.
bool icc_fits(const std::vector<std::uint8_t>& icc, int channels);

// write_image (codec.hpp) with `metadata`, unless opts.strip: what the
// output's format holds of it is written. Returns what was left out, each
// in one phrase ("BMP holds no ICC profile or EXIF; written without them"),
// for -v.
std::vector<std::string> write_image(const std::string& path, const Image& img, const WriteOptions& opts,
                                     const Metadata& metadata);

}  // namespace gpuimg
