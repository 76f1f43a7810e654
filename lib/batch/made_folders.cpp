#include "made_folders.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace gpuimg {

MadeFolders::~MadeFolders() {
  // A folder's path is longer than its parent's, so children go first.
  std::sort(made_.begin(), made_.end(), [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  for (const std::string& dir : made_) ::rmdir(dir.c_str());  // fails, as it must, for one that holds anything
}

int MadeFolders::make(const std::string& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return 0;
  // Each prefix ending before a '/', then the whole: "a/b/c" makes "a",
  // "a/b", "a/b/c". mkdir's own success says which ones this call made,
  // even where another thread or process makes the same folders at once.
  for (std::size_t end = dir.find('/', 1);; end = dir.find('/', end + 1)) {
    const std::string prefix = dir.substr(0, end);
    if (::mkdir(prefix.c_str(), 0777) == 0) {
      std::lock_guard<std::mutex> lock(mutex_);
      made_.push_back(prefix);
    } else if (errno != EEXIST) {
      return errno;
    } else if (::stat(prefix.c_str(), &st) != 0) {
      return errno;
    } else if (!S_ISDIR(st.st_mode)) {
      return ENOTDIR;
    }
    if (end == std::string::npos) return 0;
  }
}

}  // namespace gpuimg
