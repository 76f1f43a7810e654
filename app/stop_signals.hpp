#pragma once
// SIGINT, SIGTERM and SIGHUP (the terminal closed, an ssh session dropped),
// for every command. They are blocked in every thread
// and taken by a thread of their own (sigwait) rather than by a handler, so
// what a signal sets off is ordinary code: it may take the lock under which
// temporary files are made and renamed (temporary_file.hpp), and so remove
// exactly those that exist.
namespace gpuimg {

// Blocks the three signals and starts the thread that takes them. Call before
// any other thread starts: threads inherit the blocked signals, and one
// started earlier could receive them with their default action, which ends
// the process and leaves its temporaries. From then on a signal removes the
// temporary files and ends the process by that same signal, so that its
// parent sees it killed by it (a shell reports 130, 143 or 129), and a script
// stops at Ctrl-C as it does for any program killed by one; one that exits
// 130 instead is taken to have handled it, and the script runs on.
void take_stop_signals();

// A batch's way instead: from now on a signal is only recorded, for
// stop_signal(); the batch stops taking new files, lets a write under way
// complete and exits 128 + the signal's number.
void record_stop_signals();

// The signal recorded since record_stop_signals(), or 0.
int stop_signal();

// The batch's end: signals end the process again, as take_stop_signals()
// has it, and the signal recorded until now is returned (or 0). A signal
// sent during the batch's last write but taken only after its last check
// would otherwise be lost, and the batch exit 0; now it either was
// recorded or ends the process.
int end_recording_stop_signals();

// A command's end: `status`, unless a signal has come that the taking
// thread has not yet ended the process by. It may be waiting for the lock
// under which the command's last output was renamed; returning would then
// exit 0 under it, where the signal came while a temporary still existed.
// So it waits for the signal to end the process.
int settle_stop_signals(int status);

}  // namespace gpuimg
