// JPEG through libjpeg(-turbo) directly, in every build; the only file that
// includes jpeglib.h. Directly rather than through OpenCV or stb: OpenCV
// installs no message handler, so libjpeg printed its corrupt-data warnings
// on the terminal; and with one codec in both builds a JPEG comes out as the
// same bytes with or without OpenCV (given the same libjpeg-turbo).
#include <cstdio>  // jpeglib.h uses FILE and size_t without including their headers

#include <jpeglib.h>
#include <jerror.h>

#include <csetjmp>
#include <cstdlib>
#include <new>
#include <utility>

#include "backends.hpp"
#include "pixel_convert.hpp"
#include "resolution.hpp"

namespace gpuimg {
namespace {

// libjpeg calls error_exit for errors and emit_message for everything else,
// with msg_level -1 for a warning (corrupt data it works around, e.g.
// "Corrupt JPEG data: bad Huffman code": the pixels are then partly guessed),
// 0 for advisory and 1 and up for trace messages. Nothing is ever printed:
// an error or a warning longjmps back with the formatted message, and the
// image is refused; advisory and trace messages describe a sound file and
// are dropped unformatted.
struct ErrorManager {
  jpeg_error_mgr pub;  // first, so libjpeg's pointer to it is a pointer to us
  std::jmp_buf jump;
  int code = 0;                        // libjpeg's message code (JERR_*, JWRN_*)
  char message[JMSG_LENGTH_MAX] = "";  // fixed: the handlers must not allocate or throw
};

[[noreturn]] void fail(j_common_ptr cinfo) {
  auto* err = reinterpret_cast<ErrorManager*>(cinfo->err);
  err->code = cinfo->err->msg_code;
  cinfo->err->format_message(cinfo, err->message);
  std::longjmp(err->jump, 1);
}

void on_message(j_common_ptr cinfo, int msg_level) {
  if (msg_level < 0) fail(cinfo);
}

void print_nothing(j_common_ptr) {}

void install(ErrorManager& err) {
  jpeg_std_error(&err.pub);
  err.pub.error_exit = fail;
  err.pub.emit_message = on_message;
  err.pub.output_message = print_nothing;
}

// Runs `body` (libjpeg calls and plain arithmetic only: a longjmp skips
// destructors) and reports whether it finished rather than failing.
template <class Body>
bool jpeg_guarded(ErrorManager& err, Body&& body) {
  if (setjmp(err.jump)) return false;
  body();
  return true;
}

struct Decoder {
  ErrorManager err;
  jpeg_decompress_struct cinfo{};  // zeroed, so destroying it is safe even if creating it failed
  Decoder() {
    install(err);
    cinfo.err = &err.pub;
  }
  Decoder(const Decoder&) = delete;
  Decoder& operator=(const Decoder&) = delete;
  ~Decoder() { jpeg_destroy_decompress(&cinfo); }
};

struct Encoder {
  ErrorManager err;
  jpeg_compress_struct cinfo{};
  unsigned char* buffer = nullptr;  // jpeg_mem_dest's, malloc'ed by libjpeg and ours to free
  unsigned long size = 0;
  Encoder() {
    install(err);
    cinfo.err = &err.pub;
  }
  Encoder(const Encoder&) = delete;
  Encoder& operator=(const Encoder&) = delete;
  ~Encoder() {
    jpeg_destroy_compress(&cinfo);
    std::free(buffer);
  }
};

[[noreturn]] void fail_decode(const ErrorManager& err, int precision) {
  switch (err.code) {
    case JERR_OUT_OF_MEMORY: throw std::bad_alloc();
    case JERR_BAD_PRECISION:
      throw CodecFailure(std::to_string(precision) + "-bit JPEG is not supported (8-bit samples only)");
    case JERR_SOF_UNSUPPORTED:   // lossless and hierarchical JPEG
    case JERR_EMPTY_IMAGE:       // a height set later by a DNL marker
    case JERR_CONVERSION_NOTIMPL:
    case JERR_NOT_COMPILED:
      throw CodecFailure(std::string("unsupported JPEG (libjpeg: ") + err.message + ")");
    default: throw CodecFailure(std::string("corrupt JPEG (libjpeg: ") + err.message + ")");
  }
}

// An APP1 segment's contents: the identifying string (`id_len` bytes with
// its NULs), then `item`; nothing for no item.
Bytes app1_segment(const char* id, std::size_t id_len, const Bytes& item) {
  if (item.empty()) return {};
  Bytes seg(id, id + id_len);
  seg.insert(seg.end(), item.begin(), item.end());
  return seg;
}

// jpeg_read_header, and the colour space to decode into set: gray as
// gray, YCbCr and RGB as RGB, CMYK and YCCK as CMYK (turned into RGB row by
// row). Returns the channels decoded.
int read_header(Decoder& d, const Bytes& file, std::uint64_t max_pixels) {
  jpeg_decompress_struct& cinfo = d.cinfo;
  const bool header_read = jpeg_guarded(d.err, [&] {
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, file.data(), static_cast<unsigned long>(file.size()));
    jpeg_read_header(&cinfo, TRUE);
  });
  // libjpeg refuses a precision it was not built for inside jpeg_read_header,
  // after reading the SOF segment.
  if (!header_read) fail_decode(d.err, cinfo.data_precision);
  check_pixel_limit({cinfo.image_width, cinfo.image_height}, max_pixels);
  switch (cinfo.jpeg_color_space) {
    case JCS_GRAYSCALE: return 1;
    case JCS_YCbCr:
    case JCS_RGB: cinfo.out_color_space = JCS_RGB; return 3;
    case JCS_CMYK:
    case JCS_YCCK: cinfo.out_color_space = JCS_CMYK; return 3;  // libjpeg turns YCCK into CMYK
    default:
      throw CodecFailure("JPEG with " + std::to_string(cinfo.num_components) +
                         " components in an unknown colour space is not supported");
  }
}

}  // namespace

