#pragma once
// The dispatch on a stage record's op id that the point and stencil
// kernels run, each over the ops of its own kind alone (OpsOfKind): the id
// is the same for the whole grid, so it never diverges, and an op of
// another kind adds no code or registers to the kernel.
#include <cstdint>

#include "registry.hpp"

namespace gpuimg {

// Runs record `rec`, an op of kind K, on one pixel.
template <Kind K, class View, class T>
__device__ __forceinline__ void dispatch(const View& view, int x, int y, const OpRecord& rec, T* out) {
  const bool found = visit_op_in(OpsOfKind<K>{}, rec.id, [&](auto tag) {
    using Op = typename decltype(tag)::type;
    Op::apply(view, x, y, rec.get<Op>(), out);
  });
  if (!found) __trap();  // the host sends each kind to its own kernel
}

// Whether record `rec`'s op works on four 8-bit samples at once with its
// parameters (see ByteWords in op_spec.hpp).
__host__ __device__ __forceinline__ bool packs_bytes(const OpRecord& rec) {
  bool packs = false;
  visit_op_in(OpsOfKind<Kind::stencil>{}, rec.id, [&](auto tag) {
    using Op = typename decltype(tag)::type;
    if constexpr (has_byte_words<Op>) packs = Op::packs_bytes(rec.get<Op>());
  });
  return packs;
}

// Runs record `rec` on four 8-bit samples, where packs_bytes(rec) holds,
// with its word table where it uses one (see ByteWords in op_spec.hpp).
template <class Words>
__device__ __forceinline__ std::uint32_t dispatch_bytes(const Words& in, const OpRecord& rec,
                                                        const std::uint32_t* table) {
  std::uint32_t result = 0;
  const bool found = visit_op_in(OpsOfKind<Kind::stencil>{}, rec.id, [&](auto tag) {
    using Op = typename decltype(tag)::type;
    if constexpr (has_byte_words<Op>)
      result = Op::apply_bytes(in, rec.get<Op>(), table);
    else
      __trap();  // only called where packs_bytes holds
  });
  if (!found) __trap();
  return result;
}

}  // namespace gpuimg
