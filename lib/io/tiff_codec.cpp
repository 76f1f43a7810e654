// TIFF read through libtiff itself. OpenCV read 8-bit TIFFs with
// TIFFReadRGBAStrip/Tile, which go on past libtiff's decode errors: a strip
// cut short came out as made-up, even uninitialised, pixels with exit 0.
// Here each strip or tile is decoded with TIFFReadEncodedStrip/Tile into a
// buffer of its own, and the image is refused unless every one decodes to
// the bytes its pixels take and libtiff says nothing while it does: some
// damage it only warns about and decodes around (a JPEG strip that ends
// early is filled in by libjpeg). libtiff reads the bytes in memory,
// mapped (no copy, and a strip's bytes are held to its StripByteCounts),
// and reports to handlers of this handle alone, so decodes in several
// threads share no state.
#include <tiffio.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstdarg>
#include <cstdio>
#include <functional>
#include <memory>

#include "backends.hpp"
#include "frames.hpp"
#include "metadata_formats.hpp"
#include "tiff_exif.hpp"
#include "tiff_memory.hpp"

namespace gpuimg {
namespace {

// ---- libtiff on bytes in memory ---------------------------------------------

struct MemoryFile {
  const Bytes& bytes;
  std::uint64_t pos = 0;
};

MemoryFile& file_of(thandle_t h) { return *static_cast<MemoryFile*>(h); }

tmsize_t read_proc(thandle_t h, void* buf, tmsize_t n) { return read_at(file_of(h).bytes, file_of(h).pos, buf, n); }

tmsize_t write_proc(thandle_t, void*, tmsize_t) { return -1; }  // opened for reading only

toff_t seek_proc(thandle_t h, toff_t offset, int whence) {
  return seek_to(file_of(h).bytes.size(), file_of(h).pos, offset, whence);
}

int close_proc(thandle_t) { return 0; }

toff_t size_proc(thandle_t h) { return file_of(h).bytes.size(); }

int map_proc(thandle_t h, void** base, toff_t* size) {
  // libtiff only reads through the mapping; its type has no const.
  *base = const_cast<std::uint8_t*>(file_of(h).bytes.data());
  *size = file_of(h).bytes.size();
  return 1;
}

void unmap_proc(thandle_t, void*, toff_t) {}

// What libtiff reports about one handle. While the directory is read, only
// errors count (the reason an open failed); warnings there are about tags
// libtiff mends or ignores. From the first pixel read on, a warning is as
// fatal as an error: each says a strip's data is not what it should be.
struct Messages {
  std::string first;
  bool reading_pixels = false;
};

void record(void* user, const char* module, const char* fmt, va_list ap) {
  Messages& m = *static_cast<Messages*>(user);
  if (!m.first.empty()) return;
  char text[512];
  std::vsnprintf(text, sizeof text, fmt, ap);
  const std::string prefix = module && *module ? std::string(module) + ": " : "";
  m.first = std::string(text).rfind(prefix, 0) == 0 ? text : prefix + text;  // some texts name their module already
  m.first = m.first.substr(0, m.first.find('\n'));                           // one line, as every message is
}

// Returning 1 stops libtiff there: its process-wide handlers, whose default
// prints to stderr, never run.
int on_error(TIFF*, void* user, const char* module, const char* fmt, va_list ap) {
  record(user, module, fmt, ap);
  return 1;
}

int on_warning(TIFF*, void* user, const char* module, const char* fmt, va_list ap) {
  if (static_cast<Messages*>(user)->reading_pixels) record(user, module, fmt, ap);
  return 1;
}

using TiffHandle = std::unique_ptr<TIFF, void (*)(TIFF*)>;

TiffHandle open_tiff(MemoryFile& file, Messages& messages) {
  const std::unique_ptr<TIFFOpenOptions, void (*)(TIFFOpenOptions*)> opts(TIFFOpenOptionsAlloc(), TIFFOpenOptionsFree);
  if (!opts) throw std::bad_alloc();
  TIFFOpenOptionsSetErrorHandlerExtR(opts.get(), on_error, &messages);
  TIFFOpenOptionsSetWarningHandlerExtR(opts.get(), on_warning, &messages);
  TIFF* tif = TIFFClientOpenExt("", "r", &file, read_proc, write_proc, seek_proc, close_proc, size_proc, map_proc, unmap_proc,
                                opts.get());
  if (!tif) throw CodecFailure("corrupt TIFF" + (messages.first.empty() ? "" : " (libtiff: " + messages.first + ")"));
  return TiffHandle(tif, TIFFClose);
}

// ---- what the first directory holds, and what gpuimg makes of it ------------

enum class Colour { gray, rgb, palette };

struct Layout {
  std::uint32_t width = 0, height = 0;
  Colour colour = Colour::gray;
  bool min_is_white = false;
  int samples = 0;      // stored a pixel: the colour's, then alpha
  int bits = 0;         // a stored sample's
  bool planar = false;  // one plane a sample
  std::uint16_t compression = COMPRESSION_NONE;
  int channels = 0;  // decoded
  Depth depth = Depth::U8;
};

std::string unsupported(const std::string& what) { return "unsupported TIFF (" + what + ")"; }

std::string colour_space_name(std::uint16_t photometric) {
  switch (photometric) {
    case PHOTOMETRIC_MASK: return "a transparency mask";
    case PHOTOMETRIC_SEPARATED: return "separated colour (CMYK)";
    case PHOTOMETRIC_YCBCR: return "YCbCr without JPEG compression";
    case PHOTOMETRIC_CIELAB:
    case PHOTOMETRIC_ICCLAB:
    case PHOTOMETRIC_ITULAB: return "L*a*b* colour";
    case PHOTOMETRIC_LOGL:
    case PHOTOMETRIC_LOGLUV: return "LogLuv colour";
    default: return "photometric interpretation " + std::to_string(photometric);
  }
}

const char* colour_name(Colour c) { return c == Colour::rgb ? "RGB" : c == Colour::gray ? "gray" : "palette"; }

std::string layout_name(const Layout& l) {
  const bool alpha = l.colour != Colour::palette && l.samples == (l.colour == Colour::gray ? 2 : 4);
  return std::string(colour_name(l.colour)) + (alpha ? " with alpha" : "");
}

bool compression_read(std::uint16_t c) {
  return c == COMPRESSION_NONE || c == COMPRESSION_LZW || c == COMPRESSION_ADOBE_DEFLATE || c == COMPRESSION_DEFLATE ||
         c == COMPRESSION_PACKBITS || c == COMPRESSION_JPEG;
}

Layout layout_of(TIFF* tif) {
  Layout l;
  std::uint16_t bits = 0, samples = 0, format = 0, planar = 0, photometric = 0;
  TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &l.width);  // libtiff opens no directory without both
  TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &l.height);
  TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &bits);
  TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &samples);
  TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &format);
  TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &planar);
  TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &l.compression);
  if (!TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &photometric)) throw CodecFailure("corrupt TIFF (no photometric interpretation)");
  l.samples = samples;
  l.bits = bits;
  l.planar = planar == PLANARCONFIG_SEPARATE;

  if (format == SAMPLEFORMAT_INT) throw CodecFailure(unsupported("signed samples"));
  if (format == SAMPLEFORMAT_IEEEFP) throw CodecFailure(unsupported("floating-point samples"));
  if (format != SAMPLEFORMAT_UINT) throw CodecFailure(unsupported("sample format " + std::to_string(format)));
  if (!compression_read(l.compression)) {
    const TIFFCodec* codec = TIFFFindCODEC(l.compression);
    throw CodecFailure(unsupported((codec ? std::string(codec->name) : "compression " + std::to_string(l.compression)) +
                                   " compression; gpuimg reads none, LZW, Deflate, PackBits and JPEG"));
  }
  const bool jpeg_ycbcr = photometric == PHOTOMETRIC_YCBCR && l.compression == COMPRESSION_JPEG;
  if (photometric == PHOTOMETRIC_MINISBLACK || photometric == PHOTOMETRIC_MINISWHITE) {
    l.colour = Colour::gray;
    l.min_is_white = photometric == PHOTOMETRIC_MINISWHITE;
  } else if (photometric == PHOTOMETRIC_RGB || jpeg_ycbcr) {
    l.colour = Colour::rgb;
  } else if (photometric == PHOTOMETRIC_PALETTE) {
    l.colour = Colour::palette;
  } else {
    throw CodecFailure(unsupported(colour_space_name(photometric)));
  }
  // libjpeg turns YCbCr into RGB only for interleaved samples.
  if (jpeg_ycbcr && l.planar) throw CodecFailure(unsupported("YCbCr in separate planes"));

  // The colour's samples, then at most one more, read as alpha whatever
  // ExtraSamples says of it: copied as stored, never premultiplied or
  // divided out (a palette has none).
  const int colour_samples = l.colour == Colour::rgb ? 3 : 1;
  const int most = l.colour == Colour::palette ? 1 : colour_samples + 1;
  if (l.samples < colour_samples || l.samples > most) {
    throw CodecFailure(unsupported(std::string(colour_name(l.colour)) + " with " + std::to_string(l.samples) + " samples a pixel"));
  }
  const bool whole_bytes = l.bits == 8 || l.bits == 16;
  const bool packed = (l.bits == 1 || l.bits == 2 || l.bits == 4) && l.samples == 1;
  const bool bits_read = l.colour == Colour::palette ? packed || l.bits == 8 : whole_bytes || packed;
  if (!bits_read) throw CodecFailure(unsupported(std::to_string(l.bits) + "-bit " + layout_name(l)));

  l.channels = l.colour == Colour::palette ? 3 : l.samples;
  l.depth = l.bits == 16 ? Depth::U16 : Depth::U8;
  if (jpeg_ycbcr) TIFFSetField(tif, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);
  return l;
}

