#include "joined.hpp"

#include <gtest/gtest.h>

namespace gpuimg {
namespace {

TEST(Joined, PutsTheSeparatorBetweenItemsOnly) {
  EXPECT_EQ(joined({}, ", "), "");
  EXPECT_EQ(joined({"a"}, ", "), "a");
  EXPECT_EQ(joined({"a", "b", "c"}, ", "), "a, b, c");
  EXPECT_EQ(joined({"", "b", ""}, ";"), ";b;");
}

TEST(Joined, TheLastSeparatorGoesBeforeTheLastItem) {
  EXPECT_EQ(joined({"a"}, ", ", " or "), "a");
  EXPECT_EQ(joined({"a", "b"}, ", ", " or "), "a or b");
  EXPECT_EQ(joined({"a", "b", "c"}, ", ", " and "), "a, b and c");
}

}  // namespace
}  // namespace gpuimg
