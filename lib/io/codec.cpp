// Routing between files and the codec libraries: recognise the format from
// the first bytes, read its header once, enforce the pixel limit from it,
// read the rest within the bound the header sets, decode, check again; or
// pick the format from the extension, convert what it cannot hold, encode,
// write atomically.
#include "codec.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <new>

#include "apng.hpp"
#include "ascii_case.hpp"
#include "backends.hpp"
#include "error.hpp"
#include "file_util.hpp"
#include "frames.hpp"
#include "joined.hpp"
#include "metadata_formats.hpp"
#include "near_miss.hpp"
#include "output_formats.hpp"
#include "pixel_convert.hpp"
#include "pixel_data_checks.hpp"
#include "resolution.hpp"
#include "png_encoder.hpp"

namespace gpuimg {
namespace {

const OutputFormat& output_format_or_throw(const std::string& path, const std::string& format) {
  const std::string ext = format.empty() ? lower_extension(path) : format;
  const OutputFormat* f = output_format_for(ext);
  if (f) return *f;
  const std::string supported = " (supported: " + joined(writable_extensions(), ", ") + ")";
  if (ext.empty()) {
    const std::string what = "no file extension to choose the output format from";
    if (written_in_place(path)) throw OutputError(path, what + ": give --format EXT" + supported);
    // A word with no extension is as often a folder meant for a batch.
    throw OutputError(path, what + supported + "; a folder to write into ends in '/': " + path + "/");
  }
  throw OutputError(path, "unsupported output format '." + ext + "'" + writable_hint(ext) + supported);
}

// That a file may be written at `path` by write_file_atomically.
void check_replaceable_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) throw OutputError(path, "is a directory");
  const std::string dir = parent_directory(path);
  if (::stat(dir.c_str(), &st) != 0) {
    const int err = errno;
    if (err == ENOENT) throw OutputError(path, "directory '" + dir + "' does not exist");
    if (err == ENOTDIR) throw OutputError(path, "'" + dir + "' is not a directory");
    throw OutputError(path, "cannot reach directory '" + dir + "': " + errno_text(err));
  }
  if (!S_ISDIR(st.st_mode)) throw OutputError(path, "'" + dir + "' is not a directory");
  if (::access(dir.c_str(), W_OK) != 0) throw OutputError(path, "directory '" + dir + "' is not writable");
  // Said before any decoding too; write_file_atomically checks again.
  if (::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), W_OK) != 0 && errno == EACCES)
    throw OutputError(path, "is write-protected (no write permission); gpuimg does not replace it");
}

// check_output_path's checks, `format` naming the format instead of path's extension.
void check_output_target(const std::string& path, const std::string& format) {
  output_format_or_throw(path, format);
  if (written_in_place(path)) return check_in_place_output(path);
  check_replaceable_file(path);
}

// A WebP or TIFF whose header gives no size is refused unread: the probe
// reads both as their libraries do, so a size it cannot read is one they
// refuse too, and this says why more plainly.
#if GPUIMG_WITH_TIFF
constexpr bool kLibtiffDecodes = true;
#else
constexpr bool kLibtiffDecodes = false;
#endif

bool checks_size_itself(Format format) {
  if (format == Format::tiff) return !kLibtiffDecodes;
  return format != Format::webp;
}

constexpr std::uint64_t kMaxJpegScans = 100;

// The verdict of a JPEG's marker walk, before libjpeg allocates anything.
void check_jpeg_layout(const JpegLayout& jpeg) {
  if (jpeg.status == JpegLayout::Status::truncated) throw CodecFailure("truncated JPEG (no end-of-image marker)");
  if (jpeg.status == JpegLayout::Status::malformed) throw CodecFailure("corrupt JPEG (" + jpeg.problem + ")");
  // Each scan is a pass over the image's coefficients: a file of many
  // tiny scans costs minutes of decoding (999 scans of a 16384x16384
  // image in 1 MB took 25 s). Encoders write at most a few dozen
  // (libjpeg's progressive script has 10); libtiff's JPEG codec also
  // stops at 100.
  if (jpeg.scans > kMaxJpegScans) {
    throw CodecFailure("JPEG with " + std::to_string(jpeg.scans) + " scans, over the " + std::to_string(kMaxJpegScans) +
                       " gpuimg decodes");
  }
}

