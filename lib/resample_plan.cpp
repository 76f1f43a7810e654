#include "resample_plan.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gpuimg {
namespace {

constexpr double kPi = 3.14159265358979323846;  // M_PI, which Pillow uses

double sinc(double x) {
  if (x == 0.0) return 1.0;
  const double px = x * kPi;
  return std::sin(px) / px;
}

// Pillow converts the box's edges, here 0 and the input's size, to float
// before dividing by the output's size: sizes past 2^24 lose their low bits
// there, and the weights with them.
double axis_scale(int in_size, int out_size) { return double(float(in_size)) / out_size; }

// Nearest: output i copies input floor(x_i), x_0 = scale / 2 and each next
// x the one before plus scale, summed in double one step at a time as
// Pillow's ImagingScaleAffine does (a product (i + 0.5) * scale can land
// on the other side of an integer). A position outside the input, which
// only an output of 2^25 samples or more could reach, takes the edge
// sample, where Pillow would leave the pixel 0.
void plan_nearest(ResampleAxis& axis) {
  const double scale = axis_scale(axis.in_size, axis.out_size);
  axis.taps = 1;
  axis.bounds.resize(2 * std::size_t(axis.out_size));
  axis.weights.assign(axis.out_size, kResampleOne);
  double x = 0.0 + scale * 0.5;
  for (int i = 0; i < axis.out_size; ++i, x += scale) {
    const int at = x < 0.0 ? 0 : int(x);
    axis.bounds[2 * std::size_t(i)] = std::min(at, axis.in_size - 1);
    axis.bounds[2 * std::size_t(i) + 1] = 1;
  }
}

// Pillow's rounding of a normalised weight to fixed point: w * 2^22 (exact),
// plus or minus one half by sign, truncated toward zero.
std::int32_t fixed_weight(double w) {
  const double scaled = w * double(kResampleOne);
  return std::int32_t(w < 0 ? -0.5 + scaled : 0.5 + scaled);
}

// Every other filter: each output sample's centre, mapped into the input,
// gathers the input samples whose centres lie within the filter's support
// of it; shrinking widens the filter (and the support) by the scale, so
// that every input sample contributes. The run's ends are rounded the way
// Pillow rounds them (add one half, truncate, clamp to the input), the
// weights are the kernel at each sample's distance, divided by their sum,
// then made fixed point.
void plan_convolution(ResampleAxis& axis) {
  const double scale = axis_scale(axis.in_size, axis.out_size);
  const double widen = scale < 1.0 ? 1.0 : scale;
  const double support = resize_filter_support(axis.filter) * widen;
  const double inverse_widen = 1.0 / widen;
  const std::size_t out = axis.out_size;
  auto centre = [&](std::size_t i) { return (double(i) + 0.5) * scale; };

  axis.bounds.resize(2 * out);
  axis.taps = 0;
  for (std::size_t i = 0; i < out; ++i) {
    const int lo = std::max(0, int(centre(i) - support + 0.5));
    const int hi = std::min(axis.in_size, int(centre(i) + support + 0.5));
    axis.bounds[2 * i] = lo;
    axis.bounds[2 * i + 1] = hi - lo;
    axis.taps = std::max(axis.taps, hi - lo);
  }

  axis.weights.assign(out * axis.taps, 0);
  std::vector<double> w(axis.taps);
  for (std::size_t i = 0; i < out; ++i) {
    const int lo = axis.bounds[2 * i], n = axis.bounds[2 * i + 1];
    double sum = 0.0;
    for (int k = 0; k < n; ++k) {
      w[k] = resize_filter_kernel(axis.filter, (double(k + lo) - centre(i) + 0.5) * inverse_widen);
      sum += w[k];
    }
    std::int32_t* dst = axis.weights.data() + i * axis.taps;
    for (int k = 0; k < n; ++k) dst[k] = fixed_weight(sum != 0.0 ? w[k] / sum : w[k]);
  }
}

// The steady part of a halved axis (ResampleSteady): grown from the
// middle output both ways while outputs read the same run shape and weights.
ResampleSteady steady_part(const ResampleAxis& a) {
  if (a.filter == ResizeFilter::nearest || a.in_size != 2 * a.out_size) return {0, 0, 0};
  const int middle = a.out_size / 2, offset = a.bounds[2 * std::size_t(middle)] - 2 * middle;
  const auto same = [&](int i) {
    const auto row = [&](int j) { return a.weights.begin() + std::ptrdiff_t(j) * a.taps; };
    return a.bounds[2 * std::size_t(i)] == 2 * i + offset &&
           a.bounds[2 * std::size_t(i) + 1] == a.bounds[2 * std::size_t(middle) + 1] &&
           std::equal(row(i), row(i) + a.taps, row(middle));
  };
  ResampleSteady s{middle, middle + 1, offset};
  while (s.first > 0 && same(s.first - 1)) --s.first;
  while (s.end < a.out_size && same(s.end)) ++s.end;
  return s;
}

}  // namespace

