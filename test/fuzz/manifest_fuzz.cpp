// Any text as a golden manifest, and each case's operations parsed as
// `golden check` parses them before running any: an InputError or
// UsageError is the only way out.
#include <sstream>
#include <string>

#include "error.hpp"
#include "fuzz_target.hpp"
#include "golden_command.hpp"
#include "manifest.hpp"

using gpuimg::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream text(std::string(reinterpret_cast<const char*>(data), size));
  gpuimg::Manifest m;
  try {
    m = gpuimg::parse_manifest(text, "dir/fuzz.txt");
  } catch (const gpuimg::InputError&) {
    return 0;
  }
  require(!m.cases.empty(), "a manifest read has cases");
  for (const gpuimg::GoldenCase& c : m.cases) {
    require(c.golden == "dir/" + c.name + ".png", "a case's golden is NAME.png beside the manifest");
    try {
      gpuimg::parse_case_args(c.args);
    } catch (const gpuimg::UsageError&) {
    }
  }
  return 0;
}