// A TIFF's tile or strip is decoded into a buffer beside the image (OpenCV,
// which decoded TIFF before, allocated up to 1 GiB for one, so a 1-pixel
// image in one huge tile cost 1.1 GB). A block may be as large as the
// image, or 2^22 pixels, never more. Checked from the header before the
// file is decoded, and by the decoder on the blocks libtiff reports.
constexpr std::uint64_t kMaxTiffBlockPixels = std::uint64_t{1} << 22;

void check_tiff_blocks(const Bytes& file, const ImageShape& shape) {
  check_tiff_block_size(detail::tiff_block_dims(file, {shape.width, shape.height}), {shape.width, shape.height});
}

Image decode_gif(const Bytes& file, const ReadOptions& opts) {
  const std::size_t frame = frame_to_decode(Format::gif, gif_frame_count(file), opts.frame);
  check_gif_first_frame(file);
  return decode_gif_frame(file, frame, opts.max_pixels);
}

// Frame 0 is the default image, a still PNG's one; a later one, composed.
Image decode_png_frame(const Bytes& file, const ReadOptions& opts) {
  const std::optional<ApngLayout> apng = read_apng_layout(file);
  const std::size_t frame = frame_to_decode(Format::png, apng ? apng->image_count() : 1, opts.frame);
  return frame == 0 ? decode_png(file, opts.max_pixels) : decode_apng_frame(file, *apng, frame, opts.max_pixels);
}

Image decode(const Bytes& file, Format format, const ReadOptions& opts) {
  const std::uint64_t max_pixels = opts.max_pixels;
  // GIF's, APNG's and WebP's frames and TIFF's pages are counted by their
  // decoders; every other format holds one.
  if (format != Format::gif && format != Format::tiff && format != Format::png && format != Format::webp)
    frame_to_decode(format, 1, opts.frame);
  switch (format) {
    case Format::gif: return decode_gif(file, opts);
    case Format::png: return decode_png_frame(file, opts);
    case Format::jpeg: return decode_jpeg(file, max_pixels);  // its marker walk checked by inspect_input
    case Format::psd: return decode_psd(file, max_pixels);
    case Format::tga: check_tga_colour_indices(file); return decode_with_stb(file, format, max_pixels);
#if GPUIMG_WITH_TIFF
    case Format::tiff: return decode_tiff(file, max_pixels, opts.frame);
#else
    case Format::tiff: throw CodecFailure("TIFF needs a build with libtiff");
#endif
    case Format::bmp: {
      Image img;
      if (is_run_length_bmp(file)) {
        img = decode_bmp_rle(file, max_pixels);
      } else {
        check_bmp_sides(file);
        check_bmp_palette_indices(file);
        img = decode_with_stb(file, format, max_pixels);
      }
      return img.channels == 3 && has_gray_palette(file) ? gray_of(img) : img;
    }
    case Format::pnm: {
      if (is_pnm_text_or_bitmap(file)) return decode_pnm_text(file, max_pixels);
      const std::uint64_t max = binary_pnm_maximum(file);
      Image img = decode_with_stb(file, format, max_pixels);
      apply_pnm_maximum(img, max);
      return img;
    }
    case Format::webp: return decode_webp(file, max_pixels, opts.frame);
    case Format::radiance_hdr: break;
  }
  throw CodecFailure("Radiance HDR holds floating-point pixels, which gpuimg does not handle");
}

PngSettings png_settings(int level) {
  if (level == WriteOptions::kPngRunLength) return PngSettings{};
  if (level == 0) return {PngFilter::none, PngStrategy::lz77, 0};  // stored: filtering would gain nothing
  return {PngFilter::adaptive, PngStrategy::lz77, level};
}

