// stb_image and stb_image_write, compiled here (the only translation unit
// defining their implementations) rather than linked from the system libstb,
// so that the decoders built in, the dimension cap and the absence of stdio
// are our choice.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backends.hpp"
#include "header_dims.hpp"

// Only the decoders this build routes to stb are compiled: each one left out
// is code hostile files cannot reach. PNG always goes to libpng.
#define STBI_NO_STDIO
#define STBI_NO_PNG
#define STBI_NO_HDR
#define STBI_NO_LINEAR
#define STBI_NO_PIC
#define STBI_NO_JPEG  // libjpeg, in every build
#define STBI_NO_PSD   // psd_codec.cpp
// GIF and TGA store each side in 16 bits. A wider BMP or PNM is
// almost always a crafted file, and a smaller cap keeps stb's int size
// arithmetic far from overflow whatever --max-pixels allows.
#define STBI_MAX_DIMENSIONS (1 << 16)
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>

#define STBI_WRITE_NO_STDIO
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

namespace gpuimg {
namespace {

[[noreturn]] void fail_decode(Format format) {
  const char* reason = stbi_failure_reason();
  throw CodecFailure(std::string("corrupt or unsupported ") + format_name(format) + " (" +
                     (reason ? reason : "stb_image gave no reason") + ")");
}

// stb_image 2.27 returns 16-bit PNM samples in the file's big-endian order
// instead of the host's.
bool is_16bit(const Bytes& file) { return stbi_is_16_bit_from_memory(file.data(), static_cast<int>(file.size())); }

void swap_bytes_on_little_endian_host(Image& img) {
  if (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__) return;
  for (std::size_t i = 0; i + 1 < img.data.size(); i += 2) std::swap(img.data[i], img.data[i + 1]);
}

// stb_image reads the bytes past the end of a buffer as zeros, and its TGA
// reader ignores a short read: from memory, a truncated TGA or GIF
// decodes into invented (or uninitialised) pixels. Read through callbacks,
// every request stb makes past the end is seen, and the file is refused.
// stb asks in two ways: refilling its own buffer (the first request a
// context makes goes there) takes what is left and needs at least a byte;
// any other read needs every byte it asks for.
struct Source {
  const Bytes* file;
  std::size_t pos = 0;
  const char* refill_buffer = nullptr;
  bool overran = false;

