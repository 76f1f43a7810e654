#pragma once
// EXIF in a TIFF is not a block of bytes but tags of the file: IFD0's text
// tags (Make, Model, DateTime...) in the image's own IFD, the Exif IFD and
// the GPS IFD as directories of their own that IFD0 points to. Both ways
// go through libexif's entries (exif_block.hpp) and libtiff's tables of the
// tags each directory holds.
//
// libtiff's field API hands rationals as float (EXIF) or double (GPS) and
// makes its own fraction of them on writing: FNumber 28/10 would come back
// 14/5. So rationals are written as placeholders and their eight bytes a
// value set afterwards where libtiff put them, and read from where the
// file holds them; the file is written in the block's byte order, so those
// bytes are copied as they are.
#include <tiffio.h>

#include <cstdint>
#include <string>
#include <vector>

#include "exif_block.hpp"

namespace gpuimg {

using Bytes = std::vector<std::uint8_t>;

// One EXIF block on its way into a TIFF being written, in this order:
// write_directories first, into the file libtiff just opened (the Exif and
// GPS IFDs before the image's, whose IFD then points back at them: their
// offsets are known before it is written, and a directory none of whose
// tags libtiff takes is not written at all), set_image_tags among the
// image's own tags, patch on the file's bytes once libtiff closed it.
class TiffExifWriter {
 public:
  explicit TiffExifWriter(const Bytes& block);

  bool empty() const { return entries_.empty(); }
  bool big_endian() const { return entries_.big_endian; }
  // Whether IFD0 holds an Orientation tag: then the TIFF's own (274) is
  // written, even as 1, and a block made again from the TIFF holds it too.
  bool holds_orientation() const { return holds_orientation_; }

  // The Exif and GPS IFDs, then a fresh directory for the image. False
  // where libtiff failed.
  bool write_directories(TIFF* tif);
  // IFD0's text tags into the image's IFD, and the offsets of the Exif
  // and GPS IFDs written.
  void set_image_tags(TIFF* tif) const;
  // The rationals' values, as the block holds them, over libtiff's placeholders.
  void patch(Bytes& file) const;

  // What the TIFF could not carry, in one phrase for -v; empty where nothing.
  std::string note() const;

 private:
  struct Directory {
    std::vector<ExifItem> rationals;  // the rational entries libtiff took
    std::uint64_t offset = 0;
  };
  bool write_directory(TIFF* tif, const std::vector<ExifItem>& items, Directory& written);

  ExifEntries entries_;
  bool holds_orientation_ = false;
  std::vector<ExifItem> image_text_;
  Directory exif_, gps_;
  std::size_t other_image_tags_ = 0, unknown_ = 0, mistyped_ = 0, unread_bytes_ = 0;
  bool big_tiff_ = false;
};

// The EXIF block a TIFF's current directory gives, made with libexif from
// IFD0's text tags and Orientation and the entries of its Exif and GPS
// IFDs that libtiff reads and knows; empty where it has neither text tags
// nor either IFD. An IFD libtiff cannot read is left out and named in
// `ignored`. Reads other directories: the image's is no longer current.
// `libtiff_error`: where the handle's error handler puts libtiff's first
// message (cleared here before each directory is read).
Bytes exif_from_tiff(TIFF* tif, const Bytes& file, std::vector<std::string>& ignored, std::string& libtiff_error);

}  // namespace gpuimg