// `metadata`: what the format holds of it (metadata_to_write); what the
// encoder still could not carry of it is added to `notes`.
// BMP's pixels per metre (bytes 38 and 42 of the header both writers
// write): a size only; an aspect alone is written as none (0).
void put_bmp_resolution(Bytes& bmp, const Resolution& r) {
  if (!r.given()) return;
  const StoredDensity d = r.unit == Resolution::Unit::aspect ? StoredDensity{0, 0, 0} : png_density(r);
  for (int i = 0; i < 4; ++i) {
    bmp[38 + i] = static_cast<std::uint8_t>(d.x >> 8 * i);
    bmp[42 + i] = static_cast<std::uint8_t>(d.y >> 8 * i);
  }
}

Bytes encode(const Image& img, Format format, const WriteOptions& opts, const Metadata& metadata,
             std::vector<std::string>& notes) {
  if (format == Format::png) return encode_png(img, png_settings(opts.png_level), png_metadata_chunks(metadata));
  if (format == Format::jpeg) return encode_jpeg(img, opts.jpeg_quality, opts.jpeg_subsample, metadata);
  if (format == Format::webp) return webp_with_metadata(encode_webp(img, opts.webp_quality), metadata);
  if (format == Format::pnm) return encode_pnm(img);
  if (format == Format::bmp) {
    Bytes bmp = img.channels == 1 ? encode_gray_bmp(img) : encode_with_stb(img, format);
    put_bmp_resolution(bmp, metadata.resolution);
    return bmp;
  }
#if GPUIMG_WITH_TIFF
  if (format == Format::tiff) return encode_tiff(img, metadata, &notes);
#endif
  return encode_with_stb(img, format);
}

std::string check_image(const Image& img) {
  if (img.channels < 1 || img.channels > 4) return "cannot write an image with " + std::to_string(img.channels) + " channels";
  if (img.width <= 0 || img.height <= 0) return "cannot write an empty image";
  if (img.data.size() != Image::byte_size(img.width, img.height, img.channels, img.depth)) {
    return "image data does not match its size";
  }
  return "";
}

// No image within the pixel limit is larger than 8 bytes a pixel (16-bit
// RGBA, uncompressed) plus its metadata, for which 64 MiB is generous; so
// no input is read past that, and a stream whose first bytes gave no size
// still ends in bounded memory.
constexpr std::uint64_t kMetadataSlack = std::uint64_t{64} << 20;

std::uint64_t max_input_bytes(std::uint64_t max_pixels) {
  std::uint64_t bytes = 0;
  if (__builtin_mul_overflow(max_pixels, std::uint64_t{8}, &bytes) ||
      __builtin_add_overflow(bytes, kMetadataSlack, &bytes)) {
    return UINT64_MAX;
  }
  return bytes;
}

// The most a file of a given size can hold: 24 bytes a pixel covers the
// widest encoding of any format read (ASCII PNM, up to 3 samples of
// "65535 "), and the same slack for metadata.
std::uint64_t max_file_bytes(const ImageShape& shape) {
  std::uint64_t bytes = 0;
  if (__builtin_mul_overflow(shape.width, shape.height, &bytes) || __builtin_mul_overflow(bytes, std::uint64_t{24}, &bytes) ||
      __builtin_add_overflow(bytes, kMetadataSlack, &bytes)) {
    return UINT64_MAX;
  }
  return bytes;
}

// Formats whose files hold no more than the image the header sizes: GIF,
// WebP and PNG (APNG) may hold frames, TIFF pages and PSD layers past it,
// and those are read to the bound of --max-pixels alone.
bool holds_one_image(Format f) { return f == Format::jpeg || f == Format::bmp || f == Format::pnm || f == Format::tga; }

// Enough for every header the probe reads (a TIFF whose first IFD lies
// further on is probed again once the file is read).
constexpr std::size_t kFirstRead = std::size_t{64} << 10;

std::string size_text(const ImageShape& s) { return std::to_string(s.width) + "x" + std::to_string(s.height); }

