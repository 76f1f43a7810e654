// Times gpuimg's PNG writer (lib/io/png_encoder.cpp) under several filter
// and zlib settings on each image given, and prints one table row per
// setting: median encode time of the runs, and the file's size. Every core
// (the writer's own parallelism). Usage: gpuimg_png_bench RUNS IMAGE...
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "codec.hpp"
#include "png_encoder.hpp"

namespace {

using namespace gpuimg;

const char* filter_name(PngFilter f) {
  static const char* names[] = {"none", "sub", "up", "average", "paeth", "adaptive"};
  return names[static_cast<int>(f)];
}

const char* strategy_name(PngStrategy s) {
  static const char* names[] = {"run-length", "filtered", "default (LZ77)", "Huffman only"};
  return names[static_cast<int>(s)];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: gpuimg_png_bench RUNS IMAGE...\n");
    return 2;
  }
  const int runs = std::max(1, std::atoi(argv[1]));
  const std::vector<PngSettings> settings = {
      {PngFilter::none, PngStrategy::rle, 6},     {PngFilter::sub, PngStrategy::rle, 6},
      {PngFilter::up, PngStrategy::rle, 6},       {PngFilter::paeth, PngStrategy::rle, 6},
      {PngFilter::adaptive, PngStrategy::rle, 6}, {PngFilter::adaptive, PngStrategy::huffman, 6},
      {PngFilter::sub, PngStrategy::lz77, 1},     {PngFilter::adaptive, PngStrategy::lz77, 1},
      {PngFilter::adaptive, PngStrategy::lz77, 3}, {PngFilter::adaptive, PngStrategy::filtered, 6},
      {PngFilter::adaptive, PngStrategy::lz77, 6}, {PngFilter::adaptive, PngStrategy::lz77, 9},
      {PngFilter::none, PngStrategy::lz77, 0}};
  std::printf("| image | filter | zlib strategy | level | encode ms | size MB |\n|---|---|---|---|---|---|\n");
  for (int i = 2; i < argc; ++i) {
    const Image img = read_image(argv[i]);
    std::string name = argv[i];
    name = name.substr(name.find_last_of('/') + 1);
    for (const PngSettings& s : settings) {
      std::vector<double> ms;
      std::size_t size = 0;
      for (int r = 0; r < runs; ++r) {
        const auto start = std::chrono::steady_clock::now();
        size = encode_png(img, s).size();
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
      }
      std::sort(ms.begin(), ms.end());
      const bool level_matters = s.strategy == PngStrategy::lz77 || s.strategy == PngStrategy::filtered || s.level == 0;
      std::printf("| %s | %s | %s | %s | %.0f | %.2f |\n", name.c_str(), filter_name(s.filter),
                  s.level == 0 ? "stored" : strategy_name(s.strategy),
                  level_matters ? std::to_string(s.level).c_str() : "—", ms[ms.size() / 2], size / 1e6);
    }
  }
  return 0;
}
