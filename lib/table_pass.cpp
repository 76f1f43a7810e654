#include "table_pass.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "tables.hpp"

namespace gpuimg {
namespace {

std::int32_t max_sample(const Shape& s) { return s.bytes == 1 ? 255 : 65535; }

bool reads_range(const OpRecord& rec) {
  bool reads = false;
  visit_op(rec.id, [&](auto tag) { reads = ReadsRange<typename decltype(tag)::type>::value; });
  return reads;
}

// Maps every entry of `table` through stage `rec`, for a channel whose
// values before the pass spanned `range`.
void apply_stage(const OpRecord& rec, std::vector<std::int32_t>& table, ChannelRange range, std::int32_t max) {
  // The tables so far are monotone, so the range after them is what its
  // ends map to.
  const std::int32_t a = table[range.lo], b = table[range.hi];
  const TableContext context{max, std::min(a, b), std::max(a, b)};
  visit_op(rec.id, [&](auto tag) {
    using Op = typename decltype(tag)::type;
    if constexpr (Op::kind == Kind::table) {
      const auto& p = rec.get<Op>();
      for (std::int32_t& v : table) v = Op::map(p, v, context);
    }
  });
}

// Where the run of table stages from planned[first] ends.
std::size_t run_end(const Pipeline& planned, std::size_t first) {
  std::size_t end = first;
  while (end < planned.size() && is_table_stage(planned[end])) ++end;
  return end;
}

}  // namespace

int colour_channels(const Shape& s) { return s.channels == 2 || s.channels == 4 ? s.channels - 1 : s.channels; }

bool is_table_stage(const OpRecord& rec) {
  bool table = false;
  visit_op(rec.id, [&](auto tag) { table = decltype(tag)::type::kind == Kind::table; });
  return table;
}

PassParts pass_parts(const Pipeline& planned, std::size_t first) {
  const std::size_t end = first + static_cast<std::size_t>(planned.at(first).span);
  std::size_t core = first;
  while (core < end && is_table_stage(planned[core])) ++core;
  return {first, core, end};
}

bool pass_reads_range(const Pipeline& planned, std::size_t first) {
  const std::size_t end = run_end(planned, first);
  for (std::size_t i = first; i < end; ++i)
    if (reads_range(planned[i])) return true;
  return false;
}

std::size_t pass_table_entries(const Pipeline& planned, std::size_t first) {
  const Shape& in = planned.at(first).in;
  const std::size_t tables = pass_reads_range(planned, first) ? colour_channels(in) : 1;
  return 1 + tables * (static_cast<std::size_t>(max_sample(in)) + 1);
}

std::vector<std::int32_t> pass_tables(const Pipeline& planned, std::size_t first,
                                      const std::vector<ChannelRange>& range) {
  const Shape& in = planned.at(first).in;
  const std::int32_t max = max_sample(in);
  const bool per_channel = pass_reads_range(planned, first);
  if (per_channel && range.size() < static_cast<std::size_t>(colour_channels(in)))
    throw std::logic_error("a pass that reads its range was given none");
  const int tables = per_channel ? colour_channels(in) : 1;
  std::vector<std::int32_t> data{per_channel ? kTablePerChannel : kTableShared};
  const std::size_t end = run_end(planned, first);
  for (int c = 0; c < tables; ++c) {
    std::vector<std::int32_t> table(static_cast<std::size_t>(max) + 1);
    std::iota(table.begin(), table.end(), 0);
    const ChannelRange r = per_channel ? range[c] : ChannelRange{0, max};
    for (std::size_t i = first; i < end; ++i) apply_stage(planned[i], table, r, max);
    data.insert(data.end(), table.begin(), table.end());
  }
  // Each entry i of the tables, after the layout word, is at i % (max + 1).
  bool complement = true;
  for (std::size_t i = 1; i < data.size() && complement; ++i)
    complement = data[i] == max - static_cast<std::int32_t>((i - 1) % (static_cast<std::size_t>(max) + 1));
  if (complement) data[0] = kTableComplement;
  return data;
}

}  // namespace gpuimg
