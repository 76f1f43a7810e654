#include "stop_signals.hpp"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <thread>

#include "temporary_file.hpp"

namespace gpuimg {
namespace {

std::atomic<bool> g_record_only{false};
std::atomic<int> g_recorded{0};
std::atomic<int> g_ending{0};  // the signal the taking thread is ending the process by

sigset_t stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  return set;
}

[[noreturn]] void end_by(int signo) {
  std::signal(signo, SIG_DFL);
  sigset_t one;
  sigemptyset(&one);
  sigaddset(&one, signo);
  pthread_sigmask(SIG_UNBLOCK, &one, nullptr);
  ::raise(signo);
  ::_exit(128 + signo);  // not reached: each signal's default action ends the process
}

void take(sigset_t set) {
  for (;;) {
    int signo = 0;
    if (sigwait(&set, &signo) != 0) continue;
    if (g_record_only) {
      g_recorded = signo;
      continue;
    }
    g_ending = signo;
    remove_temporaries_before_exit();
    end_by(signo);
  }
}

}  // namespace

void take_stop_signals() {
  const sigset_t set = stop_signals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::thread(take, set).detach();
}

void record_stop_signals() { g_record_only = true; }

int stop_signal() { return g_recorded; }

int end_recording_stop_signals() {
  g_record_only = false;
  return g_recorded;
}

int settle_stop_signals(int status) {
  if (g_record_only) return status;
  sigset_t pending;
  sigemptyset(&pending);
  sigpending(&pending);
  bool stopping = g_ending != 0;
  for (const int signo : {SIGINT, SIGTERM, SIGHUP}) stopping = stopping || sigismember(&pending, signo) == 1;
  if (!stopping) return status;
  for (;;) pause();  // the taking thread ends the process by the signal
}

}  // namespace gpuimg
