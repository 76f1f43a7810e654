#pragma once
// The temporary file an output is written through (write_file_atomically in
// file_util.hpp), made beside the output and renamed over it when complete.
// Every one is listed while it exists, so that a process ending on a signal
// can remove its own (app/stop_signals.hpp).
#include <string>

namespace gpuimg {

class TemporaryFile {
 public:
  // Creates one, mode 0600, in the directory open as `dir_fd`, which must
  // stay open while it exists. Everything is done relative to that
  // descriptor and the name is short (`.gpuimg-tmp-XXXXXX`) whatever the
  // output's, so a temporary fits wherever its output does, even one whose
  // path is just under PATH_MAX. On failure fd() is -1 and error() the errno.
  explicit TemporaryFile(int dir_fd);
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  // Removes the file unless it was renamed into place.
  ~TemporaryFile();

  int fd() const { return fd_; }
  int error() const { return error_; }
  // Closes it now and reports the result: on some filesystems (NFS) a
  // failed write only shows up here.
  bool close();
  // Renames it over `name` in its directory; false, with errno set, on failure.
  bool rename_to(const std::string& name);

 private:
  int dir_fd_;
  int fd_ = -1;
  int error_ = 0;
  bool exists_ = false;
  std::string name_;

  friend void remove_temporaries_before_exit();
};

// For a process about to end on a signal: removes every temporary file that
// exists, and holds off for good any thread that would create or rename one.
void remove_temporaries_before_exit();

}  // namespace gpuimg
