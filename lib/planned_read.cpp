#include "planned_read.hpp"

namespace gpuimg {

InputFile read_planned_input(const std::string& path, const Pipeline& pipeline, const ReadOptions& opts) {
  InputFile input = read_input(path, opts);
  if (input.shape) plan_pipeline(pipeline, shape_of(*input.shape), opts.max_pixels, path);
  return input;
}

Image decode_planned(const InputFile& input, const Pipeline& pipeline, const ReadOptions& opts) {
  Image image = decode_input(input, opts);
  plan_pipeline(pipeline, shape_of(image), opts.max_pixels, input.path);
  return image;
}

Image read_planned(const std::string& path, const Pipeline& pipeline, const ReadOptions& opts) {
  return decode_planned(read_planned_input(path, pipeline, opts), pipeline, opts);
}

}  // namespace gpuimg
