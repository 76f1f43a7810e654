#pragma once
// Reading an input for a pipeline: the pipeline is planned from the
// header's size before decoding, so that a stage whose output would pass
// --max-pixels (--resize 100000%) is refused before any pixel memory
// exists, and planned again from what was decoded.
#include <string>

#include "codec.hpp"
#include "plan.hpp"

namespace gpuimg {

// read_input, then the plan checked from the header where it gives a size.
InputFile read_planned_input(const std::string& path, const Pipeline& pipeline, const ReadOptions& opts);

// decode_input, then the plan checked for the decoded shape.
Image decode_planned(const InputFile& input, const Pipeline& pipeline, const ReadOptions& opts);

// Both.
Image read_planned(const std::string& path, const Pipeline& pipeline, const ReadOptions& opts);

}  // namespace gpuimg
