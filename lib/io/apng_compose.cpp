#include <algorithm>
#include <cstring>
#include <string>

#include "apng.hpp"
#include "backends.hpp"
#include "png_encoder.hpp"

namespace gpuimg {
namespace {

void put_span(Bytes& out, const char* type, const Bytes& file, ChunkSpan span) {
  put_png_chunks(out, type, file.data() + span.at, span.size);
}

// A PNG of frame `f` alone, for libpng: the file's IHDR at the frame's
// size, its PLTE and tRNS, the frame's data as IDAT chunks, IEND.
Bytes frame_png(const Bytes& file, const ApngLayout& layout, const ApngFrame& f) {
  Bytes out = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  Bytes ihdr(file.begin() + static_cast<std::ptrdiff_t>(layout.ihdr.at),
             file.begin() + static_cast<std::ptrdiff_t>(layout.ihdr.at + 13));
  for (int i = 0; i < 4; ++i) {
    ihdr[i] = static_cast<std::uint8_t>(f.width >> (24 - 8 * i));
    ihdr[4 + i] = static_cast<std::uint8_t>(f.height >> (24 - 8 * i));
  }
  put_png_chunks(out, "IHDR", ihdr.data(), ihdr.size());
  if (layout.plte) put_span(out, "PLTE", file, *layout.plte);
  if (layout.trns) put_span(out, "tRNS", file, *layout.trns);
  for (const ChunkSpan& data : f.data) put_span(out, "IDAT", file, data);
  put_png_chunks(out, "IEND", nullptr, 0);
  return out;
}

// Gray and RGB gain an opaque alpha: the canvas always has one.
template <class T> Image with_alpha(Image img) {
  if (img.has_alpha()) return img;
  Image out(img.width, img.height, img.channels + 1, img.depth);
  const T* in = img.samples<T>();
  T* o = out.samples<T>();
  for (std::size_t i = 0; i < img.pixel_count(); ++i) {
    for (int c = 0; c < img.channels; ++c) *o++ = *in++;
    *o++ = static_cast<T>(max_sample(img.depth));
  }
  return out;
}

// The APNG specification's OVER (the PNG specification's alpha
// compositing, non-premultiplied), exact in integers with M the largest
// sample: the weights sa·M and da·(M − sa) in units of 1/M², out alpha
// their sum A over M, each colour (sc·sa·M + dc·da·(M − sa)) / A, both
// rounded half up. Onto alpha 0 it gives the source, onto alpha M alpha M.
template <class T> void over(T* d, const T* s, int channels) {
  const std::uint64_t m = static_cast<T>(~T{0});
  const std::uint64_t sa = s[channels - 1], da = d[channels - 1];
  const std::uint64_t ws = sa * m, wd = da * (m - sa), sum = ws + wd;
  for (int c = 0; c < channels - 1; ++c) d[c] = static_cast<T>((2 * (s[c] * ws + d[c] * wd) + sum) / (2 * sum));
  d[channels - 1] = static_cast<T>((2 * sum + m) / (2 * m));
}

template <class T> void blend(Image& canvas, const Image& frame, const ApngFrame& f) {
  const int ch = canvas.channels;
  const T opaque = static_cast<T>(~T{0});
  for (std::uint32_t y = 0; y < f.height; ++y) {
    T* d = canvas.samples<T>() + ((std::size_t{f.y} + y) * canvas.width + f.x) * ch;
    const T* s = frame.samples<T>() + std::size_t{y} * f.width * ch;
    if (f.blend == ApngBlend::source) {
      std::memcpy(d, s, std::size_t{f.width} * ch * sizeof(T));
      continue;
    }
    for (std::uint32_t x = 0; x < f.width; ++x, d += ch, s += ch) {
      if (s[ch - 1] == opaque)
        std::copy(s, s + ch, d);
      else if (s[ch - 1] != 0)
        over(d, s, ch);
    }
  }
}

// Where row y of the frame's region starts in the canvas.
std::size_t region_row(const Image& canvas, const ApngFrame& f, std::uint32_t y) {
  return (std::size_t{f.y} + y) * canvas.row_bytes() + std::size_t{f.x} * canvas.channels * bytes_per_sample(canvas.depth);
}

// The frame's region of the canvas, as an image, or that image put back.
Image region_of(const Image& canvas, const ApngFrame& f) {
  Image out(static_cast<int>(f.width), static_cast<int>(f.height), canvas.channels, canvas.depth);
  for (std::uint32_t y = 0; y < f.height; ++y)
    std::memcpy(out.data.data() + y * out.row_bytes(), canvas.data.data() + region_row(canvas, f, y), out.row_bytes());
  return out;
}

void put_region(Image& canvas, const Image& region, const ApngFrame& f) {
  for (std::uint32_t y = 0; y < f.height; ++y)
    std::memcpy(canvas.data.data() + region_row(canvas, f, y), region.data.data() + y * region.row_bytes(), region.row_bytes());
}

// Before frame i + 1 is drawn, frame i's region as its dispose_op says.
void dispose(Image& canvas, const ApngFrame& f, const Image& before) {
  if (f.dispose == ApngDispose::previous) put_region(canvas, before, f);
  if (f.dispose == ApngDispose::background) {
    Image clear(static_cast<int>(f.width), static_cast<int>(f.height), canvas.channels, canvas.depth);
    put_region(canvas, clear, f);
  }
}

// Decoding frame `last` decodes every frame before it: their areas summed
// are held to the pixel limit, so a file of many small fdAT chunks each
// covering the canvas cannot claim unbounded work.
void check_work(const ApngLayout& layout, std::size_t index, std::size_t last, std::uint64_t max_pixels) {
  std::uint64_t pixels = 0;
  for (std::size_t i = 0; i <= last; ++i) pixels += std::uint64_t{layout.frames[i].width} * layout.frames[i].height;
  if (pixels > max_pixels)
    throw CodecFailure("frame " + std::to_string(index) + " is drawn from " + std::to_string(last + 1) + " frames of " +
                       std::to_string(pixels) + " pixels in all, over the limit of " + std::to_string(max_pixels) +
                       " set by --max-pixels");
}

template <class T>
Image compose(const Bytes& file, const ApngLayout& layout, std::size_t index, std::size_t last, std::uint64_t max_pixels) {
  const std::uint32_t width = detail::read_uint(file, layout.ihdr.at, 4, true);
  const std::uint32_t height = detail::read_uint(file, layout.ihdr.at + 4, 4, true);
  const int colour_type = file[layout.ihdr.at + 9];
  const bool gray = colour_type == 0 || colour_type == 4;
  Image canvas(static_cast<int>(width), static_cast<int>(height), gray ? 2 : 4, sizeof(T) == 2 ? Depth::U16 : Depth::U8);
  Image before;  // the region a PREVIOUS frame puts back
  for (std::size_t i = 0; i <= last; ++i) {
    const ApngFrame& f = layout.frames[i];
    if (i > 0) dispose(canvas, layout.frames[i - 1], before);
    // The first frame's region is clear before it: its PREVIOUS is BACKGROUND, as the specification says.
    if (f.dispose == ApngDispose::previous) before = region_of(canvas, f);
    Image pixels;
    try {
      pixels = with_alpha<T>(decode_png(frame_png(file, layout, f), max_pixels));
    } catch (const CodecFailure& e) {
      const std::size_t image = i + index - last;
      throw CodecFailure("frame " + std::to_string(image) + ": " + e.what());
    }
    blend<T>(canvas, pixels, f);
  }
  return canvas;
}

}  // namespace

Image decode_apng_frame(const Bytes& file, const ApngLayout& layout, std::size_t index, std::uint64_t max_pixels) {
  const std::size_t last = index - (layout.default_in_animation ? 0 : 1);  // in layout.frames
  check_pixel_limit({detail::read_uint(file, layout.ihdr.at, 4, true), detail::read_uint(file, layout.ihdr.at + 4, 4, true)},
                    max_pixels);
  check_work(layout, index, last, max_pixels);
  return file[layout.ihdr.at + 8] == 16 ? compose<std::uint16_t>(file, layout, index, last, max_pixels)
                                        : compose<std::uint8_t>(file, layout, index, last, max_pixels);
}

}  // namespace gpuimg
