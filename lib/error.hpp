#pragma once
// Failures travel as typed exceptions up to the CLI, which prints one line
// and exits with the code of the failure's kind. The library never exits.
// Messages hold file names as their raw bytes; the CLI escapes each line as
// it prints it (app/message_line.hpp), so no name can break the line.
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gpuimg {

// Documented in the README; scripts depend on these staying put.
enum class ExitCode : int {
  ok = 0,
  failure = 1,  // an input could not be read or an output could not be written
  usage = 2,    // bad command line: unknown option, bad value, missing path
  device = 3,   // the GPU was asked for and is missing, or a CUDA call failed
};

// `detail`: lines the CLI prints under the message, each on its own, such
// as an expression with a caret under the column a parse stopped at.
class Error : public std::runtime_error {
 public:
  Error(ExitCode code, const std::string& msg, std::vector<std::string> detail = {})
      : std::runtime_error(msg), code_(code), detail_(std::move(detail)) {}
  ExitCode code() const { return code_; }
  const std::vector<std::string>& detail() const { return detail_; }

 private:
  ExitCode code_;
  std::vector<std::string> detail_;
};

// An input's name in messages: "stdin" for the path "-", which reads stdin
// (file_util.hpp): a message starting "-:" reads as a stray dash.
inline std::string input_label(const std::string& path) { return path == "-" ? "stdin" : path; }

// "PATH: problem" for a file that could not be read or decoded, named by
// input_label.
struct InputError : Error {
  InputError(const std::string& path, const std::string& problem, std::vector<std::string> detail = {})
      : Error(ExitCode::failure, input_label(path) + ": " + problem, std::move(detail)) {}
};

// "PATH: problem" for a file that could not be encoded or written; "stdout:
// problem" for the path "-".
struct OutputError : Error {
  OutputError(const std::string& path, const std::string& problem)
      : Error(ExitCode::failure, (path == "-" ? "stdout" : path) + ": " + problem) {}
};

struct UsageError : Error {
  explicit UsageError(const std::string& msg, std::vector<std::string> detail = {})
      : Error(ExitCode::usage, msg, std::move(detail)) {}
};

struct DeviceError : Error {
  explicit DeviceError(const std::string& msg) : Error(ExitCode::device, msg) {}
};

}  // namespace gpuimg
