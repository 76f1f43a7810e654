#pragma once
// The outermost frame of the image-processing commands: an Error becomes its
// one line and exit code, running out of memory one line and exit 1.
#include <iostream>
#include <new>
#include <string>

#include "error.hpp"

namespace gpuimg {

// `subject` names what ran out of memory ("in.png: out of memory"); empty
// for a whole batch.
template <class F> int report_errors(const std::string& subject, F&& body) {
  try {
    return body();
  } catch (const Error& e) {
    std::cerr << "gpuimg: " << e.what() << "\n";
    return static_cast<int>(e.code());
  } catch (const std::bad_alloc&) {
    std::cerr << "gpuimg: " << (subject.empty() ? "" : subject + ": ") << "out of memory\n";
    return static_cast<int>(ExitCode::failure);
  }
}

}  // namespace gpuimg
