#pragma once
// Reading and seeking in bytes in memory, as libtiff's client procedures
// do them, for the reader's file (tiff_codec.cpp) and the writer's
// (tiff_writer.cpp) alike. Includes no libtiff header: each of those files
// wraps these in procedures of libtiff's types.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace gpuimg {

// Up to n bytes from pos, fewer at the end; returns how many.
inline std::int64_t read_at(const std::vector<std::uint8_t>& bytes, std::uint64_t& pos, void* buf, std::int64_t n) {
  const std::uint64_t left = pos < bytes.size() ? bytes.size() - pos : 0;
  const std::uint64_t count = std::min<std::uint64_t>(left, static_cast<std::uint64_t>(n));
  std::copy_n(bytes.data() + pos, count, static_cast<std::uint8_t*>(buf));
  pos += count;
  return static_cast<std::int64_t>(count);
}

inline std::uint64_t seek_to(std::uint64_t size, std::uint64_t& pos, std::uint64_t offset, int whence) {
  const std::uint64_t base = whence == SEEK_CUR ? pos : whence == SEEK_END ? size : 0;
  pos = base + offset;
  return pos;
}

}  // namespace gpuimg
