#pragma once
// The one list of operations. Adding an op means writing its header under
// ops/ and adding one line here; the op id, the CLI flag, --help, --list-ops,
// validation, the CPU table, the GPU dispatch switch and the test matrix all
// follow from this list.
#include <cstdint>
#include <type_traits>

#include "pixel.hpp"

#include "ops/blur.hpp"
#include "ops/convolve.hpp"
#include "ops/crop.hpp"
#include "ops/flip.hpp"
#include "ops/gamma.hpp"
#include "ops/gaussian.hpp"
#include "ops/grayscale.hpp"
#include "ops/invert.hpp"
#include "ops/levels.hpp"
#include "ops/map.hpp"
#include "ops/linear.hpp"
#include "ops/normalize.hpp"
#include "ops/median.hpp"
#include "ops/resize.hpp"
#include "ops/rotate.hpp"
#include "ops/sharpen.hpp"
#include "ops/threshold.hpp"
#include "ops/transpose.hpp"
#include "ops/unsharp.hpp"

#define GPUIMG_OPS(X) \
  X(Blur)             \
  X(Sharpen)          \
  X(Invert)           \
  X(Grayscale)        \
  X(Crop)             \
  X(Flip)             \
  X(Flop)             \
  X(Rotate)           \
  X(Transpose)        \
  X(Resize)           \
  X(Levels)           \
  X(Gamma)            \
  X(Linear)           \
  X(Thresholding)     \
  X(Normalize)        \
  X(Median)           \
  X(Convolve)         \
  X(Gaussian)         \
  X(Unsharp)          \
  X(Map)

namespace gpuimg {

enum class OpId : std::int32_t {
#define GPUIMG_OP_ENUM(Op) Op,
  GPUIMG_OPS(GPUIMG_OP_ENUM)
#undef GPUIMG_OP_ENUM
};

template <class Op> struct OpTag { using type = Op; };
template <class Op> struct OpIdOf;
#define GPUIMG_OP_ID(Op) \
  template <> struct OpIdOf<Op> { static constexpr OpId value = OpId::Op; };
GPUIMG_OPS(GPUIMG_OP_ID)
#undef GPUIMG_OP_ID

// Calls f(OpTag<Op>{}) for every op, in registry order.
template <class F> void for_each_op(F&& f) {
#define GPUIMG_OP_VISIT(Op) f(OpTag<Op>{});
  GPUIMG_OPS(GPUIMG_OP_VISIT)
#undef GPUIMG_OP_VISIT
}

// Calls f(OpTag<Op>{}) for the op whose id is `id`; false if none has it.
template <class F> bool visit_op(OpId id, F&& f) {
  switch (id) {
#define GPUIMG_OP_CASE(Op) \
  case OpId::Op:           \
    f(OpTag<Op>{});        \
    return true;
    GPUIMG_OPS(GPUIMG_OP_CASE)
#undef GPUIMG_OP_CASE
  }
  return false;
}

template <class... Ops> struct OpList {};
#define GPUIMG_OP_TYPE(Op) , Op
template <class First, class... Rest> struct OpListOf { using type = OpList<Rest...>; };
using AllOps = OpListOf<void GPUIMG_OPS(GPUIMG_OP_TYPE)>::type;
#undef GPUIMG_OP_TYPE

// The ops of one kind, in registry order: what a kernel skeleton dispatches over.
template <Kind K, class List, class Kept = OpList<>> struct OfKind { using type = Kept; };
template <Kind K, class Op, class... Rest, class... Kept>
struct OfKind<K, OpList<Op, Rest...>, OpList<Kept...>>
    : OfKind<K, OpList<Rest...>, std::conditional_t<Op::kind == K, OpList<Kept..., Op>, OpList<Kept...>>> {};
template <Kind K> using OpsOfKind = typename OfKind<K, AllOps>::type;

// Calls f(OpTag<Op>{}) for the op of `list` whose id is `id`; false if none
// there has it. A chain of compares over that list alone, so a skeleton's
// dispatch holds no code for ops of other kinds.
template <class F, class... Ops> GPUIMG_HD bool visit_op_in(OpList<Ops...>, OpId id, F&& f) {
  return ((id == OpIdOf<Ops>::value ? (f(OpTag<Ops>{}), true) : false) || ...);
}

// Every op's typed parameters share one slot of a stage record.
union OpParams {
#define GPUIMG_OP_PARAMS(Op) Op::Params Op##_;
  GPUIMG_OPS(GPUIMG_OP_PARAMS)
#undef GPUIMG_OP_PARAMS
};

template <class Op> struct ParamSlot;
#define GPUIMG_OP_SLOT(Op)                                                                  \
  template <> struct ParamSlot<Op> {                                                        \
    GPUIMG_HD static const Op::Params& get(const OpParams& u) { return u.Op##_; }          \
    GPUIMG_HD static Op::Params& get(OpParams& u) { return u.Op##_; }                        \
  static void set(OpParams& u, const Op::Params& p) { u.Op##_ = p; }                      \
  };
GPUIMG_OPS(GPUIMG_OP_SLOT)
#undef GPUIMG_OP_SLOT

// One stage of a pipeline as it travels to the GPU: the op id, the halo its
// tile needs (stencil ops), its input and output shapes (set by the planner,
// lib/plan.hpp) and that op's typed parameters, resolved for that input.
// span, also the planner's: how many stages, from this one, run as one
// pass (consecutive table stages fuse); 0 where this one runs in a pass
// before it.
struct OpRecord {
  OpId id;
  std::int32_t halo;
  std::int32_t span;
  Shape in, out;
  OpParams params;

  template <class Op> GPUIMG_HD const typename Op::Params& get() const { return ParamSlot<Op>::get(params); }
  template <class Op> GPUIMG_HD typename Op::Params& get() { return ParamSlot<Op>::get(params); }
};

template <class Op> OpRecord make_record(const typename Op::Params& p) {
  static_assert(std::is_trivially_copyable<OpRecord>::value, "records travel to the GPU by copy");
  OpRecord r{};
  r.id = OpIdOf<Op>::value;
  r.span = 1;
  if constexpr (Op::kind == Kind::stencil) r.halo = Op::halo(p);
  ParamSlot<Op>::set(r.params, p);
  return r;
}

}  // namespace gpuimg
