#include "plan.hpp"

#include <algorithm>

#include "error.hpp"
#include "image.hpp"
#include "table_pass.hpp"
#include "tables.hpp"

namespace gpuimg {
namespace {

// Each run of consecutive table stages becomes one pass, led by its first,
// but for a stage that reads its input's range after a table that is not
// monotone: the range such a table makes is known only from the image, so
// that stage leads a pass of its own.
void fuse_table_stages(Pipeline& planned) {
  for (std::size_t i = 0; i < planned.size();) {
    std::size_t end = i + 1;
    if (is_table_stage(planned[i])) {
      bool monotone = monotone_table(planned[i]);
      while (end < planned.size() && is_table_stage(planned[end]) && (monotone || !reads_range(planned[end]))) {
        monotone = monotone && monotone_table(planned[end]);
        planned[end++].span = 0;
      }
    }
    planned[i].span = static_cast<std::int32_t>(end - i);
    i = end;
  }
}

bool takes_tables(const OpRecord& rec) {
  bool takes = false;
  visit_op(rec.id, [&](auto tag) {
    using Op = typename decltype(tag)::type;
    if constexpr (TakesTables<Op>::value) takes = Op::takes_tables(rec.get<Op>(), rec.in);
  });
  return takes;
}

// Whether the run of table stages from planned[first] may join the pass of
// planned[core]: its tables must be shared by the channels, which a run
// that reads its input's range cannot be, as that range is known only once
// the stage before it has run; and monotone for a stage that needs them so.
bool joins(const Pipeline& planned, std::size_t first, std::size_t core) {
  bool monotone_only = false;
  visit_op(planned[core].id, [&](auto tag) { monotone_only = MonotoneTablesOnly<typename decltype(tag)::type>::value; });
  return !pass_per_channel(planned, first) && (!monotone_only || pass_monotone(planned, first));
}

// The GPU runs the table passes just before and after a stage that takes
// tables inside that stage's pass, where they may join it (above). A run
// between two such stages joins the first.
void fuse_tables_into_neighbours(Pipeline& planned) {
  std::size_t taken = 0;  // stages before this are in a pass already extended
  for (std::size_t core = 0; core < planned.size(); ++core) {
    if (!takes_tables(planned[core])) continue;
    std::size_t first = core, end = core + 1;
    if (core > taken && is_table_stage(planned[core - 1])) {
      std::size_t lead = core - 1;
      while (planned[lead].span == 0) --lead;
      if (joins(planned, lead, core)) first = lead;
    }
    if (end < planned.size() && is_table_stage(planned[end]) && joins(planned, end, core))
      end += static_cast<std::size_t>(planned[end].span);
    for (std::size_t i = first; i < end; ++i) planned[i].span = 0;
    planned[first].span = static_cast<std::int32_t>(end - first);
    taken = end;
  }
}

}  // namespace

Pipeline plan_pipeline(const Pipeline& pipeline, const Shape& input, std::uint64_t max_pixels,
                       const std::string& subject, PlanFor backend) {
  Pipeline planned = pipeline;
  Shape shape = input;
  for (std::size_t i = 0; i < planned.size(); ++i) {
    OpRecord& rec = planned[i];
    const std::string stage = "stage " + std::to_string(i + 1) + " (" + describe(rec) + ")";
    rec.in = shape;
    std::uint64_t working = 0;
    visit_op(rec.id, [&](auto tag) {
      using Op = typename decltype(tag)::type;
      try {
        rec.out = plan_stage<Op>(rec.template get<Op>(), shape);
      } catch (const PlanError& e) {
        throw InputError(subject, stage + ": " + e.what());
      }
      if constexpr (HasWorkingPixels<Op>::value) working = Op::working_pixels(rec.template get<Op>(), rec.in, rec.out);
    });
    if (rec.out.pixels() > max_pixels)
      throw InputError(subject, stage + " would make " + std::to_string(rec.out.width) + "x" +
                                    std::to_string(rec.out.height) + " pixels, more than --max-pixels " +
                                    std::to_string(max_pixels));
    if (working > max_pixels)
      throw InputError(subject, stage + " would work through " + std::to_string(working) +
                                    " pixels (between its passes, or in its tables), more than --max-pixels " +
                                    std::to_string(max_pixels));
    shape = rec.out;
  }
  fuse_table_stages(planned);
  if (backend == PlanFor::cuda) fuse_tables_into_neighbours(planned);
  return planned;
}

Shape planned_output(const Pipeline& planned, const Shape& input) {
  return planned.empty() ? input : planned.back().out;
}

bool swaps_axes(const Pipeline& planned) {
  bool swapped = false;
  for (const OpRecord& rec : planned)
    visit_op(rec.id, [&](auto tag) {
      using Op = typename decltype(tag)::type;
      if constexpr (Op::kind == Kind::remap) swapped ^= Op::map(rec.get<Op>(), rec.in).swaps_axes();
    });
  return swapped;
}

std::size_t largest_buffer(const Pipeline& planned) {
  std::uint64_t most = 0;
  for (const OpRecord& rec : planned) most = std::max({most, rec.in.byte_size(), rec.out.byte_size()});
  return static_cast<std::size_t>(most);
}

std::vector<std::int32_t> stage_data(const Pipeline& planned, std::size_t i) {
  const OpRecord& rec = planned.at(i);
  if (is_table_stage(rec)) {
    if (rec.span == 0 && i > 0 && is_table_stage(planned[i - 1])) return {};
    return pass_reads_range(planned, i) ? std::vector<std::int32_t>(pass_table_entries(planned, i))
                                        : pass_tables(planned, i);
  }
  std::vector<std::int32_t> data;
  visit_op(rec.id, [&](auto tag) {
    using Op = typename decltype(tag)::type;
    if constexpr (Op::kind == Kind::resample)
      data = pack_resample(Op::resample_plan(rec.get<Op>(), rec.in, rec.out));
    else if constexpr (HasStageData<Op>::value)
      data = Op::stage_data(rec.get<Op>(), rec.in);
  });
  return data;
}

Shape shape_of(const Image& img) { return {img.width, img.height, img.channels, bytes_per_sample(img.depth)}; }

Shape shape_of(const ImageShape& h) {
  const auto side = [](std::uint64_t v) { return static_cast<std::int32_t>(std::min<std::uint64_t>(v, kMaxSide)); };
  return {side(h.width), side(h.height), h.channels, bytes_per_sample(h.depth)};
}

std::string describe(const Shape& s) {
  return std::to_string(s.width) + "x" + std::to_string(s.height) + " " +
         describe(s.channels, s.bytes == 1 ? Depth::U8 : Depth::U16);
}

}  // namespace gpuimg
