#pragma once
// A resize as the command line gives it, one --resize WxH:FILTER stage run
// through a backend: what the resize tests hold to Pillow and to the
// reference loops, so they test the op's own path.
#include <string>

#include "backend.hpp"
#include "pipeline.hpp"
#include "resample.hpp"

namespace gpuimg::test {

inline OpRecord resize_stage(int width, int height, ResizeFilter filter) {
  return parse_stage("resize", {std::to_string(width) + "x" + std::to_string(height) + ":" + resize_filter_name(filter)});
}

inline Image resize_on(Backend backend, const Image& in, int width, int height, ResizeFilter filter) {
  Image out = in;
  run_pipeline(backend, out, {resize_stage(width, height, filter)});
  return out;
}

inline Image resize_cpu(const Image& in, int width, int height, ResizeFilter filter) {
  return resize_on(Backend::cpu, in, width, height, filter);
}

}  // namespace gpuimg::test
