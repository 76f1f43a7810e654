#pragma once
// GPUIMG_AVX2_CLONES before a hot CPU loop's function compiles it twice, for
// AVX2 and for the baseline x86-64 (SSE2), and the loader picks one for the
// CPU at hand: twice the lanes in every vector loop, in a binary that still
// runs on any x86-64. Floating-point results do not change: each is one
// IEEE operation either way, and AVX2 brings no fused multiply-add.
//
// GCC only: clang (14) refuses target_clones on function templates, which
// the blur's loops are. GPUIMG_NO_AVX2_CLONES (CMake: GPUIMG_AVX2_CLONES=OFF)
// turns them off for sanitizer builds: the loader runs the clones' resolvers
// before the sanitizer's runtime is up, and GCC's ThreadSanitizer crashes
// there, before main.
#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && !defined(__clang__) && \
    !defined(GPUIMG_NO_AVX2_CLONES)
#define GPUIMG_AVX2_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define GPUIMG_AVX2_CLONES
#endif
