#pragma once
// The headers --map's generated source includes, by name and text, as NVRTC
// takes them (embed_headers.cmake writes their definition at build time).
#include <string>
#include <utility>
#include <vector>

namespace gpuimg::expr {

const std::vector<std::pair<std::string, std::string>>& map_kernel_headers();

}  // namespace gpuimg::expr
