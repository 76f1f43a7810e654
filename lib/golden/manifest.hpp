#pragma once
// A golden manifest: one case a line,
//
//   NAME | INPUT | ARGS... [| LIMIT=VALUE ...]
//
// INPUT is relative to the manifest's folder; ARGS are operations as on the
// command line (`--blur 3 --invert`) and --depth (golden_command.hpp's
// parse_case_args reads them); the golden is NAME.png beside the
// manifest; the optional fourth column holds thresholds by their names in
// thresholds.hpp (`max-diff=1 min-psnr=45`), and none means the output must
// equal the golden sample for sample; beside them, the scope.hpp fields
// `ignore=X,Y,W,H` (repeatable), `mask=FILE` (relative to the manifest's
// folder), `alpha=ignore`, `threshold=T` and the bare word `ignore-aa`.
// Blank lines and lines starting with '#' are skipped. Single quotes group
// blanks and bars into a word, as a shell's do: --map 'r > 0.5 || g > 0.5'.
#include <cstddef>
#include <filesystem>
#include <functional>
#include <istream>
#include <string>
#include <utility>
#include <vector>

#include "error.hpp"
#include "scope.hpp"
#include "thresholds.hpp"

namespace gpuimg {

struct GoldenCase {
  std::string name;  // letters, digits and '_'
  std::filesystem::path input, golden;
  std::vector<std::string> args;
  Thresholds limits;
  Scope scope;
  int line;  // in the manifest, for messages
};

struct Manifest {
  std::filesystem::path path;
  std::vector<GoldenCase> cases;
};

// A manifest's bad lines, in order, each an InputError "PATH:LINE: what is
// wrong" with its own detail lines (an expression's caret). The first is
// this error itself, so that what() reads as a manifest with one bad line
// always did; past kMostBadLines the rest are only counted.
class ManifestError : public InputError {
 public:
  static constexpr std::size_t kMostBadLines = 20;
  ManifestError(std::vector<InputError> lines, std::size_t more)
      : InputError(lines.front()), lines_(std::move(lines)), more_(more) {}
  const std::vector<InputError>& lines() const { return lines_; }
  std::size_t more() const { return more_; }

 private:
  std::vector<InputError> lines_;
  std::size_t more_;
};

// A case's further check (`golden` parses its operations), run on each
// case read; the UsageError it throws makes the case's line a bad one.
using CaseCheck = std::function<void(const GoldenCase&)>;

// Throws InputError "PATH: cannot read" (or not text, or too long), or
// "PATH: no cases in the manifest"; ManifestError for bad lines, every
// line checked first.
Manifest read_manifest(const std::filesystem::path& path, const CaseCheck& check = {});

// The cases of a manifest's text, parsed as read_manifest parses them once
// it has read the file (and refused one that is not text or too long);
// `path` names it in messages and places INPUT and the goldens. Throws
// ManifestError, or InputError "PATH: no cases in the manifest".
Manifest parse_manifest(std::istream& text, const std::filesystem::path& path, const CaseCheck& check = {});

}  // namespace gpuimg
