#include "file_util.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <utility>

#include "ascii_case.hpp"
#include "error.hpp"
#include "temporary_file.hpp"

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

// ImageMagick's FILE[N] reads frame N; here it names a file that is not
// there, where FILE is. Every command opens files here; the processing
// command is the one that takes --frame, and the hint says so.
std::string frame_hint(const std::string& path) {
  const std::size_t open = path.rfind('[');
  if (path.empty() || path.back() != ']' || open == std::string::npos || open == 0 || open + 2 >= path.size())
    return "";
  const std::string n = path.substr(open + 1, path.size() - open - 2);
  if (!std::all_of(n.begin(), n.end(), [](unsigned char c) { return std::isdigit(c) != 0; })) return "";
  struct stat st {};
  if (::stat(path.substr(0, open).c_str(), &st) != 0) return "";
  return " (ImageMagick's FILE[" + n + "] is frame " + n + ": gpuimg FILE --frame " + n + " ... reads it)";
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

}  // namespace

bool write_all(int fd, const void* data, std::size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t done = ::write(fd, p, n);
    if (done < 0 && errno == EINTR) continue;
    if (done <= 0) return false;
    p += done;
    n -= static_cast<std::size_t>(done);
  }
  return true;
}

std::string errno_text(int err) {
  std::string s = std::strerror(err);
  if (!s.empty()) s[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(s[0])));
  return s;
}