ImageShape jpeg_decoded_shape(const Bytes& file) {
  Decoder d;
  const int channels = read_header(d, file, UINT64_MAX);
  return ImageShape{d.cinfo.image_width, d.cinfo.image_height, channels, Depth::U8};
}

Image decode_jpeg(const Bytes& file, std::uint64_t max_pixels) {
  Decoder d;
  jpeg_decompress_struct& cinfo = d.cinfo;
  const int channels = read_header(d, file, max_pixels);
  const bool cmyk = cinfo.out_color_space == JCS_CMYK;
  // The accurate integer DCT (libjpeg's default, named so it stays pinned):
  // libjpeg-turbo's SIMD versions of it give the same bytes as its C code.
  cinfo.dct_method = JDCT_ISLOW;

  Image img(static_cast<int>(cinfo.image_width), static_cast<int>(cinfo.image_height), channels, Depth::U8);
  Bytes cmyk_row(cmyk ? std::size_t{cinfo.image_width} * 4 : 0);
  // jpeg_finish_decompress reads on to EOI, so damage after the last
  // scanline ("extraneous bytes before marker 0xd9") is refused too.
  const bool decoded = jpeg_guarded(d.err, [&] {
    jpeg_start_decompress(&cinfo);
    while (cinfo.output_scanline < cinfo.output_height) {
      std::uint8_t* out = img.data.data() + std::size_t{cinfo.output_scanline} * img.row_bytes();
      JSAMPROW row = cmyk ? cmyk_row.data() : out;
      jpeg_read_scanlines(&cinfo, &row, 1);
      if (!cmyk) continue;
      for (std::size_t x = 0; x < cinfo.output_width; ++x) {
        const std::uint8_t* p = cmyk_row.data() + 4 * x;
        for (int c = 0; c < 3; ++c) out[3 * x + c] = inverted_cmyk_to_rgb(p[c], p[3]);
      }
    }
    jpeg_finish_decompress(&cinfo);
  });
  if (!decoded) fail_decode(d.err, cinfo.data_precision);
  return img;
}

