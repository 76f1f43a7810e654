#pragma once
// The CUDA source of --map's GPU kernel for one expression and one image
// layout, which NVRTC compiles at run time (lib/map_cuda.cpp). Each
// instruction becomes a call of its xm:: function (kernels/expr_math.hpp,
// handed to NVRTC as a header), so the GPU computes what the CPU's row
// evaluator does, operation for operation.
//
// The kernel, named kMapKernel:
//   extern "C" __global__ void gpuimg_map(const T* src, T* dst, int width, int height, int group_rows,
//                                         const int* load, const int* store)
// T the sample type; a thread takes kMapPixels columns down groups of
// group_rows rows (1 to kMapRows), from group blockIdx.y, gridDim.y groups
// apart (launch with at least kMapRows threads a block, a grid of width /
// (threads * kMapPixels) by up to the height / group_rows); what an
// expression computes from the column alone is computed once a thread for
// each of its columns, from the row alone once a row of the block; `load`
// and `store`: a fused pass's tables (PassTables, kernels/tables.hpp) or
// null.
#include <string>
#include <vector>

#include "expr/program.hpp"
#include "shape.hpp"

namespace gpuimg::expr {

constexpr const char* kMapKernel = "gpuimg_map";
constexpr int kMapRows = 16;
// Four pixels are whole 32-bit words at every layout (12 bytes at RGB 8-bit).
constexpr int kMapPixels = 4;

// programs: one for every colour channel, or one a colour channel.
std::string map_kernel_source(const std::vector<Program>& programs, const Shape& shape);

}  // namespace gpuimg::expr
