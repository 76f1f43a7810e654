// The median filter on the CPU backend. Each thread takes a band of rows and
// keeps the 2R + 1 source rows of the output row at hand in a ring, each
// padded with R replicated pixels on both sides, so that every window reads
// inside a row and the border needs no case of its own.
//
// Up to Median::kMaxCpuNetworkRadius, each output sample runs the forgetful
// selection network of median_select.hpp on its window; the loop over a
// row's samples is straight-line min and max, which the compiler turns into
// vector instructions, 16 to 32 samples at a time. Past it, a sliding
// histogram (Huang's) walks each row channel by channel, and the median is
// tracked from one pixel to the next (see TrackedMedian).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "avx2_clones.hpp"
#include "median_select.hpp"
#include "ops/median.hpp"
#include "parallel.hpp"

namespace gpuimg {
namespace {

// Rows per thread below which a thread's start costs more than its work.
constexpr int kMinRowsPerThread = 8;

// The 2R + 1 source rows of one output row, padded, in a ring: row y + dy
// (clamped into the image) sits in slot (y + dy) mod (2R + 1), so moving
// down a row replaces one slot.
template <class T> class PaddedRows {
 public:
  PaddedRows(const T* src, int width, int height, int channels, int radius)
      : src_(src), width_(width), height_(height), channels_(channels), radius_(radius), slots_(2 * radius + 1),
        padded_len_(static_cast<std::size_t>(width + 2 * radius) * channels),
        data_(padded_len_ * slots_), rows_(slots_) {}

  // Fills every slot for output row y.
  void start(int y) {
    for (int dy = -radius_; dy <= radius_; ++dy) fill(y + dy);
  }
  // From output row y - 1 to y: row y + R enters.
  void advance(int y) { fill(y + radius_); }

  // The padded source rows of output row y, top to bottom; sample j of an
  // output row is the window's centre at index j + R * channels.
  const T* const* rows(int y) {
    for (int k = 0; k < slots_; ++k) rows_[k] = slot(y - radius_ + k);
    return rows_.data();
  }

 private:
  T* slot(int y) { return data_.data() + static_cast<std::size_t>(((y % slots_) + slots_) % slots_) * padded_len_; }

  void fill(int y) {
    T* out = slot(y);
    const T* row = src_ + static_cast<std::size_t>(clamp_index(y, height_)) * width_ * channels_;
    const std::size_t edge = static_cast<std::size_t>(radius_) * channels_;
    std::memcpy(out + edge, row, sizeof(T) * width_ * channels_);
    for (int x = 0; x < radius_; ++x)
      for (int c = 0; c < channels_; ++c) {
        out[x * channels_ + c] = row[c];
        out[edge + static_cast<std::size_t>(width_ + x) * channels_ + c] = row[(width_ - 1) * channels_ + c];
      }
  }

  const T* src_;
  int width_, height_, channels_, radius_, slots_;
  std::size_t padded_len_;
  std::vector<T> data_;
  std::vector<const T*> rows_;
};

// Runs each thread's band of rows: worker() makes the thread's row
// function, which takes an output row's padded source rows and its output.
template <class T, class MakeWorker> void by_bands(const CpuStage& s, int radius, const MakeWorker& worker) {
  const T* src = static_cast<const T*>(s.src);
  T* dst = static_cast<T*>(s.dst);
  const int w = s.in.width, h = s.in.height, c = s.in.channels;
  parallel_bands(h, kMinRowsPerThread, [&](int y0, int y1) {
    PaddedRows<T> rows(src, w, h, c, radius);
    auto row = worker();
    rows.start(y0);
    for (int y = y0; y < y1; ++y) {
      if (y > y0) rows.advance(y);
      row(rows.rows(y), dst + static_cast<std::size_t>(y) * w * c);
    }
  }, s.threads);
}

// One output row by the network: window value I of sample j is row I / K,
// column I % K, that is, sample j + (I % K) * C of the padded row.
template <int R, int C, class T>
GPUIMG_AVX2_CLONES void network_row(const T* const* rows, T* __restrict out, int samples) {
  constexpr int K = 2 * R + 1;
  const T* r[K];
  for (int k = 0; k < K; ++k) r[k] = rows[k];
  for (int j = 0; j < samples; ++j) {
    const auto get = [&](auto i) {
      constexpr int I = decltype(i)::value;
      return r[I / K][j + (I % K) * C];
    };
    out[j] = ForgetfulSelection<T, ScalarMinMax<T>>::template median<K * K>(get);
  }
}

template <int R, class T> void network_median(const CpuStage& s) {
  const int n = s.in.width * s.in.channels;
  auto run = [&](auto c) {
    by_bands<T>(s, R, [&] {
      return [n](const T* const* rows, T* out) { network_row<R, decltype(c)::value>(rows, out, n); };
    });
  };
  switch (s.in.channels) {
    case 1: return run(std::integral_constant<int, 1>{});
    case 2: return run(std::integral_constant<int, 2>{});
    case 3: return run(std::integral_constant<int, 3>{});
    default: return run(std::integral_constant<int, 4>{});
  }
}

template <class T, int... R> void network_median(const CpuStage& s, int radius, std::integer_sequence<int, R...>) {
  ((radius == R + 1 ? network_median<R + 1, T>(s) : void()), ...);
}

// A histogram of the window's values and the median tracked through it.
// At 8 bits, m and the count of values under it move from one window to the
// next by the values that leave and enter, then m steps to the new median,
// usually a few values away. At 16 bits counts are also kept for every 16
// and every 256 values; the median's block of 256 is tracked that way, and
// the median found inside it by 16 counts of 16 values, then 16 of one.
template <class T> class TrackedMedian {
 public:
  explicit TrackedMedian(int rank) : rank_(rank), counts_(kSize, 0) {}

  void add(int v) { change(v, 1); }
  void remove(int v) { change(v, -1); }

  int median() {
    const std::uint16_t* tracked = level(kTracked);
    while (below_ > rank_) below_ -= tracked[--m_];
    while (below_ + tracked[m_] <= rank_) below_ += tracked[m_++];
    int at = m_, rest = rank_ - below_;  // the median is value `rest` (from 0) of block `at`
    for (int l = kTracked - 1; l >= 0; --l) {
      const std::uint16_t* counts = level(l);
      at *= 16;
      while (rest >= counts[at]) rest -= counts[at++];
    }
    return at;
  }

 private:
  static constexpr int kBits = 8 * static_cast<int>(sizeof(T));
  static constexpr int kLevels = kBits / 8 * 2 - 1;  // level L counts values >> 4L
  static constexpr int kTracked = kLevels - 1;
  static constexpr std::size_t kSize = sizeof(T) == 1 ? 256 : 65536 + 4096 + 256;

  // Level L's counts follow those of the finer levels.
  static constexpr std::size_t offset(int l) { return l == 0 ? 0 : (std::size_t{1} << kBits) + (l == 1 ? 0 : 4096); }
  std::uint16_t* level(int l) { return counts_.data() + offset(l); }

  void change(int v, int d) {
    for (int l = 0; l < kLevels; ++l) level(l)[v >> (4 * l)] += d;
    below_ += (v >> (4 * kTracked)) < m_ ? d : 0;
  }

  int rank_;
  int m_ = 0, below_ = 0;  // at the tracked level: m's block, and the window's values under it
  std::vector<std::uint16_t> counts_;  // each at most (2R + 1)^2 = 961
};

// One output row by sliding histograms, channel by channel: the window
// enters each row at its left end, moves right a column at a time, and
// leaves, so that the histogram is empty again for the next.
template <class T> void histogram_row(const T* const* rows, T* out, int width, int channels, int radius,
                                     TrackedMedian<T>& h) {
  const int k = 2 * radius + 1;
  for (int c = 0; c < channels; ++c) {
    for (int r = 0; r < k; ++r)
      for (int dx = 0; dx < k; ++dx) h.add(rows[r][dx * channels + c]);
    for (int x = 0;; ++x) {
      out[x * channels + c] = static_cast<T>(h.median());
      const std::size_t leave = static_cast<std::size_t>(x) * channels + c;
      if (x + 1 == width) {
        for (int r = 0; r < k; ++r)
          for (int dx = 0; dx < k; ++dx) h.remove(rows[r][leave + dx * channels]);
        break;
      }
      const std::size_t enter = leave + static_cast<std::size_t>(k) * channels;
      for (int r = 0; r < k; ++r) {
        h.remove(rows[r][leave]);
        h.add(rows[r][enter]);
      }
    }
  }
}

template <class T> void histogram_median(const CpuStage& s, int radius) {
  const int w = s.in.width, c = s.in.channels;
  by_bands<T>(s, radius, [&] {
    return [w, c, radius, hist = TrackedMedian<T>(Median::median_rank(radius))](const T* const* rows, T* out) mutable {
      histogram_row(rows, out, w, c, radius, hist);
    };
  });
}

template <class T> void median_cpu(const CpuStage& s, int radius) {
  if (radius <= Median::kMaxCpuNetworkRadius)
    network_median<T>(s, radius, std::make_integer_sequence<int, Median::kMaxCpuNetworkRadius>{});
  else
    histogram_median<T>(s, radius);
}

}  // namespace

void Median::run_cpu(const CpuStage& s, const Params& p) {
  if (s.in.bytes == 1)
    median_cpu<std::uint8_t>(s, p.radius);
  else
    median_cpu<std::uint16_t>(s, p.radius);
}

}  // namespace gpuimg
