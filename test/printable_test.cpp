// printable() (lib/printable.hpp): every byte value, every code point, the
// ill-formed UTF-8 sequences, and random bytes read back exactly.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <random>
#include <string>

#include "printable.hpp"
#include "utf8_text.hpp"

namespace gpuimg::test {
namespace {

std::string hex_escapes(const std::string& bytes) {
  std::string out;
  for (const char c : bytes) {
    char buf[5];
    std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
    out += buf;
  }
  return out;
}

TEST(Printable, EveryByteAlone) {
  for (int b = 0; b < 256; ++b) {
    const std::string in(1, static_cast<char>(b));
    std::string expected = hex_escapes(in);  // controls, DEL, and any lone byte >= 0x80, which is never UTF-8
    if (b >= 0x20 && b < 0x7f) expected = in;
    if (b == '\\') expected = "\\\\";
    if (b == '\t') expected = "\\t";
    if (b == '\n') expected = "\\n";
    if (b == '\r') expected = "\\r";
    EXPECT_EQ(printable(in), expected) << "byte " << b;
  }
}

// The code points that reorder or break a line without being controls:
// bidi embeddings, overrides and isolates, the marks, and the line and
// paragraph separators.
bool reorders_or_breaks(std::uint32_t cp) {
  return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200e || cp == 0x200f ||
         cp == 0x061c || cp == 0x2028 || cp == 0x2029;
}

TEST(Printable, EveryCodePoint) {
  for (std::uint32_t cp = 0x80; cp <= 0x10ffff; ++cp) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const std::string in = encode_utf8(cp);
    // C1 controls, and those above, are escaped byte by byte.
    const std::string expected = cp < 0xa0 || reorders_or_breaks(cp) ? hex_escapes(in) : in;
    // Checked this way, not with EXPECT_EQ, so a million passing code points cost little.
    if (printable(in) != expected) ADD_FAILURE() << "U+" << std::hex << cp << ": " << printable(in);
  }
}

TEST(Printable, IllFormedSequencesEscapedByteByByte) {
  const char* cases[] = {
      "\xc0\x80", "\xc1\xbf",                  // overlong 2-byte forms
      "\xe0\x80\x80", "\xe0\x9f\xbf",          // overlong 3-byte forms
      "\xf0\x80\x80\x80", "\xf0\x8f\xbf\xbf",  // overlong 4-byte forms
      "\xf4\x90\x80\x80", "\xf5\x80\x80\x80",  // past U+10FFFF
      "\xf8\x88\x80\x80\x80", "\xfe", "\xff",    // bytes UTF-8 never uses
      "\x80", "\xbf\x80",                      // continuation bytes with no lead
      "\xe2\x82", "\xf0\x9f\x98",              // truncated at the end
  };
  for (const char* c : cases) EXPECT_EQ(printable(c), hex_escapes(c)) << hex_escapes(c);
  for (std::uint32_t s : {0xd800u, 0xdbffu, 0xdc00u, 0xdfffu})
    EXPECT_EQ(printable(encode_utf8(s)), hex_escapes(encode_utf8(s))) << "surrogate " << std::hex << s;
  // A truncated sequence takes only its own bytes: what follows is read afresh.
  EXPECT_EQ(printable("\xe2\x82" "A"), "\\xe2\\x82A");
  EXPECT_EQ(printable("\xf0\x9f\x98" "\xc3\xa9"), "\\xf0\\x9f\\x98\xc3\xa9");
  EXPECT_EQ(printable("\xe2\x82\xe2\x82\xac"), "\\xe2\\x82\xe2\x82\xac");
}

TEST(Printable, NamesAsTheySeemInMessages) {
  EXPECT_EQ(printable("out/photo 1.png"), "out/photo 1.png");
  EXPECT_EQ(printable("caf\xc3\xa9/\xe5\x86\x99\xe7\x9c\x9f \xf0\x9f\x93\xb7.png"),
            "caf\xc3\xa9/\xe5\x86\x99\xe7\x9c\x9f \xf0\x9f\x93\xb7.png");
  EXPECT_EQ(printable("a\x1b[31mred\nb.png"), "a\\x1b[31mred\\nb.png");
  EXPECT_EQ(printable(std::string("nul\0byte", 8)), "nul\\x00byte");
  EXPECT_EQ(printable("C:\\x41.png"), "C:\\\\x41.png");  // a literal backslash never reads as an escape
  EXPECT_EQ(printable(""), "");
}

// A name holding U+202E (right-to-left override) shows what follows it
// reversed: "photo\u202Egnp.exe" would read as "photoexe.png". U+2028 and
// U+2029 end a line in editors and some terminals' copy and paste.
TEST(Printable, BidiControlsAndLineSeparatorsAreEscaped) {
  EXPECT_EQ(printable("photo\xe2\x80\xaegnp.exe"), "photo\\xe2\\x80\\xaegnp.exe");
  EXPECT_EQ(printable("a\xe2\x81\xa6" "b\xe2\x81\xa9.png"), "a\\xe2\\x81\\xa6b\\xe2\\x81\\xa9.png");
  EXPECT_EQ(printable("\xd8\x9c\xe2\x80\x8e\xe2\x80\x8f"), "\\xd8\\x9c\\xe2\\x80\\x8e\\xe2\\x80\\x8f");
  EXPECT_EQ(printable("one\xe2\x80\xa8two\xe2\x80\xa9.png"), "one\\xe2\\x80\\xa8two\\xe2\\x80\\xa9.png");
  // Their neighbours are ordinary characters, shown as they are.
  for (const std::uint32_t cp : {0x061bu, 0x061du, 0x200du, 0x2010u, 0x2027u, 0x202fu, 0x2065u, 0x206au}) {
    EXPECT_EQ(printable(encode_utf8(cp)), encode_utf8(cp)) << "U+" << std::hex << cp;
  }
}

// Whatever the bytes: one line, no terminal control, valid UTF-8, and the
// bytes read back exactly.
TEST(Printable, AnyBytesGiveOneSafeLineThatReadsBack) {
  std::mt19937 rng(23);
  for (int i = 0; i < 20000; ++i) {
    std::string in(rng() % 12, '\0');
    // Half the strings from a few bytes only, so backslashes, 'x' and hex
    // digits, and lead and continuation bytes, meet often.
    const std::string pool = "\\x1f\n\xc2\x9b\xe2\x82\xac\xf0\x90\xed\xa0";
    for (char& c : in) c = i % 2 ? static_cast<char>(rng()) : pool[rng() % pool.size()];
    const std::string shown = printable(in);
    EXPECT_TRUE(is_utf8(shown)) << hex_escapes(in);
    for (std::size_t at = 0; at < shown.size(); ++at) {
      const auto u = static_cast<unsigned char>(shown[at]), next = static_cast<unsigned char>(shown[at + 1]);
      ASSERT_FALSE(u < 0x20 || u == 0x7f || (u == 0xc2 && next < 0xa0)) << hex_escapes(in);  // C0, DEL, C1
    }
    EXPECT_EQ(bytes_of_printable(shown), in) << hex_escapes(in) << " shown as " << shown;
  }
}

// What printable() cannot have written is refused, not guessed at.
TEST(Printable, TextItCannotHaveWrittenDoesNotReadBack) {
  for (const char* text : {"a\\", "\\q", "\\x", "\\x1", "\\x1G", "\\xAB", "ok\\"})
    EXPECT_THROW(bytes_of_printable(text), std::runtime_error) << text;
  EXPECT_EQ(bytes_of_printable("a\\\\b\\t\\x00\\xff"), std::string("a\\b\t\0\xff", 6));
}

}  // namespace
}  // namespace gpuimg::test
