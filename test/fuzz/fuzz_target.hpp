#pragma once
// What every fuzz target shares: the entry point libFuzzer (or
// replay_main.cpp) calls, and the check that turns a broken promise into a
// crash the fuzzer keeps, since only a crash counts as a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace gpuimg::fuzz {

inline void require(bool holds, const char* promise) {
  if (holds) return;
  std::fprintf(stderr, "fuzz: broken promise: %s\n", promise);
  std::abort();
}

}  // namespace gpuimg::fuzz
