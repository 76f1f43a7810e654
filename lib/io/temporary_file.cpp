#include "temporary_file.hpp"

#include <fcntl.h>
#include <sys/random.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <mutex>
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

}  // namespace

TemporaryFile::TemporaryFile(int dir_fd) : dir_fd_(dir_fd) {
  std::lock_guard<std::mutex> lock(existing().mutex);
  for (int attempt = 0; attempt < 100; ++attempt) {
    name_ = kPrefix + random_chars();
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

}  // namespace gpuimg
