// Each format's headers read as decode() in codec.cpp routes the format:
// the same decoder's rules, up to its first pixel.
#include "image_info.hpp"

#include <cstdint>
#include <optional>

#include "apng.hpp"
#include "backends.hpp"
#include "error.hpp"

namespace gpuimg {
namespace {

// RGB whose palette is all grays is read as gray, as decode() reads it.
std::optional<ImageShape> bmp_decoded_shape(const Bytes& file) {
  std::optional<ImageShape> shape = is_run_length_bmp(file) ? bmp_rle_shape(file) : stb_shape(file);
  if (shape && shape->channels == 3 && has_gray_palette(file)) shape->channels = 1;
  return shape;
}

// nullopt where the header read gives no shape: decoding then says why.
std::optional<ImageShape> decoded_shape(const InputFile& input) {
  const Bytes& file = input.bytes;
  switch (input.format) {
    case Format::png: return png_decoded_shape(file);
    case Format::jpeg: return jpeg_decoded_shape(file);
#if GPUIMG_WITH_TIFF
    case Format::tiff: return tiff_decoded_shape(file);
#endif
    case Format::webp: return webp_decoded_shape(file);
    case Format::bmp: return bmp_decoded_shape(file);
    case Format::pnm: return pnm_decoded_shape(file);
    case Format::psd: return psd_shape(file);
    case Format::tga: return stb_shape(file);
    case Format::gif: {
      // Every frame is drawn on the screen's canvas, RGBA.
      std::optional<ImageShape> shape = stb_shape(file);
      if (shape) *shape = ImageShape{shape->width, shape->height, 4, Depth::U8};
      return shape;
    }
    default: return std::nullopt;
  }
}

std::size_t frame_count(const InputFile& input) {
  switch (input.format) {
    case Format::gif: return gif_frame_count(input.bytes);
    case Format::png: {
      const std::optional<ApngLayout> apng = read_apng_layout(input.bytes);
      return apng ? apng->image_count() : 1;
    }
#if GPUIMG_WITH_TIFF
    case Format::tiff: return tiff_page_count(input.bytes);
#endif
    case Format::webp: return webp_frame_count(input.bytes);
    default: return 1;
  }
}

ImageShape shape_of(const Image& img) {
  return ImageShape{std::uint64_t(img.width), std::uint64_t(img.height), img.channels, img.depth};
}

}  // namespace

ImageInfo describe_input(const InputFile& input) {
  try {
    std::optional<ImageShape> shape = decoded_shape(input);
    if (!shape) {
      // Frame 0, so that decoding fails for its own reason, not for a frame
      // left unpicked; under the default pixel limit, as this one path
      // allocates the pixels.
      ReadOptions opts;
      opts.frame = 0;
      shape = shape_of(decode_input(input, opts));
    }
    return ImageInfo{input.format, *shape, frame_count(input), read_metadata(input)};
  } catch (const CodecFailure& e) {
    throw InputError(input.path, e.what());
  }
}

ImageInfo read_image_info(const std::string& path) {
  ReadOptions opts;
  opts.max_pixels = UINT64_MAX;
  opts.read_within_default_limit = true;
  return describe_input(read_input(path, opts));
}

}  // namespace gpuimg
