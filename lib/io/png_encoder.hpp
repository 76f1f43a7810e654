#pragma once
// The PNG writer's settings (png_encoder.cpp). gpuimg writes with the
// defaults below; scripts/bench_png.sh times the others.
#include "backends.hpp"

namespace gpuimg {

// PNG's row filters, or a choice per row by libpng's heuristic (the
// smallest sum of the filtered bytes read as signed values).
enum class PngFilter { none, sub, up, average, paeth, adaptive };

// zlib's strategies: run-length (matches of one repeated byte only),
// filtered and default (LZ77 at zlib's level), Huffman coding only.
enum class PngStrategy { rle, filtered, lz77, huffman };

struct PngSettings {
  PngFilter filter = PngFilter::adaptive;
  PngStrategy strategy = PngStrategy::rle;
  int level = 6;  // zlib 0..9; 0 stores uncompressed whatever the strategy
};

Bytes encode_png(const Image& img, const PngSettings& settings);

}  // namespace gpuimg
