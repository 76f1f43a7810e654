#include "planned_read.hpp"

#include <utility>

#include "backend.hpp"
#include "exif_block.hpp"
#include "orientation.hpp"

namespace gpuimg {

PlannedInput read_planned_input(const std::string& path, const Pipeline& pipeline, const ReadOptions& opts) {
  PlannedInput input{read_input(path, opts), {}};
  input.metadata = read_metadata(input.file, opts.frame);
  if (input.file.shape) {
    Shape shape = shape_of(*input.file.shape);
    if (opts.auto_orient && input.metadata.orientation >= 5) std::swap(shape.width, shape.height);
    plan_pipeline(pipeline, shape, opts.max_pixels, path);
  }
  return input;
}

UprightImage decode_planned(const PlannedInput& input, const Pipeline& pipeline, const ReadOptions& opts) {
  UprightImage out{decode_input(input.file, opts), input.metadata, 1};
  if (opts.auto_orient && out.metadata.orientation != 1) {
    // On the host, before either backend sees the image: one pass of the
    // CPU's geometry stages, whose bytes the GPU's match.
    run_cpu(out.image, upright_stages(out.metadata.orientation));
    if (!out.metadata.exif.empty()) out.metadata.exif = exif_upright(out.metadata.exif);
    out.turned = out.metadata.orientation;
    out.metadata.orientation = 1;
  }
  const bool turned_sideways = out.turned >= 5;
  // The resolution travels with the pixels: its x is the output's width.
  if (turned_sideways != swaps_axes(plan_pipeline(pipeline, shape_of(out.image), opts.max_pixels, input.file.path)))
    std::swap(out.metadata.resolution.x, out.metadata.resolution.y);
  return out;
}

UprightImage read_planned(const std::string& path, const Pipeline& pipeline, const ReadOptions& opts) {
  return decode_planned(read_planned_input(path, pipeline, opts), pipeline, opts);
}

}  // namespace gpuimg
