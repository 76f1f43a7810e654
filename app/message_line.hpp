#pragma once
// Every message line gpuimg prints on stderr goes out through here.
// Messages are built from raw bytes (file names, option values, manifest
// words, by lib/io as much as by the CLI) and escaped once, on the way out:
// then no path into a message is missed, and none is escaped twice.
#include <cstdio>
#include <string>

#include "printable.hpp"

namespace gpuimg {

// "gpuimg: TEXT", one line whatever bytes TEXT holds.
inline void print_message(const std::string& text) { std::fprintf(stderr, "gpuimg: %s\n", printable(text).c_str()); }

// The warning for a damaged metadata item set aside (metadata.hpp's
// `ignored`), the same for one image and in a batch.
inline std::string metadata_warning(const std::string& input, const std::string& item) {
  return "warning: " + input + ": ignored " + item + " (-q: no warnings)";
}

}  // namespace gpuimg
