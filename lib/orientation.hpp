#pragma once
// EXIF orientation: how the stored pixels are turned from the way the
// picture is meant to be seen (a phone held upright stores its sensor's
// rows sideways and writes Orientation 6), undone by the geometry stages
// the command line offers, so both backends' bytes are those of --rotate,
// --flip, --flop and --transpose.
#include <string>

#include "pipeline.hpp"

namespace gpuimg {

// The stages that turn an image stored with `orientation` (1 to 8) upright;
// none for 1. 5 to 8 swap width and height.
Pipeline upright_stages(int orientation);

// What upright_stages does, for -v: "turned 90 degrees clockwise".
std::string upright_text(int orientation);

}  // namespace gpuimg
