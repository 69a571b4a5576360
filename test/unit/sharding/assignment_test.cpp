#include "ctrl/sharding/assignment.hpp"

#include <set>
#include <string>

#include <gtest/gtest.h>

namespace ctrl::sharding {
namespace {

constexpr int kBuckets = 64;

// Every bucket has exactly one owner.
void ExpectEveryBucketOwnedOnce(const std::map<std::string, std::vector<int>>& assignment) {
    std::multiset<int> owned;
    for (const auto& [name, buckets] : assignment)
        owned.insert(buckets.begin(), buckets.end());
    ASSERT_EQ(owned.size(), static_cast<std::size_t>(kBuckets));
    for (int b = 0; b < kBuckets; ++b)
        EXPECT_EQ(owned.count(b), 1u) << "bucket " << b;
}

TEST(AssignBuckets, SharesDifferByOneBucketAtMost) {
    for (int n = 1; n <= 7; ++n) {
        std::vector<std::string> members;
        for (int i = 0; i < n; ++i)
            members.push_back("replica-" + std::to_string(i));
        const auto assignment = AssignBuckets(members, kBuckets);
        ExpectEveryBucketOwnedOnce(assignment);
        ASSERT_EQ(assignment.size(), static_cast<std::size_t>(n));
        for (const auto& [name, buckets] : assignment) {
            EXPECT_GE(static_cast<int>(buckets.size()), kBuckets / n) << name << " of " << n;
            EXPECT_LE(static_cast<int>(buckets.size()), (kBuckets + n - 1) / n) << name << " of " << n;
        }
    }
}

TEST(AssignBuckets, EveryMemberComputesTheSameAnswerWhateverTheOrder) {
    EXPECT_EQ(AssignBuckets({"a", "b", "c"}, kBuckets), AssignBuckets({"c", "a", "b", "a"}, kBuckets));
}

TEST(AssignBuckets, NoMembersOwnNothing) {
    EXPECT_TRUE(AssignBuckets({}, kBuckets).empty());
}

// A leaving member's buckets move; of the others' buckets, few do (the bounded loads reshuffle a
// little so the shares stay even).
TEST(AssignBuckets, ALeavingMemberMovesLittleMoreThanItsOwnBuckets) {
    const auto three = AssignBuckets({"a", "b", "c"}, kBuckets);
    const auto two = AssignBuckets({"a", "b"}, kBuckets);
    const int held_by_c = static_cast<int>(three.at("c").size());
    const int moved = MovedBuckets(three, two, kBuckets);
    EXPECT_GE(moved, held_by_c);
    EXPECT_LE(moved, held_by_c + kBuckets / 8) << "moved " << moved << " of " << kBuckets;
}

TEST(AssignBuckets, AJoiningMemberTakesLittleMoreThanItsShare) {
    const auto two = AssignBuckets({"a", "b"}, kBuckets);
    const auto three = AssignBuckets({"a", "b", "c"}, kBuckets);
    const int taken_by_c = static_cast<int>(three.at("c").size());
    const int moved = MovedBuckets(two, three, kBuckets);
    EXPECT_GE(moved, taken_by_c);
    EXPECT_LE(moved, taken_by_c + kBuckets / 8) << "moved " << moved << " of " << kBuckets;
}

}  // namespace
}  // namespace ctrl::sharding
