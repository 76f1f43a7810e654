#pragma once
// Animated PNGs built from images: each frame's pixels encoded by gpuimg's
// PNG writer, its IDAT data moved into the animation's chunks. Every field
// of an fcTL is the test's to set, so hostile files start from good ones.
#include <string>
#include <vector>

#include "codec.hpp"
#include "crafted_files.hpp"
#include "temp_dir.hpp"

namespace gpuimg::test {

struct ApngFrameSpec {
  Image pixels;
  std::uint32_t x = 0, y = 0;
  std::uint8_t dispose = 0;  // 0 none, 1 background, 2 previous
  std::uint8_t blend = 0;    // 0 source, 1 over
};

inline std::uint32_t be32_at(const Bytes& b, std::size_t at) {
  return std::uint32_t{b[at]} << 24 | std::uint32_t{b[at + 1]} << 16 | std::uint32_t{b[at + 2]} << 8 | b[at + 3];
}

// The PNG gpuimg writes for `img`: its IHDR's data and its IDAT chunks' data joined.
struct EncodedPng {
  Bytes ihdr, idat;
};

inline EncodedPng encode_png(const Image& img) {
  TempDir dir;
  write_image(dir.file("f.png"), img);
  const Bytes png = load(dir.file("f.png"));
  EncodedPng out;
  for (std::size_t at = 8; at + 12 <= png.size();) {
    const std::uint32_t length = be32_at(png, at);
    const std::string type(png.begin() + static_cast<std::ptrdiff_t>(at + 4), png.begin() + static_cast<std::ptrdiff_t>(at + 8));
    const auto data = png.begin() + static_cast<std::ptrdiff_t>(at + 8);
    if (type == "IHDR") out.ihdr.assign(data, data + 13);
    if (type == "IDAT") out.idat.insert(out.idat.end(), data, data + length);
    at += 12 + length;
  }
  return out;
}

inline Bytes fctl_data(std::uint32_t seq, const ApngFrameSpec& f) {
  Bytes d;
  for (const std::uint32_t v : {seq, static_cast<std::uint32_t>(f.pixels.width),
                                static_cast<std::uint32_t>(f.pixels.height), f.x, f.y})
    put_be32(d, v);
  d.insert(d.end(), {0, 1, 0, 10, f.dispose, f.blend});  // delay 1/10 s
  return d;
}

// An APNG of `frames` on a canvas the first frame's size (all frames of
// its channels and depth). `apart`: a default image outside the
// animation, shown alone by viewers without APNG; else the first frame is
// the default image.
inline Bytes make_apng(const std::vector<ApngFrameSpec>& frames, const Image* apart = nullptr) {
  Bytes out = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  put_png_chunk(out, "IHDR", encode_png(apart ? *apart : frames[0].pixels).ihdr);
  Bytes actl;
  put_be32(actl, static_cast<std::uint32_t>(frames.size()));
  put_be32(actl, 0);  // loop forever
  put_png_chunk(out, "acTL", actl);
  if (apart) put_png_chunk(out, "IDAT", encode_png(*apart).idat);
  std::uint32_t seq = 0;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    put_png_chunk(out, "fcTL", fctl_data(seq++, frames[i]));
    const Bytes data = encode_png(frames[i].pixels).idat;
    if (i == 0 && !apart) {
      put_png_chunk(out, "IDAT", data);
      continue;
    }
    Bytes fdat;
    put_be32(fdat, seq++);
    fdat.insert(fdat.end(), data.begin(), data.end());
    put_png_chunk(out, "fdAT", fdat);
  }
  put_png_chunk(out, "IEND", {});
  return out;
}

// Where the n-th chunk of `type` starts (its length field); the file's size where there is none.
inline std::size_t find_chunk(const Bytes& png, const std::string& type, int n = 0) {
  for (std::size_t at = 8; at + 12 <= png.size(); at += 12 + be32_at(png, at))
    if (std::equal(type.begin(), type.end(), png.begin() + static_cast<std::ptrdiff_t>(at + 4)) && n-- == 0) return at;
  return png.size();
}

// The chunk at `at` given new data, its length and CRC made good.
inline Bytes with_chunk_data(const Bytes& png, std::size_t at, const Bytes& data) {
  Bytes out(png.begin(), png.begin() + static_cast<std::ptrdiff_t>(at));
  put_png_chunk(out, std::string(png.begin() + static_cast<std::ptrdiff_t>(at + 4), png.begin() + static_cast<std::ptrdiff_t>(at + 8)),
                data);
  out.insert(out.end(), png.begin() + static_cast<std::ptrdiff_t>(at + 12 + be32_at(png, at)), png.end());
  return out;
}

}  // namespace gpuimg::test
