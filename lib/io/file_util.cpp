#include "file_util.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "error.hpp"

namespace gpuimg {
namespace {

std::string open_problem(int err) {
  switch (err) {
    case ENOENT:
    case ENOTDIR: return "no such file";
    case EACCES:
    case EPERM: return "permission denied";
    default: return "cannot open: " + errno_text(err);
  }
}

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  // Closes now and reports the result: on some filesystems (NFS) a failed
  // write only shows up here.
  bool close() {
    const int fd = fd_;
    fd_ = -1;
    return ::close(fd) == 0;
  }

 private:
  int fd_;
};

// Reading the umask means setting it, which races with threads creating
// files; /proc/self/status shows it without changing it (Linux 4.7+).
mode_t process_umask() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("Umask:", 0) == 0) return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8));
  }
  const mode_t mask = ::umask(022);
  ::umask(mask);
  return mask;
}

bool write_all(int fd, const std::uint8_t* p, std::size_t n) {
  while (n > 0) {
    const ssize_t done = ::write(fd, p, n);
    if (done < 0 && errno == EINTR) continue;
    if (done <= 0) return false;
    p += done;
    n -= static_cast<std::size_t>(done);
  }
  return true;
}

}  // namespace

std::string errno_text(int err) {
  std::string s = std::strerror(err);
  if (!s.empty()) s[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(s[0])));
  return s;
}

std::vector<std::uint8_t> read_file(const std::string& path, std::uint64_t max_bytes, const std::string& why_limited) {
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) throw InputError(path, open_problem(errno));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) {
    const int err = errno;
    throw InputError(path, "cannot read: " + errno_text(err));
  }
  if (S_ISDIR(st.st_mode)) throw InputError(path, "is a directory");
  const bool regular = S_ISREG(st.st_mode);
  if (regular && static_cast<std::uint64_t>(st.st_size) > max_bytes) {
    throw InputError(path, "file is " + std::to_string(st.st_size) + " bytes, " + why_limited + " (" +
                               std::to_string(max_bytes) + " bytes)");
  }
  // Reads stop one byte past the limit: getting that byte means the input
  // is over it. One byte over the size, so a regular file ends in a single
  // short read; pipes, devices and /proc files (size 0) grow the buffer as
  // they go.
  const std::size_t stop = max_bytes >= SIZE_MAX ? SIZE_MAX : static_cast<std::size_t>(max_bytes) + 1;
  std::vector<std::uint8_t> bytes(std::min<std::size_t>(regular ? static_cast<std::size_t>(st.st_size) + 1 : 1 << 16, stop));
  std::size_t used = 0;
  for (;;) {
    if (used == bytes.size()) {
      if (used == stop) throw InputError(path, "input goes on past " + std::to_string(max_bytes) + " bytes, " + why_limited);
      bytes.resize(bytes.size() > stop / 2 ? stop : bytes.size() * 2);
    }
    const ssize_t got = ::read(fd.get(), bytes.data() + used, bytes.size() - used);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      const int err = errno;
      throw InputError(path, "cannot read: " + errno_text(err));
    }
    if (got == 0) break;
    used += static_cast<std::size_t>(got);
  }
  if (used == 0) throw InputError(path, "empty file (0 bytes)");
  bytes.resize(used);
  return bytes;
}

void write_file_atomically(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  const std::string dir = parent_directory(path);
  // Beside the destination so the rename cannot cross filesystems; hidden
  // and named for us so a leftover from a killed run is recognisable.
  std::string tmp = (dir == "/" ? "" : dir) + "/.gpuimg-tmp-XXXXXX";
  const int raw_fd = ::mkostemp(tmp.data(), O_CLOEXEC);
  if (raw_fd < 0) {
    const int err = errno;
    throw OutputError(path, "cannot create a temporary file in '" + dir + "': " + errno_text(err));
  }
  Fd fd(raw_fd);
  auto fail = [&](const std::string& problem) {
    const int err = errno;
    ::unlink(tmp.c_str());
    throw OutputError(path, problem + ": " + errno_text(err));
  };
  // mkstemp makes the file 0600. Replacing a regular file keeps its
  // permission bits, so `chmod 600 out.png` survives a run instead of the
  // output quietly becoming world-readable. Not its set-user/group-ID bits:
  // the new file belongs to whoever runs gpuimg, and would run as them.
  // Anything else (nothing there, or a symlink, which is replaced rather
  // than followed) gets the mode a plain new file gets.
  struct stat existing {};
  const bool replacing = ::lstat(path.c_str(), &existing) == 0 && S_ISREG(existing.st_mode);
  const mode_t mode = replacing ? existing.st_mode & 01777 : 0666 & ~process_umask();
  if (::fchmod(fd.get(), mode) != 0) fail("cannot set permissions");
  if (!write_all(fd.get(), bytes.data(), bytes.size())) fail("cannot write");
  // No fsync: it costs milliseconds per file and whole runs are timed. The
  // rename protects against our own failures (encode error, full disk,
  // being killed); against power loss, ext4 (auto_da_alloc) and btrfs
  // flush a file that replaces another by rename before the rename commits.
  if (!fd.close()) fail("cannot write");
  if (::rename(tmp.c_str(), path.c_str()) != 0) fail("cannot replace");
}

std::string lower_extension(const std::string& path) {
  const std::size_t name_start = path.find_last_of('/') + 1;  // npos + 1 == 0
  const std::size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || dot <= name_start) return "";
  std::string ext = path.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

std::string parent_directory(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

}  // namespace gpuimg