// The sides decode_tiff makes an image of, refused alike by gpuimg info,
// which has no pixel limit to stop them first: none of 0, none past an int.
void check_sides(const Layout& l) {
  if (l.width == 0 || l.height == 0) throw CodecFailure("image has no pixels (width or height 0)");
  if (l.width > INT_MAX || l.height > INT_MAX) {
    throw CodecFailure(unsupported(std::to_string(l.width) + "x" + std::to_string(l.height) + "; sides up to 2^31 - 1"));
  }
}

// ---- strips and tiles --------------------------------------------------------

// One strip or tile: libtiff's index for it, the plane it holds (0 for
// interleaved samples) and the part of the image it covers.
struct Block {
  std::uint32_t index;
  int plane;
  std::uint32_t x, y, cols, rows;
};

// How the image is cut: blocks of width x height pixels (a strip is the
// image's width, and its last may be shorter), row_bytes a row of one.
struct Blocks {
  bool tiled = false;
  std::uint32_t width = 0, height = 0;
  std::uint64_t row_bytes = 0;
  const char* name = "strip";
};

std::uint64_t bits_to_bytes(std::uint64_t count, int bits) { return (count * static_cast<std::uint64_t>(bits) + 7) / 8; }

Blocks blocks_of(TIFF* tif, const Layout& l) {
  Blocks b;
  b.tiled = TIFFIsTiled(tif) != 0;
  if (b.tiled) {
    TIFFGetField(tif, TIFFTAG_TILEWIDTH, &b.width);
    TIFFGetField(tif, TIFFTAG_TILELENGTH, &b.height);
    b.name = "tile";
  } else {
    std::uint32_t rows = 0;
    TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &rows);
    b.width = l.width;
    b.height = std::min(rows, l.height);
  }
  if (b.width == 0 || b.height == 0) throw CodecFailure(std::string("corrupt TIFF (") + b.name + "s of no pixels)");
  check_tiff_block_size({b.width, b.height}, {l.width, l.height});
  b.row_bytes = bits_to_bytes(std::uint64_t{b.width} * (l.planar ? 1 : l.samples), l.bits);
  return b;
}

