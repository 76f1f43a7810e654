#include "expr/cuda_source.hpp"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace gpuimg::expr {
namespace {

// The constant's exact bits: no decimal round trip, and inf and NaN too.
std::string constant_text(double k) {
  std::uint64_t bits;
  std::memcpy(&bits, &k, sizeof bits);
  char text[64];
  std::snprintf(text, sizeof text, "__longlong_as_double(0x%016" PRIx64 "LL)", bits);
  return text;
}

const char* const kNameText[kNames] = {"n_v", "n_r", "n_g", "n_b", "n_a", "n_c", "n_x", "n_y", "n_w", "n_h"};

// Where in the kernel a value is computed: the fewer things it varies
// with, the less often. A thread takes kMapPixels columns down a group of
// rows, so what varies with nothing is computed once a thread, with the
// column alone once a thread for each of its columns, with the row alone
// once a row of the block (into shared memory), the rest once a pixel or,
// where it reads v or c, once a sample.
enum Section { uniform, column, row, pixel, sample };

constexpr unsigned kX = 1, kY = 2, kPixel = 4, kSample = 8;

unsigned name_varies(Name n) {
  switch (n) {
    case Name::v:
    case Name::c: return kSample;
    case Name::r:
    case Name::g:
    case Name::b:
    case Name::a: return kPixel;
    case Name::x: return kX;
    case Name::y: return kY;
    case Name::w:
    case Name::h: return 0;
  }
  return kSample;
}

Section section_of(unsigned varies) {
  if (varies & kSample) return sample;
  if ((varies & kPixel) || (varies & (kX | kY)) == (kX | kY)) return pixel;
  if (varies & kY) return row;
  return (varies & kX) ? column : uniform;
}

// A program as single assignments: value i is instruction i's result, its
// arguments the values the registers held then (the program reuses them).
struct Values {
  int program;
  std::vector<Instr> code;  // a, b, c: value indices
  std::vector<Section> section;
  int result;
  std::vector<int> shared_slot;  // a row value's place in the shared rows, or -1
  std::vector<bool> again;       // a row value, y itself, that later sections compute again

  // Row values computed once a pixel instead, where the shared rows
  // would not hold them.
  void rows_in_pixels() {
    for (std::size_t i = 0; i < code.size(); ++i)
      if (section[i] == row) section[i] = pixel;
    shared_slot.assign(code.size(), -1);
    again.assign(code.size(), false);
  }

  std::string name(int i) const { return "p" + std::to_string(program) + "_" + std::to_string(i); }
  // A value as an operand: a column value is one of the thread's columns, j.
  std::string ref(int i) const { return section[i] == column ? name(i) + "[j]" : name(i); }

  std::string statement(int i) const {
    const Instr& in = code[i];
    std::string s = section[i] == column ? ref(i) + " = " : "const double " + name(i) + " = ";
    switch (in.code) {
      case Code::constant: s += constant_text(in.k); break;
      case Code::name: s += kNameText[in.a]; break;
      default:
        s += std::string("xm::") + code_name(in.code) + "(" + ref(in.a);
        if (arity(in.code) > 1) s += ", " + ref(in.b);
        if (arity(in.code) > 2) s += ", " + ref(in.c);
        s += ")";
    }
    return s + ";\n";
  }

  std::string statements(Section which, const std::string& indent) const {
    std::string s;
    for (std::size_t i = 0; i < code.size(); ++i)
      if (section[i] == which) s += indent + statement(static_cast<int>(i));
    return s;
  }

