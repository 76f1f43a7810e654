// Binary PGM (P5) and PPM (P6), 8 or 16 bits. Written here: a header line
// and the samples, big-endian, is all the format is, and neither stb nor
// the libraries already linked writes it (Netpbm's libnetpbm would, but
// ends the process on an error unless given a longjmp buffer).
#include <string>

#include "backends.hpp"

namespace gpuimg {

Bytes encode_pnm(const Image& img) {
  if (img.channels != 1 && img.channels != 3)
    throw CodecFailure("PNM holds gray or RGB, not " + std::to_string(img.channels) + " channels");
  const bool wide = img.depth == Depth::U16;
  const std::string header = std::string(img.channels == 1 ? "P5\n" : "P6\n") + std::to_string(img.width) + " " +
                             std::to_string(img.height) + "\n" + (wide ? "65535" : "255") + "\n";
  Bytes out(header.begin(), header.end());
  out.reserve(header.size() + img.data.size());
  if (!wide) {
    out.insert(out.end(), img.data.begin(), img.data.end());
    return out;
  }
  const std::uint16_t* samples = img.samples<std::uint16_t>();
  for (std::size_t i = 0; i < img.data.size() / 2; ++i) {
    out.push_back(static_cast<std::uint8_t>(samples[i] >> 8));
    out.push_back(static_cast<std::uint8_t>(samples[i] & 0xff));
  }
  return out;
}

}  // namespace gpuimg