InputReader::InputReader(const std::string& path, std::uint64_t max_bytes, std::string why)
    : path_(path), max_bytes_(max_bytes), why_(std::move(why)) {
  owned_ = path != "-";
  fd_ = owned_ ? ::open(path.c_str(), O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
  if (fd_ < 0) {
    const int err = errno;
    throw InputError(path, open_problem(err) + (err == ENOENT ? frame_hint(path) : ""));
  }
  const auto release = [&] {
    if (owned_) ::close(fd_);
  };
  struct stat st {};
  if (::fstat(fd_, &st) != 0) {
    const int err = errno;
    release();
    throw InputError(path, err == EBADF ? "not open" : "cannot read: " + errno_text(err));
  }
  regular_ = S_ISREG(st.st_mode);
  size_ = regular_ ? static_cast<std::uint64_t>(st.st_size) : 0;
  try {
    if (S_ISDIR(st.st_mode)) throw InputError(path, "is a directory");
    if (!owned_ && ::isatty(fd_)) throw InputError(path, "is a terminal: pipe or redirect an image into it");
    check_size();
  } catch (...) {
    release();
    throw;
  }
}

InputReader::~InputReader() {
  if (owned_) ::close(fd_);
}

void InputReader::check_size() const {
  if (regular_ && size_ > max_bytes_) {
    throw InputError(path_, "file is " + std::to_string(size_) + " bytes, " + why_ + " (" + std::to_string(max_bytes_) +
                                " bytes)");
  }
}

void InputReader::lower_limit(std::uint64_t max_bytes, std::string why) {
  if (max_bytes >= max_bytes_) return;
  max_bytes_ = max_bytes;
  why_ = std::move(why);
  check_size();
}

void InputReader::read_up_to(std::vector<std::uint8_t>& bytes, std::size_t want) {
  if (ended_ || bytes.size() >= want) return;
  // Grown (and zero-filled) once a call, not once a read: a pipe gives 64
  // KiB a read, and filling the rest of the step again each time made a
  // stream cost time quadratic in its length (600 MB: 26 s).
  std::size_t used = bytes.size();
  bytes.resize(want);
  while (!ended_ && used < want) {
    const ssize_t got = ::read(fd_, bytes.data() + used, want - used);
    const int err = errno;
    if (got < 0 && err == EINTR) continue;
    if (got < 0) {
      bytes.resize(used);
      throw InputError(path_, "cannot read: " + errno_text(err));
    }
    used += static_cast<std::size_t>(got);
    ended_ = got == 0;
  }
  bytes.resize(used);
}

void InputReader::read_rest(std::vector<std::uint8_t>& bytes) {
  // Reads stop one byte past the limit: getting that byte means the input
  // is over it. A regular file is asked for one byte over its size, so it
  // ends in a single short read; pipes, devices and /proc files (size 0)
  // grow the buffer as they go.
  const std::size_t stop = max_bytes_ >= SIZE_MAX ? SIZE_MAX : static_cast<std::size_t>(max_bytes_) + 1;
  if (regular_) bytes.reserve(std::min<std::size_t>(static_cast<std::size_t>(size_) + 1, stop));
  while (!ended_) {
    if (bytes.size() >= stop) {
      throw InputError(path_, "input goes on past " + std::to_string(max_bytes_) + " bytes, " + why_);
    }
    const std::size_t step = regular_ ? std::max<std::size_t>(bytes.capacity() - bytes.size(), 1)
                                      : std::max<std::size_t>(bytes.size(), std::size_t{1} << 16);
    read_up_to(bytes, std::min(stop, bytes.size() + step));
  }
}

std::vector<std::uint8_t> read_file(const std::string& path, std::uint64_t max_bytes, const std::string& why_limited) {
  InputReader reader(path, max_bytes, why_limited);
  std::vector<std::uint8_t> bytes;
  reader.read_rest(bytes);
  if (bytes.empty()) throw InputError(path, "empty file (0 bytes)");
  return bytes;
}

void write_file_atomically(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  const std::string dir = parent_directory(path);
  const std::string name = path.substr(path.find_last_of('/') + 1);  // npos + 1 == 0
  // The temporary goes beside the destination so the rename cannot cross
  // filesystems, and everything is done relative to the directory so no
  // path longer than `path` is ever formed (temporary_file.hpp).
  const auto no_temporary = [&](int err) {
    return OutputError(path, "cannot create a temporary file in '" + dir + "': " + errno_text(err));
  };
  Fd dir_fd(::open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (dir_fd.get() < 0) throw no_temporary(errno);
  remove_stale_temporaries(dir_fd.get());
  TemporaryFile tmp(dir_fd.get());
  if (tmp.fd() < 0) throw no_temporary(tmp.error());
  // errno is read before the throw unwinds, and so before tmp's destructor
  // removes the file.
  auto fail = [&](const std::string& problem) { throw OutputError(path, problem + ": " + errno_text(errno)); };
  // The temporary is made 0600. Replacing a regular file keeps its
  // permission bits, so `chmod 600 out.png` survives a run instead of the
  // output quietly becoming world-readable. Not its set-user/group-ID bits:
  // the new file belongs to whoever runs gpuimg, and would run as them.
  // Anything else (nothing there, or a symlink, which is replaced rather
  // than followed) gets the mode a plain new file gets.
  struct stat existing {};
  const bool replacing =
      ::fstatat(dir_fd.get(), name.c_str(), &existing, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(existing.st_mode);
  // A file made read-only is refused, as cp refuses it: the rename would
  // replace it whatever its mode.
  if (replacing && ::faccessat(dir_fd.get(), name.c_str(), W_OK, 0) != 0 && errno == EACCES)
    throw OutputError(path, "is write-protected (no write permission); gpuimg does not replace it");
  const mode_t mode = replacing ? existing.st_mode & 01777 : 0666 & ~process_umask();
  if (::fchmod(tmp.fd(), mode) != 0) fail("cannot set permissions");
  if (!write_all(tmp.fd(), bytes.data(), bytes.size())) fail("cannot write");
  // No fsync: it costs milliseconds per file and whole runs are timed. The
  // rename protects against our own failures (encode error, full disk,
  // being killed); against power loss, ext4 (auto_da_alloc) and btrfs
  // flush a file that replaces another by rename before the rename commits.
  if (!tmp.close()) fail("cannot write");
  if (!tmp.rename_to(name)) fail("cannot replace");
}

namespace {

// The descriptor an output path names without going through the file
// system's names: "-", /dev/stdout and kin. -1 for any other path.
int own_descriptor(const std::string& path) {
  if (path == "-" || path == "/dev/stdout") return STDOUT_FILENO;
  if (path == "/dev/stderr") return STDERR_FILENO;
  for (const char* dir : {"/dev/fd/", "/proc/self/fd/"}) {
    const std::size_t n = std::strlen(dir);
    if (path.compare(0, n, dir) != 0 || path.size() == n || path.size() > n + 9) continue;
    if (path.find_first_not_of("0123456789", n) != std::string::npos) return -1;
    return std::stoi(path.substr(n));
  }
  return -1;
}

bool fifo_or_device(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode));
}

}  // namespace

bool written_in_place(const std::string& path) { return own_descriptor(path) >= 0 || fifo_or_device(path); }

void check_in_place_output(const std::string& path) {
  const int fd = own_descriptor(path);
  if (fd < 0) {
    if (::access(path.c_str(), W_OK) != 0) throw OutputError(path, "cannot write: " + errno_text(errno));
    return;
  }
  // An image is never what a terminal should show (gzip refuses the same).
  if (::isatty(fd)) throw OutputError(path, "is a terminal: redirect it to a file or a pipe");
  if (::fcntl(fd, F_GETFL) < 0) throw OutputError(path, "not open");
}

void write_output(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  if (!written_in_place(path)) return write_file_atomically(path, bytes);
  const int own = own_descriptor(path);
  // No O_TRUNC: a FIFO or device has nothing to truncate.
  Fd opened(own >= 0 ? -1 : ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY));
  const int fd = own >= 0 ? own : opened.get();
  if (fd < 0) throw OutputError(path, "cannot open: " + errno_text(errno));
  if (!write_all(fd, bytes.data(), bytes.size())) throw OutputError(path, "cannot write: " + errno_text(errno));
}

std::string lower_extension(const std::string& path) {
  const std::size_t name_start = path.find_last_of('/') + 1;  // npos + 1 == 0
  const std::size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || dot <= name_start) return "";
  return ascii_lower(std::string_view(path).substr(dot + 1));
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

std::filesystem::path entry_path(const std::filesystem::path& path) {
  std::error_code ec;
  const std::filesystem::path whole = std::filesystem::absolute(path, ec);
  if (ec) return path.lexically_normal();
  // weakly_canonical leaves a relative path whose first part does not exist
  // relative: hence absolute first.
  const std::filesystem::path folder = std::filesystem::weakly_canonical(whole.parent_path(), ec);
  return (ec ? whole.parent_path().lexically_normal() : folder) / whole.filename();
}

bool same_entry(const std::string& a, const std::string& b) {
  const std::filesystem::path pa(a), pb(b);
  return pa.filename() == pb.filename() && entry_path(pa) == entry_path(pb);
}

}  // namespace gpuimg