// What a header says, read once: the shape, and for a JPEG the marker walk
// that gave it, whose verdict on the whole file is checked before decoding.
struct HeaderRead {
  std::optional<ImageShape> shape;
  std::optional<JpegLayout> jpeg;
};

HeaderRead read_header(Format format, const Bytes& bytes) {
  if (format != Format::jpeg) return {probe_image(format, bytes), std::nullopt};
  JpegLayout jpeg = inspect_jpeg(bytes);
  const std::optional<ImageShape> shape = jpeg_shape(jpeg);
  return {shape, std::move(jpeg)};
}

// inspect_input's checks, on a header already read from all of `bytes`.
InputFile checked_input(const std::string& path, Bytes bytes, Format format, HeaderRead header,
                        const ReadOptions& opts) {
  InputFile input{path, std::move(bytes), format, header.shape, std::move(header.jpeg)};
  try {
    if (input.shape) {
      // Decoders differ on an empty image (stb's PNM reader refuses it with
      // another format's complaint): the header decides, for all of them.
      if (input.shape->width == 0 || input.shape->height == 0)
        throw CodecFailure("image has no pixels (width or height 0)");
      check_pixel_limit({input.shape->width, input.shape->height}, opts.max_pixels);
      if (input.format == Format::tiff) check_tiff_blocks(input.bytes, *input.shape);
      if (input.bytes.size() < input.shape->min_bytes) {
        throw CodecFailure(std::string("truncated ") + format_name(input.format) + " (a " + size_text(*input.shape) +
                           " image needs at least " + std::to_string(input.shape->min_bytes) + " bytes; the file has " +
                           std::to_string(input.bytes.size()) + ")");
      }
    } else if (!checks_size_itself(input.format)) {
      throw CodecFailure(std::string("corrupt or truncated ") + format_name(input.format) + " (no image size in its header)");
    }
    if (input.jpeg) check_jpeg_layout(*input.jpeg);
  } catch (const CodecFailure& e) {
    throw InputError(path, e.what());
  }
  return input;
}

}  // namespace

void check_tiff_block_size(Dims block, Dims image) {
  std::uint64_t pixels = 0;
  const bool overflow = __builtin_mul_overflow(block.width, block.height, &pixels);
  if (!overflow && pixels <= std::max(image.width * image.height, kMaxTiffBlockPixels)) return;
  throw CodecFailure("TIFF decoded in blocks of " + std::to_string(block.width) + "x" + std::to_string(block.height) +
                     " pixels, larger than its " + std::to_string(image.width) + "x" + std::to_string(image.height) +
                     " image and than 2^22 pixels");
}

void check_pixel_limit(Dims dims, std::uint64_t max_pixels) {
  std::uint64_t pixels = 0;
  const bool overflow = __builtin_mul_overflow(dims.width, dims.height, &pixels);
  if (!overflow && pixels <= max_pixels) return;
  const std::string count = overflow ? "over 2^64" : std::to_string(pixels);
  throw CodecFailure("image is " + std::to_string(dims.width) + "x" + std::to_string(dims.height) + " (" + count +
                     " pixels), over the limit of " + std::to_string(max_pixels) + " set by --max-pixels");
}

InputFile read_input(const std::string& path, const ReadOptions& opts) {
  const std::uint64_t read_pixels = opts.read_within_default_limit ? ReadOptions{}.max_pixels : opts.max_pixels;
  InputReader reader(path, max_input_bytes(read_pixels),
                     std::string("more than any image within ") + (opts.read_within_default_limit ? "the default " : "") +
                         "--max-pixels " + std::to_string(read_pixels) + " can take");
  Bytes bytes;
  reader.read_up_to(bytes, kFirstRead);
  if (bytes.empty()) throw InputError(path, "empty file (0 bytes)");
  const std::optional<Format> format = sniff_format(bytes);
  if (!format) throw InputError(path, "not a recognised image format");
  HeaderRead header = read_header(*format, bytes);
  if (const std::optional<ImageShape>& shape = header.shape) {
    try {
      check_pixel_limit({shape->width, shape->height}, opts.max_pixels);
    } catch (const CodecFailure& e) {
      throw InputError(path, e.what());
    }
    if (holds_one_image(*format)) {
      reader.lower_limit(max_file_bytes(*shape),
                         std::string("more than a ") + size_text(*shape) + " " + format_name(*format) + " can take");
    }
  }
  // An input that ended within the first read has had its header read whole.
  const bool whole = bytes.size() < kFirstRead;
  reader.read_rest(bytes);
  if (!whole) header = read_header(*format, bytes);
  return checked_input(path, std::move(bytes), *format, std::move(header), opts);
}

