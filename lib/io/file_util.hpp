#pragma once
// Whole-file reads and crash-safe whole-file writes, plus the path helpers
// the codec layer and the CLI share.
#include <cstdint>
#include <string>
#include <vector>

namespace gpuimg {

// The whole file, or InputError: "no such file", "is a directory",
// "permission denied", "empty file (0 bytes)", ... Inputs longer than
// max_bytes are refused: a regular file from its size, before reading; a
// pipe, device or /proc file once it runs past the limit ("input goes on
// past N bytes", so /dev/zero fails fast instead of filling memory). Both
// messages end with `why_limited`, which says where the limit comes from.
std::vector<std::uint8_t> read_file(const std::string& path, std::uint64_t max_bytes, const std::string& why_limited);

// Writes `bytes` to a temporary file in path's directory and renames it over
// `path`, so readers see the old file or the new one, never a partial one.
// A regular file it replaces keeps its permission bits (not its set-id
// bits, owner or group); a new file gets 0666 minus the umask.
// On failure the temporary is removed, `path` is untouched, OutputError.
void write_file_atomically(const std::string& path, const std::vector<std::uint8_t>& bytes);

// "photo.JPG" -> "jpg"; "" when the file name has no extension (".png" is
// a hidden file named png, as std::filesystem sees it).
std::string lower_extension(const std::string& path);

// "a/b.png" -> "a", "b.png" -> ".", "/b.png" -> "/".
std::string parent_directory(const std::string& path);

// strerror(err), lower-cased to sit inside our messages.
std::string errno_text(int err);

// Whether both paths exist and name the same file (hard links and symlinks
// included); false when either does not exist.
bool same_file(const std::string& a, const std::string& b);

}  // namespace gpuimg
