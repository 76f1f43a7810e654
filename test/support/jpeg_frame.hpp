#pragma once
// The frame header (SOF) of a JPEG, parsed here rather than by the code
// under test: what the encoder stored, sampling factors included.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace gpuimg::test {

struct JpegFrame {
  int precision = 0, width = 0, height = 0;
  std::vector<int> sampling;  // per component: horizontal factor * 16 + vertical
};

inline std::optional<JpegFrame> jpeg_frame_of(const std::vector<std::uint8_t>& b) {
  for (std::size_t at = 2; at + 4 <= b.size();) {
    if (b[at] != 0xff) return std::nullopt;
    const int marker = b[at + 1];
    const std::size_t len = std::size_t{b[at + 2]} << 8 | b[at + 3];
    if (marker == 0xc0 || marker == 0xc1 || marker == 0xc2) {
      if (at + 2 + len > b.size() || len < 8) return std::nullopt;
      JpegFrame f;
      f.precision = b[at + 4];
      f.height = b[at + 5] << 8 | b[at + 6];
      f.width = b[at + 7] << 8 | b[at + 8];
      for (int c = 0; c < b[at + 9]; ++c) f.sampling.push_back(b[at + 11 + 3 * c]);
      return f;
    }
    at += 2 + len;
  }
  return std::nullopt;
}

}  // namespace gpuimg::test
