#pragma once
// Reading an input for a pipeline: the pipeline is planned from the
// header's size before decoding, so that a stage whose output would pass
// --max-pixels (--resize 100000%) is refused before any pixel memory
// exists, and planned again from what was decoded. The image comes out
// upright: turned as its EXIF orientation says (orientation.hpp), unless
// ReadOptions::auto_orient is off.
#include <string>

#include "codec.hpp"
#include "metadata.hpp"
#include "plan.hpp"

namespace gpuimg {

struct PlannedInput {
  InputFile file;
  Metadata metadata;
};

// read_input and read_metadata, then the plan checked from the header
// where it gives a size (its sides swapped where the orientation turns it).
PlannedInput read_planned_input(const std::string& path, const Pipeline& pipeline, const ReadOptions& opts);

struct UprightImage {
  Image image;
  // With Orientation 1 where the pixels were turned, and the resolution's x
  // and y as the pipeline's output lies.
  Metadata metadata;
  int turned = 1;  // the orientation the pixels were turned from; 1: as stored
};

// decode_input, the image turned upright, then the plan checked for its shape.
UprightImage decode_planned(const PlannedInput& input, const Pipeline& pipeline, const ReadOptions& opts);

// Both.
UprightImage read_planned(const std::string& path, const Pipeline& pipeline, const ReadOptions& opts);

}  // namespace gpuimg
