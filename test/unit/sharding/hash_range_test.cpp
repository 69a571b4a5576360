#include "ctrl/sharding/hash_range.hpp"

#include <gtest/gtest.h>

namespace ctrl::sharding {
namespace {

// Go's hash/fnv New64a, which the API server's sharding package uses.
TEST(Fnv1a64, MatchesTheReferenceValues) {
    EXPECT_EQ(Fnv1a64(""), 0xcbf29ce484222325ULL);
    EXPECT_EQ(Fnv1a64("a"), 0xaf63dc4c8601ec8cULL);
    EXPECT_EQ(Fnv1a64("foobar"), 0x85944171f73967e8ULL);
}

TEST(BucketSpace, RefusesACountThatIsNotAPowerOfTwoInRange) {
    for (const int count : {0, -4, 3, 100, 131072}) {
        StatusOr<BucketSpace> space = BucketSpace::Make(count);
        ASSERT_FALSE(space.Ok()) << count;
        EXPECT_NE(space.GetStatus().Message().find(std::to_string(count)), std::string::npos)
            << space.GetStatus().Message();
    }
    EXPECT_TRUE(BucketSpace::Make(1).Ok());
    EXPECT_TRUE(BucketSpace::Make(65536).Ok());
}

TEST(BucketSpace, ABucketIsTheHashsTopBits) {
    const BucketSpace space = *BucketSpace::Make(64);
    EXPECT_EQ(space.BucketOf(0), 0);
    EXPECT_EQ(space.BucketOf(0x03ffffffffffffffULL), 0);
    EXPECT_EQ(space.BucketOf(0x0400000000000000ULL), 1);
    EXPECT_EQ(space.BucketOf(0xffffffffffffffffULL), 63);
    EXPECT_EQ(space.FirstHash(1), 0x0400000000000000ULL);
    const BucketSpace one = *BucketSpace::Make(1);
    EXPECT_EQ(one.BucketOf(0xffffffffffffffffULL), 0);
    EXPECT_EQ(one.FirstHash(0), 0u);
}

TEST(MergeRuns, JoinsAdjacentBucketsAndDropsDuplicates) {
    EXPECT_EQ(MergeRuns({5, 1, 2, 3, 3, 7, 6}), (std::vector<BucketRun>{{1, 4}, {5, 8}}));
    EXPECT_TRUE(MergeRuns({}).empty());
}

// The API server's own examples (ListOptions.shardSelector): a 2-shard split of the uid hash.
TEST(ShardSelector, WritesTheApiServersTwoShardSplit) {
    const BucketSpace space = *BucketSpace::Make(64);
    std::vector<int> lower;
    std::vector<int> upper;
    for (int b = 0; b < 64; ++b)
        (b < 32 ? lower : upper).push_back(b);
    EXPECT_EQ(ShardSelector(space, ShardKey::kUid, lower),
              "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')");
    EXPECT_EQ(ShardSelector(space, ShardKey::kUid, upper),
              "shardRange(object.metadata.uid, '0x8000000000000000', '0x10000000000000000')");
}

TEST(ShardSelector, JoinsRunsWithOrAndIsEmptyForNoBuckets) {
    const BucketSpace space = *BucketSpace::Make(4);
    EXPECT_EQ(ShardSelector(space, ShardKey::kNamespace, {0, 3}),
              "shardRange(object.metadata.namespace, '0x0000000000000000', '0x4000000000000000') || "
              "shardRange(object.metadata.namespace, '0xc000000000000000', '0x10000000000000000')");
    EXPECT_EQ(ShardSelector(space, ShardKey::kUid, {}), "");
}

// A value's bucket agrees with the range the selector names for it.
TEST(ShardSelector, AValueFallsInTheRangeOfItsBucket) {
    const BucketSpace space = *BucketSpace::Make(16);
    for (const char* uid : {"3f1c2a10-8d2e-4b8a-9b0c-6a1d2e3f4a5b", "default", "kube-system", "x"}) {
        const std::uint64_t hash = Fnv1a64(uid);
        const int bucket = space.BucketOfValue(uid);
        EXPECT_GE(hash, space.FirstHash(bucket)) << uid;
        if (bucket + 1 < space.Count()) {
            EXPECT_LT(hash, space.FirstHash(bucket + 1)) << uid;
        }
    }
}

}  // namespace
}  // namespace ctrl::sharding
