#pragma once
// A golden manifest: one case a line,
//
//   NAME | INPUT | ARGS... [| LIMIT=VALUE ...]
//
// INPUT is relative to the manifest's folder; ARGS are operations as on the
// command line (`--blur 3 --invert`); the golden is NAME.png beside the
// manifest; the optional fourth column holds thresholds by their names in
// thresholds.hpp (`max-diff=1 min-psnr=45`), and none means the output must
// equal the golden sample for sample; beside them, the scope.hpp fields
// `ignore=X,Y,W,H` (repeatable), `mask=FILE` (relative to the manifest's
// folder), `alpha=ignore`, `threshold=T` and the bare word `ignore-aa`.
// Blank lines and lines starting with '#' are skipped. Single quotes group
// blanks and bars into a word, as a shell's do: --map 'r > 0.5 || g > 0.5'.
#include <filesystem>
#include <istream>
#include <string>
#include <vector>

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

// Throws InputError: "PATH: cannot read" or "PATH:LINE: what is wrong".
Manifest read_manifest(const std::filesystem::path& path);

// The cases of a manifest's text, parsed as read_manifest parses them once
// it has read the file (and refused one that is not text or too long);
// `path` names it in messages and places INPUT and the goldens. Throws
// InputError "PATH:LINE: what is wrong".
Manifest parse_manifest(std::istream& text, const std::filesystem::path& path);

}  // namespace gpuimg
