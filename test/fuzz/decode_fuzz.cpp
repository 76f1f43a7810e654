// Any bytes through the decoder of the format they look like, as
// read_image does after reading a file: an InputError is the only way out
// (no crash, hang, leak or other exception), and a decoded image is what
// it claims and within the pixel limit. The header probe (--device auto)
// runs on the same bytes and must agree with the decoder where both answer.
// The metadata is read as the processing command reads it (PNG chunks, JPEG
// segments, TIFF tags, the EXIF block through libexif), and written back as
// a PNG's chunks and an upright EXIF block. A PNG refused whole (an APNG,
// without --frame) has its first frames decoded one by one. gpuimg info's
// header read runs on every input, as info reads it (no pixel limit), for
// its own surface: files that do not decode, or are over the limit; where
// decoding gives an image too, info describes that image (frame 0's, for
// an animated PNG).
#include <cstdint>
#include <optional>
#include <vector>

#include "codec.hpp"
#include "error.hpp"
#include "exif_block.hpp"
#include "fuzz_target.hpp"
#include "image_info.hpp"
#include "metadata_formats.hpp"
#include "probe.hpp"

using gpuimg::fuzz::require;

namespace {

// What gpuimg info says of the bytes (read_image_info's checks, on bytes
// in memory); nullopt where it refuses them.
std::optional<gpuimg::ImageShape> described_shape(const std::vector<std::uint8_t>& file) {
  gpuimg::ReadOptions unlimited;
  unlimited.max_pixels = UINT64_MAX;
  try {
    return gpuimg::describe_input(gpuimg::inspect_input("fuzz-input", file, unlimited)).shape;
  } catch (const gpuimg::InputError&) {
    return std::nullopt;
  }
}

void check_described(const gpuimg::Image& img, const std::optional<gpuimg::ImageShape>& described) {
  require(described.has_value(), "info describes an image that decodes");
  require(described->width == std::uint64_t(img.width) && described->height == std::uint64_t(img.height) &&
              described->channels == img.channels && described->depth == img.depth,
          "info gives the decoded size, channels and depth");
}

void check_decoded(const gpuimg::Image& img, const gpuimg::ReadOptions& opts,
                   const std::optional<gpuimg::ImageShape>& shape) {
  require(img.width > 0 && img.height > 0, "a decoded image has pixels");
  require(img.pixel_count() <= opts.max_pixels, "a decoded image is within max_pixels");
  require(img.channels >= 1 && img.channels <= 4, "a decoded image has 1 to 4 channels");
  require(img.data.size() == gpuimg::Image::byte_size(img.width, img.height, img.channels, img.depth),
          "a decoded image holds width x height x channels samples");
  if (shape) {
    require(shape->width == std::uint64_t(img.width) && shape->height == std::uint64_t(img.height),
            "the probe gives the decoded size");
    require(shape->channels >= img.channels && shape->depth >= img.depth,
            "the probe's channels and depth are never below the decoded ones");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::uint8_t> file(data, data + size);
  // Small, so that no input makes a run slow or large: 256 x 256.
  gpuimg::ReadOptions opts;
  opts.max_pixels = 1 << 16;
  const std::optional<gpuimg::ImageShape> shape = gpuimg::probe_image(file);
  const std::optional<gpuimg::ImageShape> described = described_shape(file);
  std::optional<gpuimg::InputFile> input;
  try {
    input = gpuimg::inspect_input("fuzz-input", file, opts);
    const gpuimg::Metadata metadata = gpuimg::read_metadata(*input);
    require(metadata.orientation >= 1 && metadata.orientation <= 8, "an orientation is 1 to 8");
    if (!metadata.exif.empty()) gpuimg::exif_upright(metadata.exif);
    gpuimg::png_metadata_chunks(metadata);
    const gpuimg::Image img = gpuimg::decode_input(*input, opts);
    check_decoded(img, opts, shape);
    check_described(img, described);
    return 0;
  } catch (const gpuimg::InputError&) {
    if (!input || input->format != gpuimg::Format::png) return 0;
  }
  // An animated PNG, refused without --frame: its first frames composed,
  // each on the canvas the header gives.
  for (opts.frame = 0; opts.frame < 4; ++opts.frame) {
    try {
      const gpuimg::Image img = gpuimg::decode_input(*input, opts);
      check_decoded(img, opts, shape);
      if (opts.frame == 0) check_described(img, described);
    } catch (const gpuimg::InputError&) {
    }
  }
  return 0;
}
