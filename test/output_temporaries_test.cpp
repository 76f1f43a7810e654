// The temporary file every output is written through (write_file_atomically):
// it fits wherever the output fits.
#include <gtest/gtest.h>
#include <limits.h>

#include <string>
#include <vector>

#include "codec.hpp"
#include "image_compare.hpp"
#include "run_binary.hpp"

namespace gpuimg::test {
namespace {

// Folders under `base` whose path, with "/" and a name of `name_length`
// bytes, comes to `total` bytes: 200-byte names, then one to make up the rest.
fs::path folder_for_path_length(const fs::path& base, std::size_t name_length, std::size_t total) {
  fs::path dir = base;
  while (dir.string().size() + (1 + 200) + (1 + 1) + (1 + name_length) <= total) dir /= std::string(200, 'd');
  dir /= std::string(total - dir.string().size() - 1 - (1 + name_length), 'e');
  return dir;
}

// An output one byte under PATH_MAX: its temporary, named and made relative
// to the output's folder, fits too.
TEST(OutputTemporaries, FitWhereverTheOutputFits) {
  TempDir tmp;
  const Image input = random_image(9, 7, 3, Depth::U8, 31);
  write_image(tmp.file("in.png"), input);
  const fs::path dir = folder_for_path_length(tmp.path(), 5, PATH_MAX - 1);
  fs::create_directories(dir);
  const fs::path out = dir / "o.png";
  ASSERT_EQ(out.string().size(), static_cast<std::size_t>(PATH_MAX - 1));

  const RunResult r = run_binary({"in.png", out.string()}, {tmp.path()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(same_samples(read_image(out.string()), input));
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{"o.png"});
}

}  // namespace
}  // namespace gpuimg::test
