#include "table_pass.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "tables.hpp"

namespace gpuimg {
namespace {

std::int32_t max_sample(const Shape& s) { return s.bytes == 1 ? 255 : 65535; }

// Maps every entry of `table` through stage `rec`, for colour channel
// `channel`, whose values before the pass spanned `range`.
void apply_stage(const OpRecord& rec, std::vector<std::int32_t>& table, ChannelRange range, std::int32_t max,
                 int channel) {
  // The range after the tables so far: their least and most entries over it.
  const auto [a, b] = std::minmax_element(table.begin() + range.lo, table.begin() + range.hi + 1);
  const TableContext context{max, *a, *b, channel};
  visit_op(rec.id, [&](auto tag) {
    using Op = typename decltype(tag)::type;
    if constexpr (Op::kind == Kind::table || HasTableForm<Op>::value) {
      const auto& p = rec.get<Op>();
      if constexpr (HasMapTable<Op>::value)
        Op::map_table(p, table.data(), table.size(), context);
      else
        for (std::int32_t& v : table) v = Op::map(p, v, context);
    }
  });
}

// Where the run of table stages from planned[first] ends: at the first
// stage that is not one, or that leads a pass of its own (the planner
// splits a run before a stage that reads a range a non-monotone table
// made: plan.cpp).
std::size_t run_end(const Pipeline& planned, std::size_t first) {
  std::size_t end = first + 1;
  while (end < planned.size() && is_table_stage(planned[end]) && planned[end].span == 0) ++end;
  return end;
}

// Whether any stage of the run from planned[first] meets `test`.
template <class Test> bool any_in_run(const Pipeline& planned, std::size_t first, const Test& test) {
  const std::size_t end = run_end(planned, first);
  for (std::size_t i = first; i < end; ++i)
    if (test(planned[i])) return true;
  return false;
}

// Whether a pass's data carries its table again as 16-bit entries
// (tables.hpp): at 16 bits, where it has one.
bool carries_packed16(std::int32_t max, std::size_t tables) { return max == 65535 && tables == 1; }

}  // namespace

int colour_channels(const Shape& s) { return s.channels == 2 || s.channels == 4 ? s.channels - 1 : s.channels; }

bool is_table_stage(const OpRecord& rec) {
  bool table = false;
  visit_op(rec.id, [&](auto tag) {
    using Op = typename decltype(tag)::type;
    table = acts_as_table<Op>(rec.get<Op>());
  });
  return table;
}

PassParts pass_parts(const Pipeline& planned, std::size_t first) {
  const std::size_t end = first + static_cast<std::size_t>(planned.at(first).span);
  std::size_t core = first;
  while (core < end && is_table_stage(planned[core])) ++core;
  return {first, core, end};
}

bool reads_range(const OpRecord& rec) {
  bool reads = false;
  visit_op(rec.id, [&](auto tag) { reads = ReadsRange<typename decltype(tag)::type>::value; });
  return reads;
}

bool monotone_table(const OpRecord& rec) {
  bool monotone = true;
  visit_op(rec.id, [&](auto tag) {
    using Op = typename decltype(tag)::type;
    monotone = table_monotone<Op>(rec.get<Op>());
  });
  return monotone;
}

bool pass_reads_range(const Pipeline& planned, std::size_t first) { return any_in_run(planned, first, reads_range); }

bool pass_per_channel(const Pipeline& planned, std::size_t first) {
  return any_in_run(planned, first, [](const OpRecord& rec) {
    bool own = false;
    visit_op(rec.id, [&](auto tag) {
      using Op = typename decltype(tag)::type;
      own = table_per_channel<Op>(rec.get<Op>());
    });
    return own || reads_range(rec);
  });
}

bool pass_monotone(const Pipeline& planned, std::size_t first) {
  return !any_in_run(planned, first, [](const OpRecord& rec) { return !monotone_table(rec); });
}

std::size_t pass_table_entries(const Pipeline& planned, std::size_t first) {
  const Shape& in = planned.at(first).in;
  const std::size_t tables = pass_per_channel(planned, first) ? colour_channels(in) : 1;
  if (carries_packed16(max_sample(in), tables)) return kPacked16At + kPacked16Words;
  return 1 + tables * (static_cast<std::size_t>(max_sample(in)) + 1);
}

std::vector<std::int32_t> pass_tables(const Pipeline& planned, std::size_t first,
                                      const std::vector<ChannelRange>& range) {
  const Shape& in = planned.at(first).in;
  const std::int32_t max = max_sample(in);
  const bool per_channel = pass_per_channel(planned, first), reads = pass_reads_range(planned, first);
  if (reads && range.size() < static_cast<std::size_t>(colour_channels(in)))
    throw std::logic_error("a pass that reads its range was given none");
  const int tables = per_channel ? colour_channels(in) : 1;
  std::vector<std::int32_t> data{per_channel ? kTablePerChannel : kTableShared};
  const std::size_t end = run_end(planned, first);
  for (int c = 0; c < tables; ++c) {
    std::vector<std::int32_t> table(static_cast<std::size_t>(max) + 1);
    std::iota(table.begin(), table.end(), 0);
    const ChannelRange r = reads ? range[c] : ChannelRange{0, max};
    for (std::size_t i = first; i < end; ++i) apply_stage(planned[i], table, r, max, c);
    data.insert(data.end(), table.begin(), table.end());
  }
  // Each entry i of the tables, after the layout word, is at i % (max + 1).
  bool complement = true;
  for (std::size_t i = 1; i < data.size() && complement; ++i)
    complement = data[i] == max - static_cast<std::int32_t>((i - 1) % (static_cast<std::size_t>(max) + 1));
  if (complement) data[0] = kTableComplement;
  if (carries_packed16(max, tables)) {
    data[0] |= kTablePacked16;
    data.resize(kPacked16At);
    for (std::int32_t v = 0; v <= max; v += 2)
      data.push_back(static_cast<std::int32_t>(std::uint32_t(data[1 + v]) | std::uint32_t(data[2 + v]) << 16));
  }
  return data;
}

}  // namespace gpuimg
