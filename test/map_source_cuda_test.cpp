// --map's generated CUDA source compiles with NVRTC, without a GPU, for
// every layout and the matrix's expressions: a bug in the generator shows
// on every CUDA build, CI's included, not only on the GPU machine.
#include <gtest/gtest.h>

#include "expr/compile.hpp"
#include "expr/cuda_source.hpp"
#include "expr/map_headers.hpp"
#include "op_cases.hpp"
#include "runtime_kernels.hpp"

namespace gpuimg::test {
namespace {

bool is_elf(const std::vector<char>& bytes) {
  return bytes.size() > 4 && bytes[0] == 0x7f && bytes[1] == 'E' && bytes[2] == 'L' && bytes[3] == 'F';
}

void expect_compiles(const std::string& text, const Shape& shape) {
  SCOPED_TRACE(text + " at " + std::to_string(shape.channels) + "x" + std::to_string(8 * shape.bytes));
  const std::string source = expr::map_kernel_source(expr::compile_map(text), shape);
  EXPECT_TRUE(is_elf(compile_cubin(source, expr::map_kernel_headers(), compile_options(90))));
}

TEST(MapSource, CompilesForEveryLayout) {
  for (int bytes : {1, 2})
    for (int channels = 1; channels <= 4; ++channels)
      expect_compiles(channels >= 3 ? "x/w;y/h*a;v*exp(-hypot(x-w/2,y-h/2)/w)" : "mix(v,x/w,a)*r", Shape{9, 9, channels, bytes});
}

// Every function and operator of the language, so that each xm:: call the
// generator may emit is known to NVRTC.
TEST(MapSource, CompilesWithEveryFunction) {
  expect_compiles("min(v,r,g)+max(v,r,g,b)+clamp(v,0,1)+abs(v)+sign(v)+floor(v)+ceil(v)+round(v)+trunc(v)+sqrt(v)"
                  "+exp(v)+log(v)+log2(v)+log10(v)+pow(v,r)+sin(v)+cos(v)+tan(v)+asin(v)+acos(v)+atan(v)"
                  "+sinh(v)+cosh(v)+tanh(v)+asinh(v)+acosh(v)+atanh(v)+log1p(v)+expm1(v)+cbrt(v)+exp2(v)"
                  "+atan2(v,r)+hypot(v,r)+mix(v,r,g)+step(v,r)+smoothstep(v,r,g)+v%r+v^r-v*r/g+(v<r)+(v<=r)+(v>r)"
                  "+(v>=r)+(v==r)+(v!=r)+(v&&r)+(v||r)+!v+(v?r:g)",
                  Shape{9, 9, 3, 2});
}

TEST(MapSource, CompilesForEveryExpressionOfTheMatrix) {
  for (const std::string& text : map_test_expressions()) expect_compiles(text, Shape{9, 9, 3, 1});
}

// Values of the row alone go through shared memory, 16 rows of 8 bytes a
// value, within a kernel's 48 KB: past 256 of them the kernel computes them
// once a pixel; each y of the text is a value of its own, needing no room.
TEST(MapSource, CompilesPastTheRoomOfTheSharedRows) {
  std::string many_row_values = "v", many_ys = "v";
  for (int k = 0; k < 300; ++k) many_row_values += "+x*(y*" + std::to_string(k) + ")";
  for (int k = 0; k < 400; ++k) many_ys += "+y";
  for (int bytes : {1, 2}) {
    expect_compiles(many_row_values, Shape{9, 9, 3, bytes});
    expect_compiles(many_ys, Shape{9, 9, 1, bytes});
  }
  const std::string source = expr::map_kernel_source(expr::compile_map(many_row_values), Shape{9, 9, 3, 1});
  EXPECT_EQ(source.find("rows["), std::string::npos) << "300 row values in the shared rows";
  EXPECT_EQ(expr::map_kernel_source(expr::compile_map(many_ys), Shape{9, 9, 1, 1}).find("rows["), std::string::npos);
}

}  // namespace
}  // namespace gpuimg::test
