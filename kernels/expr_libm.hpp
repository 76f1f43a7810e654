#pragma once
// PLACEHOLDER being replaced in this session: the C library's functions,
// which differ between host and device. Included by expr_math.hpp only.
namespace gpuimg {
namespace xm {

GPUIMG_XM double exp(double a) { return ::exp(a); }
GPUIMG_XM double log(double a) { return ::log(a); }
GPUIMG_XM double sin(double a) { return ::sin(a); }
GPUIMG_XM double cos(double a) { return ::cos(a); }
GPUIMG_XM double tan(double a) { return ::tan(a); }
GPUIMG_XM double atan2(double y, double x) { return ::atan2(y, x); }
GPUIMG_XM double hypot(double a, double b) { return ::hypot(a, b); }
GPUIMG_XM double pow(double a, double b) { return ::pow(a, b); }

}  // namespace xm
}  // namespace gpuimg
