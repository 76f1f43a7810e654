#pragma once
// What -v says of the kernels this process compiled or found in the cache
// at run time (--map's): one line each, in the order they were made.
#include <string>
#include <vector>

namespace gpuimg {

void note_runtime_kernel(const std::string& line);
std::vector<std::string> runtime_kernel_notes();

}  // namespace gpuimg
