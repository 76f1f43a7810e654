#include "cpu_table.hpp"

#include <algorithm>
#include <cstdint>
#include <mutex>

#include "parallel.hpp"
#include "tables.hpp"

namespace gpuimg {
namespace {

constexpr int kMinRowsPerThread = 16;

template <class T, int C> void ranges(const T* src, const Shape& s, int threads, std::vector<ChannelRange>& out) {
  std::mutex merge;
  const std::size_t row = std::size_t(s.width) * C;
  parallel_bands(s.height, kMinRowsPerThread, [&](int y0, int y1) {
    T lo[C], hi[C];
    std::fill(lo, lo + C, T(~T(0)));
    std::fill(hi, hi + C, T(0));
    for (const T* p = src + y0 * row; p != src + y1 * row; p += C)
      for (int c = 0; c < C; ++c) {
        lo[c] = std::min(lo[c], p[c]);
        hi[c] = std::max(hi[c], p[c]);
      }
    const std::lock_guard<std::mutex> lock(merge);
    for (int c = 0; c < colour_channels(s); ++c) {
      out[c].lo = std::min<std::int32_t>(out[c].lo, lo[c]);
      out[c].hi = std::max<std::int32_t>(out[c].hi, hi[c]);
    }
  }, threads);
}

// The tables narrowed to the sample type, one per channel (alpha's the
// identity), so that the loop below is one indexed load a sample.
template <class T, int C> void lookup(const CpuStage& s) {
  const std::int32_t max = s.in.bytes == 1 ? 255 : 65535;
  const TableData tables{s.data, max};
  std::vector<T> narrow(static_cast<std::size_t>(C) * (max + 1));
  for (int c = 0; c < C; ++c)
    for (std::int32_t v = 0; v <= max; ++v)
      narrow[c * (max + 1) + v] = T(is_alpha(c, C) ? v : tables.table(c)[v]);
  const T* src = static_cast<const T*>(s.src);
  T* dst = static_cast<T*>(s.dst);
  const std::size_t row = std::size_t(s.in.width) * C;
  parallel_bands(s.in.height, kMinRowsPerThread, [&](int y0, int y1) {
    const T* t = narrow.data();
    for (std::size_t i = y0 * row; i < y1 * row; i += C)
      for (int c = 0; c < C; ++c) dst[i + c] = t[c * (max + 1) + src[i + c]];
  }, s.threads);
}

template <class F> void with_sample_type(const Shape& s, const F& f) {
  const auto channels = [&](auto zero) {
    using T = decltype(zero);
    switch (s.channels) {
      case 1: return f(T{}, std::integral_constant<int, 1>{});
      case 2: return f(T{}, std::integral_constant<int, 2>{});
      case 3: return f(T{}, std::integral_constant<int, 3>{});
      default: return f(T{}, std::integral_constant<int, 4>{});
    }
  };
  if (s.bytes == 1)
    channels(std::uint8_t{});
  else
    channels(std::uint16_t{});
}

}  // namespace

std::vector<ChannelRange> channel_ranges_cpu(const void* src, const Shape& shape, int threads) {
  std::vector<ChannelRange> out(colour_channels(shape), ChannelRange{INT32_MAX, INT32_MIN});
  with_sample_type(shape, [&](auto zero, auto c) {
    using T = decltype(zero);
    ranges<T, decltype(c)::value>(static_cast<const T*>(src), shape, threads, out);
  });
  return out;
}

void lookup_cpu(const CpuStage& s) {
  with_sample_type(s.in, [&](auto zero, auto c) { lookup<decltype(zero), decltype(c)::value>(s); });
}

}  // namespace gpuimg
