#include "temporary_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <ctime>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

namespace gpuimg {
namespace {

constexpr char kPrefix[] = ".gpuimg-tmp-";
constexpr int kRandomChars = 6;
constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

// Random, so that names already taken (another run's, or planted) cost a
// retry each rather than a predictable run of them; the counter keeps
// names distinct should getrandom fail.
std::string random_chars() {
  static std::atomic<unsigned> counter{0};
  const unsigned n = counter++;
  unsigned char bytes[kRandomChars];
  for (int i = 0; i < kRandomChars; ++i) bytes[i] = static_cast<unsigned char>(n >> (5 * i));
  (void)::getrandom(bytes, sizeof bytes, GRND_NONBLOCK);
  std::string out;
  for (const unsigned char b : bytes) out += kAlphabet[b % (sizeof kAlphabet - 1)];
  return out;
}

// The temporaries that exist. Each is created and listed, or renamed or
// removed and delisted, under the lock, so whoever holds it sees the list
// match the files. Never freed: a signal may come while exit() runs static
// destructors.
struct Existing {
  std::mutex mutex;
  std::vector<const TemporaryFile*> files;
};

Existing& existing() {
  static Existing* const list = new Existing;
  return *list;
}

void delist(const TemporaryFile* file) {
  std::vector<const TemporaryFile*>& files = existing().files;
  files.erase(std::remove(files.begin(), files.end(), file), files.end());
}

// The PID in a name `.gpuimg-tmp-PID-XXXXXX`; 0 for any other name.
pid_t writer_of(const char* name) {
  const std::size_t prefix = sizeof kPrefix - 1;
  if (std::strncmp(name, kPrefix, prefix) != 0) return 0;
  const char* end = name + std::strlen(name);
  pid_t pid = 0;
  const auto [dash, ec] = std::from_chars(name + prefix, end, pid);
  const bool ours = ec == std::errc() && pid > 0 && *dash == '-' && end - (dash + 1) == kRandomChars &&
                    std::strspn(dash + 1, kAlphabet) == kRandomChars;
  return ours ? pid : 0;
}

// Whether this process has not yet been here.
bool first_visit(int dir_fd) {
  static std::mutex mutex;
  static std::set<std::pair<dev_t, ino_t>> visited;
  struct stat st {};
  if (::fstat(dir_fd, &st) != 0) return false;
  std::lock_guard<std::mutex> lock(mutex);
  return visited.insert({st.st_dev, st.st_ino}).second;
}

}  // namespace

TemporaryFile::TemporaryFile(int dir_fd) : dir_fd_(dir_fd) {
  const std::string head = kPrefix + std::to_string(::getpid()) + "-";
  std::lock_guard<std::mutex> lock(existing().mutex);
  for (int attempt = 0; attempt < 100; ++attempt) {
    name_ = head + random_chars();
    fd_ = ::openat(dir_fd_, name_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd_ >= 0) {
      existing().files.push_back(this);
      exists_ = true;
      return;
    }
    if (errno != EEXIST) break;
  }
  error_ = errno;
}

TemporaryFile::~TemporaryFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!exists_) return;
  std::lock_guard<std::mutex> lock(existing().mutex);
  ::unlinkat(dir_fd_, name_.c_str(), 0);
  delist(this);
}

bool TemporaryFile::close() {
  const int fd = fd_;
  fd_ = -1;
  return ::close(fd) == 0;
}

bool TemporaryFile::rename_to(const std::string& name) {
  std::lock_guard<std::mutex> lock(existing().mutex);
  if (::renameat(dir_fd_, name_.c_str(), dir_fd_, name.c_str()) != 0) return false;
  delist(this);
  exists_ = false;
  return true;
}

void remove_temporaries_before_exit() {
  existing().mutex.lock();  // never unlocked: the process is ending
  for (const TemporaryFile* file : existing().files) ::unlinkat(file->dir_fd_, file->name_.c_str(), 0);
}

void remove_stale_temporaries(int dir_fd) {
  if (!first_visit(dir_fd)) return;
  // A folder that may be written but not listed keeps its leftovers.
  const int list_fd = ::openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (list_fd < 0) return;
  DIR* const dir = ::fdopendir(list_fd);
  if (!dir) {
    ::close(list_fd);
    return;
  }
  const std::time_t before = std::time(nullptr) - std::chrono::seconds(kStaleTemporaryAge).count();
  while (const dirent* entry = ::readdir(dir)) {
    const pid_t pid = writer_of(entry->d_name);
    struct stat st {};
    if (pid > 0 && ::fstatat(dir_fd, entry->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
        st.st_uid == ::geteuid() && st.st_mtime < before && ::kill(pid, 0) != 0 && errno == ESRCH)
      ::unlinkat(dir_fd, entry->d_name, 0);
  }
  ::closedir(dir);
}

}  // namespace gpuimg
