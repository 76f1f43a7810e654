#pragma once
// The outermost frame of the image-processing commands: an Error becomes its
// one line and exit code, running out of memory one line and exit 1.
#include <new>
#include <string>

#include "error.hpp"
#include "message_line.hpp"

namespace gpuimg {

// `subject` names what ran out of memory ("in.png: out of memory"); empty
// for a whole batch.
template <class F> int report_errors(const std::string& subject, F&& body) {
  try {
    return body();
  } catch (const Error& e) {
    print_message(e.what());
    return static_cast<int>(e.code());
  } catch (const std::bad_alloc&) {
    print_message((subject.empty() ? "" : subject + ": ") + "out of memory");
    return static_cast<int>(ExitCode::failure);
  }
}

}  // namespace gpuimg
