#pragma once
// The CUDA source of --map's GPU kernel for one expression and one image
// layout, which NVRTC compiles at run time (lib/map_cuda.cpp). Each
// instruction becomes a call of its xm:: function (kernels/expr_math.hpp,
// handed to NVRTC as a header), so the GPU computes what the CPU's row
// evaluator does, operation for operation.
//
// The kernel, named kMapKernel:
//   extern "C" __global__ void gpuimg_map(const T* src, T* dst, int width, int height,
//                                         const int* load, const int* store)
// T the sample type; a thread takes a column down groups of kMapRows rows,
// from group blockIdx.y, gridDim.y groups apart (launch with a grid of
// width / threads by up to the height / kMapRows); what an expression
// computes from the column alone is computed once a thread, from the row
// alone once a row of the block; `load` and `store`: a fused pass's tables
// (PassTables, kernels/tables.hpp) or null.
#include <string>
#include <vector>

#include "expr/program.hpp"
#include "shape.hpp"

namespace gpuimg::expr {

constexpr const char* kMapKernel = "gpuimg_map";
constexpr int kMapRows = 16;

// programs: one for every colour channel, or one a colour channel.
std::string map_kernel_source(const std::vector<Program>& programs, const Shape& shape);

}  // namespace gpuimg::expr