InputFile inspect_input(const std::string& path, Bytes bytes, const ReadOptions& opts) {
  if (bytes.empty()) throw InputError(path, "empty file (0 bytes)");
  const std::optional<Format> format = sniff_format(bytes);
  if (!format) throw InputError(path, "not a recognised image format");
  HeaderRead header = read_header(*format, bytes);
  return checked_input(path, std::move(bytes), *format, std::move(header), opts);
}

Image decode_input(const InputFile& input, const ReadOptions& opts) {
  try {
    Image img = decode(input.bytes, input.format, opts);
    // Whatever the header said: no decoder's output is trusted to match it.
    check_pixel_limit({std::uint64_t(img.width), std::uint64_t(img.height)}, opts.max_pixels);
    // Some decoders accept a zero width or height and return an empty
    // image; nothing downstream should have to handle one.
    if (img.pixel_count() == 0) throw CodecFailure("image has no pixels (width or height 0)");
    return img;
  } catch (const CodecFailure& e) {
    throw InputError(input.path, e.what());
  } catch (const std::bad_alloc&) {
    throw InputError(input.path, "out of memory while decoding");
  }
}

Image read_image(const std::string& path, const ReadOptions& opts) { return decode_input(read_input(path, opts), opts); }

Image decode_image_bytes(const std::string& path, Bytes bytes, const ReadOptions& opts) {
  return decode_input(inspect_input(path, std::move(bytes), opts), opts);
}

namespace {

// What converting to a layout the format holds loses (docs/formats.md):
// said, since a file that looks right may hold less than the image did.
// Widening (gray to RGB, TIFF gray+alpha to RGBA) loses nothing.
std::vector<std::string> lossy_layout_notes(const OutputFormat& format, const Image& img, Depth wanted,
                                            const Layout& layout) {
  std::vector<std::string> notes;
  std::string name;
  for (const char* c = format.extension; *c; ++c) name += static_cast<char>(std::toupper(static_cast<unsigned char>(*c)));
  name += " ";
  if (img.channels >= 3 && layout.channels < 3)
    notes.push_back(name + "holds no colour: RGB made gray by --grayscale's formula");
  // BMP can hold alpha (gpuimg reads 32-bit files); gpuimg writes 8-bit
  // gray or 24-bit ones.
  if (img.has_alpha() && layout.channels % 2 == 1)
    notes.push_back(name + (format.format != Format::bmp ? ""
                            : layout.channels == 1       ? "as gpuimg writes it (8-bit gray) "
                                                         : "as gpuimg writes it (24-bit) ") +
                    "holds no alpha: alpha dropped");
  if (wanted == Depth::U16 && layout.depth == Depth::U8)
    notes.push_back(name + (img.depth == Depth::U16 ? "holds 8-bit samples: 16-bit samples rounded to 8 bits"
                                                    : "holds 8-bit samples: written at 8 bits, not --depth 16"));
  return notes;
}

}  // namespace

void write_image(const std::string& path, const Image& img, const WriteOptions& opts) {
  write_image(path, img, opts, Metadata{});
}

