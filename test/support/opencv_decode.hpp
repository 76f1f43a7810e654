#pragma once
// cv::imdecode as an oracle for the readers that replaced it (gpuimg read
// TIFF, PNM and BMP through OpenCV before): its result in R,G,B(,A) order.
#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <cstdint>
#include <vector>

#include "image.hpp"

namespace gpuimg::test {

inline Image opencv_decode(const std::vector<std::uint8_t>& file) {
  const cv::Mat m = cv::imdecode(file, cv::IMREAD_UNCHANGED);
  EXPECT_FALSE(m.empty());
  Image img(m.cols, m.rows, m.channels(), m.depth() == CV_16U ? Depth::U16 : Depth::U8);
  cv::Mat rgb(img.height, img.width, m.type(), img.data.data());
  if (m.channels() == 3)
    cv::cvtColor(m, rgb, cv::COLOR_BGR2RGB);
  else if (m.channels() == 4)
    cv::cvtColor(m, rgb, cv::COLOR_BGRA2RGBA);
  else
    m.copyTo(rgb);
  return img;
}

}  // namespace gpuimg::test
