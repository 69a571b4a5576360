// Share: which requests a sharded controller admits, and a release that waits for the bucket's
// reconciles under way.

#include "ctrl/shardedcontroller/share.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

namespace ctrl::shardedcontroller {
namespace {

Object ConfigMap(const std::string& namespace_name, const std::string& name, const std::string& uid) {
    Object object = *Object::Parse(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{}})");
    object.SetNamespace(namespace_name);
    object.SetName(name);
    EXPECT_TRUE(object.SetNestedString({"metadata", "uid"}, uid).Ok());
    return object;
}

const sharding::BucketSpace kSpace = *sharding::BucketSpace::Make(4);

TEST(Share, ByUidARequestIsAdmittedOnlyForAnObjectSeenInAnOwnedBucket) {
    Share share(kSpace, sharding::ShardKey::kUid);
    const Object cm = ConfigMap("ns", "a", "uid-a");
    const int bucket = kSpace.BucketOfValue("uid-a");
    const reconcile::Request request("ns", "a");
    share.Remember(cm);
    EXPECT_FALSE(share.Enter(request)) << "nothing owned yet";
    share.Acquire({bucket});
    EXPECT_FALSE(share.Enter(request)) << "its event came before the bucket was this member's";
    share.Remember(cm);
    const std::optional<int> admitted = share.Enter(request);
    ASSERT_TRUE(admitted);
    EXPECT_EQ(*admitted, bucket);
    share.Leave(request, *admitted);
    EXPECT_FALSE(share.Enter(reconcile::Request("ns", "never-seen"))) << "an object this member never saw";
}

TEST(Share, ADeletedObjectIsReconciledOnceMore) {
    Share share(kSpace, sharding::ShardKey::kUid);
    const Object cm = ConfigMap("ns", "gone", "uid-gone");
    share.Acquire({0, 1, 2, 3});
    share.RememberDeleted(cm);
    const reconcile::Request request("ns", "gone");
    const std::optional<int> admitted = share.Enter(request);
    ASSERT_TRUE(admitted);
    share.Leave(request, *admitted);
    EXPECT_FALSE(share.Enter(request)) << "forgotten after its last reconcile";
}

TEST(Share, ByNamespaceTheRequestsNamespaceIsItsBucket) {
    Share share(kSpace, sharding::ShardKey::kNamespace);
    share.Acquire({kSpace.BucketOfValue("team-a")});
    EXPECT_TRUE(share.Enter(reconcile::Request("team-a", "anything")));
    if (kSpace.BucketOfValue("team-b") != kSpace.BucketOfValue("team-a")) {
        EXPECT_FALSE(share.Enter(reconcile::Request("team-b", "anything")));
    }
}

TEST(Share, AReleaseStopsAdmittingAndReturnsOnceTheBucketsReconcilesEnded) {
    boost::asio::io_context io;
    Share share(kSpace, sharding::ShardKey::kNamespace);
    const int bucket = kSpace.BucketOfValue("ns");
    share.Acquire({bucket});
    const reconcile::Request request("ns", "busy");
    const std::optional<int> admitted = share.Enter(request);
    ASSERT_TRUE(admitted);

    bool released = false;
    boost::asio::co_spawn(io, share.Release({bucket}),
                          [&](std::exception_ptr, std::vector<ObjectKey>) { released = true; });
    io.run_for(std::chrono::milliseconds(50));
    EXPECT_FALSE(released) << "a reconcile of the bucket is under way";
    EXPECT_FALSE(share.Enter(reconcile::Request("ns", "other"))) << "nothing new starts in a released bucket";
    EXPECT_TRUE(share.Filter().SelectsNothing());

    share.Leave(request, *admitted);
    io.restart();
    io.run_for(std::chrono::milliseconds(50));
    EXPECT_TRUE(released);
}

TEST(Share, AReleaseOfIdleBucketsReturnsAtOnce) {
    boost::asio::io_context io;
    Share share(kSpace, sharding::ShardKey::kNamespace);
    share.Acquire({0, 1});
    std::vector<ObjectKey> forgotten;
    const Object in_zero = ConfigMap("ns", "zero", "uid-zero");
    share.Remember(in_zero);
    const bool zero_is_owned = kSpace.BucketOfValue("ns") <= 1;
    bool released = false;
    boost::asio::co_spawn(io, share.Release({0, 1}), [&](std::exception_ptr, std::vector<ObjectKey> keys) {
        released = true;
        forgotten = std::move(keys);
    });
    io.run();
    EXPECT_TRUE(released);
    EXPECT_TRUE(share.Owned().empty());
    if (zero_is_owned) {
        EXPECT_EQ(forgotten, std::vector<ObjectKey>{ObjectKey("ns", "zero")}) << "the released objects' keys";
    }
}

}  // namespace
}  // namespace ctrl::shardedcontroller
