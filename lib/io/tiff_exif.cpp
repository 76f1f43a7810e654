#include "tiff_exif.hpp"

#include <algorithm>
#include <cstring>
#include <map>

#include "backends.hpp"
#include "header_dims.hpp"

namespace gpuimg {
namespace {

using detail::read_uint;

// IFD0's tags that TIFF defines for the image and EXIF shares, text all:
// ImageDescription, Make, Model, Software, DateTime, Artist, HostComputer,
// Copyright. IFD0's other tags describe the stored pixels (sizes,
// resolution, YCbCr), which the TIFF's own tags do.
constexpr std::uint16_t kImageText[] = {0x010e, 0x010f, 0x0110, 0x0131, 0x0132, 0x013b, 0x013c, 0x8298};
constexpr std::uint16_t kOrientation = 0x0112;

bool image_text(std::uint16_t tag) { return std::find(std::begin(kImageText), std::end(kImageText), tag) != std::end(kImageText); }

bool rational(std::uint16_t type) { return type == TIFF_RATIONAL || type == TIFF_SRATIONAL; }

// Bytes a value of a TIFF type takes; 0 for a type TIFF does not define.
std::size_t type_size(std::uint16_t type) {
  switch (type) {
    case TIFF_BYTE: case TIFF_ASCII: case TIFF_SBYTE: case TIFF_UNDEFINED: return 1;
    case TIFF_SHORT: case TIFF_SSHORT: return 2;
    case TIFF_LONG: case TIFF_SLONG: case TIFF_FLOAT: case TIFF_IFD: return 4;
    case TIFF_RATIONAL: case TIFF_SRATIONAL: case TIFF_DOUBLE: case TIFF_LONG8: case TIFF_SLONG8: case TIFF_IFD8: return 8;
    default: return 0;
  }
}

// Text as TIFF stores it: up to the first NUL, which ends it.
std::string text_of(const ExifItem& item) {
  const auto end = std::find(item.value.begin(), item.value.end(), 0);
  return std::string(item.value.begin(), end);
}

ExifItem text_item(std::uint16_t tag, const char* text) {
  ExifItem item{tag, TIFF_ASCII, 0, Bytes(text, text + std::strlen(text) + 1)};
  item.count = static_cast<std::uint32_t>(item.value.size());
  return item;
}

// Where an entry of an IFD keeps its values in the file: in the entry
// itself where they fit, else at the offset it gives.
struct Stored {
  std::uint16_t type = 0;
  std::uint64_t count = 0;
  std::size_t at = 0;
};

// The entries of the IFD at `offset`, each within the file, the first of
// a tag where it repeats, those of a type TIFF does not define left out.
// Read only where libtiff has read the IFD already: its checks came first.
std::map<std::uint16_t, Stored> stored_entries(const Bytes& file, std::uint64_t offset, bool big_tiff, bool big_endian) {
  std::map<std::uint16_t, Stored> out;
  const std::size_t count_bytes = big_tiff ? 8 : 2, entry_bytes = big_tiff ? 20 : 12, field = big_tiff ? 8 : 4;
  if (offset > file.size() || file.size() - offset < count_bytes) return out;
  const std::uint64_t fit = (file.size() - offset - count_bytes) / entry_bytes;
  const std::uint64_t n = std::min(read_uint(file, offset, count_bytes, big_endian), fit);
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::size_t e = offset + count_bytes + i * entry_bytes;
    Stored s;
    const auto tag = static_cast<std::uint16_t>(read_uint(file, e, 2, big_endian));
    s.type = static_cast<std::uint16_t>(read_uint(file, e + 2, 2, big_endian));
    s.count = read_uint(file, e + 4, field, big_endian);
    const std::size_t size = type_size(s.type);
    if (size == 0 || s.count > file.size() / size) continue;
    const std::uint64_t bytes = s.count * size;
    s.at = bytes <= field ? e + 4 + field : read_uint(file, e + 4 + field, field, big_endian);
    if (s.at > file.size() || bytes > file.size() - s.at) continue;
    out.emplace(tag, s);
  }
  return out;
}

// The values of `item` as libtiff keeps them, `size` bytes each: integers
// in the host's order; a rational, a placeholder of 1 (float or double, as
// libtiff's table says), its value written over it afterwards.
Bytes held_values(const ExifItem& item, int size, bool big_endian) {
  Bytes held(std::size_t{item.count} * size);
  for (std::uint32_t i = 0; i < item.count; ++i) {
    std::uint8_t* to = held.data() + std::size_t{i} * size;
    if (rational(item.type) && size == 4) {
      const float one = 1;
      std::memcpy(to, &one, 4);
    } else if (rational(item.type)) {
      const double one = 1;
      std::memcpy(to, &one, 8);
    } else if (size == 1) {
      to[0] = item.value[i];
    } else if (size == 2) {
      const auto v = static_cast<std::uint16_t>(read_uint(item.value, std::size_t{i} * 2, 2, big_endian));
      std::memcpy(to, &v, 2);
    } else {
      const auto v = static_cast<std::uint32_t>(read_uint(item.value, std::size_t{i} * 4, 4, big_endian));
      std::memcpy(to, &v, 4);
    }
  }
  return held;
}

// One value, passed as C's variadic calls widen it.
int set_one(TIFF* tif, std::uint16_t tag, std::uint16_t type, const Bytes& held) {
  switch (type) {
    case TIFF_BYTE: case TIFF_UNDEFINED: return TIFFSetField(tif, tag, int{held[0]});
    case TIFF_SBYTE: return TIFFSetField(tif, tag, int{static_cast<std::int8_t>(held[0])});
    case TIFF_SHORT: case TIFF_SSHORT: {
      std::uint16_t v;
      std::memcpy(&v, held.data(), 2);
      return TIFFSetField(tif, tag, type == TIFF_SHORT ? int{v} : int{static_cast<std::int16_t>(v)});
    }
    case TIFF_LONG: case TIFF_SLONG: {
      std::uint32_t v;
      std::memcpy(&v, held.data(), 4);
      return TIFFSetField(tif, tag, v);
    }
    case TIFF_RATIONAL: case TIFF_SRATIONAL: return TIFFSetField(tif, tag, 1.0);
    default: return 0;
  }
}

// `item` set as libtiff's table for its tag says it is passed; false where
// its type, count or size is not the table's. Checked before libtiff is
// called, whose refusals are errors that fail the file.
bool set_item(TIFF* tif, const TIFFField* field, const ExifItem& item, bool big_endian) {
  const int write_count = TIFFFieldWriteCount(field);
  const bool pass_count = TIFFFieldPassCount(field) != 0;
  if (item.type == TIFF_ASCII) return !pass_count && TIFFSetField(tif, item.tag, text_of(item).c_str()) == 1;
  const int size = TIFFFieldSetGetSize(field);
  if (item.count == 0 || item.value.size() != item.count * type_size(item.type)) return false;
  if (!rational(item.type) && static_cast<std::size_t>(size) != type_size(item.type)) return false;
  if (rational(item.type) && size != 4 && size != 8) return false;
  const Bytes held = held_values(item, size, big_endian);
  if (pass_count) {
    if (write_count == TIFF_VARIABLE2) return TIFFSetField(tif, item.tag, item.count, held.data()) == 1;
    // libtiff gives such counts back as 16 bits
    return item.count <= 0xffff && TIFFSetField(tif, item.tag, static_cast<int>(item.count), held.data()) == 1;
  }
  if (write_count < 1 || static_cast<std::uint32_t>(write_count) != item.count) return false;
  return (item.count > 1 ? TIFFSetField(tif, item.tag, held.data()) : set_one(tif, item.tag, item.type, held)) == 1;
}

std::string counted(std::size_t n, const std::string& what) { return std::to_string(n) + " tag" + (n == 1 ? " " : "s ") + what; }

}  // namespace

