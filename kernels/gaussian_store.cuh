#pragma once
// The last step of --gaussian's GPU paths, given the rounded blur g of the
// sample at row y, index j of the row's samples: the blur itself, or
// --unsharp's v + A(v - g). Both paths (gaussian.cu's two passes and
// gaussian_fused.cu's one) end in one of these. The blur's one pass may
// also look g up in its fused pass's store table (PassTables, tables.hpp).
#include <cuda_runtime.h>

#include "cuda_launch.hpp"

namespace gpuimg {

template <class T> struct StoreBlur {
  T* dst;
  long long row_len;
  const std::int32_t* table;  // the store table's entries, or null
  int channels;
  __device__ void operator()(int y, long long j, int g) const {
    if (table && !is_alpha(static_cast<int>(j % channels), channels)) g = __ldg(table + g);
    dst[y * row_len + j] = static_cast<T>(g);
  }
};

template <class T> struct StoreUnsharp {
  const T* src;
  T* dst;
  long long row_len;
  int channels;
  Unsharp::Params p;
  __device__ void operator()(int y, long long j, int g) const {
    const long long at = y * row_len + j;
    const int v = src[at];
    dst[at] = is_alpha(static_cast<int>(j % channels), channels) ? static_cast<T>(v) : Unsharp::sharpened<T>(v, g, p);
  }
};

// gaussian_fused.cu's one pass, for the radii gaussian_one_pass() takes.
template <class T, class Store> cudaError_t launch_fused_gaussian(const CudaStage& s, int r, const Store& store);

}  // namespace gpuimg