double resize_filter_support(ResizeFilter filter) {
  switch (filter) {
    case ResizeFilter::box: return 0.5;
    case ResizeFilter::linear: return 1.0;
    case ResizeFilter::cubic: return 2.0;
    case ResizeFilter::lanczos3: return 3.0;
    case ResizeFilter::nearest: break;
  }
  throw std::invalid_argument("resize: nearest has no kernel");
}

double resize_filter_kernel(ResizeFilter filter, double x) {
  switch (filter) {
    case ResizeFilter::box:
      // Half-open, so that a sample exactly between two is counted once.
      return x > -0.5 && x <= 0.5 ? 1.0 : 0.0;
    case ResizeFilter::linear: {
      const double d = x < 0.0 ? -x : x;
      return d < 1.0 ? 1.0 - d : 0.0;
    }
    case ResizeFilter::cubic: {
      // Keys' cubic convolution with a = -0.5, in Pillow's operation order.
      constexpr double a = -0.5;
      const double d = x < 0.0 ? -x : x;
      if (d < 1.0) return ((a + 2.0) * d - (a + 3.0)) * d * d + 1;
      if (d < 2.0) return (((d - 5) * d + 8) * d - 4) * a;
      return 0.0;
    }
    case ResizeFilter::lanczos3:
      return -3.0 <= x && x < 3.0 ? sinc(x) * sinc(x / 3) : 0.0;
    case ResizeFilter::nearest: break;
  }
  throw std::invalid_argument("resize: nearest has no kernel");
}

ResampleAxis plan_axis(ResizeFilter filter, int in_size, int out_size) {
  if (in_size < 1 || out_size < 1)
    throw std::invalid_argument("resize: sizes must be at least 1, not " + std::to_string(in_size) + " to " +
                                std::to_string(out_size));
  ResampleAxis axis;
  axis.filter = filter;
  axis.in_size = in_size;
  axis.out_size = out_size;
  if (filter == ResizeFilter::nearest)
    plan_nearest(axis);
  else
    plan_convolution(axis);
  return axis;
}

std::uint64_t resample_table_entries(ResizeFilter filter, int in_size, int out_size) {
  std::uint64_t taps = 1;
  if (filter != ResizeFilter::nearest) {
    const double scale = axis_scale(in_size, out_size);
    const double support = resize_filter_support(filter) * (scale < 1.0 ? 1.0 : scale);
    // A run spans at most 2 * support + 1 samples, plus one for the rounding of its ends.
    taps = std::min<std::uint64_t>(std::uint64_t(in_size), std::uint64_t(2 * std::ceil(support) + 2));
  }
  return std::uint64_t(out_size) * (2 + taps);
}

std::vector<std::int32_t> pack_resample(const ResamplePlan& plan) {
  const ResampleAxis& x = plan.x;
  const ResampleAxis& y = plan.y;
  bool byte_weights = true, high_bytes = true;
  for (const auto* weights : {&x.weights, &y.weights})
    for (std::int32_t w : *weights) {
      byte_weights = byte_weights && w >= -(1 << 23) && w < (1 << 23);
      high_bytes = high_bytes && w % (1 << 16) == 0;
    }
  std::vector<std::int32_t> data = {static_cast<std::int32_t>(plan.filter), x.in_size, x.out_size, x.taps,
                                    y.in_size, y.out_size, y.taps, byte_weights | (byte_weights && high_bytes) << 1};
  for (const ResampleAxis* axis : {&x, &y}) {
    const ResampleSteady s = steady_part(*axis);
    data.insert(data.end(), {s.first, s.end, s.offset});
  }
  for (const auto* part : {&x.bounds, &x.weights, &y.bounds, &y.weights}) data.insert(data.end(), part->begin(), part->end());
  return data;
}

}  // namespace gpuimg
