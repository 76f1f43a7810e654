#include "cpu_resize.hpp"

#include <stdexcept>
#include <string>

#include "parallel.hpp"
#include "resample_plan.hpp"

namespace gpuimg {
namespace {

constexpr int kMinRowsPerThread = 16;

// Every pixel of `img` through f(pixel pointer), a band of rows per thread.
template <class T, class F> void for_each_pixel(Image& img, int threads, const F& f) {
  T* s = img.samples<T>();
  const std::size_t row = std::size_t(img.width) * img.channels;
  parallel_bands(img.height, kMinRowsPerThread, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y)
      for (int x = 0; x < img.width; ++x) f(s + y * row + std::size_t(x) * img.channels);
  }, threads);
}

template <class T> Image horizontal_pass(const Image& in, const ResampleAxis& axis, int threads) {
  Image out(axis.out_size, in.height, in.channels, in.depth);
  const ResampleTable t = axis.table();
  const std::size_t in_row = std::size_t(in.width) * in.channels, out_row = std::size_t(out.width) * in.channels;
  parallel_bands(in.height, kMinRowsPerThread, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y) {
      const T* src = in.samples<T>() + y * in_row;
      T* dst = out.samples<T>() + y * out_row;
      for (int x = 0; x < out.width; ++x)
        for (int c = 0; c < in.channels; ++c) dst[x * in.channels + c] = resample_row_sample(src, in.channels, c, t, x);
    }
  }, threads);
  return out;
}

template <class T> Image vertical_pass(const Image& in, const ResampleAxis& axis, int threads) {
  Image out(in.width, axis.out_size, in.channels, in.depth);
  const ResampleTable t = axis.table();
  const std::ptrdiff_t row = std::ptrdiff_t(in.width) * in.channels;
  parallel_bands(out.height, kMinRowsPerThread, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y) {
      T* dst = out.samples<T>() + y * row;
      for (std::ptrdiff_t j = 0; j < row; ++j) dst[j] = resample_column_sample(in.samples<T>() + j, row, t, y);
    }
  }, threads);
  return out;
}

// Nearest copies whole pixels, alpha untouched.
template <class T> Image nearest(const Image& in, const ResampleAxis& ax, const ResampleAxis& ay, int threads) {
  Image out(ax.out_size, ay.out_size, in.channels, in.depth);
  const ResampleTable tx = ax.table(), ty = ay.table();
  const int ch = in.channels;
  parallel_bands(out.height, kMinRowsPerThread, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y) {
      const T* src = in.samples<T>() + std::size_t(resample_nearest_index(ty, y)) * in.width * ch;
      T* dst = out.samples<T>() + std::size_t(y) * out.width * ch;
      for (int x = 0; x < out.width; ++x)
        for (int c = 0; c < ch; ++c) dst[x * ch + c] = src[std::size_t(resample_nearest_index(tx, x)) * ch + c];
    }
  }, threads);
  return out;
}

template <class T> Image resize_typed(const Image& in, int out_w, int out_h, ResizeFilter filter, int threads) {
  const ResampleAxis ax = plan_axis(filter, in.width, out_w);
  const ResampleAxis ay = plan_axis(filter, in.height, out_h);
  if (filter == ResizeFilter::nearest) return nearest<T>(in, ax, ay, threads);

  const bool alpha = resize_premultiplies(filter, in.channels);
  Image img = in;
  if (alpha) for_each_pixel<T>(img, threads, [&](T* px) { premultiply_pixel(px, img.channels); });
  if (!ax.skipped()) img = horizontal_pass<T>(img, ax, threads);
  if (!ay.skipped()) img = vertical_pass<T>(img, ay, threads);
  if (alpha) for_each_pixel<T>(img, threads, [&](T* px) { unpremultiply_pixel(px, img.channels); });
  return img;
}

}  // namespace

Image resize_cpu(const Image& in, int out_w, int out_h, ResizeFilter filter, int threads) {
  if (in.width < 1 || in.height < 1 || in.channels < 1 || in.channels > 4)
    throw std::invalid_argument("resize: the input is empty or has " + std::to_string(in.channels) + " channels");
  if (out_w < 1 || out_h < 1)
    throw std::invalid_argument("resize: the output size " + std::to_string(out_w) + "x" + std::to_string(out_h) +
                                " is under 1x1");
  // Pillow returns a copy, alpha and all, when neither side changes; with
  // alpha a premultiplied round trip would not be one.
  if (out_w == in.width && out_h == in.height) return in;
  return in.depth == Depth::U8 ? resize_typed<std::uint8_t>(in, out_w, out_h, filter, threads)
                               : resize_typed<std::uint16_t>(in, out_w, out_h, filter, threads);
}

}  // namespace gpuimg
