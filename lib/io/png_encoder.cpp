// The PNG writer, on zlib directly rather than through libpng, so that the
// compression runs on every core: the rows are cut into segments of about
// 512 KiB, each filtered, deflated, ended on a byte boundary (Z_SYNC_FLUSH)
// and wrapped in its own IDAT chunk on its own thread; the chunks in order
// hold one zlib stream, whose Adler-32, combined from the segments', closes
// it in the last chunk. The cut depends on the
// image alone, never on the number of cores, so every machine writes the
// same bytes. With the run-length strategy, which looks back one byte, a
// cut costs a few bytes.
#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#include "avx2_clones.hpp"
#include "backends.hpp"
#include "parallel.hpp"
#include "png_encoder.hpp"

namespace gpuimg {
namespace {

constexpr bool kLittleEndianHost = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
constexpr std::size_t kSegmentBytes = std::size_t{1} << 19;

int paeth(int a, int b, int c) {
  const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

// The filters, byte i of a row from the current row and the previous one
// (a: the byte bpp to the left, b: above, c: above-left; 0 beyond the edge).
template <int Type> std::uint8_t filter_byte(int x, int a, int b, int c) {
  if constexpr (Type == 0) return static_cast<std::uint8_t>(x);
  if constexpr (Type == 1) return static_cast<std::uint8_t>(x - a);
  if constexpr (Type == 2) return static_cast<std::uint8_t>(x - b);
  if constexpr (Type == 3) return static_cast<std::uint8_t>(x - (a + b) / 2);
  return static_cast<std::uint8_t>(x - paeth(a, b, c));
}

// Applies filter Type to a row of n bytes into f (f[0], the type byte, is
// the caller's) and returns libpng's measure for choosing among them: the
// sum of the filtered bytes read as signed values. The first bpp bytes have
// no left neighbours; past them the loop has no branch and vectorises.
template <int Type>
GPUIMG_AVX2_CLONES std::uint32_t filter_row(const std::uint8_t* cur, const std::uint8_t* prev, std::size_t n,
                                            std::size_t bpp, std::uint8_t* f) {
  std::uint32_t sum = 0;
  const std::size_t head = std::min(bpp, n);
  for (std::size_t i = 0; i < head; ++i) {
    f[i] = filter_byte<Type>(cur[i], 0, prev[i], 0);
    sum += static_cast<std::uint32_t>(std::abs(static_cast<std::int8_t>(f[i])));
  }
  for (std::size_t i = head; i < n; ++i) {
    f[i] = filter_byte<Type>(cur[i], cur[i - bpp], prev[i], prev[i - bpp]);
    sum += static_cast<std::uint32_t>(std::abs(static_cast<std::int8_t>(f[i])));
  }
  return sum;
}

// Filters one row into out[0] (the type byte) and out[1..n]: `type`, or for
// adaptive the one of the five with the smallest measure; `candidate` (n + 1
// bytes) holds the one being tried. The 32-bit measure wraps only for rows
// over 32 MiB, which may then get a worse filter, never a wrong file.
void filter_row(PngFilter type, const std::uint8_t* cur, const std::uint8_t* prev, std::size_t n, int bpp,
                std::uint8_t* out, std::uint8_t* candidate) {
  using Filter = std::uint32_t (*)(const std::uint8_t*, const std::uint8_t*, std::size_t, std::size_t,
                                   std::uint8_t*);
  static constexpr Filter kFilters[] = {filter_row<0>, filter_row<1>, filter_row<2>, filter_row<3>, filter_row<4>};
  const auto b = static_cast<std::size_t>(bpp);
  if (type != PngFilter::adaptive) {
    out[0] = static_cast<std::uint8_t>(type);
    kFilters[static_cast<int>(type)](cur, prev, n, b, out + 1);
    return;
  }
  std::uint32_t best = UINT32_MAX;
  for (int t = 0; t <= 4; ++t) {
    const std::uint32_t s = kFilters[t](cur, prev, n, b, candidate + 1);
    if (s < best) {
      best = s;
      candidate[0] = static_cast<std::uint8_t>(t);
      std::swap_ranges(candidate, candidate + n + 1, out);  // out holds the best so far
    }
  }
}

int zlib_strategy(PngStrategy s) {
  switch (s) {
    case PngStrategy::rle: return Z_RLE;
    case PngStrategy::filtered: return Z_FILTERED;
    case PngStrategy::huffman: return Z_HUFFMAN_ONLY;
    default: return Z_DEFAULT_STRATEGY;
  }
}

// zlib counts in 32-bit lengths; a segment is one row at least, and a row
// can pass 4 GiB where --max-pixels is raised, so lengths go in pieces.
constexpr std::size_t kZlibMax = std::size_t{1} << 30;

// Appends `in` to `out` as raw deflate data (no zlib header), ending on a
// byte boundary: final (Z_FINISH) or not (Z_SYNC_FLUSH, an empty stored
// block), so that the next segment's data can follow.
bool deflate_all(const std::vector<std::uint8_t>& in, bool last, const PngSettings& settings, Bytes& out) {
  z_stream z{};
  if (deflateInit2(&z, settings.level, Z_DEFLATED, -15, 8, zlib_strategy(settings.strategy)) != Z_OK) return false;
  std::size_t used = out.size(), fed = 0;
  out.resize(used + deflateBound(&z, in.size()) + 64);
  int status = Z_OK;
  z.next_in = const_cast<std::uint8_t*>(in.data());
  do {
    z.avail_in = static_cast<uInt>(std::min(kZlibMax, in.size() - fed));
    fed += z.avail_in;
    const int flush = fed < in.size() ? Z_NO_FLUSH : last ? Z_FINISH : Z_SYNC_FLUSH;
    do {  // until deflate leaves output room unused: it has said all it can
      if (out.size() - used < 64) out.resize(out.size() * 2);
      z.next_out = out.data() + used;
      z.avail_out = static_cast<uInt>(std::min(kZlibMax, out.size() - used));
      status = deflate(&z, flush);
      used = static_cast<std::size_t>(z.next_out - out.data());
    } while (z.avail_out == 0 && status == Z_OK);
  } while (fed < in.size() && status == Z_OK);
  deflateEnd(&z);
  out.resize(used);
  return last ? status == Z_STREAM_END : status == Z_OK;
}

void put32(Bytes& out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(v >> shift));
}

}  // namespace

// Several chunks past 1 GiB: a chunk holds at most 2^31 - 1 bytes.
void put_png_chunks(Bytes& out, const char* type, const std::uint8_t* data, std::size_t n) {
  constexpr std::size_t kMaxChunk = std::size_t{1} << 30;
  std::size_t at = 0;
  do {
    const std::size_t len = std::min(kMaxChunk, n - at);
    put32(out, static_cast<std::uint32_t>(len));
    const std::size_t start = out.size();
    out.insert(out.end(), type, type + 4);
    out.insert(out.end(), data + at, data + at + len);
    put32(out, static_cast<std::uint32_t>(crc32(0, out.data() + start, static_cast<uInt>(len + 4))));
    at += len;
  } while (at < n);
}

namespace {

// One segment's share of the file: its IDAT chunks, complete with their
// CRCs (the last segment's deflated data bare, for the Adler-32 to follow
// in its chunk), and what the zlib stream's Adler-32 needs of it.
struct Segment {
  Bytes chunks, tail;
  uLong adler = 0;
  std::size_t raw_bytes = 0;
  bool failed = false;
  bool out_of_memory = false;
};

class PngRows {
 public:
  explicit PngRows(const Image& img)
      : img_(img), n_(img.row_bytes()), bpp_(img.channels * bytes_per_sample(img.depth)) {}
  std::size_t row_bytes() const { return n_; }
  int bpp() const { return bpp_; }

