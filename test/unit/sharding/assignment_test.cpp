#include "ctrl/sharding/assignment.hpp"

#include <map>
#include <set>
#include <string>
#include <vector>

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

// With the current claims, a member that joins takes exactly its share and nothing else moves,
// for rings of 1 to 8 members (the acceptance bound: a quarter of the buckets plus one, joining 3).
TEST(AssignBuckets, WithTheClaimsAJoiningMemberTakesOnlyItsShare) {
    std::vector<std::string> members{"replica-0"};
    auto before = AssignBuckets(members, kBuckets);
    for (int n = 1; n < 8; ++n) {
        members.push_back("replica-" + std::to_string(n));
        const auto after = AssignBuckets(members, kBuckets, before);
        const int taken = static_cast<int>(after.at(members.back()).size());
        EXPECT_EQ(MovedBuckets(before, after, kBuckets), taken) << n + 1 << " members";
        EXPECT_LE(taken, kBuckets / static_cast<int>(members.size()) + 1);
        EXPECT_EQ(AssignBuckets(members, kBuckets, after), after) << "the claims of an assignment are kept";
        before = after;
    }
}

TEST(AssignBuckets, WithTheClaimsALeavingMemberMovesOnlyItsOwnBuckets) {
    const std::vector<std::string> four{"a", "b", "c", "d"};
    const auto claims = AssignBuckets(four, kBuckets);
    const auto three = AssignBuckets({"a", "b", "d"}, kBuckets, claims);
    EXPECT_EQ(MovedBuckets(claims, three, kBuckets), static_cast<int>(claims.at("c").size()));
    for (const char* name : {"a", "b", "d"}) {
        const std::size_t owned = three.at(name).size();
        EXPECT_TRUE(owned == 21 || owned == 22) << name << " owns " << owned;
    }
}

// Claims of a handoff under way (a bucket claimed twice, one claimed by nobody, a non-member's):
// still one owner per bucket, and the shares even.
TEST(AssignBuckets, ClaimsInFluxStillGiveOneOwnerPerBucket) {
    std::map<std::string, std::vector<int>> claims = AssignBuckets({"a", "b"}, kBuckets);
    claims["a"].push_back(claims["b"].front());
    claims["b"].pop_back();
    claims["gone"] = {1, 2, 3};
    const auto assignment = AssignBuckets({"a", "b"}, kBuckets, claims);
    EXPECT_EQ(assignment.at("a").size() + assignment.at("b").size(), static_cast<std::size_t>(kBuckets));
    EXPECT_EQ(assignment.at("a").size(), 32u);
    EXPECT_EQ(MovedBuckets(assignment, AssignBuckets({"b", "a"}, kBuckets, claims), kBuckets), 0);
}

}  // namespace
}  // namespace ctrl::sharding
