#pragma once
// A pass of table stages (Kind::table, kernels/tables.hpp): consecutive
// ones, which the planner fuses (OpRecord::span), composed into one lookup
// table per colour channel, exact by construction.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "pipeline.hpp"

namespace gpuimg {

// One channel's smallest and largest sample in an image.
struct ChannelRange {
  std::int32_t lo, hi;
};

bool is_table_stage(const OpRecord& rec);

// The channels tables map: all but alpha.
int colour_channels(const Shape& shape);

// Whether a stage of the pass that starts at planned[first] reads its
// input's range (--normalize): the pass then needs its own input's range,
// per channel, before its tables can be made.
bool pass_reads_range(const Pipeline& planned, std::size_t first);

// The pass's data in the layout of TableData (tables.hpp). `range`: the
// pass input's range per channel, where pass_reads_range holds; ignored
// elsewhere. The entries of every table are samples of the output depth.
std::vector<std::int32_t> pass_tables(const Pipeline& planned, std::size_t first,
                                      const std::vector<ChannelRange>& range = {});

// How many entries pass_tables gives for the pass at planned[first].
std::size_t pass_table_entries(const Pipeline& planned, std::size_t first);

}  // namespace gpuimg
