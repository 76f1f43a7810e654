#pragma once
// The outermost frames of the commands: an Error becomes its one line (and
// the lines under it), and an exit code.
#include <cstdio>
#include <new>
#include <string>
#include <vector>

#include "codec.hpp"
#include "error.hpp"
#include "file_util.hpp"
#include "message_line.hpp"

namespace gpuimg {

// The error's line, and the lines under it (Error::detail) indented.
inline void print_error(const Error& e, const std::string& suffix = "") {
  print_message(e.what() + suffix);
  for (const std::string& line : e.detail()) print_message("  " + line);
}

// The image-processing commands: an Error's own exit code, running out of
// memory exit 1. `subject` names what ran out of memory ("in.png: out of memory"); empty
// for a whole batch.
template <class F> int report_errors(const std::string& subject, F&& body) {
  try {
    return body();
  } catch (const Error& e) {
    print_error(e);
    return static_cast<int>(e.code());
  } catch (const std::bad_alloc&) {
    print_message((subject.empty() ? "" : subject + ": ") + "out of memory");
    return static_cast<int>(ExitCode::failure);
  }
}

// Refuses a --report that would replace one of `files`, which the run reads
// or writes: the report is written last, over what was there.
inline void refuse_report_over(const std::string& report, const std::vector<std::string>& files) {
  if (report.empty()) return;
  for (const std::string& file : files)
    if (file != "-" && same_entry(report, file))
      throw UsageError("--report: would replace " + file +
                       ", a file this run reads or writes; give the report its own file");
}

// A --report that could not be written, or would replace one of `files`,
// found before the work rather than after it (check_report_path): its exit
// code, or 0.
inline int refuse_unwritable_report(const std::string& path, const std::vector<std::string>& files) {
  if (path.empty()) return 0;
  return report_errors("", [&] {
    refuse_report_over(path, files);
    check_report_path(path);
    return 0;
  });
}

// compare, golden and report, whose exit 1 means "different" or "a file
// failed": every error, out of memory too, exits `code` (2), after what
// they printed on stdout so far.
template <class F> int report_errors_exiting(int code, F&& body) {
  try {
    return body();
  } catch (const Error& e) {
    std::fflush(stdout);
    print_error(e);
  } catch (const std::bad_alloc&) {
    std::fflush(stdout);
    print_message("out of memory");
  }
  return code;
}

}  // namespace gpuimg
