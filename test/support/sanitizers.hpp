#pragma once
// GPUIMG_ADDRESS_SANITIZER: 1 in a build under AddressSanitizer, whose
// shadow memory and quarantine make a process's peak RSS no measure of the
// program's own. GCC defines __SANITIZE_ADDRESS__; clang 14 does not, and
// answers only __has_feature, which GCC 12 lacks.
#if defined(__SANITIZE_ADDRESS__)
#define GPUIMG_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GPUIMG_ADDRESS_SANITIZER 1
#endif
#endif
#ifndef GPUIMG_ADDRESS_SANITIZER
#define GPUIMG_ADDRESS_SANITIZER 0
#endif
