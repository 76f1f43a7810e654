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
// with, the less often. A thread takes a column down a group of rows, so
// what varies with the column alone is computed once a thread, what varies
// with the row alone once a row of the block (into shared memory), the
// rest once a pixel or, where it reads v or c, once a sample.
enum Section { column, row, pixel, sample };

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
  return (varies & kY) ? row : column;
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

  std::string statement(int i) const {
    const Instr& in = code[i];
    std::string s = "const double " + name(i) + " = ";
    switch (in.code) {
      case Code::constant: s += constant_text(in.k); break;
      case Code::name: s += kNameText[in.a]; break;
      default:
        s += std::string("xm::") + code_name(in.code) + "(" + name(in.a);
        if (arity(in.code) > 1) s += ", " + name(in.b);
        if (arity(in.code) > 2) s += ", " + name(in.c);
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
  int channels, colours;
  bool alpha, bytes8;
  std::string type, max, ch, rows;
  std::vector<Values> values;
  int shared_used = 0;
  std::uint32_t reads = 0;

  bool reads_name(Name n) const { return (reads >> static_cast<int>(n)) & 1u; }
  const Values& of_channel(int c) const { return values[values.size() > 1 ? c : 0]; }

  // Each program's row values for the rows of a group, computed by the
  // block's first kMapRows threads into shared memory.
  std::string row_values() const {
    if (shared_used == 0) return "";
    std::string s = "    if (threadIdx.x < " + rows + " && y0 + (int)threadIdx.x < height) {\n";
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

  // Row k's samples into in[]. A gray image's thread loads the next rows'
  // samples before this row's are used, keeping several loads in flight:
  // the ten operations at gray 16-bit took 0.121 ms so against 0.145
  // loading each row as it came. RGB 8-bit went the other way, 0.186 ms
  // against 0.140 (H100), probably for the queue's registers.
  // before_rows: ahead of the loop over the group's rows; in_row: in it.
  void loads(std::string& before_rows, std::string& in_row) const {
    const int ahead = colours == 1 ? 8 : 0;
    if (ahead == 0) {
      for (int c = 0; c < channels; ++c) in_row += "      in[" + std::to_string(c) + "] = src[at + " + std::to_string(c) + "];\n";
      return;
    }
    const auto sample_at = [&](const std::string& row, int c) {
      return "src[((long long)(y0 + " + row + ") * width + x) * " + ch + " + " + std::to_string(c) + "]";
    };
    const std::string q_rows = std::to_string(ahead);
    before_rows += "    int q[" + q_rows + "][" + ch + "];\n";
    before_rows += "#pragma unroll\n    for (int d = 0; d < " + q_rows + "; ++d)\n      if (d < end) {\n";
    for (int c = 0; c < channels; ++c)
      before_rows += "        q[d][" + std::to_string(c) + "] = " + sample_at("d", c) + ";\n";
    before_rows += "      }\n";
    in_row += "#pragma unroll\n      for (int c = 0; c < " + ch + "; ++c) in[c] = q[0][c];\n";
    in_row += "#pragma unroll\n      for (int d = 0; d + 1 < " + q_rows + "; ++d)\n";
    in_row += "#pragma unroll\n        for (int c = 0; c < " + ch + "; ++c) q[d][c] = q[d + 1][c];\n";
    in_row += "      if (k + " + q_rows + " < end) {\n";
    for (int c = 0; c < channels; ++c)
      in_row += "        q[" + std::to_string(ahead - 1) + "][" + std::to_string(c) + "] = " +
                sample_at("k + " + q_rows, c) + ";\n";
    in_row += "      }\n";
  }

  // One pixel of row k: its samples (through the load table), its row and
  // pixel values, then each colour channel's sample values and store.
  std::string pixel_body() const {
    std::string s;
    for (const Values& v : values)
      for (std::size_t i = 0; i < v.code.size(); ++i)
        if (v.shared_slot[i] >= 0)
          s += "      const double " + v.name(static_cast<int>(i)) + " = rows[k][" + std::to_string(v.shared_slot[i]) +
               "];\n";
        else if (v.again[i])
          s += "      " + v.statement(static_cast<int>(i));
    for (int c = 0; c < colours; ++c) {
      const std::string k = std::to_string(c);
      s += "      if (load) in[" + k + "] = look(load, in[" + k + "]);\n";
    }
    // A gray pixel's r, g and b are its one colour; a is 1 without alpha.
    const auto value = [&](int c) { return "unit_of(unit, in[" + std::to_string(colours == 1 ? 0 : c) + "])"; };
    const Name colour_name[3] = {Name::r, Name::g, Name::b};
    for (int c = 0; c < 3; ++c)
      if (reads_name(colour_name[c]))
        s += "      const double " + std::string(kNameText[int(colour_name[c])]) + " = " + value(c) + ";\n";
    if (reads_name(Name::a))
      s += "      const double n_a = " +
           (alpha ? "unit_of(unit, in[" + std::to_string(channels - 1) + "])" : std::string("1.0")) + ";\n";
    for (const Values& v : values) s += v.statements(pixel, "      ");
    for (int c = 0; c < colours; ++c) {
      const Values& v = of_channel(c);
      const std::string k = std::to_string(c);
      s += "      {\n";
      if (reads_name(Name::v)) s += "        const double n_v = " + value(c) + ";\n";
      if (reads_name(Name::c)) s += "        const double n_c = " + k + ".0;\n";
      s += v.statements(sample, "        ");
      s += "        int out = xm::store(" + v.name(v.result) + ", " + max + ".0);\n";
      s += "        if (store) out = look(store, out);\n";
      s += "        dst[at + " + k + "] = (" + type + ")out;\n      }\n";
    }
    if (alpha) s += "      dst[at + " + std::to_string(channels - 1) + "] = in[" + std::to_string(channels - 1) + "];\n";
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
  kn.bytes8 = shape.bytes == 1;
  kn.type = kn.bytes8 ? "unsigned char" : "unsigned short";
  kn.max = kn.bytes8 ? "255" : "65535";
  kn.ch = std::to_string(kn.channels);
  kn.rows = std::to_string(kMapRows);
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
  const std::string& rows = kn.rows;

  std::string s = "#include \"expr_math.hpp\"\nusing namespace gpuimg;\n";
  // A fused pass's table, in TableData's layout (kernels/tables.hpp).
  s += "__device__ __forceinline__ int look(const int* t, int v) { return t[0] == 2 ? " + kn.max +
       " - v : t[1 + v]; }\n";
  // A sample as a value: sample / M, looked up at 8 bits (the same
  // division, done once a block rather than once a sample).
  s += kn.bytes8 ? "__device__ __forceinline__ double unit_of(const double* unit, int s) { return unit[s]; }\n"
                 : "__device__ __forceinline__ double unit_of(const double*, int s) { return s / 65535.0; }\n";

  // A thread a column, down groups of kMapRows rows gridDim.y groups apart.
  s += "extern \"C\" __global__ void " + std::string(kMapKernel) + "(const " + kn.type + "* __restrict__ src, " +
       kn.type + "* __restrict__ dst, int width, int height, const int* __restrict__ load, const int* __restrict__ store) {\n";
  if (kn.bytes8) {
    s += "  __shared__ double unit[256];\n";
    s += "  for (int i = threadIdx.x; i < 256; i += blockDim.x) unit[i] = i / 255.0;\n";
  } else {
    s += "  const double* unit = 0;\n";
  }
  if (kn.shared_used > 0) s += "  __shared__ double rows[" + rows + "][" + std::to_string(kn.shared_used) + "];\n";
  s += "  const int x = blockIdx.x * blockDim.x + threadIdx.x;\n";
  s += "  const double n_w = width, n_h = height, n_x = x;\n  (void)n_w; (void)n_h; (void)n_x;\n";
  for (const Values& v : kn.values) s += v.statements(column, "  ");
  s += "  const int groups = (height + " + rows + " - 1) / " + rows + ";\n";
  s += "  for (int group = blockIdx.y; group < groups; group += gridDim.y) {\n";
  s += "    const int y0 = group * " + rows + ";\n";
  // Before the first group: the unit table; before each later one: every
  // thread is done reading the last group's rows.
  s += "    __syncthreads();\n";
  s += kn.row_values();
  s += "    if (x >= width) continue;\n";
  s += "    const int end = height - y0 < " + rows + " ? height - y0 : " + rows + ";\n";
  std::string in_row;
  kn.loads(s, in_row);
  s += "    for (int k = 0; k < end; ++k) {\n";
  s += "      const double n_y = y0 + k;\n      (void)n_y;\n";
  s += "      const long long at = ((long long)(y0 + k) * width + x) * " + kn.ch + ";\n";
  s += "      int in[" + kn.ch + "];\n";
  s += in_row + kn.pixel_body();
  s += "    }\n  }\n}\n";
  return s;
}

}  // namespace gpuimg::expr
