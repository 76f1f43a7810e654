#pragma once
// The pipeline planner: walks the stages from the input's shape, lets each
// op plan its output shape and resolve its parameters for its input, and
// holds every stage's output to the pixel limit, before any pixel memory
// exists.
#include <cstdint>
#include <string>
#include <vector>

#include "image.hpp"
#include "pipeline.hpp"
#include "probe.hpp"

namespace gpuimg {

// The largest side any stage may produce: sizes travel as int.
constexpr std::int32_t kMaxSide = 0x7fffffff;

// Which backend a plan is for: the GPU's also runs runs of table stages in
// the load or store of the stage beside them (TakesTables in op_spec.hpp);
// on the CPU a lookup pass costs little beside a neighbourhood stage.
enum class PlanFor { cpu, cuda };

// `pipeline` with every record's in and out shapes set and its parameters
// resolved, and its stages grouped into passes (OpRecord::span,
// pass_parts in table_pass.hpp). Throws InputError naming `subject` (the
// input's path) and the stage when a stage cannot be planned for this
// input (a crop outside it) or its output has more than max_pixels pixels.
Pipeline plan_pipeline(const Pipeline& pipeline, const Shape& input, std::uint64_t max_pixels = UINT64_MAX,
                       const std::string& subject = "the image", PlanFor backend = PlanFor::cpu);

// The output shape of a planned pipeline; `input` where it is empty.
Shape planned_output(const Pipeline& planned, const Shape& input);

// Whether the planned pipeline's output rows run along its input's columns
// (an odd number of quarter turns and transposes): what was the input's x
// is the output's y.
bool swaps_axes(const Pipeline& planned);

// The most bytes any planned stage reads or writes: what each of the two
// buffers the stages ping-pong between must hold.
std::size_t largest_buffer(const Pipeline& planned);

// The data planned[i] brings to its pass, built on the host once per plan
// and used by both backends (the GPU's copy uploaded beside the records): a
// resample stage's tables, what an op declares as its stage_data
// (op_spec.hpp), and for the first stage of a run of table stages the run's
// composed tables (table_pass.hpp); empty for the other stages. A run that
// reads its input's range gets room for its tables, made when that range
// is known.
std::vector<std::int32_t> stage_data(const Pipeline& planned, std::size_t i);

Shape shape_of(const Image& img);
// From a header; a side past kMaxSide (which no decoder gives) as kMaxSide.
Shape shape_of(const ImageShape& header);

// "1920x1080 RGB 8-bit".
std::string describe(const Shape& shape);

}  // namespace gpuimg