  static int read(void* user, char* data, int size) {
    auto* s = static_cast<Source*>(user);
    if (!s->refill_buffer) s->refill_buffer = data;
    const std::size_t left = s->file->size() - s->pos;
    const std::size_t n = std::min(left, static_cast<std::size_t>(size));
    if (data == s->refill_buffer ? n == 0 : n < static_cast<std::size_t>(size)) s->overran = true;
    std::memcpy(data, s->file->data() + s->pos, n);
    s->pos += n;
    return static_cast<int>(n);
  }
  static void skip(void* user, int n) {  // stb passes only n > 0 here
    auto* s = static_cast<Source*>(user);
    const std::size_t left = s->file->size() - s->pos;
    if (static_cast<std::size_t>(n) > left) s->overran = true;
    s->pos += std::min(left, static_cast<std::size_t>(n));
  }
  static int eof(void* user) {
    auto* s = static_cast<Source*>(user);
    return s->pos >= s->file->size();
  }
};

constexpr stbi_io_callbacks kCallbacks = {Source::read, Source::skip, Source::eof};

struct Sink {
  Bytes* out;
  bool failed;
};

// stb_image_write is C: an exception thrown through it would leak its buffers.
void append(void* context, void* data, int size) {
  auto* sink = static_cast<Sink*>(context);
  const auto* bytes = static_cast<const std::uint8_t*>(data);
  try {
    sink->out->insert(sink->out->end(), bytes, bytes + size);
  } catch (const std::bad_alloc&) {
    sink->failed = true;
  }
}

// stbi_info gives a top-down BMP's height as the header has it, negative;
// stb's decoder takes its absolute value. INT_MIN has none: 0, refused.
int rows_of(int info_height) { return info_height == INT_MIN ? 0 : std::abs(info_height); }

}  // namespace

void check_bmp_sides(const Bytes& file) {
  const std::optional<detail::BmpSides> s = detail::bmp_sides(file);
  if (!s) return;
  if (s->width == 0 || s->height == 0) throw CodecFailure("image has no pixels (width or height 0)");
  if (s->width < 0) throw CodecFailure("corrupt BMP (negative width, " + std::to_string(s->width) + ")");
  if (s->height == INT32_MIN) throw CodecFailure("corrupt BMP (height -2^31, which no top-down image can have)");
}

Image decode_with_stb(const Bytes& file, Format format, std::uint64_t max_pixels) {
  if (file.size() > INT_MAX) {
    throw CodecFailure(std::string(format_name(format)) + " file over 2 GiB, more than stb_image can read");
  }
  int width = 0, height = 0, channels = 0;
  {
    Source info{&file};
    if (!stbi_info_from_callbacks(&kCallbacks, &info, &width, &height, &channels)) fail_decode(format);
  }
  height = rows_of(height);
  if (width <= 0 || height <= 0) fail_decode(format);
  check_pixel_limit({static_cast<std::uint64_t>(width), static_cast<std::uint64_t>(height)}, max_pixels);

  const bool wide = is_16bit(file);
  Source source{&file};
  void* raw = wide ? static_cast<void*>(stbi_load_16_from_callbacks(&kCallbacks, &source, &width, &height, &channels, 0))
                   : static_cast<void*>(stbi_load_from_callbacks(&kCallbacks, &source, &width, &height, &channels, 0));
  const std::unique_ptr<void, void (*)(void*)> pixels(raw, stbi_image_free);
  if (!pixels) fail_decode(format);
  if (source.overran) throw CodecFailure(std::string("truncated ") + format_name(format));
  Image img(width, height, channels, wide ? Depth::U16 : Depth::U8);
  std::copy_n(static_cast<const std::uint8_t*>(pixels.get()), img.data.size(), img.data.begin());
  if (wide && format == Format::pnm) swap_bytes_on_little_endian_host(img);
  return img;
}

Image decode_gif_frame(const Bytes& file, std::size_t index, std::uint64_t max_pixels) {
  const std::optional<ImageShape> shape = stb_shape(file);
  if (!shape || file.size() > INT_MAX) fail_decode(Format::gif);
  check_pixel_limit({shape->width, shape->height}, max_pixels);
  // stbi__load_gif_main keeps every frame; frame k is drawn from frame k - 1
  // (held by stb) and, for disposal method 3, frame k - 2: two are kept here.
  const std::size_t bytes = shape->width * shape->height * 4;
  std::vector<stbi_uc> earlier[2] = {std::vector<stbi_uc>(bytes), std::vector<stbi_uc>(bytes)};
  Source source{&file};
  stbi__context context;
  stbi__start_callbacks(&context, const_cast<stbi_io_callbacks*>(&kCallbacks), &source);
  stbi__gif gif;
  std::memset(&gif, 0, sizeof gif);
  const auto release = [&] {
    STBI_FREE(gif.out);
    STBI_FREE(gif.history);
    STBI_FREE(gif.background);
  };
  Image img(static_cast<int>(shape->width), static_cast<int>(shape->height), 4, Depth::U8);
  for (std::size_t k = 0;; ++k) {
    int comp = 0;
    stbi_uc* const frame = stbi__gif_load_next(&context, &gif, &comp, 4, k >= 2 ? earlier[k % 2].data() : nullptr);
    if (!frame || frame == reinterpret_cast<stbi_uc*>(&context)) {
      release();
      if (source.overran) throw CodecFailure("truncated GIF");
      fail_decode(Format::gif);
    }
    std::uint8_t* const to = k == index ? img.data.data() : earlier[k % 2].data();
    std::copy_n(frame, bytes, to);
    if (k == index) break;
  }
  release();
  if (source.overran) throw CodecFailure("truncated GIF");
  return img;
}

std::optional<ImageShape> stb_shape(const Bytes& file) {
  if (file.size() > INT_MAX) return std::nullopt;  // decode_with_stb refuses it
  int width = 0, height = 0, channels = 0;
  Source source{&file};
  const bool known = stbi_info_from_callbacks(&kCallbacks, &source, &width, &height, &channels);
  height = rows_of(height);
  if (!known || width <= 0 || height <= 0 || channels < 1 || channels > 4) return std::nullopt;
  return ImageShape{static_cast<std::uint64_t>(width), static_cast<std::uint64_t>(height), channels,
                    is_16bit(file) ? Depth::U16 : Depth::U8};
}

Bytes encode_with_stb(const Image& img, Format format) {
  const char* name = format_name(format);
  // stb_image_write indexes pixels with int and stores TGA sides in 16
  // bits, silently wrapping bigger values.
  if (img.data.size() > INT_MAX - 4096) throw CodecFailure(std::string(name) + " over 2 GiB, more than stb_image_write can write");
  if (format != Format::bmp && (img.width > 65535 || img.height > 65535)) {
    throw CodecFailure(std::string(name) + " holds at most 65535 pixels a side");
  }
  Bytes out;
  Sink sink{&out, false};
  const int w = img.width, h = img.height, c = img.channels;
  const void* data = img.data.data();
  int ok = 0;
  switch (format) {
    case Format::tga: ok = stbi_write_tga_to_func(append, &sink, w, h, c, data); break;
    case Format::bmp: ok = stbi_write_bmp_to_func(append, &sink, w, h, c, data); break;
    default: throw CodecFailure(std::string("stb_image_write does not write ") + name);
  }
  if (!ok || sink.failed) throw CodecFailure(std::string("cannot encode ") + name + " with stb_image_write");
  return out;
}

// stb headers define no version macro; these are the libstb-dev (Debian 12)
// headers the build is checked against.
std::string stb_version() { return "stb_image 2.27, stb_image_write 1.16"; }

}  // namespace gpuimg
