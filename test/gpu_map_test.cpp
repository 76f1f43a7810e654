// --map on the GPU: the kernel NVRTC makes from each expression gives the
// CPU's bytes for every function and operator, at both depths and every
// channel count, on awkward sizes, with tables fused around it; the kernel
// is compiled once and then comes from the disk cache; a missing NVRTC is
// exit 3 naming the library. Skips without a usable GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "backend.hpp"
#include "gpu.hpp"
#include "image_compare.hpp"
#include "random_image.hpp"
#include "run_binary.hpp"
#include "table_chains.hpp"

namespace gpuimg::test {
namespace {

// Each function and operator at arguments that reach its edges: large and
// negative ones, poles, NaN (log of a negative, 0/0) and infinities.
const std::vector<std::string>& every_function() {
  static const std::vector<std::string> texts = {
      "exp(v*40-20)/1e6",
      "log(v*2-0.5)*0.2+0.5",
      "pow(v, x/w*4)",
      "v^(y-h/2)",
      "sin(x*37.1+y*1e3)*0.5+0.5",
      "cos(v*1e5)*0.5+0.5",
      "tan(v*pi-pi/2)",
      "atan2(x-w/2,y-h/2)/pi/2+0.5",
      "hypot(x-w/2,(y-h/2)*v*1e300)/w",
      "sqrt(v-0.25)",
      "floor(v*7)/7+ceil(r*3)/9-round(g*5)/20",
      "abs(r-b)*2",
      "min(r,max(g,b))",
      "clamp(v*3-1,0.2,0.8)",
      "mix(r,g,b)",
      "step(0.5,v)*0.7+0.1",
      "smoothstep(0.2,0.8,v+(x-w/2)/w)",
      "(r>g && g>b) || a<0.5 ? 1-v : !(v==r) * 0.5 + (v!=g) * 0.25 + (v<=b) * 0.125 + (v>=0.5)/16",
      "0/0 + v",
      "1/(v-0.5)",
      "-v^2+c/4+1",
      "log2(v*3-0.5)/4+0.5",
      "log10(hypot(x,y)*v+1e-300)/3",
      "asin(v*2.2-1.1)/pi+0.5",
      "acos(v*2-1)/pi",
      "atan((v-0.5)*(x+1)*1e3)/pi+0.5",
      // Past sinh's and cosh's overflow (710.48), tanh's 1 from 20 and its
      // tiny arguments, asinh past 2^28, acosh below 1 (NaN), atanh at +-1.
      "sinh((v-0.5)*1430)*1e-300+0.5",
      "cosh((v-0.5)*1430)*1e-300+cosh(x/w*3)/20",
      "tanh((v-0.5)*(x+1e-9)*3)*0.5+0.5",
      "asinh((v-0.5)*1e300)/1500+asinh((v-0.5)*1e-8)*1e7+0.5",
      "acosh(v*4+0.5)/3",
      "atanh(v*2.2-1.1)/4+0.5",
      // log1p and expm1 near 0, where their plain forms cancel; expm1 to overflow.
      "log1p((v-0.5)*1e-12)*1e11+log1p(v*3-1.5)/4+0.5",
      "expm1((v-0.5)*1e-12)*1e11+expm1(v*800-40)/1e300+0.5",
      "cbrt((v-0.5)*1e-300)*1e100+cbrt(x-w/2)/w+0.5",
      "exp2(v*2200-1100)/1e300+exp2(x-y)/8",
      // Results whose m r + 0.5 passes 2^31 and 2^52 on either side.
      "(v-0.5)*(x+1)*1e7",
      "(v-0.5)*(y+1)*1e17",
      "(x*7.3 % (v*5-2.5))*0.2+0.5",
      "sign(v-0.5)*0.25+trunc(x/w*7-3.5)/14+0.5",
      "min(r,g,b,x/w)+max(v,0/0,y/h)/2",
      "x/w;y/h;v",
      // Values of the row alone, of the column alone, and the result one of them.
      "y/h",
      "x/w",
      "sin(y*0.37)*cos(x*0.11)*0.5+v*0.5",
      "(y/h>0.5 ? r : g)*exp(-x/w)",
  };
  return texts;
}

// Each expression at every depth and channel count, at sizes whose rows are
// whole words (1030 at 16 bits and RGBA, 260 at every layout), every other
// row (1030 at 8 bits), one row in four (131 RGB), and rows that end inside
// a thread's four pixels.
void expect_cpu_bytes_at_awkward_sizes(const std::vector<std::string>& texts, std::uint32_t seed) {
  for (const std::string& text : texts)
    for (Depth d : {Depth::U8, Depth::U16})
      for (int channels = 1; channels <= 4; ++channels)
        for (auto [w, h] : {std::pair{1, 1}, {37, 1}, {1, 41}, {131, 67}, {1030, 3}, {260, 3}}) {
          if (text.find(';') != std::string::npos && channels < 3) continue;  // one expression a colour channel
          SCOPED_TRACE("--map " + text + " on " + std::to_string(w) + "x" + std::to_string(h) + "x" +
                       std::to_string(channels) + (d == Depth::U8 ? " 8-bit" : " 16-bit"));
          const Pipeline p = {parse_stage("map", {text})};
          Image cpu = random_image(w, h, channels, d, seed++), gpu = cpu;
          run_cpu(cpu, p);
          run_cuda(gpu, p);
          EXPECT_TRUE(same_samples(cpu, gpu));
        }
}

TEST(GpuMap, EveryFunctionGivesTheCpuBytes) {
  GPUIMG_REQUIRE_GPU();
  expect_cpu_bytes_at_awkward_sizes(every_function(), 1);
}

// One expression of each shape the generated kernel takes (values of the
// pixel alone, of its row, of its column, both, one expression a channel):
// what the sanitizers run (scripts/gpu_suite.sh), where the functions'
// arithmetic, the same memory accesses, took minutes.
TEST(GpuMap, EveryKernelShapeGivesTheCpuBytes) {
  GPUIMG_REQUIRE_GPU();
  expect_cpu_bytes_at_awkward_sizes({"v*0.5+0.25", "y/h", "x/w", "sin(y*0.37)*cos(x*0.11)*0.5+v*0.5",
                                     "(y/h>0.5 ? r : g)*exp(-x/w)", "x/w;y/h;v"},
                                    9000);
}

// Large images take groups of 16 rows a block (2048x4300 on a GPU of up to
// 134 SMs) or fewer (1500x2000: 4 on 132): words down a group, in rows that
// are whole words (RGB, gray 16-bit) and rows that are not (1501 gray).
TEST(GpuMap, LargeImagesInGroupsOfRowsGiveTheCpuBytes) {
  GPUIMG_REQUIRE_GPU();
  std::uint32_t seed = 500;
  for (const char* text : {"v*(1-0.8*((x/w-0.5)*(x/w-0.5)+(y/h-0.5)*(y/h-0.5)))", "sin(y*0.37)*cos(x*0.11)*0.5+v*0.5"})
    for (auto [w, h, channels, d] : {std::tuple{2048, 4300, 3, Depth::U8}, {1500, 2000, 1, Depth::U16},
                                     {1501, 2000, 1, Depth::U8}, {1500, 2000, 4, Depth::U8}}) {
      SCOPED_TRACE(std::string("--map ") + text + " on " + std::to_string(w) + "x" + std::to_string(h) + "x" +
                   std::to_string(channels));
      const Pipeline p = {parse_stage("map", {text})};
      Image cpu = random_image(w, h, channels, d, seed++), gpu = cpu;
      run_cpu(cpu, p);
      run_cuda(gpu, p);
      EXPECT_TRUE(same_samples(cpu, gpu));
    }
}

// A grid holds 65535 groups of rows: a taller image takes its threads down
// several groups, each with the row values of its own rows.
TEST(GpuMap, ImagesTallerThanTheGridGiveTheCpuBytes) {
  GPUIMG_REQUIRE_GPU();
  const Pipeline p = {parse_stage("map", {"v*0.5+sin(y*0.001)*0.25+x/w*0.25"})};
  Image cpu = random_image(3, 1100000, 1, Depth::U8, 7), gpu = cpu;
  run_cpu(cpu, p);
  run_cuda(gpu, p);
  EXPECT_TRUE(same_samples(cpu, gpu));
}

// Past the shared rows' room, row values are computed once a pixel.
TEST(GpuMap, ExpressionsOfMoreRowValuesThanTheSharedRowsHoldGiveTheCpuBytes) {
  GPUIMG_REQUIRE_GPU();
  std::string text = "v*0.5";
  for (int k = 0; k < 270; ++k) text += "+x*(y*" + std::to_string(k % 7) + ")*1e-7";
  for (Depth d : {Depth::U8, Depth::U16}) {
    const Pipeline p = {parse_stage("map", {text})};
    Image cpu = random_image(131, 37, 3, d, 9), gpu = cpu;
    run_cpu(cpu, p);
    run_cuda(gpu, p);
    EXPECT_TRUE(same_samples(cpu, gpu));
  }
}

// The tables beside an expression run in its kernel at 8 bits.
TEST(GpuMap, TablesInTheMapsPassGiveTheStagesBytes) {
  GPUIMG_REQUIRE_GPU();
  const std::vector<std::vector<std::vector<std::string>>> chains = {
      {{"levels", "5%,95%"}, {"gamma", "1.8"}, {"map", "v*(1-0.6*hypot(x/w-0.5,y/h-0.5))"}, {"invert"}},
      {{"invert"}, {"map", "r*0.3+g*0.6+b*0.1"}},
      {{"map", "1-v*x/w"}, {"threshold", "50%"}},
      {{"invert"}, {"map", "v"}, {"blur", "2"}, {"map", "c/3*a"}, {"gamma", "0.7"}},
      // Tables that fold: a range reader after one has a pass of its own.
      {{"map", "4*v*(1-v)"}, {"normalize"}, {"invert"}},
      // Tables per channel: a lookup pass of their own.
      {{"map", "v;1-v;v*v"}, {"blur", "1"}, {"map", "x/w"}},
  };
  for (const auto& chain : chains)
    for (Depth d : {Depth::U8, Depth::U16})
      for (int channels = 1; channels <= 4; ++channels) {
        const bool per_channel = std::any_of(chain.begin(), chain.end(), [](const std::vector<std::string>& words) {
          return words.size() > 1 && words[1].find(';') != std::string::npos;
        });
        if (per_channel && channels < 3) continue;  // one expression a colour channel
        const Pipeline p = stages(chain);
        SCOPED_TRACE(describe(p.front()) + "... " + std::to_string(channels) + " channels");
        Image cpu = random_image(1030, 29, channels, d, 40 + channels), gpu = cpu;
        run_cpu(cpu, p);
        run_cuda(gpu, p);
        EXPECT_TRUE(same_samples(cpu, gpu));
      }
}

// The first run compiles, the second finds the kernel in the cache; -v
// says which, with the source's hash; both give the CPU's bytes.
TEST(GpuMapCli, KernelsAreCachedOnDisk) {
  GPUIMG_REQUIRE_GPU();
  TempDir tmp;
  const std::string in = (data_dir() / "scene.png").string();
  const std::vector<std::string> env = {"XDG_CACHE_HOME=" + tmp.file("cache")};
  const auto run = [&](const std::string& out, const std::string& device) {
    return run_binary({in, "-v", "--device", device, "--map", "v*(0.5+0.5*sin(x/9)*cos(y/7))", tmp.file(out)},
                      {{}, 0, env});
  };
  const RunResult first = run("first.png", "cuda"), second = run("second.png", "cuda");
  ASSERT_EQ(first.status, 0) << first.err;
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_NE(first.err.find(": kernel "), std::string::npos) << first.err;
  EXPECT_NE(first.err.find(", compiled in "), std::string::npos) << first.err;
  EXPECT_NE(second.err.find(", from the cache in "), std::string::npos) << second.err;
  EXPECT_TRUE(fs::is_directory(tmp / "cache" / "gpuimg"));
  ASSERT_EQ(run("cpu.png", "cpu").status, 0);
  EXPECT_TRUE(same_samples(read_image(tmp.file("cpu.png")), read_image(tmp.file("first.png"))));
  EXPECT_TRUE(same_samples(read_image(tmp.file("cpu.png")), read_image(tmp.file("second.png"))));
}

TEST(GpuMapCli, WithoutNvrtcIsExitThreeNamingTheLibrary) {
  GPUIMG_REQUIRE_GPU();
  TempDir tmp;
  const RunResult r = run_binary({(data_dir() / "scene.png").string(), "--device", "cuda", "--map", "x/w",
                                  tmp.file("out.png")},
                                 {{}, 0, {"GPUIMG_NVRTC=libnvrtc-missing.so", "XDG_CACHE_HOME=" + tmp.file("cache")}});
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_NE(r.err.find("libnvrtc-missing.so"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--device cpu"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(fs::exists(tmp / "out.png"));
}

}  // namespace
}  // namespace gpuimg::test
