#pragma once
// FNV-1a, 64 bits: a fast hash of bytes that names things (kernel cache
// entries, a batch run) and checks contents, not a cryptographic one.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace gpuimg {

inline std::uint64_t fnv1a(const char* data, std::size_t size) {
  std::uint64_t h = 14695981039346656037ull;
  for (std::size_t i = 0; i < size; ++i) h = (h ^ static_cast<unsigned char>(data[i])) * 1099511628211ull;
  return h;
}

// The hash of `bytes` as 16 lower-case hex digits.
inline std::string fnv1a_text(const std::string& bytes) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(fnv1a(bytes.data(), bytes.size())));
  return text;
}

}  // namespace gpuimg
