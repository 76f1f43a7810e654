#pragma once
// The folders a batch makes for its outputs, remembered so that those left
// empty, every file meant for them having failed or been dropped, are
// removed when the batch ends: a batch leaves no empty folder of its own
// behind, and never removes one it did not make or one that holds anything.
#include <mutex>
#include <string>
#include <vector>

namespace gpuimg {

class MadeFolders {
 public:
  MadeFolders() = default;
  MadeFolders(const MadeFolders&) = delete;
  MadeFolders& operator=(const MadeFolders&) = delete;
  // Removes the folders made here that are empty, deepest first.
  ~MadeFolders();

  // Makes `dir` and its missing parents, as mkdir -p does, and remembers
  // the ones this call made. Returns 0, or the errno of the step that
  // failed (ENOTDIR where something else is in the way). Any thread.
  int make(const std::string& dir);

 private:
  std::mutex mutex_;
  std::vector<std::string> made_;
};

}  // namespace gpuimg