  // The column values, one for each of a thread's columns.
  std::string column_arrays(const std::string& indent) const {
    std::string s;
    for (std::size_t i = 0; i < code.size(); ++i)
      if (section[i] == column) s += indent + "double " + name(static_cast<int>(i)) + "[" + std::to_string(kMapPixels) + "];\n";
    return s;
  }
};

Values single_assignments(const Program& p, int index, int& shared_used) {
  Values v{index, p.code, std::vector<Section>(p.code.size()), -1, std::vector<int>(p.code.size(), -1),
           std::vector<bool>(p.code.size(), false)};
  std::vector<int> held(p.registers, -1);
  std::vector<unsigned> varies(p.code.size());
  for (std::size_t i = 0; i < p.code.size(); ++i) {
    Instr& in = v.code[i];
    const int n = arity(in.code);
    std::uint16_t* const args[3] = {&in.a, &in.b, &in.c};
    unsigned vary = in.code == Code::name ? name_varies(static_cast<Name>(in.a)) : 0;
    for (int k = 0; k < n; ++k) {
      const int value = held.at(*args[k]);
      if (value < 0) throw std::logic_error("map_kernel_source: a register read before it is written");
      *args[k] = static_cast<std::uint16_t>(value);
      vary |= varies[value];
    }
    varies[i] = vary;
    v.section[i] = section_of(vary);
    held.at(in.dst) = static_cast<int>(i);
  }
  v.result = held.at(p.result);
  if (v.result < 0) throw std::logic_error("map_kernel_source: the result is never written");
  // A row value read from a later section, or the result, goes through
  // the block's shared rows; y itself, in every later section as n_y, needs
  // no place there (each y of the text is an instruction of its own).
  const auto share = [&](int value) {
    if (v.section[value] != row) return;
    if (v.code[value].code == Code::name)
      v.again[value] = true;
    else if (v.shared_slot[value] < 0)
      v.shared_slot[value] = shared_used++;
  };
  for (std::size_t i = 0; i < v.code.size(); ++i)
    if (v.section[i] > row)
      for (int k = 0; k < arity(v.code[i].code); ++k) share((&v.code[i].a)[k]);
  share(v.result);
  return v;
}

// The layout the kernel is made for, and the programs as values.
struct Kernel {
  int channels, colours, bytes;
  bool alpha;
  std::string type, max, ch, px;
  std::vector<Values> values;
  int shared_used = 0;
  std::uint32_t reads = 0;

  bool reads_name(Name n) const { return (reads >> static_cast<int>(n)) & 1u; }
  const Values& of_channel(int c) const { return values[values.size() > 1 ? c : 0]; }
  // A thread's pixels of a row as 32-bit words, where the row lets them be.
  int words() const { return kMapPixels * channels * bytes / 4; }

  // Each program's row values for the rows of a group, computed by the
  // block's first group_rows threads into shared memory.
  std::string row_values() const {
    if (shared_used == 0) return "";
    std::string s = "    if ((int)threadIdx.x < group_rows && y0 + (int)threadIdx.x < height) {\n";
    s += "      const double n_y = y0 + (int)threadIdx.x;\n";
    for (const Values& v : values) {
      s += v.statements(row, "      ");
      for (std::size_t i = 0; i < v.code.size(); ++i)
        if (v.shared_slot[i] >= 0)
          s += "      rows[threadIdx.x][" + std::to_string(v.shared_slot[i]) + "] = " + v.name(static_cast<int>(i)) +
               ";\n";
    }
    return s + "    }\n    __syncthreads();\n";
  }

  // Row k's values: from the shared rows, or y again.
  std::string row_reads() const {
    std::string s;
    for (const Values& v : values)
      for (std::size_t i = 0; i < v.code.size(); ++i)
        if (v.shared_slot[i] >= 0)
          s += "      const double " + v.name(static_cast<int>(i)) + " = rows[k][" + std::to_string(v.shared_slot[i]) +
               "];\n";
        else if (v.again[i])
          s += "      " + v.statement(static_cast<int>(i));
    return s;
  }

  // The thread's pixels of row k into in[][]. Where they are whole aligned
  // words (all kMapPixels inside the image, at addresses that are multiples
  // of 4 on both sides, as in every row of an image whose rows are whole
  // words), as words: a warp's RGB byte loads, a sample a load, took 1.9x
  // a copy. Else sample by sample.
  std::string loads() const {
    const std::string n = std::to_string(words());
    std::string s = "      int in[" + px + "][" + ch + "] = {};\n";
    s += "      const bool whole = count == " + px +
         " && (((unsigned long long)(src + at) | (unsigned long long)(dst + at)) & 3) == 0;\n";
    s += "      if (whole) {\n";
    s += "        unsigned word[" + n + "];\n";
    s += "#pragma unroll\n        for (int i = 0; i < " + n + "; ++i) word[i] = ((const unsigned*)(src + at))[i];\n";
    s += "#pragma unroll\n        for (int i = 0; i < " + px + " * " + ch + "; ++i) in[i / " + ch + "][i % " + ch +
         "] = sample_of(word, i);\n";
    s += "      } else {\n";
    s += "#pragma unroll\n        for (int i = 0; i < " + px + " * " + ch + "; ++i)\n";
    s += "          if (i < count * " + ch + ") in[i / " + ch + "][i % " + ch + "] = src[at + i];\n";
    s += "      }\n";
    return s;
  }

