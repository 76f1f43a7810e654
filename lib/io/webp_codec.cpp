// WebP through libwebp itself, which OpenCV wrapped: decoding to RGB, or
// RGBA where the file has alpha, an animation's frames through libwebpdemux
// (composed as the animation shows them), and lossless encoding, as OpenCV
// did with no quality given, or lossy at the quality given. Linking libwebp
// alone keeps OpenCV's 130-odd libraries out of every process's start-up.
#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/encode.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>

#include "backends.hpp"
#include "frames.hpp"

namespace gpuimg {
namespace {

const char* status_text(VP8StatusCode status) {
  switch (status) {
    case VP8_STATUS_OUT_OF_MEMORY: return "out of memory";
    case VP8_STATUS_INVALID_PARAM: return "invalid parameter";
    case VP8_STATUS_BITSTREAM_ERROR: return "bitstream error";
    case VP8_STATUS_UNSUPPORTED_FEATURE: return "unsupported feature";
    case VP8_STATUS_SUSPENDED: return "suspended";
    case VP8_STATUS_USER_ABORT: return "aborted";
    case VP8_STATUS_NOT_ENOUGH_DATA: return "not enough data";
    default: return "ok";
  }
}

[[noreturn]] void fail(VP8StatusCode status) {
  if (status == VP8_STATUS_NOT_ENOUGH_DATA) throw CodecFailure("truncated WebP (libwebp: not enough data)");
  throw CodecFailure(std::string("corrupt or unsupported WebP (libwebp: ") + status_text(status) + ")");
}

// A file shorter than the size its RIFF header gives, as a download or a
// copy cut short leaves it, said in those numbers.
void refuse_cut_short(const Bytes& file) {
  const std::uint64_t whole = detail::read_uint(file, 4, 4, false) + 8;
  if (whole > file.size())
    throw CodecFailure("truncated WebP (its RIFF header gives " + std::to_string(whole) + " bytes; the file has " +
                       std::to_string(file.size()) + ")");
}


// Frame `index` of an animation as WebPAnimDecoder draws it: each frame
// blended and disposed as the file says, on the canvas, RGBA.
Image decode_animation_frame(const Bytes& file, std::size_t index) {
  const WebPData data{file.data(), file.size()};
  WebPAnimDecoderOptions options;
  if (!WebPAnimDecoderOptionsInit(&options)) fail(VP8_STATUS_INVALID_PARAM);
  options.color_mode = MODE_RGBA;
  const std::unique_ptr<WebPAnimDecoder, void (*)(WebPAnimDecoder*)> decoder(WebPAnimDecoderNew(&data, &options),
                                                                            WebPAnimDecoderDelete);
  WebPAnimInfo info;
  if (!decoder || !WebPAnimDecoderGetInfo(decoder.get(), &info)) fail(VP8_STATUS_BITSTREAM_ERROR);
  std::uint8_t* canvas = nullptr;
  int timestamp = 0;
  for (std::size_t k = 0; k <= index; ++k)
    if (!WebPAnimDecoderGetNext(decoder.get(), &canvas, &timestamp)) fail(VP8_STATUS_BITSTREAM_ERROR);
  Image img(static_cast<int>(info.canvas_width), static_cast<int>(info.canvas_height), 4, Depth::U8);
  std::copy_n(canvas, img.data.size(), img.data.begin());
  return img;
}

using Demuxer = std::unique_ptr<WebPDemuxer, void (*)(WebPDemuxer*)>;

// The whole file's chunks. Read as a partial file would be, so that one
// cut short is refused as the still image's decoder refuses it.
Demuxer demux_of(const Bytes& file) {
  refuse_cut_short(file);
  const WebPData data{file.data(), file.size()};
  WebPDemuxState state = WEBP_DEMUX_PARSE_ERROR;
  Demuxer demux(WebPDemuxPartial(&data, &state), WebPDemuxDelete);
  if (state == WEBP_DEMUX_PARSE_ERROR) fail(VP8_STATUS_BITSTREAM_ERROR);
  if (state != WEBP_DEMUX_DONE || !demux) fail(VP8_STATUS_NOT_ENOUGH_DATA);
  return demux;
}

Dims canvas_of(WebPDemuxer* demux) {
  return {WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH), WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT)};
}

std::size_t frame_count(WebPDemuxer* demux) { return std::max<std::uint32_t>(1, WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT)); }

