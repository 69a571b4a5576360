#include "ctrl/sharding/bucket_list.hpp"

#include <gtest/gtest.h>

namespace ctrl::sharding {
namespace {

TEST(BucketList, WritesRunsAndReadsThemBack) {
    EXPECT_EQ(FormatBucketList({7, 0, 1, 2, 3, 9, 10, 11, 12}), "0-3,7,9-12");
    EXPECT_EQ(FormatBucketList({}), "");
    EXPECT_EQ(ParseBucketList("0-3,7,9-12", 64), (std::vector<int>{0, 1, 2, 3, 7, 9, 10, 11, 12}));
    EXPECT_TRUE(ParseBucketList("", 64).empty());
}

// A claim nobody can read claims nothing: bad parts are left out, the rest kept.
TEST(BucketList, LeavesOutWhatIsNotABucketOfTheSpace) {
    EXPECT_EQ(ParseBucketList("x,3,5-2,60-70,-1,8-9,,63", 64), (std::vector<int>{3, 8, 9, 63}));
}

TEST(BucketList, BucketsOfASetAreItsMarkedIndexesAscending) {
    EXPECT_EQ(BucketsOf({true, false, false, true, true}), (std::vector<int>{0, 3, 4}));
    EXPECT_TRUE(BucketsOf({false, false}).empty());
}

}  // namespace
}  // namespace ctrl::sharding
