#include "ctrl/sharding/shard_filter.hpp"

#include <cstdint>
#include <string>

#include <gtest/gtest.h>

namespace ctrl::sharding {
namespace {

Object WithUidAndNamespace(const std::string& uid, const std::string& namespace_name) {
    Object object = *Object::Parse(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"}})");
    EXPECT_TRUE(object.SetNestedString({"metadata", "uid"}, uid).Ok());
    object.SetNamespace(namespace_name);
    return object;
}

TEST(ShardFilter, ByDefaultKeepsEverythingAndSendsNoSelector) {
    const ShardFilter all;
    EXPECT_TRUE(all.SelectsEverything());
    EXPECT_EQ(all.Selector(), "");
    EXPECT_TRUE(all.Keeps(WithUidAndNamespace("u", "n")));
}

// A uid as the API server makes them (random, UUID-shaped); FNV-1a spreads such values over the
// whole hash space, where strings that differ only in their last characters share their top bits.
std::string RandomUid(uint64_t& state) {
    std::string uid;
    for (int i = 0; i < 32; ++i) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        uid += "0123456789abcdef"[state >> 60];
        if (i == 7 || i == 11 || i == 15 || i == 19)
            uid += '-';
    }
    return uid;
}

TEST(ShardFilter, KeepsExactlyTheObjectsOfItsBuckets) {
    const BucketSpace space = *BucketSpace::Make(8);
    const ShardFilter lower(space, ShardKey::kUid, {0, 1, 2, 3});
    const ShardFilter upper(space, ShardKey::kUid, {4, 5, 6, 7});
    EXPECT_EQ(lower.Selector(), "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')");
    int kept = 0;
    uint64_t state = 42;
    for (int i = 0; i < 200; ++i) {
        const std::string uid = RandomUid(state);
        const Object object = WithUidAndNamespace(uid, "ns");
        EXPECT_NE(lower.Keeps(object), upper.Keeps(object)) << uid;
        kept += lower.Keeps(object) ? 1 : 0;
        EXPECT_EQ(lower.Keeps(object), Fnv1a64(uid) < 0x8000000000000000ULL) << uid;
    }
    EXPECT_GT(kept, 0);
    EXPECT_LT(kept, 200);
}

TEST(ShardFilter, ByNamespaceHashesTheNamespace) {
    const BucketSpace space = *BucketSpace::Make(4);
    const int bucket = space.BucketOfValue("team-a");
    const ShardFilter mine(space, ShardKey::kNamespace, {bucket});
    EXPECT_TRUE(mine.Keeps(WithUidAndNamespace("any-uid", "team-a")));
    EXPECT_TRUE(mine.Keeps(WithUidAndNamespace("another-uid", "team-a")));
    EXPECT_NE(mine.Selector().find("object.metadata.namespace"), std::string::npos);
}

TEST(ShardFilter, OwningNothingSelectsNothingAndIgnoresBucketsOutOfRange) {
    const BucketSpace space = *BucketSpace::Make(4);
    const ShardFilter none(space, ShardKey::kUid, {-1, 4, 99});
    EXPECT_TRUE(none.SelectsNothing());
    EXPECT_FALSE(none.Keeps(WithUidAndNamespace("u", "n")));
    EXPECT_EQ(none.Selector(), "");
    EXPECT_TRUE(none.Owned().empty());
}

}  // namespace
}  // namespace ctrl::sharding
