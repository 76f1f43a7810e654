#pragma once
// The temporary file an output is written through (write_file_atomically in
// file_util.hpp), made beside the output and renamed over it when complete.
// Every one is listed while it exists, so that a process ending on a signal
// can remove its own (app/stop_signals.hpp), and named for the process that
// writes it, so that a later run can tell those of a process killed outright.
#include <chrono>
#include <string>

namespace gpuimg {

class TemporaryFile {
 public:
  // Creates one, mode 0600, in the directory open as `dir_fd`, which must
  // stay open while it exists. Everything is done relative to that
  // descriptor and the name is short (`.gpuimg-tmp-PID-XXXXXX`) whatever
  // the output's, so a temporary fits wherever its output does, even one
  // whose path is just under PATH_MAX. On failure fd() is -1 and error() the errno.
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

// How long a temporary must have gone unmodified before a process that did
// not make it may remove it. A temporary is made once its file is encoded
// and written straight through, so a live writer's is seconds old, even one
// whose PID means nothing here (another machine or container sharing the
// folder).
constexpr std::chrono::minutes kStaleTemporaryAge{10};

// Removes the temporaries in the directory open as `dir_fd` that are
// provably left over: named `.gpuimg-tmp-PID-XXXXXX`, regular files of this
// user, unmodified for kStaleTemporaryAge, whose PID no process has (SIGKILL,
// a crash or a power cut left them). Once per directory per process: later
// calls for the same directory return at once, so a batch of thousands of
// files in one folder lists it once. Listing takes about 0.4 ms per 1000
// entries (40 ms for 100,000 on ext4).
void remove_stale_temporaries(int dir_fd);

}  // namespace gpuimg