void for_each_block(TIFF* tif, const Layout& l, const Blocks& b, const std::function<void(const Block&)>& visit) {
  const int planes = l.planar ? l.samples : 1;
  for (int plane = 0; plane < planes; ++plane) {
    for (std::uint32_t y = 0; y < l.height; y += std::min(b.height, l.height - y)) {
      const std::uint32_t rows = std::min(b.height, l.height - y);
      for (std::uint32_t x = 0; x < l.width; x += std::min(b.width, l.width - x)) {
        const std::uint32_t cols = std::min(b.width, l.width - x);
        const auto sample = static_cast<std::uint16_t>(plane);
        const std::uint32_t index = b.tiled ? TIFFComputeTile(tif, x, y, 0, sample) : TIFFComputeStrip(tif, y, sample);
        visit({index, plane, x, y, cols, rows});
      }
    }
  }
}

// The bytes a block's pixels take decoded: a tile always whole, even where
// it overhangs the image; a strip only its rows.
std::uint64_t block_bytes(const Blocks& b, const Block& block) { return b.row_bytes * (b.tiled ? b.height : block.rows); }

// The most each compression gains: no file can hold a block in fewer
// bytes, so a smaller StripByteCounts/TileByteCounts is refused before any
// pixel memory is allocated, and a few bytes cannot claim gigabytes.
// PackBits: 128 bytes from a 2-byte run. Deflate: 1032:1 (a 258-byte match
// in two one-bit codes). LZW: each code adds at most one byte to the
// longest string yet and the table clears at 4096 entries, so about 3800
// codes of 9 to 12 bits give at most 7.4 MB: under 1800:1. JPEG: none
// counted (arithmetic coding has no least bits a block).
std::uint64_t least_stored_bytes(std::uint16_t compression, std::uint64_t decoded) {
  switch (compression) {
    case COMPRESSION_NONE: return decoded;
    case COMPRESSION_PACKBITS: return decoded / 64;
    case COMPRESSION_ADOBE_DEFLATE:
    case COMPRESSION_DEFLATE: return decoded / 1032;
    case COMPRESSION_LZW: return decoded / 1800;
    default: return 0;
  }
}

