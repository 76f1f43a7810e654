#pragma once
// Runs a program over a chunk of pixels at once: each register is an array
// of kChunk values and each instruction one loop over the chunk, which the
// compiler vectorises for the arithmetic; never a tree walk per pixel.
#include <cstdint>
#include <vector>

#include "expr/program.hpp"
#include "shape.hpp"

namespace gpuimg::expr {

class RowEvaluator {
 public:
  // 256 doubles a register: 2 KiB, so a program's registers stay in L1/L2.
  static constexpr int kChunk = 256;

  explicit RowEvaluator(const Program& program);

  // names[int(Name)]: n values each (n <= kChunk), for the names the program
  // reads (the others may be null). The result's n values, valid until the
  // next run.
  const double* run(const double* const names[kNames], int n);

 private:
  Program program_;
  std::vector<double> own_;          // the registers' arrays
  std::vector<const double*> reg_;   // where each register's values are now
  std::vector<double> constants_;    // each constant instruction's k, a chunk of it
  std::vector<int> constant_at_;     // per instruction: its chunk in constants_, or -1
};

// Replaces each of n values (samples of largest value m) by the program's
// result for v = value / m, stored as xm::store(result, m): a --map table.
// The same bits as expr::evaluate an entry, in chunks and, for a 16-bit
// table, parallel bands.
void map_values(const Program& program, std::int32_t* values, int n, std::int32_t m);

// Maps an interleaved image (uint8 or uint16 samples, shape.bytes; 1 to 4
// channels, alpha the last of 2 and 4, copied as it is): one program for
// every colour channel, or programs[i] for colour channel i. Samples are
// read as v = sample / M and stored as xm::store(result, M), M = 255 or
// 65535. threads: as parallel_bands's (0: all cores). Throws
// std::invalid_argument when the programs fit neither way.
void map_image(const std::vector<Program>& programs, const void* src, void* dst, const Shape& shape, int threads);

}  // namespace gpuimg::expr