  std::string stores() const {
    const std::string n = std::to_string(words());
    std::string s = "      if (whole) {\n";
    s += "        unsigned word[" + n + "] = {};\n";
    s += "#pragma unroll\n        for (int i = 0; i < " + px + " * " + ch + "; ++i) put_sample(word, i, out[i / " + ch +
         "][i % " + ch + "]);\n";
    s += "#pragma unroll\n        for (int i = 0; i < " + n + "; ++i) ((unsigned*)(dst + at))[i] = word[i];\n";
    s += "      } else {\n";
    s += "#pragma unroll\n        for (int i = 0; i < " + px + " * " + ch + "; ++i)\n";
    s += "          if (i < count * " + ch + ") dst[at + i] = (" + type + ")out[i / " + ch + "][i % " + ch + "];\n";
    s += "      }\n";
    return s;
  }

  // Sample v through a fused pass's table: at 8 bits the block's copy in
  // shared memory. Through global memory, where a warp's lookups spread
  // over the table's cache lines, --levels, a hypot vignette and --invert
  // in one pass took 0.416 ms at 7680x4320 RGB on the H100; this, 0.390
  // (the vignette's hypot, a pixel at a time, is most of it).
  std::string looked(const std::string& table, const std::string& v) const {
    return bytes == 1 ? table + "_table[" + v + "]" : "look(" + table + ", " + v + ")";
  }

  // Pixel j of row k: its samples (through the load table), its pixel
  // values, then each colour channel's sample values and result.
  std::string pixel_body() const {
    std::string s;
    for (int c = 0; c < colours; ++c) {
      const std::string k = std::to_string(c);
      s += "        if (load) in[j][" + k + "] = " + looked("load", "in[j][" + k + "]") + ";\n";
    }
    // A gray pixel's r, g and b are its one colour; a is 1 without alpha.
    const auto value = [&](int c) { return "unit_of(in[j][" + std::to_string(colours == 1 ? 0 : c) + "])"; };
    const Name colour_name[3] = {Name::r, Name::g, Name::b};
    for (int c = 0; c < 3; ++c)
      if (reads_name(colour_name[c]))
        s += "        const double " + std::string(kNameText[int(colour_name[c])]) + " = " + value(c) + ";\n";
    if (reads_name(Name::a))
      s += "        const double n_a = " +
           (alpha ? "unit_of(in[j][" + std::to_string(channels - 1) + "])" : std::string("1.0")) + ";\n";
    for (const Values& v : values) s += v.statements(pixel, "        ");
    for (int c = 0; c < colours; ++c) {
      const Values& v = of_channel(c);
      const std::string k = std::to_string(c);
      s += "        {\n";
      if (reads_name(Name::v)) s += "          const double n_v = " + value(c) + ";\n";
      if (reads_name(Name::c)) s += "          const double n_c = " + k + ".0;\n";
      s += v.statements(sample, "          ");
      s += "          out[j][" + k + "] = xm::store(" + v.ref(v.result) + ", " + max + ".0);\n";
      s += "          if (store) out[j][" + k + "] = " + looked("store", "out[j][" + k + "]") + ";\n        }\n";
    }
    if (alpha) {
      const std::string a = std::to_string(channels - 1);
      s += "        out[j][" + a + "] = in[j][" + a + "];\n";
    }
    return s;
  }
};

}  // namespace

