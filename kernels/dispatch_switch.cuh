#pragma once
// The switch on a stage record's op id that every stencil kernel runs: the
// id is the same for the whole grid, so the switch never diverges.
#include <cstdint>

#include "registry.hpp"

namespace gpuimg {

template <class Op, class View, class T>
__device__ __forceinline__ void apply_op(const View& view, int x, int y, const OpRecord& rec, T* out) {
  if constexpr (Op::kind == Kind::stencil)
    Op::apply(view, x, y, rec.get<Op>(), out);
  else
    __trap();  // the host never sends a custom op here
}

// Runs record `rec` on one pixel, whichever op it holds.
template <class View, class T>
__device__ __forceinline__ void dispatch(const View& view, int x, int y, const OpRecord& rec, T* out) {
  switch (rec.id) {
#define GPUIMG_DISPATCH_CASE(Op)           \
  case OpId::Op:                           \
    apply_op<Op>(view, x, y, rec, out);    \
    break;
    GPUIMG_OPS(GPUIMG_DISPATCH_CASE)
#undef GPUIMG_DISPATCH_CASE
    default:
      __trap();
  }
}

template <class Op> __host__ __device__ __forceinline__ bool op_packs_bytes(const OpRecord& rec) {
  if constexpr (has_byte_words<Op>)
    return Op::packs_bytes(rec.get<Op>());
  else
    return false;
}

// Whether record `rec`'s op works on four 8-bit samples at once with its
// parameters (see ByteWords in op_spec.hpp).
__host__ __device__ __forceinline__ bool packs_bytes(const OpRecord& rec) {
  switch (rec.id) {
#define GPUIMG_PACKS_CASE(Op) \
  case OpId::Op:              \
    return op_packs_bytes<Op>(rec);
    GPUIMG_OPS(GPUIMG_PACKS_CASE)
#undef GPUIMG_PACKS_CASE
  }
  return false;
}

template <class Op, class Words>
__device__ __forceinline__ std::uint32_t op_apply_bytes(const Words& in, const OpRecord& rec,
                                                        const std::uint32_t* table) {
  if constexpr (has_byte_words<Op>) {
    return Op::apply_bytes(in, rec.get<Op>(), table);
  } else {
    __trap();  // only called where packs_bytes holds
    return 0;
  }
}

// Runs record `rec` on four 8-bit samples, where packs_bytes(rec) holds,
// with its word table where it uses one (see ByteWords in op_spec.hpp).
template <class Words>
__device__ __forceinline__ std::uint32_t dispatch_bytes(const Words& in, const OpRecord& rec,
                                                        const std::uint32_t* table) {
  switch (rec.id) {
#define GPUIMG_BYTES_CASE(Op) \
  case OpId::Op:              \
    return op_apply_bytes<Op>(in, rec, table);
    GPUIMG_OPS(GPUIMG_BYTES_CASE)
#undef GPUIMG_BYTES_CASE
  }
  __trap();
  return 0;
}

}  // namespace gpuimg