TiffExifWriter::TiffExifWriter(const Bytes& block) {
  if (block.empty()) return;
  entries_ = exif_entries(block);
  unread_bytes_ = block.size() > kExifRead ? block.size() - kExifRead : 0;
  for (const ExifItem& item : entries_.image) {
    if (item.tag == kOrientation) {
      holds_orientation_ = true;
    } else if (!image_text(item.tag)) {
      ++other_image_tags_;
    } else if (item.type != TIFF_ASCII) {
      ++mistyped_;
    } else {
      image_text_.push_back(item);
    }
  }
  unknown_ += entries_.interoperability;
}

bool TiffExifWriter::write_directory(TIFF* tif, const std::vector<ExifItem>& items, Directory& written) {
  std::size_t taken = 0;
  for (const ExifItem& item : items) {
    const TIFFField* field = TIFFFindField(tif, item.tag, TIFF_ANY);
    if (!field || TIFFFieldIsAnonymous(field)) {
      ++unknown_;
    } else if (TIFFFieldDataType(field) != item.type || !set_item(tif, field, item, entries_.big_endian)) {
      ++mistyped_;
    } else {
      ++taken;
      if (rational(item.type)) written.rationals.push_back(item);
    }
  }
  const bool ok = taken == 0 || TIFFWriteCustomDirectory(tif, &written.offset) == 1;
  TIFFFreeDirectory(tif);
  return ok;
}

bool TiffExifWriter::write_directories(TIFF* tif) {
  if (entries_.exif.empty() && entries_.gps.empty()) return true;
  big_tiff_ = TIFFIsBigTIFF(tif) != 0;
  if (!entries_.exif.empty() && (TIFFCreateEXIFDirectory(tif) != 0 || !write_directory(tif, entries_.exif, exif_)))
    return false;
  if (!entries_.gps.empty() && (TIFFCreateGPSDirectory(tif) != 0 || !write_directory(tif, entries_.gps, gps_)))
    return false;
  return TIFFCreateDirectory(tif) == 0;
}

void TiffExifWriter::set_image_tags(TIFF* tif) const {
  for (const ExifItem& item : image_text_) TIFFSetField(tif, item.tag, text_of(item).c_str());
  if (exif_.offset) TIFFSetField(tif, TIFFTAG_EXIFIFD, exif_.offset);
  if (gps_.offset) TIFFSetField(tif, TIFFTAG_GPSIFD, gps_.offset);
}

