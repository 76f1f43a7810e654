#pragma once
// Reading and writing image files. The format of an output follows its
// extension; inputs are recognised by their content, not their name.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frames.hpp"
#include "image.hpp"
#include "probe.hpp"

namespace gpuimg {

struct ReadOptions {
  // Refuse, from the header and before allocating, images with more pixels.
  // It also bounds the input read: max_pixels * 8 bytes + 64 MiB.
  std::uint64_t max_pixels = std::uint64_t{1} << 28;
  // Bound the input read by the default max_pixels instead, whatever
  // max_pixels is: gpuimg info, which sets no pixel limit, still reads no
  // more than a run with the default --max-pixels would.
  bool read_within_default_limit = false;
  // --frame: which frame of an animated GIF, PNG or WebP or page of a TIFF
  // to decode, from 0; kNoFrame (frames.hpp): the input must hold one.
  int frame = kNoFrame;
  // Turn the pixels as the EXIF Orientation tag says, and set it to 1
  // (planned_read.hpp); false: --no-auto-orient.
  bool auto_orient = true;
};

// JPEG chroma sampling: automatic is ImageMagick's rule, 4:4:4 at quality
// 90 and above, 4:2:0 below.
enum class JpegSubsample { automatic, s444, s422, s420 };

struct WriteOptions {
  int jpeg_quality = 95;  // 1..100
  // WebP: 0 lossless (the pixels as they are), or lossy at this quality, 1..100 (--quality).
  int webp_quality = 0;
  JpegSubsample jpeg_subsample = JpegSubsample::automatic;
  // PNG: kPngRunLength (zlib's run-length strategy, fast, the smallest
  // files for photos), 0 (stored uncompressed) or 1..9 (zlib's LZ77 search
  // at that level: slower, smaller for graphics with repeated patterns).
  int png_level = kPngRunLength;
  static constexpr int kPngRunLength = -1;
  // The extension whose format is written ("png"), in place of the path's
  // own: stdout and FIFOs have none to go by. Empty: the path's.
  std::string format{};
  // --strip: no ICC profile, EXIF or XMP in the output, the resolution kept (metadata.hpp).
  bool strip = false;
  // --depth: the output's samples at this depth where its format holds it
  // (16-bit samples rounded to 8 bits, 8-bit ones widened by 257); unset:
  // the image's.
  std::optional<Depth> depth{};
};

// An input read once: its bytes, its format (recognised from its first
// bytes, before the rest was read) and what its header says the decoder
// will give, read by the decoder's own rules (probe.hpp). That one shape
// feeds the pixel limit, the bound on how much is read, --device auto and
// the decoder. A JPEG's markers are walked once, for its shape and its
// structure together: the walk is kept, its verdict already checked.
struct InputFile {
  std::string path;
  std::vector<std::uint8_t> bytes;
  Format format;
  std::optional<ImageShape> shape;  // nullopt only where the decoder checks the size itself first
  std::optional<JpegLayout> jpeg;   // JPEG only: complete, of at most 100 scans
};

// Reads `path`: refuses an unknown format from its first 64 KiB, an image
// over max_pixels from its header, and any input longer than an image of
// its header's size could be (or, with no size in the part read first,
// than any image within max_pixels); then checks it as inspect_input does.
// Throws InputError naming the path.
InputFile read_input(const std::string& path, const ReadOptions& opts = {});

// The same checks on bytes already in memory, and for a JPEG those of its
// marker walk: cut short, malformed, too many scans.
InputFile inspect_input(const std::string& path, std::vector<std::uint8_t> bytes, const ReadOptions& opts = {});

// Decodes, checking the decoded size against max_pixels whatever the
// header said. Throws InputError naming the path (truncated, corrupt, ...).
Image decode_input(const InputFile& input, const ReadOptions& opts = {});

// read_input then decode_input.
Image read_image(const std::string& path, const ReadOptions& opts = {});

// inspect_input then decode_input, for bytes already in memory.
Image decode_image_bytes(const std::string& path, std::vector<std::uint8_t> bytes, const ReadOptions& opts = {});

// Encodes in memory, then writes: to a temporary file beside `path`,
// renamed into place only after a complete write, so a failure leaves no
// partial file and never destroys one already there; or, for stdout ("-"),
// a FIFO or a device, in place (write_output in file_util.hpp), where
// nothing is written unless the whole image encoded. Converts what the
// format cannot hold, as the README documents (JPEG: 16-bit to 8-bit, alpha
// dropped). Throws OutputError.
void write_image(const std::string& path, const Image& img, const WriteOptions& opts = {});

// Fails fast, before any decoding, on an output the run could never write:
// an unsupported extension, a missing or unwritable directory, a terminal
// as stdout. Throws OutputError.
void check_output_path(const std::string& path);

// The same, after refusing (UsageError) an output that is one of `inputs`,
// compared by device and inode so that links count: an input is never
// overwritten. `format` as WriteOptions::format.
void check_output_path(const std::string& path, const std::vector<std::string>& inputs,
                       const std::string& format = "");

// The same for a file of text (a --report, --junit): a missing or
// unwritable directory, a directory or a read-only file in its place, or
// a stream or device (written in place by images, never by reports).
// Throws OutputError.
void check_report_path(const std::string& path);

// Lower-case extensions (without the dot) this build can write / read.
std::vector<std::string> writable_extensions();
std::vector<std::string> readable_extensions();
// Whether gpuimg reads or writes files of this (lower-case) extension.
bool image_extension(const std::string& ext);

// For `ext`, not a written format: "; did you mean jpg?" where it is a
// slip of one's extension ("jgp", "pgn"), "; gpuimg reads gif files but
// does not write them" where it is read (not "tif?"); else empty.
std::string writable_hint(const std::string& ext);

// One line naming the codec libraries and versions in this build, for --version.
std::string codec_versions();

}  // namespace gpuimg
