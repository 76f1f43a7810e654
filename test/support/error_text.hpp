#pragma once
// The one line a failed read or write throws, for the tests that hold each
// message to its exact text: the error is caught by its type, and nothing
// may reach stderr meanwhile (a codec library writing to the terminal).
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "codec.hpp"
#include "error.hpp"

namespace gpuimg::test {

// The message of the E (InputError, OutputError) `f` throws, "(no
// exception)" where it throws none; asserts that it is one line and that
// nothing was printed.
template <class E>
std::string error_of(const std::function<void()>& f) {
  testing::internal::CaptureStderr();
  std::string message = "(no exception)";
  try {
    f();
  } catch (const E& e) {
    message = e.what();
  }
  const std::string printed = testing::internal::GetCapturedStderr();
  EXPECT_EQ(printed, "") << "a library wrote to stderr";
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  return message;
}

// What reading and decoding `path` fails with.
inline std::string read_error(const std::string& path, const ReadOptions& opts = {}) {
  return error_of<InputError>([&] { read_image(path, opts); });
}

}  // namespace gpuimg::test
