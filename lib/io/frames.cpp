#include "frames.hpp"

#include <string>

#include "backends.hpp"

namespace gpuimg {

std::size_t gif_frame_count(const Bytes& file) {
  std::size_t at = 13, frames = 0;
  const auto byte = [&](std::size_t i) { return i < file.size() ? file[i] : 0; };
  // Sub-blocks, each a length byte and that many bytes, up to an empty one.
  const auto skip_sub_blocks = [&] {
    while (at < file.size() && file[at] != 0) at += 1 + std::size_t{file[at]};
    ++at;
  };
  if (byte(10) & 0x80) at += 3 * (std::size_t{2} << (byte(10) & 7));
  while (at < file.size()) {
    const int tag = file[at++];
    if (tag == 0x21) {
      ++at;  // the extension's label
      skip_sub_blocks();
    } else if (tag == 0x2c) {
      ++frames;
      const int local = byte(at + 8);
      at += 9;
      if (local & 0x80) at += 3 * (std::size_t{2} << (local & 7));
      ++at;  // the LZW minimum code size
      skip_sub_blocks();
    } else {
      break;  // the trailer, or a block stb refuses
    }
  }
  return frames == 0 ? 1 : frames;
}

std::size_t frame_to_decode(Format format, std::size_t count, int frame) {
  const std::string name = format == Format::png && count > 1 ? "animated PNG" : format_name(format);
  const std::string noun = format == Format::tiff ? "page" : "frame";
  const std::string range = count == 1 ? "0" : "0 to " + std::to_string(count - 1);
  if (frame == kNoFrame) {
    if (count == 1) return 0;
    throw CodecFailure(name + " of " + std::to_string(count) + " " + noun + "s; gpuimg reads one: pick it with " +
                       "--frame N (" + range + ")");
  }
  if (static_cast<std::size_t>(frame) < count) return static_cast<std::size_t>(frame);
  throw CodecFailure("--frame " + std::to_string(frame) + ": the " + name + " has " + std::to_string(count) + " " +
                     noun + (count == 1 ? "" : "s") + " (" + range + ")");
}

}  // namespace gpuimg
