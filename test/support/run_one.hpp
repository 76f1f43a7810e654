#pragma once
// One stage on the CPU backend, the input left as it was: what the oracle
// tests hold each op's output against.
#include "backend.hpp"
#include "image.hpp"
#include "pipeline.hpp"

namespace gpuimg::test {

inline Image run_one(const Image& in, const OpRecord& rec) {
  Image out = in;
  run_cpu(out, {rec});
  return out;
}

}  // namespace gpuimg::test
