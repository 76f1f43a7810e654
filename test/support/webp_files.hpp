#pragma once
// Animated WebPs built by libwebpmux's WebPAnimEncoder, as a user's tools
// make them.
#include <gtest/gtest.h>
#include <webp/encode.h>
#include <webp/mux.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "image.hpp"

namespace gpuimg::test {

// An animation of `frames`, 8-bit RGBA of one size, each shown 100 ms,
// each stored losslessly.
inline std::vector<std::uint8_t> animated_webp(const std::vector<Image>& frames) {
  WebPAnimEncoderOptions options;
  EXPECT_TRUE(WebPAnimEncoderOptionsInit(&options));
  const std::unique_ptr<WebPAnimEncoder, void (*)(WebPAnimEncoder*)> encoder(
      WebPAnimEncoderNew(frames[0].width, frames[0].height, &options), WebPAnimEncoderDelete);
  WebPConfig config;
  EXPECT_TRUE(WebPConfigInit(&config));
  config.lossless = 1;
  int timestamp = 0;
  for (const Image& img : frames) {
    WebPPicture picture;
    EXPECT_TRUE(WebPPictureInit(&picture));
    picture.use_argb = 1;
    picture.width = img.width;
    picture.height = img.height;
    EXPECT_TRUE(WebPPictureImportRGBA(&picture, img.data.data(), img.width * 4));
    EXPECT_TRUE(WebPAnimEncoderAdd(encoder.get(), &picture, timestamp, &config));
    WebPPictureFree(&picture);
    timestamp += 100;
  }
  EXPECT_TRUE(WebPAnimEncoderAdd(encoder.get(), nullptr, timestamp, nullptr));
  WebPData data;
  WebPDataInit(&data);
  EXPECT_TRUE(WebPAnimEncoderAssemble(encoder.get(), &data));
  std::vector<std::uint8_t> out(data.bytes, data.bytes + data.size);
  WebPDataClear(&data);
  return out;
}

}  // namespace gpuimg::test
