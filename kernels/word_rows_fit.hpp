#pragma once
// Which images the word rows skeleton (word_rows.cuh) takes, by shape
// alone: what its launch paths check, and what the planner asks where a
// stage's paths differ in what they take (ops/gaussian.hpp).
#include "shape.hpp"

namespace gpuimg::word_rows {

// Rows of whole words, pixels of at most a word, and fewer than 2^31 words.
inline bool fits(const Shape& in) {
  const long long row_bytes = 1LL * in.width * in.channels * in.bytes;
  return in.channels * in.bytes <= 4 && row_bytes % 4 == 0 && row_bytes / 4 * in.height < (1LL << 31);
}

}  // namespace gpuimg::word_rows
