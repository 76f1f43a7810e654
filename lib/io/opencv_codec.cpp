// OpenCV imgcodecs for WebP, BMP and PNM, and for writing TIFF; the only
// file that includes OpenCV. Bytes in, bytes out: we read and write files
// ourselves (cv::imwrite deletes its destination when an encode fails).
#include <opencv2/core.hpp>
#include <opencv2/core/utils/logger.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <iostream>
#include <mutex>
#include <sstream>

#include "backends.hpp"

namespace gpuimg {
namespace {

// OpenCV logs decoder complaints (and libtiff's, through its handlers) at
// warning level; none of it may reach the terminal.
void silence_opencv_once() {
  static const bool silenced = [] {
    cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT);
    return true;
  }();
  static_cast<void>(silenced);
}

const char* extension_for(Format f) {
  switch (f) {
    case Format::tiff: return ".tiff";
    case Format::webp: return ".webp";
    case Format::bmp: return ".bmp";
    default: return ".pnm";  // PNM: OpenCV picks P5 or P6 from the channel count
  }
}

// cv::Exception::what() spans lines (version, source file, line); err is
// the bare description.
std::string describe(const cv::Exception& e) { return e.err.substr(0, e.err.find('\n')); }

// imdecode catches its decoders' exceptions and prints them to std::cerr
// itself (loadsave.cpp in OpenCV 4.6), whatever the log level. std::cerr is
// pointed at a buffer meanwhile; its text becomes our message. The swap is
// process-wide: decodes are serialised, and another thread writing to
// std::cerr during one loses that text.
class CerrCapture {
 public:
  CerrCapture() : lock_(mutex()), saved_(std::cerr.rdbuf(buffer_.rdbuf())) {}
  CerrCapture(const CerrCapture&) = delete;
  CerrCapture& operator=(const CerrCapture&) = delete;
  ~CerrCapture() { std::cerr.rdbuf(saved_); }
  std::string text() const { return buffer_.str(); }

 private:
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  std::lock_guard<std::mutex> lock_;
  std::ostringstream buffer_;
  std::streambuf* saved_;
};

// "imdecode_(''): can't read data: OpenCV(4.6.0) src/bitstrm.cpp:102: error:
// (-2:Unspecified error) Unexpected end of input stream in function
// 'readBlock'" -> "Unexpected end of input stream"; "" when not in that form.
std::string complaint_in(const std::string& printed) {
  const std::size_t code = printed.find("error: (");
  const std::size_t start = code == std::string::npos ? code : printed.find(") ", code);
  if (start == std::string::npos) return "";
  const std::string rest = printed.substr(start + 2);
  return rest.substr(0, std::min(rest.find(" in function"), rest.find('\n')));
}

const char* depth_name(int depth) {
  switch (depth) {
    case CV_8S: return "signed 8-bit";
    case CV_16S: return "signed 16-bit";
    case CV_32S: return "signed 32-bit";
    case CV_32F: return "32-bit floating-point";
    case CV_64F: return "64-bit floating-point";
    default: return "16-bit floating-point";
  }
}

}  // namespace

Image decode_with_opencv(const Bytes& file, Format format) {
  silence_opencv_once();
  const std::string name = format_name(format);
  try {
    cv::Mat decoded;
    std::string complaint;
    {
      const CerrCapture capture;
      decoded = cv::imdecode(file, cv::IMREAD_UNCHANGED);
      complaint = complaint_in(capture.text());
    }
    if (decoded.empty()) {
      throw CodecFailure("corrupt or unsupported " + name + (complaint.empty() ? "" : " (OpenCV: " + complaint + ")"));
    }
    if (decoded.depth() != CV_8U && decoded.depth() != CV_16U) {
      throw CodecFailure(name + " with " + depth_name(decoded.depth()) + " samples is not supported (only 8- and 16-bit unsigned)");
    }
    if (decoded.channels() > 4) {
      throw CodecFailure(name + " with " + std::to_string(decoded.channels()) + " channels is not supported (at most 4)");
    }
    Image img(decoded.cols, decoded.rows, decoded.channels(), decoded.depth() == CV_16U ? Depth::U16 : Depth::U8);
    cv::Mat rgb(img.height, img.width, decoded.type(), img.data.data());  // writes straight into img
    if (img.channels == 3) {
      cv::cvtColor(decoded, rgb, cv::COLOR_BGR2RGB);
    } else if (img.channels == 4) {
      cv::cvtColor(decoded, rgb, cv::COLOR_BGRA2RGBA);
    } else {
      decoded.copyTo(rgb);
    }
    return img;
  } catch (const cv::Exception& e) {
    throw CodecFailure("cannot decode " + name + " (OpenCV: " + describe(e) + ")");
  }
}

Bytes encode_with_opencv(const Image& img, Format format) {
  silence_opencv_once();
  const int type = CV_MAKETYPE(img.depth == Depth::U16 ? CV_16U : CV_8U, img.channels);
  // imencode only reads the pixels; Mat has no const-data constructor.
  const cv::Mat rgb(img.height, img.width, type, const_cast<std::uint8_t*>(img.data.data()));
  // No WebP quality is passed: OpenCV then writes lossless WebP.
  const std::vector<int> params;
  Bytes out;
  try {
    cv::Mat bgr;  // a fresh Mat: converting into a copy of rgb's header would overwrite img
    if (img.channels == 3) {
      cv::cvtColor(rgb, bgr, cv::COLOR_RGB2BGR);
    } else if (img.channels == 4) {
      cv::cvtColor(rgb, bgr, cv::COLOR_RGBA2BGRA);
    } else {
      bgr = rgb;
    }
    if (!cv::imencode(extension_for(format), bgr, out, params)) {
      throw CodecFailure(std::string("OpenCV could not encode ") + format_name(format));
    }
  } catch (const cv::Exception& e) {
    throw CodecFailure(std::string("cannot encode ") + format_name(format) + " (OpenCV: " + describe(e) + ")");
  }
  return out;
}

std::string opencv_version() { return std::string("OpenCV ") + cv::getVersionString(); }

}  // namespace gpuimg
