#pragma once
// The page `golden check --html DIR` writes as DIR/index.html: every case
// in a table, then each failing case's expected image, output and
// difference picture, with buttons to show one and a slider that reveals
// the output over the expected image. One file with its style and script
// inline and the images beside it by relative names, so it opens from disk
// with no server and no network.
#include <string>

#include "check_report.hpp"

namespace gpuimg {

// The images of a failing case in DIR: "NAME.expected.png" (the golden as
// read), "NAME.actual.png" (the output) and "NAME.diff.png" (diff_image,
// absent when the shapes differ), for `which` "expected", "actual", "diff".
std::string html_image_name(const std::string& case_name, const char* which);

std::string html_report(const CheckRun& run);  // a whole page, ending in a newline

}  // namespace gpuimg
