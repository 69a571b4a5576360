// What a reflector asks the server for when its target is one shard of its resource.

#include "ctrl/cache/list_watch_target.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace ctrl::cache {
namespace {

using namespace std::chrono_literals;

ListWatchTarget ConfigMaps() {
    ListWatchTarget target;
    target.resource = GroupVersionResource{"", "v1", "configmaps"};
    target.namespaced = true;
    return target;
}

TEST(ListWatchTarget, AShardIsAskedForAsTheShardSelectorOfEveryRequest) {
    ListWatchTarget target = ConfigMaps();
    target.shard = sharding::ShardFilter(*sharding::BucketSpace::Make(4), sharding::ShardKey::kUid, {0, 1});
    const std::string selector = target.shard.Selector();
    ASSERT_EQ(selector, "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')");
    for (const StatusOr<rest::HttpRequest>& request :
         {BuildListRequest(target, 500, "", 30s), BuildWatchRequest(target, "42", 300, 30s),
          BuildWatchListRequest(target, 300, 30s)}) {
        ASSERT_TRUE(request.Ok()) << request.GetStatus();
        EXPECT_NE(request->target.find("shardSelector=shardRange%28object.metadata.uid"), std::string::npos)
            << request->target;
    }
    EXPECT_EQ(target.Describe(), "configmaps.v1 in shard buckets 0-1");
}

TEST(ListWatchTarget, EveryBucketIsNoShardSelector) {
    ListWatchTarget target = ConfigMaps();
    target.shard = sharding::ShardFilter(*sharding::BucketSpace::Make(2), sharding::ShardKey::kUid, {0, 1});
    const StatusOr<rest::HttpRequest> request = BuildListRequest(target, 500, "", 30s);
    ASSERT_TRUE(request.Ok());
    EXPECT_EQ(request->target.find("shardSelector"), std::string::npos) << request->target;
    EXPECT_EQ(ConfigMaps().Describe(), "configmaps.v1");
}

}  // namespace
}  // namespace ctrl::cache
