#include "expr/row_eval.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "avx2_clones.hpp"
#include "expr/code_functions.hpp"
#include "parallel.hpp"

namespace gpuimg::expr {
namespace {

// restrict holds: the builder never gives an instruction a destination it
// also reads (program_builder.cpp); arguments may share a name's values,
// which are only read.
template <class F>
GPUIMG_AVX2_CLONES void chunk_loop(double* __restrict d, const double* __restrict a, const double* __restrict b,
                                   const double* __restrict c, int n) {
  if constexpr (F::arity == 1)
    for (int i = 0; i < n; ++i) d[i] = F::apply(a[i], 0, 0);
  else if constexpr (F::arity == 2)
    for (int i = 0; i < n; ++i) d[i] = F::apply(a[i], b[i], 0);
  else
    for (int i = 0; i < n; ++i) d[i] = F::apply(a[i], b[i], c[i]);
}

}  // namespace

RowEvaluator::RowEvaluator(const Program& program)
    : program_(program),
      own_(static_cast<std::size_t>(program.registers) * kChunk),
      reg_(program.registers, nullptr),
      constant_at_(program.code.size(), -1) {
  for (std::size_t i = 0; i < program_.code.size(); ++i)
    if (program_.code[i].code == Code::constant) {
      constant_at_[i] = static_cast<int>(constants_.size());
      constants_.insert(constants_.end(), kChunk, program_.code[i].k);
    }
}

const double* RowEvaluator::run(const double* const names[kNames], int n) {
  for (std::size_t i = 0; i < program_.code.size(); ++i) {
    const Instr& in = program_.code[i];
    // Constants and names cost no copy: their register points at their values.
    if (in.code == Code::constant) {
      reg_[in.dst] = &constants_[constant_at_[i]];
    } else if (in.code == Code::name) {
      reg_[in.dst] = names[in.a];
    } else {
      double* d = &own_[static_cast<std::size_t>(in.dst) * kChunk];
      const double *a = reg_[in.a], *b = reg_[in.b], *c = reg_[in.c];
      visit_code(in.code, [&](auto fn, const char*) { chunk_loop<decltype(fn)>(d, a, b, c, n); });
      reg_[in.dst] = d;
    }
  }
  return reg_[program_.result];
}

namespace {

constexpr int kChunk = RowEvaluator::kChunk;
constexpr int kMinRowsPerThread = 4;
// An 8-bit table is one chunk on the calling thread; a 16-bit one up to 16 bands.
constexpr int kMinValuesPerThread = 4096;

// The values of the names over one chunk of one row, as the evaluators read them.
struct ChunkNames {
  double channel[4][kChunk];  // each channel's samples / M
  double x[kChunk];
  double y[kChunk];
  double w[kChunk], h[kChunk], one[kChunk];
  double c[3][kChunk];

