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
// also reads (program_builder.cpp).
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

template <class T>
void map_rows(const std::vector<Program>& programs, const T* src, T* dst, const Shape& s, int y0, int y1) {
  const int channels = s.channels;
  const bool alpha = channels == 2 || channels == 4;
  const int colours = alpha ? channels - 1 : channels;
  const double m = s.bytes == 1 ? 255.0 : 65535.0;
  std::vector<RowEvaluator> evaluators(programs.begin(), programs.end());
  ChunkNames cn(s);
  const double* names[kNames] = {};
  // Gray: r = g = b = the one colour channel; no alpha: a = 1.
  names[int(Name::r)] = cn.channel[0];
  names[int(Name::g)] = cn.channel[colours == 3 ? 1 : 0];
  names[int(Name::b)] = cn.channel[colours == 3 ? 2 : 0];
  names[int(Name::a)] = alpha ? cn.channel[channels - 1] : cn.one;
  names[int(Name::x)] = cn.x;
  names[int(Name::y)] = cn.y;
  names[int(Name::w)] = cn.w;
  names[int(Name::h)] = cn.h;
  const std::size_t row = std::size_t(s.width) * channels;
  for (int y = y0; y < y1; ++y) {
    std::fill_n(cn.y, kChunk, double(y));
    const T* in_row = src + y * row;
    T* out_row = dst + y * row;
    for (int x0 = 0; x0 < s.width; x0 += kChunk) {
      const int n = std::min(kChunk, s.width - x0);
      const T* in = in_row + std::size_t(x0) * channels;
      T* out = out_row + std::size_t(x0) * channels;
      for (int i = 0; i < n; ++i) cn.x[i] = double(x0 + i);
      for (int ch = 0; ch < channels; ++ch)
        for (int i = 0; i < n; ++i) cn.channel[ch][i] = double(in[i * channels + ch]) / m;
      for (int ch = 0; ch < colours; ++ch) {
        names[int(Name::v)] = cn.channel[ch];
        names[int(Name::c)] = cn.c[ch];
        const double* result = evaluators[evaluators.size() == 1 ? 0 : ch].run(names, n);
        for (int i = 0; i < n; ++i) out[i * channels + ch] = T(xm::store(result[i], m));
      }
      if (alpha)
        for (int i = 0; i < n; ++i) out[i * channels + channels - 1] = in[i * channels + channels - 1];
    }
  }
}

}  // namespace

void map_image(const std::vector<Program>& programs, const void* src, void* dst, const Shape& shape, int threads) {
  if (shape.channels < 1 || shape.channels > 4 || (shape.bytes != 1 && shape.bytes != 2))
    throw std::invalid_argument("map_image: 1 to 4 channels of 1 or 2 bytes");
  const int colours = shape.channels == 2 || shape.channels == 4 ? shape.channels - 1 : shape.channels;
  if (programs.size() != 1 && programs.size() != std::size_t(colours))
    throw std::invalid_argument(std::to_string(programs.size()) + " expressions for an image of " +
                                std::to_string(colours) + " colour channels: give 1 or " + std::to_string(colours));
  parallel_bands(shape.height, kMinRowsPerThread, [&](int y0, int y1) {
    if (shape.bytes == 1)
      map_rows(programs, static_cast<const std::uint8_t*>(src), static_cast<std::uint8_t*>(dst), shape, y0, y1);
    else
      map_rows(programs, static_cast<const std::uint16_t*>(src), static_cast<std::uint16_t*>(dst), shape, y0, y1);
  }, threads);
}

}  // namespace gpuimg::expr
