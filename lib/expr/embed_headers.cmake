# Writes OUT, a C++ file holding the text of the headers NVRTC compiles
# --map's kernels with (kernels/expr_math.hpp and what it includes), so the
# binary needs no source tree at run time. Run by lib/CMakeLists.txt as
#   cmake -DKERNELS=<kernels dir> -DOUT=<file> -P embed_headers.cmake
set(text "// Made by lib/expr/embed_headers.cmake from kernels/: do not edit.\n#include \"expr/map_headers.hpp\"\n\nnamespace gpuimg::expr {\n\nconst std::vector<std::pair<std::string, std::string>>& map_kernel_headers() {\n  static const std::vector<std::pair<std::string, std::string>> headers{\n")
foreach(name expr_math.hpp expr_libm.hpp)
  file(READ "${KERNELS}/${name}" body)
  string(FIND "${body}" ")gpuimg_text\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${name} holds the raw string's end marker")
  endif()
  string(APPEND text "      {\"${name}\", R\"gpuimg_text(${body})gpuimg_text\"},\n")
endforeach()
string(APPEND text "  };\n  return headers;\n}\n\n}  // namespace gpuimg::expr\n")
file(WRITE "${OUT}.tmp" "${text}")
file(RENAME "${OUT}.tmp" "${OUT}")
