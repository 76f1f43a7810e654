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

std::string reg(int i) { return "t" + std::to_string(i); }

// __device__ double fN(the names): the program, one statement an instruction.
std::string function_text(const Program& p, int index) {
  std::string s = "__device__ __forceinline__ double f" + std::to_string(index) +
                  "(double n_v, double n_r, double n_g, double n_b, double n_a, double n_c, double n_x, double n_y, "
                  "double n_w, double n_h) {\n";
  for (int i = 0; i < p.registers; ++i) s += "  double " + reg(i) + " = 0;\n";
  for (const Instr& in : p.code) {
    s += "  " + reg(in.dst) + " = ";
    switch (in.code) {
      case Code::constant: s += constant_text(in.k); break;
      case Code::name: s += kNameText[in.a]; break;
      default: {
        s += std::string("xm::") + code_name(in.code) + "(" + reg(in.a);
        if (arity(in.code) > 1) s += ", " + reg(in.b);
        if (arity(in.code) > 2) s += ", " + reg(in.c);
        s += ")";
      }
    }
    s += ";\n";
  }
  // Names a program does not read leave their parameters unused.
  s += "  (void)n_v; (void)n_r; (void)n_g; (void)n_b; (void)n_a; (void)n_c; (void)n_x; (void)n_y; (void)n_w; "
       "(void)n_h;\n";
  return s + "  return " + reg(p.result) + ";\n}\n";
}

}  // namespace

std::string map_kernel_source(const std::vector<Program>& programs, const Shape& shape) {
  const int channels = shape.channels;
  const bool alpha = channels == 2 || channels == 4;
  const int colours = alpha ? channels - 1 : channels;
  if (programs.empty() || (programs.size() > 1 && programs.size() != static_cast<std::size_t>(colours)))
    throw std::logic_error("map_kernel_source: programs do not match the colour channels");
  const bool bytes8 = shape.bytes == 1;
  const std::string type = bytes8 ? "unsigned char" : "unsigned short";
  const std::string max = bytes8 ? "255" : "65535";
  const std::string ch = std::to_string(channels);

  std::string s = "#include \"expr_math.hpp\"\nusing namespace gpuimg;\n";
  for (std::size_t i = 0; i < programs.size(); ++i) s += function_text(programs[i], static_cast<int>(i));
  // A fused pass's table, in TableData's layout (kernels/tables.hpp).
  s += "__device__ __forceinline__ int look(const int* t, int v) { return t[0] == 2 ? " + max +
       " - v : t[1 + v]; }\n";
  // A sample as a value: sample / M, looked up at 8 bits (the same
  // division, done once a block rather than once a sample).
  s += bytes8 ? "__device__ __forceinline__ double unit_of(const double* unit, int s) { return unit[s]; }\n"
              : "__device__ __forceinline__ double unit_of(const double*, int s) { return s / 65535.0; }\n";
  s += "__device__ __forceinline__ void pixel(const " + type + "* __restrict__ src, " + type +
       "* __restrict__ dst, long long at, double x, double y, double w, double h, const int* load, const int* "
       "store, const double* unit) {\n";
  s += "  int in[" + ch + "];\n";
  for (int c = 0; c < channels; ++c) {
    const std::string k = std::to_string(c);
    s += "  in[" + k + "] = src[at + " + k + "];\n";
    if (c < colours) s += "  if (load) in[" + k + "] = look(load, in[" + k + "]);\n";
  }
  // A gray pixel's r, g and b are its one colour; a is 1 without alpha.
  const auto value = [&](int c) { return "unit_of(unit, in[" + std::to_string(colours == 1 ? 0 : c) + "])"; };
  s += "  const double r = " + value(0) + ", g = " + value(1) + ", b = " + value(2) + ";\n";
  s += "  const double a = " + (alpha ? "unit_of(unit, in[" + std::to_string(channels - 1) + "])" : std::string("1.0")) +
       ";\n";
  const std::string colour_value[3] = {"r", "g", "b"};
  for (int c = 0; c < colours; ++c) {
    const std::string f = "f" + std::to_string(programs.size() > 1 ? c : 0);
    const std::string k = std::to_string(c);
    s += "  {\n    int out = xm::store(" + f + "(" + colour_value[c] + ", r, g, b, a, " + k + ".0, x, y, w, h), " +
         max + ".0);\n";
    s += "    if (store) out = look(store, out);\n";
    s += "    dst[at + " + k + "] = (" + type + ")out;\n  }\n";
  }
  if (alpha) s += "  dst[at + " + std::to_string(channels - 1) + "] = src[at + " + std::to_string(channels - 1) + "];\n";
  s += "}\n";

  // A thread a column, down rows gridDim.y apart.
  s += "extern \"C\" __global__ void " + std::string(kMapKernel) + "(const " + type + "* __restrict__ src, " + type +
       "* __restrict__ dst, int width, int height, const int* __restrict__ load, const int* __restrict__ store) {\n";
  if (bytes8) {
    s += "  __shared__ double unit[256];\n";
    s += "  for (int i = threadIdx.x; i < 256; i += blockDim.x) unit[i] = i / 255.0;\n  __syncthreads();\n";
  } else {
    s += "  const double* unit = 0;\n";
  }
  s += "  const int x = blockIdx.x * blockDim.x + threadIdx.x;\n  if (x >= width) return;\n";
  s += "  const double w = width, h = height, fx = x;\n";
  s += "  for (int y = blockIdx.y; y < height; y += gridDim.y)\n";
  s += "    pixel(src, dst, ((long long)y * width + x) * " + ch + ", fx, y, w, h, load, store, unit);\n}\n";
  return s;
}

}  // namespace gpuimg::expr
