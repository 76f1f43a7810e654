#pragma once
// What the batch tests share: a generated nested folder of mixed images with
// a corrupt file and a non-image among them, and small file helpers.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "codec.hpp"
#include "random_image.hpp"
#include "run_binary.hpp"

namespace gpuimg::test {

inline std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_bytes(const fs::path& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

// Every regular file under `dir`, relative to it, sorted.
inline std::set<std::string> files_under(const fs::path& dir) {
  std::set<std::string> out;
  if (!fs::exists(dir)) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) out.insert(e.path().lexically_relative(dir).string());
  return out;
}

inline bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The good images (relative path -> what they are) and the bad files.
inline const std::vector<std::string> kGood = {"a.png", "ga.png", "sub/b.jpg", "sub/deep/c16.png"};
inline const std::vector<std::string> kOps = {"--blur", "1", "--invert", "--device", "cpu"};

// tmp/in: the four good images, sub/corrupt.png (random bytes) and notes.txt.
inline void make_input_tree(const fs::path& in) {
  fs::create_directories(in / "sub" / "deep");
  write_image((in / "a.png").string(), random_image(37, 23, 3, Depth::U8, 1));
  write_image((in / "ga.png").string(), random_image(16, 9, 2, Depth::U8, 2));
  write_image((in / "sub" / "b.jpg").string(), random_image(40, 30, 3, Depth::U8, 3));
  write_image((in / "sub" / "deep" / "c16.png").string(), random_image(21, 17, 4, Depth::U16, 4));
  write_bytes(in / "sub" / "corrupt.png", std::string(300, '\x5a'));
  write_bytes(in / "notes.txt", "not an image\n");
}

inline std::vector<std::string> args(std::vector<std::string> head, const std::vector<std::string>& tail) {
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

// What gpuimg INPUT OPS OUTPUT writes for one image on its own.
inline std::string single_result(const fs::path& input, const std::string& extension, const std::vector<std::string>& ops) {
  TempDir tmp;
  const fs::path out = tmp / ("single." + extension);
  const RunResult r = run_binary(args(args({input.string()}, ops), {out.string()}));
  EXPECT_EQ(r.status, 0) << r.err;
  return read_bytes(out);
}

inline std::string summary(int processed, int failed, int skipped) {
  return "gpuimg: " + std::to_string(processed) + " processed, " + std::to_string(failed) + " failed, " +
         std::to_string(skipped) + " skipped in ";
}

}  // namespace gpuimg::test