// Numbered from 0, as libtiff's own messages number them.
std::string block_text(const Blocks& b, const Block& block) { return std::string(b.name) + " " + std::to_string(block.index); }

void check_stored_bytes(TIFF* tif, const Layout& l, const Blocks& b, std::uint64_t file_size) {
  for_each_block(tif, l, b, [&](const Block& block) {
    const std::uint64_t offset = TIFFGetStrileOffset(tif, block.index);
    const std::uint64_t stored = TIFFGetStrileByteCount(tif, block.index);
    if (offset > file_size || stored > file_size - offset) {
      throw CodecFailure("truncated TIFF (" + block_text(b, block) + " ends past the end of the file)");
    }
    const std::uint64_t decoded = block_bytes(b, block);
    const std::uint64_t least = least_stored_bytes(l.compression, decoded);
    if (stored < least) {
      throw CodecFailure("truncated TIFF (" + block_text(b, block) + " has " + std::to_string(stored) + " bytes; its " +
                         std::to_string(decoded) + " bytes of pixels need at least " + std::to_string(least) + ")");
    }
  });
}

// ---- samples into the image ---------------------------------------------------

// Gray of 1, 2 or 4 bits (scaled to 8 as v * 255 / (2^bits - 1), as PNG's
// are) and palette indices become pixels through a table, one entry a value.
using Lookup = std::vector<std::array<std::uint8_t, 3>>;

Lookup lookup_of(TIFF* tif, const Layout& l) {
  const std::size_t entries = std::size_t{1} << l.bits;
  Lookup table(entries);
  if (l.colour == Colour::gray) {
    const unsigned most = static_cast<unsigned>(entries - 1);
    for (unsigned v = 0; v <= most; ++v) table[v][0] = static_cast<std::uint8_t>((l.min_is_white ? most - v : v) * 255 / most);
    return table;
  }
  std::uint16_t *r = nullptr, *g = nullptr, *b = nullptr;
  // libtiff keeps no ColorMap whose count is not 3 x 2^bits, and opens no
  // palette image without one: every index the samples can hold has its
  // entry, none can fall past the map.
  if (!TIFFGetField(tif, TIFFTAG_COLORMAP, &r, &g, &b)) throw CodecFailure("corrupt TIFF (palette image without a colour map)");
  // Entries are 16-bit; the high byte is the 8-bit colour whether a writer
  // scaled by 257 or by 256. A map with every entry under 256 was written
  // 8-bit by old writers, and is taken as it is (as libtiff's RGBA reader,
  // which OpenCV used, takes both).
  bool eight_bit = true;
  for (std::size_t i = 0; i < entries; ++i) eight_bit = eight_bit && r[i] < 256 && g[i] < 256 && b[i] < 256;
  const int shift = eight_bit ? 0 : 8;
  for (std::size_t i = 0; i < entries; ++i) {
    table[i] = {static_cast<std::uint8_t>(r[i] >> shift), static_cast<std::uint8_t>(g[i] >> shift),
                static_cast<std::uint8_t>(b[i] >> shift)};
  }
  return table;
}

