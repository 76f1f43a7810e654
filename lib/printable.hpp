#pragma once
// File names are the user's bytes: a name holding ESC drives the terminal
// it is printed on, a newline splits the one-line message scripts parse,
// and bytes that are not UTF-8 make JSON invalid. Every file name, and
// every message holding one, goes through printable() on its way out.
#include <string>
#include <string_view>

namespace gpuimg {

// One line of valid UTF-8 that shows `bytes` exactly and drives no terminal:
// printable UTF-8 is kept as it is; `\` becomes `\\`; tab, newline and
// carriage return become `\t`, `\n`, `\r`; every other C0 control, DEL, each
// byte of a C1 control (U+0080 to U+009F), of a bidi control (U+202A to
// U+202E, U+2066 to U+2069, U+200E, U+200F, U+061C) or of a line or
// paragraph separator (U+2028, U+2029), and each byte that is not part of
// well-formed UTF-8 (overlong forms, surrogates, past U+10FFFF, truncated
// sequences, stray continuation bytes) becomes `\xNN`, two lowercase hex
// digits. Each escape stands for one byte and every literal `\` is doubled,
// so the original bytes can always be read back.
std::string printable(std::string_view bytes);

// The bytes printable() showed as `text`: what reads a name back from a
// report or JSON gpuimg wrote. Throws std::runtime_error for text it cannot
// have written (a `\` before anything but `\`, `t`, `n`, `r` or `x` and two
// hex digits).
std::string bytes_of_printable(std::string_view text);

}  // namespace gpuimg