  explicit ChunkNames(const Shape& s) {
    std::fill_n(w, kChunk, double(s.width));
    std::fill_n(h, kChunk, double(s.height));
    std::fill_n(one, kChunk, 1.0);
    for (int ch = 0; ch < 3; ++ch) std::fill_n(c[ch], kChunk, double(ch));
  }
};

// Samples in and out of a chunk: compiled for AVX2 too, as they cost more
// than a short program (one division and one floor a sample); the channel
// count a constant so that the strided accesses vectorise. The store's
// branches vectorise only without trapping math (lib/CMakeLists.txt).
template <class T, int C> GPUIMG_AVX2_CLONES void load_samples(const T* in, int n, double m, ChunkNames& cn) {
  for (int ch = 0; ch < C; ++ch)
    for (int i = 0; i < n; ++i) cn.channel[ch][i] = double(in[i * C + ch]) / m;
}

template <class T, int C>
GPUIMG_AVX2_CLONES void store_samples(const double* __restrict result, int n, double m, T* __restrict out) {
  for (int i = 0; i < n; ++i) out[i * C] = T(xm::store(result[i], m));
}

template <class T, int C>
void map_rows(const std::vector<Program>& programs, const T* src, T* dst, const Shape& s, int y0, int y1) {
  constexpr bool alpha = C == 2 || C == 4;
  constexpr int colours = alpha ? C - 1 : C;
  const double m = sizeof(T) == 1 ? 255.0 : 65535.0;
  std::vector<RowEvaluator> evaluators(programs.begin(), programs.end());
  ChunkNames cn(s);
  const double* names[kNames] = {};
  // Gray: r = g = b = the one colour channel; no alpha: a = 1.
  names[int(Name::r)] = cn.channel[0];
  names[int(Name::g)] = cn.channel[colours == 3 ? 1 : 0];
  names[int(Name::b)] = cn.channel[colours == 3 ? 2 : 0];
  names[int(Name::a)] = alpha ? cn.channel[C - 1] : cn.one;
  names[int(Name::x)] = cn.x;
  names[int(Name::y)] = cn.y;
  names[int(Name::w)] = cn.w;
  names[int(Name::h)] = cn.h;
  const std::size_t row = std::size_t(s.width) * C;
  for (int y = y0; y < y1; ++y) {
    std::fill_n(cn.y, kChunk, double(y));
    for (int x0 = 0; x0 < s.width; x0 += kChunk) {
      const int n = std::min(kChunk, s.width - x0);
      const T* in = src + y * row + std::size_t(x0) * C;
      T* out = dst + y * row + std::size_t(x0) * C;
      for (int i = 0; i < n; ++i) cn.x[i] = double(x0 + i);
      load_samples<T, C>(in, n, m, cn);
      for (int ch = 0; ch < colours; ++ch) {
        names[int(Name::v)] = cn.channel[ch];
        names[int(Name::c)] = cn.c[ch];
        const double* result = evaluators[evaluators.size() == 1 ? 0 : ch].run(names, n);
        store_samples<T, C>(result, n, m, out + ch);
      }
      if (alpha)
        for (int i = 0; i < n; ++i) out[i * C + C - 1] = in[i * C + C - 1];
    }
  }
}

template <class T>
void map_rows(const std::vector<Program>& programs, const void* src, void* dst, const Shape& s, int y0, int y1) {
  const auto* in = static_cast<const T*>(src);
  auto* out = static_cast<T*>(dst);
  switch (s.channels) {
    case 1: return map_rows<T, 1>(programs, in, out, s, y0, y1);
    case 2: return map_rows<T, 2>(programs, in, out, s, y0, y1);
    case 3: return map_rows<T, 3>(programs, in, out, s, y0, y1);
    default: return map_rows<T, 4>(programs, in, out, s, y0, y1);
  }
}

}  // namespace

void map_values(const Program& program, std::int32_t* values, int n, std::int32_t m) {
  const double max = m;
  parallel_bands(n, kMinValuesPerThread, [&](int i0, int i1) {
    RowEvaluator rows(program);
    double v[kChunk];
    const double* names[kNames] = {};
    names[int(Name::v)] = v;
    for (int at = i0; at < i1; at += kChunk) {
      const int k = std::min(kChunk, i1 - at);
      for (int i = 0; i < k; ++i) v[i] = double(values[at + i]) / max;
      const double* result = rows.run(names, k);
      for (int i = 0; i < k; ++i) values[at + i] = xm::store(result[i], max);
    }
  });
}

void map_image(const std::vector<Program>& programs, const void* src, void* dst, const Shape& shape, int threads) {
  if (shape.channels < 1 || shape.channels > 4 || (shape.bytes != 1 && shape.bytes != 2))
    throw std::invalid_argument("map_image: 1 to 4 channels of 1 or 2 bytes");
  const int colours = shape.channels == 2 || shape.channels == 4 ? shape.channels - 1 : shape.channels;
  if (programs.size() != 1 && programs.size() != std::size_t(colours))
    throw std::invalid_argument(std::to_string(programs.size()) + " expressions for an image of " +
                                std::to_string(colours) + " colour channels: give 1 or " + std::to_string(colours));
  parallel_bands(shape.height, kMinRowsPerThread, [&](int y0, int y1) {
    if (shape.bytes == 1)
      map_rows<std::uint8_t>(programs, src, dst, shape, y0, y1);
    else
      map_rows<std::uint16_t>(programs, src, dst, shape, y0, y1);
  }, threads);
}

}  // namespace gpuimg::expr
