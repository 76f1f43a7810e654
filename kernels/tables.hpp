#pragma once
// Table stages (Kind::table): ops that map each colour sample by its value
// alone, alpha kept. Each declares
//   static std::int32_t map(const Params&, std::int32_t v, const TableContext&);
// the output for input v, in [0, max], computed on the host for every
// possible v (in double precision where the definition says so), so that
// both backends only look the results up. A run of them composes into one
// table per channel (lib/table_pass.hpp), which is what lets --normalize
// fuse with the stages around it: the range after a table is the least and
// most of its entries over the range before. An op that reads its input's
// range (normalize) declares `reads_range = true`.
//
// An op of another kind may act as a table stage for some parameters
// (--map with an expression of v alone): it declares is_table(params) and
// map(), or map_table(params, entries, n, context), which replaces each of
// n entries with what map() would give for it, all at once (--map runs its
// program over chunks of entries), per_channel(params) where its tables differ by colour channel
// (TableContext::channel), and monotone(params) false where its table may
// fall as v rises; every Kind::table op is monotone (the tests check it).
#include <cstdint>
#include <type_traits>

#include "op_spec.hpp"
#include "pixel.hpp"

namespace gpuimg {

struct TableContext {
  std::int32_t max;      // the largest sample: 255 or 65535
  std::int32_t lo, hi;   // this channel's smallest and largest value in the stage's input, for ops that read them
  std::int32_t channel;  // the colour channel the table is for; 0 where all share it
};

template <class Op, class = void> struct ReadsRange : std::false_type {};
template <class Op> struct ReadsRange<Op, std::void_t<decltype(Op::reads_range)>> {
  static constexpr bool value = Op::reads_range;
};

template <class Op, class = void> struct HasTableForm : std::false_type {};
template <class Op>
struct HasTableForm<Op, std::void_t<decltype(Op::is_table(std::declval<const typename Op::Params&>()))>>
    : std::true_type {};

template <class Op, class = void> struct HasMapTable : std::false_type {};
template <class Op> struct HasMapTable<Op, std::void_t<decltype(&Op::map_table)>> : std::true_type {};

// Whether a stage of Op with these parameters is a table stage.
template <class Op> bool acts_as_table(const typename Op::Params& p) {
  if constexpr (Op::kind == Kind::table)
    return true;
  else if constexpr (HasTableForm<Op>::value)
    return Op::is_table(p);
  else
    return false;
}

// Whether that table stage's tables differ by channel, and whether it is
// monotone (below).
template <class Op> bool table_per_channel(const typename Op::Params& p) {
  if constexpr (HasTableForm<Op>::value)
    return Op::per_channel(p);
  else
    return false;
}
template <class Op> bool table_monotone(const typename Op::Params& p) {
  if constexpr (HasTableForm<Op>::value)
    return Op::monotone(p);
  else
    return true;
}

// A stage that takes tables (op_spec.hpp) and is exact only with monotone
// ones (the median, which selects before it looks up) declares
// `monotone_tables_only = true`.
template <class Op, class = void> struct MonotoneTablesOnly : std::false_type {};
template <class Op> struct MonotoneTablesOnly<Op, std::void_t<decltype(Op::monotone_tables_only)>> {
  static constexpr bool value = Op::monotone_tables_only;
};

// A table pass's data, as both backends read it: a word saying how the
// tables are laid out (TableLayout, and the kTablePacked16 flag), then
// tables of max + 1 entries each. Alpha has none: it is kept. A 16-bit
// pass with one table (shared by the colour channels, or an image with
// one) then has that table again as 16-bit entries, from word kPacked16At
// (a multiple of 16 bytes into the data), and says so with the flag: the
// GPU copies them into shared memory as they are, half the bytes of the
// int32 entries, with no packing to do first.
enum TableLayout : std::int32_t {
  kTablePerChannel = 0,  // colour channel c has table c
  kTableShared = 1,      // the colour channels share the first table
  kTableComplement = 2,  // every table is max - v (the GPU then needs none)
};
constexpr std::int32_t kTableLayoutBits = 3;
constexpr std::int32_t kTablePacked16 = 4;

constexpr std::int32_t kPacked16At = (1 + 65536 + 3) / 4 * 4;
constexpr std::int32_t kPacked16Words = 65536 / 2;

struct TableData {
  const std::int32_t* data;
  std::int32_t max;

  GPUIMG_HD std::int32_t layout() const { return data[0] & kTableLayoutBits; }
  GPUIMG_HD bool shared() const { return layout() != kTablePerChannel; }
  GPUIMG_HD bool complement() const { return layout() == kTableComplement; }
  GPUIMG_HD const std::int32_t* table(int c) const { return data + 1 + (shared() ? 0 : c) * (max + 1); }
  // The 16-bit entries, where has_packed16(): read them as 16-bit words
  // (or vectors of them) on the device.
  GPUIMG_HD bool has_packed16() const { return (data[0] & kTablePacked16) != 0; }
  GPUIMG_HD const void* packed16() const { return data + kPacked16At; }
};

// The tables a stage applies in a fused pass (TakesTables in op_spec.hpp):
// `load` to every sample it reads, `store` to every sample it writes, each
// in TableData's layout, or null. Alpha samples pass both unchanged. Both
// are shared by the colour channels, never per channel: the planner does
// not fuse a run that reads its range.
struct PassTables {
  const std::int32_t* load;
  const std::int32_t* store;

  GPUIMG_HD bool any() const { return load != nullptr || store != nullptr; }
};

}  // namespace gpuimg
