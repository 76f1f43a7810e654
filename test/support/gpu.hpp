#pragma once
// GPU tests skip, never fail, where no usable GPU exists; the device script
// runs them where one does.
#include <gtest/gtest.h>

#include <string>

#include "backend.hpp"

#define GPUIMG_REQUIRE_GPU()                                              \
  do {                                                                    \
    std::string why_not;                                                  \
    if (!::gpuimg::cuda_usable(&why_not)) GTEST_SKIP() << why_not;        \
  } while (0)
