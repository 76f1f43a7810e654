#pragma once
// Integer matrix products on bytes (mma m16n8k32, compute capability 8.0
// and later), for the kernels that make sums of byte products on the
// tensor cores: resample_tiles_mma.cu, convolve_mma.cu.
//
// In a warp, lane l is thread t = l % 4 of group g = l / 4. A, 16x32, row
// major: a[0] holds A[g][4t + i] (byte i), a[1] A[g + 8][4t + i], a[2]
// A[g][16 + 4t + i], a[3] A[g + 8][16 + 4t + i]. B, 32x8, by columns: b0
// holds B[4t + i][g], b1 B[16 + 4t + i][g]. D and C, 16x8 ints: [0] and
// [1] at row g, columns 2t and 2t + 1; [2] and [3] the same at row g + 8.
#include <cstdint>

#include <cuda_runtime.h>

namespace gpuimg {

// D = A B + C, each of A and B unsigned or signed bytes.
template <bool SignedA, bool SignedB>
__device__ __forceinline__ void mma_bytes(int (&d)[4], const std::uint32_t (&a)[4], std::uint32_t b0,
                                          std::uint32_t b1, const int (&c)[4]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  __trap();  // never launched: compiled_for_byte_mma
#else
#define GPUIMG_MMA_BYTES(A, B)                                                                                        \
  asm("mma.sync.aligned.m16n8k32.row.col.s32." A "." B ".s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};" \
      : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])                                                                 \
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]))
  if constexpr (SignedA && SignedB)
    GPUIMG_MMA_BYTES("s8", "s8");
  else if constexpr (SignedA)
    GPUIMG_MMA_BYTES("s8", "u8");
  else if constexpr (SignedB)
    GPUIMG_MMA_BYTES("u8", "s8");
  else
    GPUIMG_MMA_BYTES("u8", "u8");
#undef GPUIMG_MMA_BYTES
#endif
}

// Whether `kernel`, as loaded, was compiled for compute capability 8.0 or
// later, which a build for older GPUs only (their code trapping) run on a
// newer one would not be. A GPU older than the build cannot load it at
// all: that is no error, just no.
template <class Kernel> cudaError_t compiled_for_byte_mma(Kernel kernel, bool& has) {
  cudaFuncAttributes a{};
  const cudaError_t e = cudaFuncGetAttributes(&a, kernel);
  has = e == cudaSuccess && a.ptxVersion >= 80;
  return e == cudaErrorInvalidDeviceFunction || e == cudaErrorNoKernelImageForDevice ? cudaSuccess : e;
}

}  // namespace gpuimg
