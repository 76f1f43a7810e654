#include "expr/kernel_notes.hpp"

#include <mutex>

namespace gpuimg {
namespace {

struct Notes {
  std::mutex mutex;
  std::vector<std::string> lines;
};

Notes& notes() {
  static Notes n;
  return n;
}

}  // namespace

void note_runtime_kernel(const std::string& line) {
  const std::lock_guard<std::mutex> lock(notes().mutex);
  notes().lines.push_back(line);
}

std::vector<std::string> runtime_kernel_notes() {
  const std::lock_guard<std::mutex> lock(notes().mutex);
  return notes().lines;
}

}  // namespace gpuimg
