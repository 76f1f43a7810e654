#pragma once
// The built gpuimg started in the background, for tests that must act while
// it runs: signal it, feed its stdin, read its stderr from a terminal.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "run_binary.hpp"

namespace gpuimg::test {

class Child {
 public:
  // stdin_fd, stderr_fd: descriptors the child gets as 0 and 2; -1: /dev/null.
  // stdout is always /dev/null.
  Child(const std::vector<std::string>& args, const std::filesystem::path& cwd, int stdin_fd = -1,
        int stderr_fd = -1) {
    std::vector<std::string> words = {GPUIMG_BINARY};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    const std::string dir = cwd.string();
    pid_ = ::fork();
    if (pid_ < 0) detail::fail_errno("fork");
    if (pid_ == 0) {
      const int null = ::open("/dev/null", O_RDWR);
      const int in = stdin_fd >= 0 ? stdin_fd : null, err = stderr_fd >= 0 ? stderr_fd : null;
      if (null >= 0 && ::dup2(in, 0) == 0 && ::dup2(null, 1) == 1 && ::dup2(err, 2) == 2 && ::chdir(dir.c_str()) == 0)
        ::execv(argv[0], argv.data());
      ::_exit(127);
    }
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  ~Child() {
    if (!status_) {
      ::kill(pid_, SIGKILL);
      reap(true);
    }
  }

  void signal(int signo) { ::kill(pid_, signo); }

  // Stops it (SIGSTOP) and returns once it has stopped, so that what it was
  // doing stays as it is until resume(). False when it ended first.
  bool freeze() {
    ::kill(pid_, SIGSTOP);
    int status = 0;
    pid_t got;
    while ((got = ::waitpid(pid_, &status, WUNTRACED)) < 0 && errno == EINTR) {
    }
    if (got == pid_ && WIFSTOPPED(status)) return true;
    if (got == pid_) record(status);
    return false;
  }
  void resume() { ::kill(pid_, SIGCONT); }

  // The exit status once it has ended (as run_binary reports it), else nothing.
  std::optional<int> ended() {
    if (!status_) reap(false);
    return status_;
  }

  // Waits up to `seconds`; a child still running then is killed and the
  // result is -1, so a hung child fails its test instead of hanging it.
  int wait(double seconds) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (!ended() && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    if (status_) return *status_;
    ::kill(pid_, SIGKILL);
    reap(true);
    status_ = -1;
    return -1;
  }

 private:
  void reap(bool block) {
    int status = 0;
    pid_t got;
    while ((got = ::waitpid(pid_, &status, block ? 0 : WNOHANG)) < 0 && errno == EINTR) {
    }
    if (got == pid_) record(status);
  }
  void record(int status) { status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status); }

  pid_t pid_ = -1;
  std::optional<int> status_;
};

}  // namespace gpuimg::test
