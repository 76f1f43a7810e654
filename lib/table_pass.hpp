#pragma once
// A run of table stages (Kind::table, kernels/tables.hpp): consecutive
// ones, which the planner fuses into one pass (OpRecord::span), composed
// into one lookup table per colour channel, exact by construction. On the
// GPU a run may also join the pass of the stage beside it, which applies
// the tables to the samples it loads or stores (TakesTables in op_spec.hpp).
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
// Whether a table stage reads its input's range (--normalize), and whether
// its table is monotone (tables.hpp).
bool reads_range(const OpRecord& rec);
bool monotone_table(const OpRecord& rec);

// The channels tables map: all but alpha.
int colour_channels(const Shape& shape);

// The parts of the pass that planned[first] leads: the table stages
// before `core` run on the samples that stage loads, those after it on the
// samples it stores. core == end in a pass of table stages alone; first ==
// core, end == core + 1 for a stage on its own.
struct PassParts {
  std::size_t first, core, end;
};
PassParts pass_parts(const Pipeline& planned, std::size_t first);

// Whether a stage of the run of table stages that starts at planned[first]
// reads its input's range (--normalize): the run then needs its own input's
// range, per channel, before its tables can be made.
bool pass_reads_range(const Pipeline& planned, std::size_t first);

// Whether the run's tables differ by channel: it reads its range, or a
// stage's own tables differ (tables.hpp). Such a run stays a pass of its
// own on the GPU too: a fused pass's tables are shared (PassTables).
bool pass_per_channel(const Pipeline& planned, std::size_t first);

// Whether every table of the run is monotone (tables.hpp).
bool pass_monotone(const Pipeline& planned, std::size_t first);

// The data of the run of table stages that starts at planned[first], in the
// layout of TableData (tables.hpp): a table per colour channel where
// pass_per_channel holds. `range`: the run input's range per channel, where
// pass_reads_range holds; ignored elsewhere. The entries of
// every table are samples of the output depth.
std::vector<std::int32_t> pass_tables(const Pipeline& planned, std::size_t first,
                                      const std::vector<ChannelRange>& range = {});

// How many entries pass_tables gives for the run at planned[first].
std::size_t pass_table_entries(const Pipeline& planned, std::size_t first);

}  // namespace gpuimg