void TiffExifWriter::patch(Bytes& file) const {
  for (const Directory* d : {&exif_, &gps_}) {
    if (d->rationals.empty()) continue;
    const auto stored = stored_entries(file, d->offset, big_tiff_, entries_.big_endian);
    for (const ExifItem& item : d->rationals) {
      const auto at = stored.find(item.tag);
      if (at == stored.end() || at->second.type != item.type || at->second.count != item.count)
        throw CodecFailure("cannot encode TIFF (libtiff wrote EXIF tag " + std::to_string(item.tag) + " otherwise than set)");
      std::copy(item.value.begin(), item.value.end(), file.begin() + static_cast<std::ptrdiff_t>(at->second.at));
    }
  }
}

std::string TiffExifWriter::note() const {
  std::vector<std::string> parts;
  if (entries_.thumbnail) parts.push_back("the thumbnail");
  if (other_image_tags_) parts.push_back(counted(other_image_tags_, "of IFD0 other than its text and Orientation"));
  if (unknown_) parts.push_back(counted(unknown_, "libtiff does not know"));
  if (mistyped_) parts.push_back(counted(mistyped_, "of another type or count than libtiff's"));
  if (unread_bytes_)
    parts.push_back("the block's " + std::to_string(unread_bytes_) + " bytes past the " + std::to_string(kExifRead) +
                    " libexif reads");
  if (parts.empty()) return "";
  std::string s = "TIFF output carries EXIF's tags, not its block: left out ";
  for (std::size_t i = 0; i < parts.size(); ++i) s += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
  return s;
}

namespace {

// The entries libtiff reads of a custom directory and knows, as the file stores them.
bool read_directory(TIFF* tif, const Bytes& file, std::uint64_t offset, int (*read)(TIFF*, toff_t),
                    std::vector<ExifItem>& items) {
  if (!read(tif, offset)) return false;
  const auto stored = stored_entries(file, offset, TIFFIsBigTIFF(tif) != 0, TIFFIsBigEndian(tif) != 0);
  for (int i = 0, n = TIFFGetTagListCount(tif); i < n; ++i) {
    const std::uint32_t tag = TIFFGetTagListEntry(tif, i);
    const TIFFField* field = TIFFFindField(tif, tag, TIFF_ANY);
    const auto at = stored.find(static_cast<std::uint16_t>(tag));
    // EXIF's types are TIFF 6's, up to DOUBLE: none of BigTIFF's 8-byte integers.
    if (!field || TIFFFieldIsAnonymous(field) || at == stored.end() || at->second.type > TIFF_DOUBLE ||
        at->second.count > 0xffffffffu)
      continue;
    const Stored& s = at->second;
    const auto begin = file.begin() + static_cast<std::ptrdiff_t>(s.at);
    items.push_back({static_cast<std::uint16_t>(tag), s.type, static_cast<std::uint32_t>(s.count),
                     Bytes(begin, begin + static_cast<std::ptrdiff_t>(s.count * type_size(s.type)))});
  }
  return true;
}

}  // namespace

Bytes exif_from_tiff(TIFF* tif, const Bytes& file, std::vector<std::string>& ignored, std::string& libtiff_error) {
  ExifEntries e;
  e.big_endian = TIFFIsBigEndian(tif) != 0;
  for (const std::uint16_t tag : kImageText) {
    const char* text = nullptr;
    if (TIFFGetField(tif, tag, &text) == 1 && text) e.image.push_back(text_item(tag, text));
  }
  const bool has_text = !e.image.empty();
  std::uint16_t orientation = 0;
  if (TIFFGetField(tif, TIFFTAG_ORIENTATION, &orientation) == 1 && orientation >= 1 && orientation <= 8) {
    ExifItem item{kOrientation, TIFF_SHORT, 1, Bytes(2)};
    item.value[e.big_endian ? 1 : 0] = static_cast<std::uint8_t>(orientation);
    e.image.push_back(item);
  }
  std::uint64_t exif_offset = 0, gps_offset = 0;
  TIFFGetField(tif, TIFFTAG_EXIFIFD, &exif_offset);
  TIFFGetField(tif, TIFFTAG_GPSIFD, &gps_offset);
  const auto read = [&](std::uint64_t offset, int (*how)(TIFF*, toff_t), const char* name, std::vector<ExifItem>& items) {
    libtiff_error.clear();
    if (offset == 0 || read_directory(tif, file, offset, how, items)) return;
    ignored.push_back(std::string("the ") + name + " of a TIFF (" +
                      (libtiff_error.empty() ? "libtiff cannot read it" : "libtiff: " + libtiff_error) + ")");
  };
  read(exif_offset, TIFFReadEXIFDirectory, "Exif IFD", e.exif);
  read(gps_offset, TIFFReadGPSDirectory, "GPS IFD", e.gps);
  if (!has_text && e.exif.empty() && e.gps.empty()) return {};
  return exif_saved(e);
}

}  // namespace gpuimg