std::vector<std::string> write_image(const std::string& path, const Image& img, const WriteOptions& opts,
                                     const Metadata& metadata) {
  const std::string invalid = check_image(img);
  if (!invalid.empty()) throw OutputError(path, invalid);
  if (opts.jpeg_quality < 1 || opts.jpeg_quality > 100) {
    throw OutputError(path, "JPEG quality " + std::to_string(opts.jpeg_quality) + " is outside 1..100");
  }
  if (opts.webp_quality < 0 || opts.webp_quality > 100) {
    throw OutputError(path, "WebP quality " + std::to_string(opts.webp_quality) + " is outside 0 (lossless) to 100");
  }
  if (opts.png_level != WriteOptions::kPngRunLength && (opts.png_level < 0 || opts.png_level > 9)) {
    throw OutputError(path, "PNG level " + std::to_string(opts.png_level) + " is outside 0..9");
  }
  const OutputFormat& format = output_format_or_throw(path, opts.format);
  const Depth wanted = opts.depth.value_or(img.depth);
  const Layout layout = stored_layout(format, img.channels, wanted);
  std::vector<std::string> notes = lossy_layout_notes(format, img, wanted, layout);
  // --strip keeps the resolution, and says where the format holds none.
  Metadata resolution_only;
  resolution_only.resolution = metadata.resolution;
  const Metadata kept = metadata_to_write(opts.strip ? resolution_only : metadata, format.format, layout.channels, notes);
  Bytes encoded;
  try {
    const bool as_is = layout.channels == img.channels && layout.depth == img.depth;
    encoded = as_is ? encode(img, format.format, opts, kept, notes)
                    : encode(convert_layout(img, layout.channels, layout.depth), format.format, opts, kept, notes);
  } catch (const CodecFailure& e) {
    throw OutputError(path, e.what());
  } catch (const std::bad_alloc&) {
    throw OutputError(path, "out of memory while encoding");
  }
  write_output(path, encoded);
  return notes;
}

void check_output_path(const std::string& path) { check_output_target(path, ""); }

void check_report_path(const std::string& path) {
  // A report is replaced whole through a rename beside it, which would
  // replace a FIFO or a /dev name rather than write through it.
  if (written_in_place(path))
    throw OutputError(path, "is a stream or device; a report is written as a file, replaced whole");
  check_replaceable_file(path);
}

void check_output_path(const std::string& path, const std::vector<std::string>& inputs, const std::string& format) {
  // stdin is read whole before anything is written, so `- out.png < out.png` overwrites nothing unread.
  for (const std::string& input : inputs)
    if (input != "-" && path != "-" && same_file(input, path))
      throw UsageError(path + ": is " + (inputs.size() == 1 ? "the input file" : "an input file") +
                       "; gpuimg never overwrites its input");
  check_output_target(path, format);
}

std::vector<std::string> writable_extensions() {
  std::vector<std::string> out;
  for (const OutputFormat& f : kOutputFormats) out.emplace_back(f.extension);
  return out;
}

std::string writable_hint(const std::string& ext) {
  const std::string lower = ascii_lower(ext);
  const std::vector<std::string> read = readable_extensions();
  if (std::find(read.begin(), read.end(), lower) != read.end())
    return "; gpuimg reads " + lower + " files but does not write them";
  const std::optional<std::string> near = near_miss(lower, writable_extensions());
  return near ? "; did you mean " + *near + "?" : "";
}

bool image_extension(const std::string& ext) {
  const std::vector<std::string> read = readable_extensions(), written = writable_extensions();
  return std::find(read.begin(), read.end(), ext) != read.end() ||
         std::find(written.begin(), written.end(), ext) != written.end();
}

std::vector<std::string> readable_extensions() {
  std::vector<std::string> out = {"png", "jpg", "jpeg", "bmp", "pgm", "ppm", "pnm", "tga", "psd", "gif"};
#if GPUIMG_WITH_TIFF
  out.insert(out.end(), {"tif", "tiff"});
#endif
  out.push_back("webp");
  return out;
}

std::string codec_versions() {
  std::string versions = libpng_version() + ", " + libjpeg_version();
#if GPUIMG_WITH_TIFF
  versions += ", " + libtiff_version();
#endif
  versions += ", " + libwebp_version();
  return versions + ", " + stb_version();
}

}  // namespace gpuimg