// The frames of an animation, from its demuxer; the canvas is checked
// against the limit before WebPAnimDecoder allocates it.
Image decode_animation(const Bytes& file, std::uint64_t max_pixels, int frame) {
  const Demuxer demux = demux_of(file);
  check_pixel_limit(canvas_of(demux.get()), max_pixels);
  return decode_animation_frame(file, frame_to_decode(Format::webp, frame_count(demux.get()), frame));
}

WebPBitstreamFeatures features_of(const Bytes& file) {
  WebPBitstreamFeatures features;
  const VP8StatusCode status = WebPGetFeatures(file.data(), file.size(), &features);
  if (status != VP8_STATUS_OK) fail(status);
  return features;
}

// A still image decodes to RGB, or RGBA where the file has alpha; an
// animation's frames to RGBA.
int channels_of(const WebPBitstreamFeatures& features) { return features.has_alpha || features.has_animation ? 4 : 3; }

}  // namespace

ImageShape webp_decoded_shape(const Bytes& file) {
  const WebPBitstreamFeatures features = features_of(file);
  if (features.has_animation) {
    const Dims canvas = canvas_of(demux_of(file).get());
    return ImageShape{canvas.width, canvas.height, channels_of(features), Depth::U8};
  }
  // A still image's decoder reads no chunk past its image's, where the
  // demuxer would refuse damage the decoder never sees; it refuses a file
  // shorter than the size its RIFF header gives, as this does.
  refuse_cut_short(file);
  return ImageShape{std::uint64_t(features.width), std::uint64_t(features.height), channels_of(features), Depth::U8};
}

std::size_t webp_frame_count(const Bytes& file) {
  return features_of(file).has_animation ? frame_count(demux_of(file).get()) : 1;
}

Image decode_webp(const Bytes& file, std::uint64_t max_pixels, int frame) {
  const WebPBitstreamFeatures features = features_of(file);
  refuse_cut_short(file);
  if (features.has_animation) return decode_animation(file, max_pixels, frame);
  frame_to_decode(Format::webp, 1, frame);
  if (features.width <= 0 || features.height <= 0) throw CodecFailure("image has no pixels (width or height 0)");
  check_pixel_limit({std::uint64_t(features.width), std::uint64_t(features.height)}, max_pixels);
  Image img(features.width, features.height, channels_of(features), Depth::U8);
  const int stride = img.width * img.channels;
  const auto into = features.has_alpha ? WebPDecodeRGBAInto : WebPDecodeRGBInto;
  if (!into(file.data(), file.size(), img.data.data(), img.data.size(), stride)) {
    // The features read; the decode did not: say why, as far as libwebp tells.
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) fail(VP8_STATUS_INVALID_PARAM);
    config.output.colorspace = features.has_alpha ? MODE_RGBA : MODE_RGB;
    const VP8StatusCode why = WebPDecode(file.data(), file.size(), &config);
    WebPFreeDecBuffer(&config.output);
    fail(why == VP8_STATUS_OK ? VP8_STATUS_BITSTREAM_ERROR : why);
  }
  return img;
}

Bytes encode_webp(const Image& img, int quality) {
  // WebP stores each side in 14 bits.
  if (img.width > WEBP_MAX_DIMENSION || img.height > WEBP_MAX_DIMENSION) {
    throw CodecFailure("WebP holds at most " + std::to_string(WEBP_MAX_DIMENSION) + " pixels a side");
  }
  std::uint8_t* raw = nullptr;
  const int stride = img.width * img.channels;
  const std::uint8_t* px = img.data.data();
  const float q = static_cast<float>(quality);
  const std::size_t size = quality == 0
                               ? (img.channels == 4 ? WebPEncodeLosslessRGBA(px, img.width, img.height, stride, &raw)
                                                    : WebPEncodeLosslessRGB(px, img.width, img.height, stride, &raw))
                               : (img.channels == 4 ? WebPEncodeRGBA(px, img.width, img.height, stride, q, &raw)
                                                    : WebPEncodeRGB(px, img.width, img.height, stride, q, &raw));
  const std::unique_ptr<std::uint8_t, void (*)(void*)> encoded(raw, WebPFree);
  if (size == 0) throw CodecFailure("cannot encode WebP with libwebp");
  return Bytes(encoded.get(), encoded.get() + size);
}

std::string libwebp_version() {
  const int v = WebPGetDecoderVersion();
  return "libwebp " + std::to_string(v >> 16) + "." + std::to_string((v >> 8) & 0xff) + "." + std::to_string(v & 0xff);
}

}  // namespace gpuimg