namespace {

// Luma's sampling factors, horizontal and vertical, against chroma's 1x1.
std::pair<int, int> luma_sampling(JpegSubsample subsample, int quality) {
  switch (subsample) {
    case JpegSubsample::s444: return {1, 1};
    case JpegSubsample::s422: return {2, 1};
    case JpegSubsample::s420: return {2, 2};
    case JpegSubsample::automatic: break;
  }
  // ImageMagick's rule: from quality 90 up the chroma is kept whole, where
  // subsampling is the largest loss left (colour edges smear over two
  // pixels) and asking for that quality is asking for fidelity; it costs
  // 15% in size at quality 95.
  return quality >= 90 ? std::pair{1, 1} : std::pair{2, 2};
}

}  // namespace

Bytes encode_jpeg(const Image& img, int quality, JpegSubsample subsample, const Metadata& metadata) {
  if (img.depth != Depth::U8 || (img.channels != 1 && img.channels != 3)) {
    throw CodecFailure("JPEG encoder takes 8-bit gray or RGB only");  // stored_layout() guarantees it
  }
  // Made before the guarded body: a longjmp out of it would skip their destructors.
  const Bytes exif = app1_segment("Exif\0", 6, metadata.exif), xmp = app1_segment("http://ns.adobe.com/xap/1.0/", 29, metadata.xmp);
  Encoder e;
  jpeg_compress_struct& cinfo = e.cinfo;
  const bool written = jpeg_guarded(e.err, [&] {
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, &e.buffer, &e.size);
    cinfo.image_width = static_cast<JDIMENSION>(img.width);
    cinfo.image_height = static_cast<JDIMENSION>(img.height);
    cinfo.input_components = img.channels;
    cinfo.in_color_space = img.channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&cinfo);  // YCbCr for RGB, JFIF header, baseline
    jpeg_set_quality(&cinfo, quality, TRUE);
    cinfo.dct_method = JDCT_ISLOW;
    // Huffman tables fitted to the image instead of the standard ones, for
    // a second pass over the coefficients: at 3840x2160, quality 95, 7%
    // smaller for 36 -> 77 ms (docs/formats.md).
    cinfo.optimize_coding = TRUE;
    if (const StoredDensity d = jfif_density(metadata.resolution); d.says_something()) {
      cinfo.density_unit = static_cast<UINT8>(d.unit);
      cinfo.X_density = static_cast<UINT16>(d.x);
      cinfo.Y_density = static_cast<UINT16>(d.y);
    }
    if (img.channels == 3) {
      const auto [h, v] = luma_sampling(subsample, quality);
      cinfo.comp_info[0].h_samp_factor = h;
      cinfo.comp_info[0].v_samp_factor = v;
    }
    jpeg_start_compress(&cinfo, TRUE);
    // After JFIF's APP0 (readers look for Exif in the first APP1, not the
    // first segment). libjpeg-turbo cuts the profile into APP2 chunks.
    if (!exif.empty()) jpeg_write_marker(&cinfo, JPEG_APP0 + 1, exif.data(), static_cast<unsigned>(exif.size()));
    if (!xmp.empty()) jpeg_write_marker(&cinfo, JPEG_APP0 + 1, xmp.data(), static_cast<unsigned>(xmp.size()));
    if (!metadata.icc.empty())
      jpeg_write_icc_profile(&cinfo, metadata.icc.data(), static_cast<unsigned>(metadata.icc.size()));
    while (cinfo.next_scanline < cinfo.image_height) {
      // libjpeg only reads the rows; JSAMPROW is not const.
      JSAMPROW row = const_cast<std::uint8_t*>(img.data.data()) + std::size_t{cinfo.next_scanline} * img.row_bytes();
      jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
  });
  if (!written) {
    if (e.err.code == JERR_OUT_OF_MEMORY) throw std::bad_alloc();
    throw CodecFailure(std::string("cannot encode JPEG (libjpeg: ") + e.err.message + ")");
  }
  return Bytes(e.buffer, e.buffer + e.size);
}

#define GPUIMG_STRINGIFY_(x) #x
#define GPUIMG_STRINGIFY(x) GPUIMG_STRINGIFY_(x)

// The headers built against: libjpeg has no call that reports its version.
std::string libjpeg_version() {
#ifdef LIBJPEG_TURBO_VERSION
  return "libjpeg-turbo " GPUIMG_STRINGIFY(LIBJPEG_TURBO_VERSION);
#else
  return "libjpeg " + std::to_string(JPEG_LIB_VERSION);
#endif
}

}  // namespace gpuimg