  // Row y as PNG stores it: 16-bit samples big-endian. `scratch` holds the
  // swapped copy where one is needed.
  const std::uint8_t* row(int y, std::uint8_t* scratch) const {
    const std::uint8_t* r = img_.data.data() + static_cast<std::size_t>(y) * n_;
    if (img_.depth == Depth::U8 || !kLittleEndianHost) return r;
    for (std::size_t i = 0; i < n_; i += 2) {
      scratch[i] = r[i + 1];
      scratch[i + 1] = r[i];
    }
    return scratch;
  }

 private:
  const Image& img_;
  std::size_t n_;
  int bpp_;
};

// Filters rows [y0, y1) and deflates them into one raw deflate piece,
// byte-aligned at the end, final only for the image's last segment; the
// first segment's piece starts with the zlib header.
void deflate_segment(const PngRows& rows, int y0, int y1, bool last, const PngSettings& settings, Segment& out) {
  const std::size_t n = rows.row_bytes();
  std::vector<std::uint8_t> zero(n, 0), cur_buf(n), prev_buf(n), candidate(n + 1);
  std::vector<std::uint8_t> filtered((n + 1) * static_cast<std::size_t>(y1 - y0));
  for (int y = y0; y < y1; ++y) {
    const std::uint8_t* cur = rows.row(y, cur_buf.data());
    const std::uint8_t* prev = y > 0 ? rows.row(y - 1, prev_buf.data()) : zero.data();
    filter_row(settings.filter, cur, prev, n, rows.bpp(), filtered.data() + (n + 1) * static_cast<std::size_t>(y - y0),
               candidate.data());
  }
  out.raw_bytes = filtered.size();
  out.adler = adler32(0, nullptr, 0);
  for (std::size_t at = 0; at < filtered.size(); at += kZlibMax)
    out.adler = adler32(out.adler, filtered.data() + at, static_cast<uInt>(std::min(kZlibMax, filtered.size() - at)));
  // zlib header: deflate, 32 KiB window, no dictionary, FCHECK making it a multiple of 31.
  Bytes deflated = y0 == 0 ? Bytes{0x78, 0x01} : Bytes{};
  out.failed = !deflate_all(filtered, last, settings, deflated);
  if (last)
    out.tail = std::move(deflated);
  else if (!out.failed)
    put_png_chunks(out.chunks, "IDAT", deflated.data(), deflated.size());
}

}  // namespace

Bytes encode_png(const Image& img, const PngSettings& settings, const Bytes& ancillary) {
  static constexpr std::uint8_t kColorTypes[] = {0, 0, 4, 2, 6};  // gray, gray+alpha, RGB, RGBA
  const PngRows rows(img);
  const int rows_per_segment = static_cast<int>(std::max<std::size_t>(1, kSegmentBytes / (rows.row_bytes() + 1)));
  const int segments = (img.height + rows_per_segment - 1) / rows_per_segment;
  std::vector<Segment> parts(segments);
  parallel_bands(segments, 1, [&](int s0, int s1) {
    for (int s = s0; s < s1; ++s) {
      try {  // an exception must not leave a worker thread
        deflate_segment(rows, s * rows_per_segment, std::min(img.height, (s + 1) * rows_per_segment),
                        s == segments - 1, settings, parts[s]);
      } catch (const std::bad_alloc&) {
        parts[s].failed = parts[s].out_of_memory = true;
      }
    }
  });

  Bytes out = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  Bytes header;
  put32(header, static_cast<std::uint32_t>(img.width));
  put32(header, static_cast<std::uint32_t>(img.height));
  header.insert(header.end(), {static_cast<std::uint8_t>(img.depth == Depth::U16 ? 16 : 8),
                               kColorTypes[img.channels], 0, 0, 0});  // deflate, adaptive filtering, no interlace
  put_png_chunks(out, "IHDR", header.data(), header.size());
  out.insert(out.end(), ancillary.begin(), ancillary.end());
  uLong adler = adler32(0, nullptr, 0);
  for (const Segment& part : parts) {
    if (part.out_of_memory) throw std::bad_alloc();
    if (part.failed) throw CodecFailure("cannot encode PNG (zlib failed)");
    out.insert(out.end(), part.chunks.begin(), part.chunks.end());
    adler = adler32_combine(adler, part.adler, static_cast<z_off_t>(part.raw_bytes));
  }
  // The Adler-32 closes the stream in the same chunk as the last data: a
  // reader that has all rows by then still checks it (libpng treats a
  // mismatch found after the last row as a mere warning).
  Bytes& tail = parts.back().tail;
  put32(tail, static_cast<std::uint32_t>(adler));
  put_png_chunks(out, "IDAT", tail.data(), tail.size());
  put_png_chunks(out, "IEND", nullptr, 0);
  return out;
}

}  // namespace gpuimg
