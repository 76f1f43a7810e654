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

// `ancillary`: chunks, complete, to follow IHDR (before IDAT, where iCCP must be).
Bytes encode_png(const Image& img, const PngSettings& settings, const Bytes& ancillary = {});

// Appends chunks of `type` holding data[0, n): one, or several where n
// passes what a chunk can hold (any cut of IDAT data is valid).
void put_png_chunks(Bytes& out, const char* type, const std::uint8_t* data, std::size_t n);

}  // namespace gpuimg
