#pragma once
// Independent oracles, one per op: plain reference loops written from the
// README's definitions, and OpenCV imgproc where it computes the same thing.
// None of this calls the code under test. A new op without an oracle here
// does not compile in the oracle test.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "expr_math.hpp"
#include "expr/kept_expressions.hpp"
#include "number_lists.hpp"
#include "random_image.hpp"
#include "registry.hpp"
#include "resample_plan.hpp"

namespace gpuimg::test {

template <class Op> struct Oracle;

inline void put(Image& img, std::size_t i, long long v) {
  if (img.depth == Depth::U8)
    img.samples<std::uint8_t>()[i] = static_cast<std::uint8_t>(v);
  else
    img.samples<std::uint16_t>()[i] = static_cast<std::uint16_t>(v);
}

// Sample (x, y, c) with coordinates clamped into the image.
inline int at_clamped(const Image& img, int x, int y, int c) {
  x = std::min(std::max(x, 0), img.width - 1);
  y = std::min(std::max(y, 0), img.height - 1);
  return sample(img, (static_cast<std::size_t>(y) * img.width + x) * img.channels + c);
}

// f(v, max, channel) for every colour sample; alpha kept.
template <class F> Image each_colour_sample(const Image& in, const F& f) {
  Image out = in;
  const int hi = max_sample(in.depth);
  const bool alpha = in.channels == 2 || in.channels == 4;
  for (std::size_t i = 0; i < in.pixel_count() * in.channels; ++i) {
    const int c = static_cast<int>(i % in.channels);
    if (!(alpha && c == in.channels - 1)) put(out, i, f(sample(in, i), hi, c));
  }
  return out;
}

template <> struct Oracle<Invert> {
  static Image expected(const Image& in, const Invert::Params&) {
    return each_colour_sample(in, [](int v, int hi, int) { return hi - v; });
  }
};

template <> struct Oracle<Levels> {
  static Image expected(const Image& in, const Levels::Params& p) {
    return each_colour_sample(in, [&](int v, int hi, int) {
      const double y = (v - p.black * hi) / (p.white - p.black);  // the README's order
      if (p.gamma == 1) return static_cast<long long>(std::floor(std::min(std::max(y, 0.0), double(hi)) + 0.5));
      const double x = std::min(std::max(y / hi, 0.0), 1.0);
      return static_cast<long long>(std::floor(hi * std::pow(x, 1 / p.gamma) + 0.5));
    });
  }
};

template <> struct Oracle<Gamma> {
  static Image expected(const Image& in, const Gamma::Params& p) {
    return each_colour_sample(in, [&](int v, int hi, int) {
      return static_cast<long long>(std::floor(hi * std::pow(double(v) / hi, 1 / p.gamma) + 0.5));
    });
  }
};

template <> struct Oracle<Linear> {
  static Image expected(const Image& in, const Linear::Params& p) {
    return each_colour_sample(in, [&](int v, int hi, int) {
      const double r = p.scale * v + p.offset * hi;
      const double rounded = r < 0 ? -std::floor(-r + 0.5) : std::floor(r + 0.5);  // half away from zero
      return static_cast<long long>(std::min(std::max(rounded, 0.0), double(hi)));
    });
  }
};

template <> struct Oracle<Thresholding> {
  static Image expected(const Image& in, const Thresholding::Params& p) {
    return each_colour_sample(in, [&](int v, int hi, int) { return v >= p.level * hi ? hi : 0; });
  }
};

template <> struct Oracle<Normalize> {
  static Image expected(const Image& in, const Normalize::Params&) {
    std::vector<long long> lo(in.channels, 1 << 30), hi(in.channels, -1);
    for (std::size_t i = 0; i < in.pixel_count() * in.channels; ++i) {
      const int c = static_cast<int>(i % in.channels);
      lo[c] = std::min<long long>(lo[c], sample(in, i));
      hi[c] = std::max<long long>(hi[c], sample(in, i));
    }
    return each_colour_sample(in, [&](int v, int m, int c) -> long long {
      if (hi[c] <= lo[c]) return v;
      return (2 * (v - lo[c]) * m + (hi[c] - lo[c])) / (2 * (hi[c] - lo[c]));
    });
  }
};

// Each expression of the matrix (map_test_expressions in op_cases.hpp)
// written out in C++ from the README's definitions; only the functions of
// kernels/expr_libm.hpp are called, which their own tests hold to long
// double references.
template <> struct Oracle<Map> {
  struct Names {
    double v, r, g, b, a, c, x, y, w, h;
  };
  static double evaluate(const std::string& text, const Names& n) {
    const double pi = 3.141592653589793;
    if (text == "1-v") return 1 - n.v;
    if (text == "v^0.45") return xm::pow(n.v, 0.45);
    if (text == "v<0.5?sin(v*pi):v") return n.v < 0.5 ? xm::sin(n.v * pi) : n.v;
    if (text == "x/w*0.5+y/h*0.5") return n.x / n.w * 0.5 + n.y / n.h * 0.5;
    if (text == "mix(v,1-r,0.25)+c*0.1-a*0.05") return n.v + ((1 - n.r) - n.v) * 0.25 + n.c * 0.1 - n.a * 0.05;
    if (text == "clamp((g-b)*4+hypot(x-w/2,y-h/2)/w,0,1)")
      return std::min(std::max((n.g - n.b) * 4 + xm::hypot(n.x - n.w / 2, n.y - n.h / 2) / n.w, 0.0), 1.0);
    if (text == "v*(1-0.6*hypot(x/w-0.5,y/h-0.5))") return n.v * (1 - 0.6 * xm::hypot(n.x / n.w - 0.5, n.y / n.h - 0.5));
    if (text == "tanh(v*4-2)*0.5+0.5+cbrt(x/w-0.5)*0.1")
      return xm::tanh(n.v * 4 - 2) * 0.5 + 0.5 + xm::cbrt(n.x / n.w - 0.5) * 0.1;
    throw std::logic_error("no oracle for --map " + text);
  }
  static Image expected(const Image& in, const Map::Params& p) {
    const std::string& text = kept_expression(p.expression).text;
    Image out = in;
    const int hi = max_sample(in.depth);
    const bool alpha = in.channels == 2 || in.channels == 4;
    const int colours = alpha ? in.channels - 1 : in.channels;
    for (int y = 0; y < in.height; ++y)
      for (int x = 0; x < in.width; ++x) {
        const std::size_t at = (static_cast<std::size_t>(y) * in.width + x) * in.channels;
        const auto channel = [&](int c) { return double(sample(in, at + c)) / hi; };
        Names n{};
        n.r = channel(0);
        n.g = channel(colours == 3 ? 1 : 0);
        n.b = channel(colours == 3 ? 2 : 0);
        n.a = alpha ? channel(in.channels - 1) : 1.0;
        n.x = x, n.y = y, n.w = in.width, n.h = in.height;
        for (int c = 0; c < colours; ++c) {
          n.v = channel(c);
          n.c = c;
          const double r = evaluate(text, n);
          put(out, at + c, r != r || r <= 0 ? 0 : r >= 1 ? hi : static_cast<long long>(std::floor(hi * r + 0.5)));
        }
      }
    return out;
  }
};

template <> struct Oracle<Sharpen> {
  // v = c + F * (4c - n - s - e - w) in double, each operation rounded once,
  // then round half up and clamp: the README's definition, written out.
  static Image expected(const Image& in, const Sharpen::Params& p) {
    Image out = in;
    const double hi = max_sample(in.depth);
    for (int y = 0; y < in.height; ++y)
      for (int x = 0; x < in.width; ++x)
        for (int c = 0; c < in.channels; ++c) {
          const double centre = at_clamped(in, x, y, c);
          const double lap = 4 * centre - at_clamped(in, x, y - 1, c) - at_clamped(in, x, y + 1, c) -
                             at_clamped(in, x - 1, y, c) - at_clamped(in, x + 1, y, c);
          const double product = p.amount * lap;
          const double v = centre + product;
          double r = std::floor(v);
          if (v - r >= 0.5) r += 1;
          put(out, (static_cast<std::size_t>(y) * in.width + x) * in.channels + c, std::min(std::max(r, 0.0), hi));
        }
    return out;
  }
};

template <> struct Oracle<Blur> {
  // The brute-force window: for small radii and images only.
  static Image brute_force(const Image& in, const Blur::Params& p) {
    Image out = in;
    const long long r = p.radius, n = (2 * r + 1) * (2 * r + 1);
    for (int y = 0; y < in.height; ++y)
      for (int x = 0; x < in.width; ++x)
        for (int c = 0; c < in.channels; ++c) {
          long long sum = 0;
          for (int dy = -p.radius; dy <= p.radius; ++dy)
            for (int dx = -p.radius; dx <= p.radius; ++dx) sum += at_clamped(in, x + dx, y + dy, c);
          put(out, (static_cast<std::size_t>(y) * in.width + x) * in.channels + c, (sum + n / 2) / n);
        }
    return out;
  }
};

// The middle of the sorted window, std::nth_element over the replicated
// samples gathered anew for every output.
template <> struct Oracle<Median> {
  static Image expected(const Image& in, const Median::Params& p) {
    Image out = in;
    std::vector<int> window;
    for (int y = 0; y < in.height; ++y)
      for (int x = 0; x < in.width; ++x)
        for (int c = 0; c < in.channels; ++c) {
          window.clear();
          for (int dy = -p.radius; dy <= p.radius; ++dy)
            for (int dx = -p.radius; dx <= p.radius; ++dx) window.push_back(at_clamped(in, x + dx, y + dy, c));
          const auto middle = window.begin() + window.size() / 2;
          std::nth_element(window.begin(), middle, window.end());
          put(out, (static_cast<std::size_t>(y) * in.width + x) * in.channels + c, *middle);
        }
    return out;
  }
};

// The README's definition written out: S = S + k * v over the weights row
// by row, each product and sum one IEEE double operation (the suite builds
// with -ffp-contract=off), s the weights' sum in the same order, S / s where
// s is not 0, rounded half away from zero and clamped.
template <> struct Oracle<Convolve> {
  // S / s (or S) of every sample, before rounding.
  static std::vector<double> unrounded(const Image& in, const Convolve::Params& p) {
    const std::vector<double>& k = number_list(p.weights);
    const int kw = p.size.width, kh = p.size.height;
    double s = 0, a = 0;
    for (double w : k) s = s + w, a = a + std::fabs(w);
    if (std::fabs(s) < Convolve::kZeroSum * a) s = 0;  // weights meant to cancel
    std::vector<double> out;
    for (int y = 0; y < in.height; ++y)
      for (int x = 0; x < in.width; ++x)
        for (int c = 0; c < in.channels; ++c) {
          double sum = 0;
          for (int j = 0; j < kh; ++j)
            for (int i = 0; i < kw; ++i) {
              const double product = k[std::size_t(j) * kw + i] * at_clamped(in, x + i - kw / 2, y + j - kh / 2, c);
              sum = sum + product;
            }
          out.push_back(s != 0 ? sum / s : sum);
        }
    return out;
  }
  static long long rounded(double v, int hi) { return static_cast<long long>(std::min(std::max(std::round(v), 0.0), double(hi))); }
  static Image expected(const Image& in, const Convolve::Params& p) {
    Image out = in;
    const std::vector<double> v = unrounded(in, p);
    for (std::size_t i = 0; i < v.size(); ++i) put(out, i, rounded(v[i], max_sample(in.depth)));
    return out;
  }
};

// The README's --gaussian written out on its own: the weights by their own
// loop (w_i for -r..r, summed left to right), the sum of w_i v along each
// row, then of w_j times those down each column, in 128-bit integers, and
// one rounding, half up.
template <> struct Oracle<Gaussian> {
  __extension__ typedef unsigned __int128 Wide;  // s reaches 65535 * 2^54
  static int bits(Depth d) { return d == Depth::U8 ? 22 : 27; }

  static std::vector<long long> weights(double sigma, Depth d) {
    const int r = static_cast<int>(std::ceil(3 * sigma));
    std::vector<double> e;
    double sum = 0;
    for (int i = -r; i <= r; ++i) {
      e.push_back((i == 0 ? 1 : std::exp(-double(i) * i / (2 * sigma * sigma))));
      sum += e.back();
    }
    std::vector<long long> w(e.size());
    long long others = 0;
    for (int i = -r; i <= r; ++i)
      if (i != 0) others += w[i + r] = std::llround(std::ldexp(e[i + r] / sum, bits(d)));
    w[r] = (1LL << bits(d)) - others;
    return w;
  }

  static Image expected(const Image& in, const Gaussian::Params& p) {
    const std::vector<long long> w = weights(p.sigma, in.depth);
    const int r = static_cast<int>(w.size() / 2), shift = 2 * bits(in.depth);
    std::vector<long long> rows(in.pixel_count() * in.channels);
    for (int y = 0; y < in.height; ++y)
      for (int x = 0; x < in.width; ++x)
        for (int c = 0; c < in.channels; ++c) {
          long long sum = 0;
          for (int i = -r; i <= r; ++i) sum += w[i + r] * at_clamped(in, x + i, y, c);
          rows[(static_cast<std::size_t>(y) * in.width + x) * in.channels + c] = sum;
        }
    Image out = in;
    for (int y = 0; y < in.height; ++y)
      for (int x = 0; x < in.width; ++x)
        for (int c = 0; c < in.channels; ++c) {
          Wide sum = 0;
          for (int j = -r; j <= r; ++j) {
            const int yy = std::min(std::max(y + j, 0), in.height - 1);
            sum += static_cast<Wide>(w[j + r]) *
                   static_cast<unsigned long long>(rows[(static_cast<std::size_t>(yy) * in.width + x) * in.channels + c]);
          }
          put(out, (static_cast<std::size_t>(y) * in.width + x) * in.channels + c,
                static_cast<long long>((sum + (static_cast<Wide>(1) << (shift - 1))) >> shift));
        }
    return out;
  }

  // The double-precision Gaussian, unrounded: normalised weights
  // exp(-i^2 / 2S^2) / sum, along x and then along y, in double.
  static std::vector<double> real(const Image& in, double sigma) {
    const int r = static_cast<int>(std::ceil(3 * sigma));
    std::vector<double> d;
    double sum = 0;
    for (int i = -r; i <= r; ++i) sum += (i == 0 ? 1 : std::exp(-double(i) * i / (2 * sigma * sigma)));
    for (int i = -r; i <= r; ++i) d.push_back((i == 0 ? 1 : std::exp(-double(i) * i / (2 * sigma * sigma))) / sum);
    const std::size_t n = in.pixel_count() * in.channels;
    std::vector<double> rows(n), out(n);
    for (int y = 0; y < in.height; ++y)
      for (int x = 0; x < in.width; ++x)
        for (int c = 0; c < in.channels; ++c) {
          double s = 0;
          for (int i = -r; i <= r; ++i) s += d[i + r] * at_clamped(in, x + i, y, c);
          rows[(static_cast<std::size_t>(y) * in.width + x) * in.channels + c] = s;
        }
    for (int y = 0; y < in.height; ++y)
      for (int x = 0; x < in.width; ++x)
        for (int c = 0; c < in.channels; ++c) {
          double s = 0;
          for (int j = -r; j <= r; ++j) {
            const int yy = std::min(std::max(y + j, 0), in.height - 1);
            s += d[j + r] * rows[(static_cast<std::size_t>(yy) * in.width + x) * in.channels + c];
          }
          out[(static_cast<std::size_t>(y) * in.width + x) * in.channels + c] = s;
        }
    return out;
  }

  // How far docs/gaussian.md proves every result lies from real(): 0.5 for
  // the rounding, plus max * 2r / 2^K for the weights' (with room for the
  // doubles' own rounding).
  static double bound(Depth d) { return 0.5 + max_sample(d) * 600.0 / std::ldexp(1.0, bits(d)) + 1e-6; }
};

// v + A(v - g) where |v - g| >= T * max, g the pinned blur; alpha kept.
template <> struct Oracle<Unsharp> {
  static Image expected(const Image& in, const Unsharp::Params& p) {
    const Image g = Oracle<Gaussian>::expected(in, {p.sigma});
    Image out = in;
    const double hi = max_sample(in.depth);
    for (std::size_t i = 0; i < in.pixel_count() * in.channels; ++i) {
      if (is_alpha(static_cast<int>(i % in.channels), in.channels)) continue;
      const int v = sample(in, i), d = v - sample(g, i);
      if (std::abs(d) < p.threshold * hi) continue;
      const double sharpened = std::round(v + p.amount * d);  // half away from zero
      put(out, i, static_cast<long long>(std::min(std::max(sharpened, 0.0), hi)));
    }
    return out;
  }
};

// Pixel (x, y) of `in`, all channels, copied to pixel (ox, oy) of `out`.
inline void copy_pixel(const Image& in, int x, int y, Image& out, int ox, int oy) {
  for (int c = 0; c < in.channels; ++c)
    put(out, (static_cast<std::size_t>(oy) * out.width + ox) * out.channels + c,
        sample(in, (static_cast<std::size_t>(y) * in.width + x) * in.channels + c));
}

template <> struct Oracle<Grayscale> {
  static Image expected(const Image& in, const Grayscale::Params&) {
    if (in.channels < 3) return in;
    Image out(in.width, in.height, in.channels - 2, in.depth);
    for (std::size_t i = 0; i < in.pixel_count(); ++i) {
      const long long r = sample(in, i * in.channels), g = sample(in, i * in.channels + 1),
                      b = sample(in, i * in.channels + 2);
      put(out, i * out.channels, (4899 * r + 9617 * g + 1868 * b + 8192) / 16384);
      if (in.channels == 4) put(out, i * out.channels + 1, sample(in, i * in.channels + 3));
    }
    return out;
  }
};

// The region by ImageMagick's rule, worked out pixel by pixel: every pixel
// of the requested rectangle that lies in the image is kept.
template <> struct Oracle<Crop> {
  static Image expected(const Image& in, const Crop::Params& p) {
    Geometry g = p.region;
    if (g.width_percent > 0) {  // of each side, rounded half up, at least 1
      g.width = std::max(1, static_cast<int>(std::floor(in.width * g.width_percent / 100 + 0.5)));
      g.height = std::max(1, static_cast<int>(std::floor(in.height * g.height_percent / 100 + 0.5)));
    }
    const long long left = g.offset ? g.x : (static_cast<long long>(in.width) - g.width) >> 1;  // floor
    const long long top = g.offset ? g.y : (static_cast<long long>(in.height) - g.height) >> 1;
    std::vector<int> xs, ys;
    for (int x = 0; x < in.width; ++x)
      if (x >= left && x < left + g.width) xs.push_back(x);
    for (int y = 0; y < in.height; ++y)
      if (y >= top && y < top + g.height) ys.push_back(y);
    Image out(static_cast<int>(xs.size()), static_cast<int>(ys.size()), in.channels, in.depth);
    for (std::size_t j = 0; j < ys.size(); ++j)
      for (std::size_t i = 0; i < xs.size(); ++i) copy_pixel(in, xs[i], ys[j], out, int(i), int(j));
    return out;
  }
};

template <> struct Oracle<Flip> {
  static Image expected(const Image& in, const Flip::Params&) {
    Image out(in.width, in.height, in.channels, in.depth);
    for (int y = 0; y < in.height; ++y)
      for (int x = 0; x < in.width; ++x) copy_pixel(in, x, y, out, x, in.height - 1 - y);
    return out;
  }
};

template <> struct Oracle<Flop> {
  static Image expected(const Image& in, const Flop::Params&) {
    Image out(in.width, in.height, in.channels, in.depth);
    for (int y = 0; y < in.height; ++y)
      for (int x = 0; x < in.width; ++x) copy_pixel(in, x, y, out, in.width - 1 - x, y);
    return out;
  }
};

template <> struct Oracle<Transpose> {
  static Image expected(const Image& in, const Transpose::Params&) {
    Image out(in.height, in.width, in.channels, in.depth);
    for (int y = 0; y < in.height; ++y)
      for (int x = 0; x < in.width; ++x) copy_pixel(in, x, y, out, y, x);
    return out;
  }
};

// A quarter turn clockwise moves pixel (x, y) to (H-1-y, x); the others repeat it.
template <> struct Oracle<Rotate> {
  static Image quarter_turn(const Image& in) {
    Image out(in.height, in.width, in.channels, in.depth);
    for (int y = 0; y < in.height; ++y)
      for (int x = 0; x < in.width; ++x) copy_pixel(in, x, y, out, in.height - 1 - y, x);
    return out;
  }
  static Image expected(const Image& in, const Rotate::Params& p) {
    Image out = in;
    for (int i = 0; i < p.quarter_turns; ++i) out = quarter_turn(out);
    return out;
  }
};

// Pillow's order of work, in plain loops over whole images: premultiply,
// the pass along x, the pass along y, divide alpha out. The per-axis tables
// come from plan_axis, which the Pillow goldens hold (resize_pillow_test);
// the skeleton's fused premultiply, its passes and its sizes are what this
// checks.
template <> struct Oracle<Resize> {
  static int side(double v) { return std::max(1, static_cast<int>(std::floor(v + 0.5))); }
  static long long at(const Image& img, int x, int y, int c) {
    return sample(img, (static_cast<std::size_t>(y) * img.width + x) * img.channels + c);
  }
  static void set(Image& img, int x, int y, int c, long long v) {
    put(img, (static_cast<std::size_t>(y) * img.width + x) * img.channels + c, v);
  }
  static Image pass(const Image& in, const ResampleAxis& axis, bool along_x) {
    Image out(along_x ? axis.out_size : in.width, along_x ? in.height : axis.out_size, in.channels, in.depth);
    const long long hi = max_sample(in.depth);
    for (int y = 0; y < out.height; ++y)
      for (int x = 0; x < out.width; ++x)
        for (int c = 0; c < in.channels; ++c) {
          const int i = along_x ? x : y;
          long long sum = 1LL << 21;
          for (int k = 0; k < axis.bounds[2 * i + 1]; ++k) {
            const int j = axis.bounds[2 * i] + k;
            sum += (along_x ? at(in, j, y, c) : at(in, x, j, c)) * axis.weights[std::size_t(i) * axis.taps + k];
          }
          set(out, x, y, c, std::min(std::max(sum >> 22, 0LL), hi));
        }
    return out;
  }
  // The README's sizes: a mark's box scales the image by W/width or
  // H/height, whichever is smaller ('>', '<') or larger ('^'), where '>'
  // finds it larger than the box in a side and '<' in none.
  static std::pair<int, int> size(const SizeSpec& s, int iw, int ih) {
    if (s.width_percent > 0) return {side(iw * s.width_percent / 100), side(ih * s.height_percent / 100)};
    if (s.height == 0) return {s.width, side(double(s.width) * ih / iw)};
    if (s.width == 0) return {side(double(s.height) * iw / ih), s.height};
    if (s.fit == SizeFit::exact) return {s.width, s.height};
    const bool larger = iw > s.width || ih > s.height;
    if (s.fit == (larger ? SizeFit::enlarge_to_fit : SizeFit::shrink_to_fit)) return {iw, ih};
    // W/iw <= H/ih, in integers.
    const bool by_width = (std::int64_t{s.width} * ih <= std::int64_t{s.height} * iw) == (s.fit != SizeFit::fill);
    return by_width ? std::pair<int, int>{s.width, side(double(s.width) * ih / iw)}
                    : std::pair<int, int>{side(double(s.height) * iw / ih), s.height};
  }
  static Image expected(const Image& in, const Resize::Params& p) {
    const auto [w, h] = size(p.size, in.width, in.height);
    if (w == in.width && h == in.height) return in;
    const ResizeFilter f = static_cast<ResizeFilter>(p.filter);
    const ResampleAxis ax = plan_axis(f, in.width, w), ay = plan_axis(f, in.height, h);
    if (f == ResizeFilter::nearest) {
      Image out(w, h, in.channels, in.depth);
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
          for (int c = 0; c < in.channels; ++c) set(out, x, y, c, at(in, ax.bounds[2 * x], ay.bounds[2 * y], c));
      return out;
    }
    const long long hi = max_sample(in.depth);
    const bool alpha = in.channels == 2 || in.channels == 4;
    const int a = in.channels - 1;
    Image img = in;
    if (alpha)  // round(c * a / max); max is odd, so never a tie
      for (int y = 0; y < img.height; ++y)
        for (int x = 0; x < img.width; ++x)
          for (int c = 0; c < a; ++c) set(img, x, y, c, (at(img, x, y, c) * at(img, x, y, a) * 2 + hi) / (2 * hi));
    if (w != in.width) img = pass(img, ax, true);
    if (h != in.height) img = pass(img, ay, false);
    if (alpha)
      for (int y = 0; y < img.height; ++y)
        for (int x = 0; x < img.width; ++x) {
          const long long av = at(img, x, y, a);
          if (av == 0 || av == hi) continue;
          for (int c = 0; c < a; ++c) set(img, x, y, c, std::min(hi, hi * at(img, x, y, c) / av));
        }
    return img;
  }
};

}  // namespace gpuimg::test