// A block's rows into the image. Whole-byte samples are copied (MINISWHITE
// gray flipped: max - v is v ^ max), the others looked up.
template <class T>
void put_samples(const Layout& l, const Blocks& b, const Block& block, const std::uint8_t* data, Image& img) {
  const int per_pixel = l.planar ? 1 : l.samples;
  const int first = l.planar ? block.plane : 0;
  const auto max = static_cast<T>(max_sample(img.depth));
  for (std::uint32_t r = 0; r < block.rows; ++r) {
    const T* src = reinterpret_cast<const T*>(data + r * b.row_bytes);
    T* dst = img.samples<T>() + (std::size_t{block.y + r} * l.width + block.x) * l.channels;
    for (int s = 0; s < per_pixel; ++s) {
      const int c = first + s;
      const T flip = l.min_is_white && c == 0 ? max : 0;
      for (std::uint32_t x = 0; x < block.cols; ++x)
        dst[std::size_t{x} * l.channels + c] = src[std::size_t{x} * per_pixel + s] ^ flip;
    }
  }
}

void put_looked_up(const Layout& l, const Blocks& b, const Block& block, const std::uint8_t* data, const Lookup& table,
                   Image& img) {
  const unsigned mask = (1u << l.bits) - 1;
  for (std::uint32_t r = 0; r < block.rows; ++r) {
    const std::uint8_t* src = data + r * b.row_bytes;
    std::uint8_t* dst = img.data.data() + (std::size_t{block.y + r} * l.width + block.x) * l.channels;
    for (std::uint32_t x = 0; x < block.cols; ++x) {
      const std::size_t bit = std::size_t{x} * l.bits;
      const unsigned v = src[bit / 8] >> (8 - l.bits - bit % 8) & mask;
      std::copy_n(table[v].data(), l.channels, dst + std::size_t{x} * l.channels);
    }
  }
}

void decode_blocks(TIFF* tif, const Layout& l, const Blocks& b, const Lookup& table, Messages& messages, Image& img) {
  Bytes buffer(b.row_bytes * b.height);
  messages.first.clear();
  messages.reading_pixels = true;
  for_each_block(tif, l, b, [&](const Block& block) {
    const auto wanted = static_cast<tmsize_t>(block_bytes(b, block));
    const tmsize_t got = b.tiled ? TIFFReadEncodedTile(tif, block.index, buffer.data(), wanted)
                                 : TIFFReadEncodedStrip(tif, block.index, buffer.data(), wanted);
    if (!messages.first.empty()) throw CodecFailure("corrupt TIFF (libtiff: " + messages.first + ")");
    if (got != wanted) {
      throw CodecFailure("corrupt TIFF (" + block_text(b, block) + " decoded to " + std::to_string(std::max<tmsize_t>(got, 0)) +
                         " of its " + std::to_string(wanted) + " bytes)");
    }
    if (!table.empty()) {
      put_looked_up(l, b, block, buffer.data(), table, img);
    } else if (l.depth == Depth::U16) {
      put_samples<std::uint16_t>(l, b, block, buffer.data(), img);
    } else {
      put_samples<std::uint8_t>(l, b, block, buffer.data(), img);
    }
  });
}

// libtiff follows the chain of directories to its end, or to a loop.
std::size_t page_count(TIFF* tif) { return std::max<tdir_t>(TIFFNumberOfDirectories(tif), 1); }

}  // namespace

std::size_t tiff_page_count(const Bytes& file) {
  MemoryFile memory{file};
  Messages messages;
  return page_count(open_tiff(memory, messages).get());
}

