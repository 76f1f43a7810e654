#pragma once
// gpuimg(1), in roff, from the declarations that --help prints: the build
// writes it with `gpuimg --help-man` (app/CMakeLists.txt), so the installed
// page cannot drift from the binary beside it.
#include <string>

#include <CLI/CLI.hpp>

namespace gpuimg {

std::string man_page(const CLI::App& app);

}  // namespace gpuimg