std::string map_kernel_source(const std::vector<Program>& programs, const Shape& shape) {
  Kernel kn;
  kn.channels = shape.channels;
  kn.alpha = kn.channels == 2 || kn.channels == 4;
  kn.colours = kn.alpha ? kn.channels - 1 : kn.channels;
  if (programs.empty() || (programs.size() > 1 && programs.size() != static_cast<std::size_t>(kn.colours)))
    throw std::logic_error("map_kernel_source: programs do not match the colour channels");
  kn.bytes = shape.bytes;
  const bool bytes8 = shape.bytes == 1;
  kn.type = bytes8 ? "unsigned char" : "unsigned short";
  kn.max = bytes8 ? "255" : "65535";
  kn.ch = std::to_string(kn.channels);
  kn.px = std::to_string(kMapPixels);
  for (std::size_t i = 0; i < programs.size(); ++i) {
    kn.values.push_back(single_assignments(programs[i], static_cast<int>(i), kn.shared_used));
    kn.reads |= programs[i].reads;
  }
  // A kernel's static shared memory stops at 48 KB: past kRowSlots values a
  // row (32 KB), an expression's row values are computed once a pixel.
  constexpr int kRowSlots = 256;
  if (kn.shared_used > kRowSlots) {
    for (Values& v : kn.values) v.rows_in_pixels();
    kn.shared_used = 0;
  }

  std::string s = "#include \"expr_math.hpp\"\nusing namespace gpuimg;\n";
  // A fused pass's table, in TableData's layout (kernels/tables.hpp).
  s += "__device__ __forceinline__ int look(const int* t, int v) { return t[0] == 2 ? " + kn.max +
       " - v : t[1 + v]; }\n";
  // A sample as a value, sample / M, to the bit.
  s += std::string("__device__ __forceinline__ double unit_of(int s) { return xm::") + (bytes8 ? "unit8" : "unit16") +
       "(s); }\n";
  // Sample i of a run of words, little-endian, and its setting.
  const std::string bits = std::to_string(8 * kn.bytes), per_word = std::to_string(4 / kn.bytes),
                    mask = bytes8 ? "0xffu" : "0xffffu";
  s += "__device__ __forceinline__ int sample_of(const unsigned* w, int i) { return (w[i / " + per_word + "] >> (" +
       bits + " * (i % " + per_word + "))) & " + mask + "; }\n";
  s += "__device__ __forceinline__ void put_sample(unsigned* w, int i, int v) { w[i / " + per_word +
       "] |= (unsigned)v << (" + bits + " * (i % " + per_word + ")); }\n";

  // A thread takes kMapPixels columns down groups of group_rows rows, gridDim.y groups apart.
  s += "extern \"C\" __global__ void " + std::string(kMapKernel) + "(const " + kn.type + "* __restrict__ src, " +
       kn.type + "* __restrict__ dst, int width, int height, int group_rows, const int* __restrict__ load, " +
       "const int* __restrict__ store) {\n";
  if (kn.shared_used > 0)
    s += "  __shared__ double rows[" + std::to_string(kMapRows) + "][" + std::to_string(kn.shared_used) + "];\n";
  if (bytes8) {
    s += "  __shared__ unsigned char load_table[256], store_table[256];\n";
    s += "  for (int i = threadIdx.x; i < 256; i += blockDim.x) {\n";
    s += "    load_table[i] = load ? look(load, i) : i;\n    store_table[i] = store ? look(store, i) : i;\n  }\n";
    s += "  __syncthreads();\n";
  }
  s += "  const int x0 = (blockIdx.x * blockDim.x + threadIdx.x) * " + kn.px + ";\n";
  s += "  const double n_w = width, n_h = height;\n  (void)n_w; (void)n_h;\n";
  for (const Values& v : kn.values) s += v.statements(uniform, "  ");
  for (const Values& v : kn.values) s += v.column_arrays("  ");
  s += "#pragma unroll\n  for (int j = 0; j < " + kn.px + "; ++j) {\n";
  s += "    const double n_x = x0 + j;\n    (void)n_x;\n";
  for (const Values& v : kn.values) s += v.statements(column, "    ");
  s += "  }\n";
  s += "  const int groups = (height + group_rows - 1) / group_rows;\n";
  s += "  for (int group = blockIdx.y; group < groups; group += gridDim.y) {\n";
  s += "    const int y0 = group * group_rows;\n";
  // Every thread is done reading the last group's rows.
  if (kn.shared_used > 0) s += "    __syncthreads();\n";
  s += kn.row_values();
  s += "    if (x0 >= width) continue;\n";
  s += "    const int end = height - y0 < group_rows ? height - y0 : group_rows;\n";
  s += "    const int count = width - x0 < " + kn.px + " ? width - x0 : " + kn.px + ";\n";
  s += "    for (int k = 0; k < end; ++k) {\n";
  s += "      const double n_y = y0 + k;\n      (void)n_y;\n";
  s += "      const long long at = ((long long)(y0 + k) * width + x0) * " + kn.ch + ";\n";
  s += kn.row_reads() + kn.loads();
  s += "      int out[" + kn.px + "][" + kn.ch + "];\n";
  s += "#pragma unroll\n      for (int j = 0; j < " + kn.px + "; ++j) {\n";
  s += kn.pixel_body();
  s += "      }\n";
  s += kn.stores();
  s += "    }\n  }\n}\n";
  return s;
}

}  // namespace gpuimg::expr
