#pragma once
// A named pipe fed by a thread, standing in for `<(command)` or a device:
// an input that is not a regular file and has no size.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace gpuimg::test {

class FifoFeeder {
 public:
  // Makes a FIFO at `path` and writes `total` bytes into it, `bytes`
  // repeated, once a reader opens it. Stops early when the reader closes
  // (EPIPE: SIGPIPE is blocked in the feeding thread), or after 10 s
  // without one, so a test that never reads still ends.
  FifoFeeder(const std::string& path, std::vector<std::uint8_t> bytes, std::uint64_t total)
      : FifoFeeder(path, {}, std::move(bytes), total) {}
  // The same, with `first` written once before `bytes` repeated.
  FifoFeeder(const std::string& path, std::vector<std::uint8_t> first, std::vector<std::uint8_t> bytes,
             std::uint64_t total)
      : first_(std::move(first)), bytes_(std::move(bytes)) {
    if (::mkfifo(path.c_str(), 0600) != 0) throw std::system_error(errno, std::generic_category(), "mkfifo");
    thread_ = std::thread([this, path, total] { feed(path, total); });
  }
  FifoFeeder(const FifoFeeder&) = delete;
  FifoFeeder& operator=(const FifoFeeder&) = delete;
  ~FifoFeeder() { thread_.join(); }

 private:
  void feed(const std::string& path, std::uint64_t total) {
    sigset_t pipe_signal;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
    // Non-blocking open fails (ENXIO) until a reader is there.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    int fd = -1;
    while ((fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC)) < 0) {
      if (errno != ENXIO || std::chrono::steady_clock::now() > deadline) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    std::uint64_t at = 0, written = 0;
    for (std::size_t done_first = 0; done_first < first_.size();) {
      const ssize_t done = ::write(fd, first_.data() + done_first, first_.size() - done_first);
      if (done < 0 && errno == EINTR) continue;
      if (done <= 0) {
        ::close(fd);
        return;
      }
      done_first += static_cast<std::size_t>(done);
    }
    while (written < total) {
      const std::size_t n = std::min<std::uint64_t>(bytes_.size() - at, total - written);
      const ssize_t done = ::write(fd, bytes_.data() + at, n);
      if (done < 0 && errno == EINTR) continue;
      if (done <= 0) break;  // EPIPE: the reader has gone
      written += static_cast<std::uint64_t>(done);
      at = (at + static_cast<std::uint64_t>(done)) % bytes_.size();
    }
    ::close(fd);
  }

  std::vector<std::uint8_t> first_;
  std::vector<std::uint8_t> bytes_;
  std::thread thread_;
};

}  // namespace gpuimg::test
