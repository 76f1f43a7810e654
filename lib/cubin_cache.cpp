#include "cubin_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "file_util.hpp"
#include "fnv1a.hpp"
#include "temporary_file.hpp"

namespace gpuimg {
namespace {

// An entry: magic, format, key length, cubin length, cubin checksum (the
// integers in this machine's byte order), then the key, then the cubin.
constexpr char kMagic[8] = {'g', 'p', 'u', 'i', 'm', 'g', 'C', 'B'};
constexpr std::uint32_t kFormat = 1;
constexpr std::size_t kHeaderBytes = sizeof kMagic + 4 + 8 + 8 + 8;
// Far above any kernel of ours (tens of KB); a larger file is not ours,
// and is not read into memory.
constexpr std::uint64_t kMaxEntryBytes = 64u << 20;

std::string folder_path() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  // The XDG spec: a relative path is invalid and ignored.
  if (xdg && xdg[0] == '/') return std::string(xdg) + "/gpuimg";
  const char* home = std::getenv("HOME");
  if (home && home[0] == '/') return std::string(home) + "/.cache/gpuimg";
  return "";
}

// The folder itself, not where a link of that name points: a link planted
// there could send the cache's writes and removals into another folder of
// the user's.
int open_folder(const std::string& path) {
  return ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
}

// Each missing folder on the way, made 0700 as the XDG spec asks of its base.
void make_folders(const std::string& path) {
  for (std::size_t slash = path.find('/', 1); ; slash = path.find('/', slash + 1)) {
    ::mkdir(path.substr(0, slash).c_str(), 0700);
    if (slash == std::string::npos) return;
  }
}

// A kernel from a folder someone else can write to could be anyone's code.
bool trusted(int fd) {
  struct stat st {};
  return ::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == ::geteuid() &&
         (st.st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

std::string entry_name(const std::string& key) { return key_hash(key) + ".cubin"; }

template <class T> void put(std::vector<char>& out, T value) {
  const char* p = reinterpret_cast<const char*>(&value);
  out.insert(out.end(), p, p + sizeof value);
}
template <class T> T get(const char* p) {
  T value;
  std::memcpy(&value, p, sizeof value);
  return value;
}

// The whole file, when it is a regular file of a size an entry can have.
std::optional<std::vector<char>> read_entry(int dir_fd, const std::string& name) {
  const int fd = ::openat(dir_fd, name.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || static_cast<std::uint64_t>(st.st_size) < kHeaderBytes ||
      static_cast<std::uint64_t>(st.st_size) > kMaxEntryBytes) {
    ::close(fd);
    return std::nullopt;
  }
  std::FILE* file = ::fdopen(fd, "rb");
  if (!file) {
    ::close(fd);
    return std::nullopt;
  }
  std::vector<char> entry(static_cast<std::size_t>(st.st_size));
  const bool whole = std::fread(entry.data(), 1, entry.size(), file) == entry.size();
  std::fclose(file);
  if (!whole) return std::nullopt;
  return entry;
}

}  // namespace

std::string key_hash(const std::string& key) { return fnv1a_text(key); }

CubinCache::CubinCache() {
  const std::string path = folder_path();
  if (path.empty()) return;
  int fd = open_folder(path);
  if (fd < 0 && errno == ENOENT) {
    make_folders(path);
    fd = open_folder(path);
  }
  if (fd >= 0 && !trusted(fd)) {
    ::close(fd);
    fd = -1;
  }
  dir_fd_ = fd;
}

CubinCache::~CubinCache() {
  if (dir_fd_ >= 0) ::close(dir_fd_);
}

std::optional<std::vector<char>> CubinCache::find(const std::string& key) const {
  if (dir_fd_ < 0) return std::nullopt;
  const std::optional<std::vector<char>> read = read_entry(dir_fd_, entry_name(key));
  if (!read) return std::nullopt;
  const std::vector<char>& entry = *read;
  if (std::memcmp(entry.data(), kMagic, sizeof kMagic) != 0) return std::nullopt;
  const char* p = entry.data() + sizeof kMagic;
  const auto format = get<std::uint32_t>(p);
  const auto key_bytes = get<std::uint64_t>(p + 4);
  const auto cubin_bytes = get<std::uint64_t>(p + 12);
  const auto checksum = get<std::uint64_t>(p + 20);
  // Each length on its own first, so that their sum cannot wrap.
  if (format != kFormat || key_bytes != key.size() || cubin_bytes > entry.size() ||
      kHeaderBytes + key_bytes + cubin_bytes != entry.size())
    return std::nullopt;
  const char* stored_key = entry.data() + kHeaderBytes;
  const char* cubin = stored_key + key_bytes;
  if (std::memcmp(stored_key, key.data(), key.size()) != 0 || fnv1a(cubin, cubin_bytes) != checksum)
    return std::nullopt;
  return std::vector<char>(cubin, cubin + cubin_bytes);
}

bool CubinCache::store(const std::string& key, const std::vector<char>& cubin) const {
  if (dir_fd_ < 0) return false;
  std::vector<char> entry(kMagic, kMagic + sizeof kMagic);
  put<std::uint32_t>(entry, kFormat);
  put<std::uint64_t>(entry, key.size());
  put<std::uint64_t>(entry, cubin.size());
  put<std::uint64_t>(entry, fnv1a(cubin.data(), cubin.size()));
  entry.insert(entry.end(), key.begin(), key.end());
  entry.insert(entry.end(), cubin.begin(), cubin.end());
  // Leftovers of processes killed mid-write, which rename never replaces.
  remove_stale_temporaries(dir_fd_);
  // No fsync: an entry lost or cut short by a crash is a miss, rebuilt.
  TemporaryFile temporary(dir_fd_);
  return temporary.fd() >= 0 && write_all(temporary.fd(), entry.data(), entry.size()) && temporary.close() &&
         temporary.rename_to(entry_name(key));
}

}  // namespace gpuimg
