#pragma once
// Shell completions for bash, zsh and fish, from the declarations that
// --help prints: the build writes them with `gpuimg --completion SHELL`
// (app/CMakeLists.txt), so they offer exactly the binary's options.
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace gpuimg {

// The script for `shell` (bash, zsh or fish); nullopt for any other.
std::optional<std::string> completion_script(const CLI::App& app, const std::string& shell);

}  // namespace gpuimg
