#pragma once
// Whole-file reads and crash-safe whole-file writes, plus the path helpers
// the codec layer and the CLI share.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace gpuimg {

// An input read in steps, so that its first bytes can be looked at before
// the rest is buffered: a stream of an unknown format is refused at once,
// and one whose header gives its size is read no further than that size
// allows. Errors are InputError naming the path: "no such file", "is a
// directory", "permission denied", "cannot read: ...". Inputs longer than
// the limit are refused: a regular file from its size, before reading; a
// pipe, device or /proc file once it runs past it ("input goes on past N
// bytes", so /dev/zero fails fast instead of filling memory). Both messages
// end with the limit's `why`. The path "-" reads stdin under the same
// limits, refused when it is a terminal (the run would wait for typing).
class InputReader {
 public:
  InputReader(const std::string& path, std::uint64_t max_bytes, std::string why);
  InputReader(const InputReader&) = delete;
  InputReader& operator=(const InputReader&) = delete;
  ~InputReader();

  // Appends to `bytes` until it holds `want` bytes or the input ends.
  void read_up_to(std::vector<std::uint8_t>& bytes, std::size_t want);
  // Lowers the limit (a higher one is ignored), refusing a regular file
  // already known to be longer.
  void lower_limit(std::uint64_t max_bytes, std::string why);
  // Appends the rest of the input to `bytes`; refuses it past the limit.
  void read_rest(std::vector<std::uint8_t>& bytes);

 private:
  void check_size() const;

  std::string path_;
  int fd_ = -1;
  bool owned_ = true;  // false for stdin, which stays open
  bool regular_ = false;
  std::uint64_t size_ = 0;  // regular files only
  std::uint64_t max_bytes_;
  std::string why_;
  bool ended_ = false;
};

// The whole file through an InputReader, or InputError; an empty file is
// refused too ("empty file (0 bytes)").
std::vector<std::uint8_t> read_file(const std::string& path, std::uint64_t max_bytes, const std::string& why_limited);

// Writes `bytes` to a temporary file in path's directory and renames it over
// `path`, so readers see the old file or the new one, never a partial one.
// A regular file it replaces keeps its permission bits (not its set-id
// bits, owner or group); a new file gets 0666 minus the umask. Any `path`
// the system takes will do: the temporary's path is never longer.
// On failure the temporary is removed, `path` is untouched, OutputError.
void write_file_atomically(const std::string& path, const std::vector<std::uint8_t>& bytes);

// Whether write_output writes `path` in place rather than by
// write_file_atomically: "-" (stdout), a name of one of the process's own
// descriptors (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N), or an
// existing FIFO or character device, which a rename would replace and
// whose reader would get nothing.
bool written_in_place(const std::string& path);

// For an output written in place: OutputError when it cannot be (stdout or
// the descriptor is a terminal, or not open; the FIFO or device is not
// writable). Checked before decoding.
void check_in_place_output(const std::string& path);

// Writes `bytes` to `path`: in place where written_in_place says so (to
// the descriptor as it is, so a shell's `>>` appends; a FIFO opened and
// written, waiting for its reader), otherwise by write_file_atomically.
// Written in place, a failure midway (the reader gone, a full disk behind
// a redirection) leaves the bytes already written: OutputError.
void write_output(const std::string& path, const std::vector<std::uint8_t>& bytes);

// "photo.JPG" -> "jpg"; "" when the file name has no extension (".png" is
// a hidden file named png, as std::filesystem sees it).
std::string lower_extension(const std::string& path);

// "a/b.png" -> "a", "b.png" -> ".", "/b.png" -> "/".
std::string parent_directory(const std::string& path);

// strerror(err), lower-cased to sit inside our messages.
std::string errno_text(int err);

// Writes all `n` bytes to `fd`, going on after a short write or EINTR;
// false on failure, with errno set.
bool write_all(int fd, const void* data, std::size_t n);

// Whether both paths exist and name the same file (hard links and symlinks
// included); false when either does not exist.
bool same_file(const std::string& a, const std::string& b);

// The directory entry a path names: its folder resolved (absolute, links
// and dot-dots gone) and its own name as given. A file written through a
// rename, as outputs and reports are, replaces that entry, never what a
// link there points to.
std::filesystem::path entry_path(const std::filesystem::path& path);

// Whether a file written at `a` through a rename would replace `b`.
bool same_entry(const std::string& a, const std::string& b);

}  // namespace gpuimg