ImageShape tiff_decoded_shape(const Bytes& file) {
  MemoryFile memory{file};
  Messages messages;
  const TiffHandle tif = open_tiff(memory, messages);
  const Layout l = layout_of(tif.get());
  check_sides(l);
  // Where the blocks lie is read from the directory too: a file cut short
  // within its pixels is refused here as decode_tiff refuses it.
  check_stored_bytes(tif.get(), l, blocks_of(tif.get(), l), file.size());
  return ImageShape{l.width, l.height, l.channels, l.depth};
}

Image decode_tiff(const Bytes& file, std::uint64_t max_pixels, int frame) {
  MemoryFile memory{file};
  Messages messages;
  const TiffHandle tif = open_tiff(memory, messages);
  const std::size_t page = frame_to_decode(Format::tiff, page_count(tif.get()), frame);
  if (page > 0 && !TIFFSetDirectory(tif.get(), static_cast<tdir_t>(page)))
    throw CodecFailure("corrupt TIFF (page " + std::to_string(page) +
                       (messages.first.empty() ? "" : ": libtiff: " + messages.first) + ")");
  const Layout l = layout_of(tif.get());
  check_pixel_limit({l.width, l.height}, max_pixels);
  check_sides(l);
  const Lookup table = l.bits < 8 || l.colour == Colour::palette ? lookup_of(tif.get(), l) : Lookup{};
  const Blocks b = blocks_of(tif.get(), l);
  check_stored_bytes(tif.get(), l, b, file.size());
  // Every pixel is written below, or the image is refused.
  Image img(static_cast<int>(l.width), static_cast<int>(l.height), l.channels, l.depth);
  decode_blocks(tif.get(), l, b, table, messages, img);
  return img;
}

void read_tiff_metadata(const Bytes& file, int frame, Metadata& out) {
  MemoryFile memory{file};
  Messages messages;
  TiffHandle tif(nullptr, TIFFClose);
  try {
    tif = open_tiff(memory, messages);
  } catch (const CodecFailure&) {
    return;  // decode_tiff says why
  }
  if (frame > 0 && !TIFFSetDirectory(tif.get(), static_cast<tdir_t>(frame))) return;
  const auto item = [&](ttag_t tag, Bytes& into) {
    std::uint32_t count = 0;
    const std::uint8_t* data = nullptr;
    if (TIFFGetField(tif.get(), tag, &count, &data) == 1 && data) into.assign(data, data + count);
  };
  item(TIFFTAG_ICCPROFILE, out.icc);
  item(TIFFTAG_XMLPACKET, out.xmp);
  std::uint16_t orientation = ORIENTATION_TOPLEFT;
  if (TIFFGetField(tif.get(), TIFFTAG_ORIENTATION, &orientation) == 1 && orientation >= 1 && orientation <= 8)
    out.orientation = orientation;
  float x = 0, y = 0;
  if (TIFFGetField(tif.get(), TIFFTAG_XRESOLUTION, &x) == 1 && TIFFGetField(tif.get(), TIFFTAG_YRESOLUTION, &y) == 1) {
    // TIFF's default, the inch, also where libtiff refused a unit past 1 to 3.
    std::uint16_t unit = RESUNIT_INCH;
    TIFFGetFieldDefaulted(tif.get(), TIFFTAG_RESOLUTIONUNIT, &unit);
    using U = Resolution::Unit;
    if (x > 0 && y > 0)
      out.resolution = {unit == RESUNIT_INCH ? U::inch : unit == RESUNIT_CENTIMETER ? U::centimetre : U::aspect, x, y};
    else
      out.ignored.push_back("a TIFF's resolution of 0");
  }
  const std::string problem = out.icc.empty() ? "" : icc_problem(out.icc);
  if (!problem.empty()) {
    out.ignored.push_back("the ICC profile of a TIFF (" + problem + ")");
    out.icc.clear();
  }
  // Last: it reads the Exif and GPS IFDs in the page's place.
  out.exif = exif_from_tiff(tif.get(), file, out.ignored, messages.first);
}

std::string libtiff_version() {
  // "LIBTIFF, Version 4.5.0\nCopyright ..." -> "libtiff 4.5.0"
  const std::string text = TIFFGetVersion();
  const std::size_t at = text.find("Version ");
  const std::string version = at == std::string::npos ? "" : text.substr(at + 8);
  return "libtiff " + version.substr(0, version.find('\n'));
}

}  // namespace gpuimg
