#pragma once
// Resize arithmetic, shared by the CPU and the GPU: defined as Pillow's
// Image.resize (9.4, src/libImaging/Resample.c) on 8-bit images, and pinned
// here for 16-bit ones. docs/resize.md states the definition in full.
//
// A resize is separable: a horizontal pass, then a vertical one over its
// result. Each output sample is a weighted sum of a run of input samples
// along one axis; the runs and the weights (fixed point, kResampleBits
// fraction bits) are one table per axis, planned on the host once
// (lib/resample_plan.hpp) and read here through a ResampleTable.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "pixel.hpp"
#include "shape.hpp"

namespace gpuimg {

// Pillow's NEAREST, BOX, BILINEAR, BICUBIC and LANCZOS.
enum class ResizeFilter : std::uint8_t { nearest, box, linear, cubic, lanczos3 };

constexpr ResizeFilter kResizeFilters[] = {ResizeFilter::nearest, ResizeFilter::box, ResizeFilter::linear,
                                           ResizeFilter::cubic, ResizeFilter::lanczos3};

constexpr const char* resize_filter_name(ResizeFilter f) {
  switch (f) {
    case ResizeFilter::nearest: return "nearest";
    case ResizeFilter::box: return "box";
    case ResizeFilter::linear: return "linear";
    case ResizeFilter::cubic: return "cubic";
    case ResizeFilter::lanczos3: return "lanczos3";
  }
  return "?";
}

// The filter named `name` exactly (lower case), or false.
constexpr bool parse_resize_filter(std::string_view name, ResizeFilter* out) {
  for (ResizeFilter f : kResizeFilters)
    if (name == resize_filter_name(f)) {
      *out = f;
      return true;
    }
  return false;
}

// Weights carry 22 fraction bits, Pillow's PRECISION_BITS (32 - 8 - 2): an
// 8-bit sample times a weight, summed, stays inside a signed 32-bit int even
// where a filter's negative lobes push the sum of the positive weights past 1.
constexpr int kResampleBits = 22;
constexpr std::int32_t kResampleOne = std::int32_t{1} << kResampleBits;

// One axis's table as the kernels see it. Output i reads bounds[2i + 1]
// samples from input index bounds[2i], with weights[i * taps ...]; taps is
// the longest run, and shorter runs are padded with zero weights.
struct ResampleTable {
  const std::int32_t* bounds;
  const std::int32_t* weights;
  int taps;
};

// The accumulator: Pillow's int at 8 bits; at 16 bits a sum reaches
// 65535 * 2^22 * (the positive weights' sum, up to about 1.3), past 2^38,
// so 64 bits.
template <class T> struct ResampleAccumulator;
template <> struct ResampleAccumulator<std::uint8_t> { using type = std::int32_t; };
template <> struct ResampleAccumulator<std::uint16_t> { using type = std::int64_t; };

// A weighted sum, already offset by one half, back to a sample: floor of
// sum / 2^22, clamped to [0, max]. Pillow clips through a table indexed by
// the shifted sum (-640 to 639), which is this clamp for every sum its
// weights can make. >> of a negative value is an arithmetic shift with GCC,
// Clang and nvcc (and by definition from C++20).
template <class T, class Acc> GPUIMG_HD T resample_round(Acc sum) {
  const Acc v = sum >> kResampleBits;
  return T(v < 0 ? 0 : (v > SampleTraits<T>::max ? SampleTraits<T>::max : v));
}

// The run of input samples that outputs i0 .. i1 - 1 read along one axis:
// runs ascend, so it goes from the first output's first sample to the last
// output's end. The GPU's strips and tiles stage it in shared memory.
struct ResampleSpan {
  int first, pixels;
};
GPUIMG_HD ResampleSpan resample_span(const ResampleTable& t, int i0, int i1) {
  const int first = t.bounds[2 * i0];
  return {first, t.bounds[2 * (i1 - 1)] + t.bounds[2 * (i1 - 1) + 1] - first};
}

// Nearest is not a weighted sum in Pillow (it is an affine transform that
// copies whole pixels); its tables have one tap of weight 1 per output, and
// this is the input index that output i copies.
GPUIMG_HD int resample_nearest_index(const ResampleTable& t, int i) { return t.bounds[2 * i]; }

// Alpha. Every filter but nearest resizes images with alpha premultiplied
// (Pillow's modes La and RGBa), and divides the alpha out again after.
//
// 8 bits, Pillow's formulas: premultiplied = round(c * a / 255), computed as
// ((t >> 8) + t) >> 8 with t = c * a + 128 (exact for every c, a: 255 is odd,
// so no quotient ends in .5); and back, c unchanged where a is 0 or 255,
// else min(255, floor(255 * c / a)).
GPUIMG_HD std::uint8_t premultiply(std::uint8_t c, std::uint8_t a) {
  const std::uint32_t t = std::uint32_t(c) * a + 128u;
  return std::uint8_t(((t >> 8) + t) >> 8);
}
GPUIMG_HD std::uint8_t unpremultiply(std::uint8_t c, std::uint8_t a) {
  if (a == 0 || a == 255) return c;
  const std::uint32_t v = 255u * c / a;
  return std::uint8_t(v > 255u ? 255u : v);
}

// 16 bits, pinned as the same formulas with 65535 for 255: premultiplied =
// round(c * a / 65535) = (c * a + 32767) / 65535 (65535 is odd: no ties;
// the sum is at most 4294868992, inside 32 bits); and back, c unchanged
// where a is 0 or 65535, else min(65535, floor(65535 * c / a)).
GPUIMG_HD std::uint16_t premultiply(std::uint16_t c, std::uint16_t a) {
  return std::uint16_t((std::uint32_t(c) * a + 32767u) / 65535u);
}
GPUIMG_HD std::uint16_t unpremultiply(std::uint16_t c, std::uint16_t a) {
  if (a == 0 || a == 65535) return c;
  const std::uint32_t v = 65535u * c / a;
  return std::uint16_t(v > 65535u ? 65535u : v);
}

// Either conversion on one pixel in place; alpha is the last channel of
// gray+alpha (2) and RGBA (4), and other layouts have none to apply.
template <class T> GPUIMG_HD void premultiply_pixel(T* px, int channels) {
  if (channels != 2 && channels != 4) return;
  for (int c = 0; c < channels - 1; ++c) px[c] = premultiply(px[c], px[channels - 1]);
}
template <class T> GPUIMG_HD void unpremultiply_pixel(T* px, int channels) {
  if (channels != 2 && channels != 4) return;
  for (int c = 0; c < channels - 1; ++c) px[c] = unpremultiply(px[c], px[channels - 1]);
}

// Whether a resize premultiplies: images with alpha, every filter but nearest.
GPUIMG_HD bool resize_premultiplies(ResizeFilter f, int channels) {
  return f != ResizeFilter::nearest && (channels == 2 || channels == 4);
}

// One output pixel of a pass: `count` input pixels from pixel `first`,
// pixels `step` samples apart, weighted by w[0 .. count); each sum starts
// at one half (2^21), so that the floor in resample_round rounds half up. With alpha, the
// pass that reads the input premultiplies each pixel as it reads it, and
// the pass that writes the output divides alpha out of each pixel as it
// writes it: the same values as premultiplying the whole image before and
// dividing after, as Pillow does, without the extra passes.
template <class T, int C>
GPUIMG_HD void resample_pixel(const T* src, std::ptrdiff_t step, int first, int count, const std::int32_t* w,
                              bool premultiply_in, bool unpremultiply_out, T* out) {
  using Acc = typename ResampleAccumulator<T>::type;
  Acc sum[C];
  for (int c = 0; c < C; ++c) sum[c] = Acc(1) << (kResampleBits - 1);
  const T* p = src + first * step;
  for (int i = 0; i < count; ++i, p += step) {
    T px[C];
    for (int c = 0; c < C; ++c) px[c] = p[c];
    if (premultiply_in) premultiply_pixel(px, C);
    for (int c = 0; c < C; ++c) sum[c] += Acc(px[c]) * Acc(w[i]);
  }
  for (int c = 0; c < C; ++c) out[c] = resample_round<T>(sum[c]);
  if (unpremultiply_out) unpremultiply_pixel(out, C);
}

// The steady part of an axis halved exactly: outputs first .. end - 1
// each read the same number of inputs from 2 i + offset, with the same
// weights (those of output `first`), as all but the few outputs at each
// edge do. None (first == end) on other axes.
struct ResampleSteady {
  int first, end, offset;
};

// A resample stage's tables as its kernels read them, unpacked from its
// stage data (pack_resample in resample_plan.hpp): the header read from a
// host copy, the tables pointing into `base`, which may be the device copy.
struct ResampleTables {
  ResizeFilter filter;
  ResampleTable x, y;
  bool x_kept, y_kept;  // the axis keeps its size: its pass is skipped
  bool byte_weights;    // every weight lies in [-2^23, 2^23): three bytes, the high one signed
  bool high_bytes;      // and is a multiple of 2^16: its high byte alone (box halving, linear doubling)
  ResampleSteady steady_x, steady_y;
};

// The GPU's steady halving (resample_steady.cu): the outputs its threads
// make in strips of kSteadyStrip pixels, columns x0 .. x1 - 1 (whole
// strips from a multiple of kSteadyStrip, so that each strip's output is
// whole words and its input starts at the same byte of an 8-byte vector
// as every other's) by rows y0 .. y1 - 1, and whether it takes a resize of 8-bit
// images of `channels` from in_width to out_width at all: gray or RGB,
// input rows of whole 8-byte vectors and output rows of whole words,
// steady parts on both axes with runs of two or four inputs (box, linear)
// whose weights steady_lane_weights takes, from 2 i along x (box) or
// 2 i - 1 (linear; steady_offset), a strip at least. (It also needs the
// buffers so aligned, which the launch checks.)
constexpr int kSteadyStrip = 4;
GPUIMG_HD constexpr int steady_offset(int taps) { return taps == 2 ? 0 : -1; }
struct SteadyRect {
  int x0, x1, y0, y1;
};
inline SteadyRect steady_rect(const ResampleTables& t) {
  const int x0 = (t.steady_x.first + kSteadyStrip - 1) / kSteadyStrip * kSteadyStrip;
  const int strips = t.steady_x.end > x0 ? (t.steady_x.end - x0) / kSteadyStrip : 0;
  return {x0, x0 + kSteadyStrip * strips, t.steady_y.first, t.steady_y.end};
}

// The steady kernel sums two samples a word, in 16-bit lanes. It takes
// weights that are multiples of 2^kSteadyLaneShift, none negative, adding up
// to at most 2^22 (box halving's are 2^21, linear's 2^19 and 3 * 2^19): then
// (2^21 + sum w v) >> 22, Pillow's sum, is (2^7 + sum (w >> 14) v) >> 8,
// which lies in [0, 255] and stays under 2^16 on the way.
constexpr int kSteadyLaneShift = 14;
inline bool steady_lane_weights(const ResampleTable& t, int output) {
  std::int64_t sum = 0;
  for (int k = 0; k < t.bounds[2 * output + 1]; ++k) {
    const std::int32_t w = t.weights[std::size_t(output) * t.taps + k];
    if (w < 0 || w % (std::int32_t{1} << kSteadyLaneShift) != 0) return false;
    sum += w;
  }
  return sum <= kResampleOne;
}
inline bool steady_halving_fits(const ResampleTables& t, int channels, int in_width, int out_width) {
  const ResampleSteady &sx = t.steady_x, &sy = t.steady_y;
  if ((channels != 1 && channels != 3) || sx.first == sx.end || sy.first == sy.end ||
      (std::size_t(in_width) * channels) % 8 != 0 || (std::size_t(out_width) * channels) % 4 != 0)
    return false;
  const int n = t.x.bounds[2 * sx.first + 1];
  const SteadyRect r = steady_rect(t);
  return (n == 2 || n == 4) && t.y.bounds[2 * sy.first + 1] == n && sx.offset == steady_offset(n) && r.x1 > r.x0 &&
         steady_lane_weights(t.x, sx.first) && steady_lane_weights(t.y, sy.first);
}

// The GPU's nearest halving (resample_nearest.cu) takes a resize whose
// output x is input 2 x + 1 on every row (Pillow's nearest halving an even
// width; an odd one gives 2 x + 1 or 2 x, and never rows of whole vectors),
// for pixels of `pixel_bytes`, from in_width to out_width: input rows of
// whole 16-byte vectors and output rows of 8-byte ones. (It also needs the
// buffers so aligned, which the launch checks.)
inline bool nearest_halving_fits(const ResampleTables& t, int pixel_bytes, int in_width, int out_width) {
  if (t.filter != ResizeFilter::nearest || (std::size_t(in_width) * pixel_bytes) % 16 != 0 ||
      (std::size_t(out_width) * pixel_bytes) % 8 != 0)
    return false;
  for (int x = 0; x < out_width; ++x)
    if (resample_nearest_index(t.x, x) != 2 * x + 1) return false;
  return true;
}

// What lies between the two passes: the input's rows at the output's width.
inline std::size_t resample_scratch_bytes(const Shape& in, const Shape& out) {
  return std::size_t(out.width) * std::size_t(in.height) * std::size_t(in.channels) * std::size_t(in.bytes);
}

// The filter, then in, out and taps of x, then of y, then byte_weights
// (bit 0) and high_bytes (bit 1), then x's steady part (first, end,
// offset), then y's.
constexpr int kResampleHeader = 14;

inline ResampleTables unpack_resample(const std::int32_t* header, const std::int32_t* base) {
  const int out_x = header[2], taps_x = header[3], out_y = header[5], taps_y = header[6];
  const std::int32_t* bx = base + kResampleHeader;
  const std::int32_t* wx = bx + 2 * out_x;
  const std::int32_t* by = wx + std::ptrdiff_t(out_x) * taps_x;
  const std::int32_t* wy = by + 2 * out_y;
  return {static_cast<ResizeFilter>(header[0]),
          {bx, wx, taps_x},
          {by, wy, taps_y},
          header[1] == out_x,
          header[4] == out_y,
          (header[7] & 1) != 0,
          (header[7] & 2) != 0,
          {header[8], header[9], header[10]},
          {header[11], header[12], header[13]}};
}

}  // namespace gpuimg
