// What kube-apiserver does with the shardSelector ctrl::sharding writes: with the gate on it
// returns exactly the objects whose uid hash falls in the selector's buckets and echoes the
// selector in metadata.shardInfo; with it off it ignores the parameter (decision 77).

#include <memory>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <boost/asio/io_context.hpp>

#include "ctrl/core/object.hpp"
#include "ctrl/core/object_list.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/rest/kubeconfig.hpp"
#include "ctrl/rest/request_builder.hpp"
#include "ctrl/rest/rest_client.hpp"
#include "ctrl/sharding/assignment.hpp"
#include "ctrl/sharding/hash_range.hpp"
#include "test/support/control_plane_environment.hpp"

namespace ctrl::sharding {
namespace {

const GroupVersion kCoreV1{"", "v1"};
constexpr int kObjects = 120;
constexpr int kBuckets = 64;

// A RestClient of a control plane's admin, and ConfigMaps through it.
class Server {
  public:
    explicit Server(const std::string& kubeconfig) {
        rest::KubeconfigOptions options;
        options.explicit_path = kubeconfig;
        StatusOr<rest::Config> config = rest::LoadKubeconfig(options);
        EXPECT_TRUE(config.Ok()) << config.GetStatus();
        StatusOr<std::unique_ptr<rest::RestClient>> client = rest::RestClient::New(*config, io_.get_executor());
        EXPECT_TRUE(client.Ok()) << client.GetStatus();
        client_ = std::move(client).Value();
    }

    StatusOr<rest::HttpResponse> Send(const rest::RequestBuilder& builder) {
        StatusOr<rest::HttpRequest> request = builder.Build();
        if (!request.Ok())
            return request.GetStatus();
        return RunSync(io_, client_->Do(Context::Background(), std::move(request).Value()));
    }

    // A namespace with kObjects ConfigMaps; their uids.
    std::set<std::string> MakeConfigMaps(const std::string& namespace_name) {
        const std::string ns =
            R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":")" + namespace_name + "\"}}";
        EXPECT_TRUE(Send(rest::RequestBuilder("POST").GroupVersion(kCoreV1).Resource("namespaces").Body(ns)).Ok());
        std::set<std::string> uids;
        for (int i = 0; i < kObjects; ++i) {
            const std::string body = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm-)" +
                                     std::to_string(i) + R"("},"data":{"k":"v"}})";
            StatusOr<rest::HttpResponse> created = Send(rest::RequestBuilder("POST")
                                                            .GroupVersion(kCoreV1)
                                                            .Namespace(namespace_name)
                                                            .Resource("configmaps")
                                                            .Body(body));
            EXPECT_TRUE(created.Ok()) << created.GetStatus();
            if (!created.Ok())
                continue;
            StatusOr<Object> object = Object::Parse(created->body);
            EXPECT_TRUE(object.Ok()) << object.GetStatus();
            if (object.Ok())
                uids.insert(std::string(object->Uid()));
        }
        return uids;
    }

    // The ConfigMaps of namespace_name listed with selector (none: no parameter): the list as an
    // Object (for its metadata) and its items' uids.
    StatusOr<std::pair<Object, std::set<std::string>>> List(const std::string& namespace_name,
                                                            const std::string& selector) {
        rest::RequestBuilder builder("GET");
        builder.GroupVersion(kCoreV1).Namespace(namespace_name).Resource("configmaps");
        if (!selector.empty())
            builder.Param("shardSelector", selector);
        CTRL_ASSIGN_OR_RETURN(rest::HttpResponse response, Send(builder));
        CTRL_ASSIGN_OR_RETURN(Object list, Object::Parse(response.body));
        CTRL_ASSIGN_OR_RETURN(ObjectList items, ObjectList::Parse(response.body));
        std::set<std::string> uids;
        for (const Object& item : items.Items())
            uids.insert(std::string(item.Uid()));
        return std::make_pair(std::move(list), std::move(uids));
    }

  private:
    boost::asio::io_context io_;
    std::unique_ptr<rest::RestClient> client_;
};

// Three members' buckets, as a ring of three would assign them.
std::map<std::string, std::vector<int>> ThreeMembers() {
    return AssignBuckets({"replica-a", "replica-b", "replica-c"}, kBuckets);
}

TEST(ShardSelectorTest, TheServerReturnsExactlyTheObjectsOfAMembersBuckets) {
    Server server(testing::SharedControlPlane().KubeconfigPath());
    const std::set<std::string> all = server.MakeConfigMaps("shards-on");
    ASSERT_EQ(all.size(), static_cast<std::size_t>(kObjects));
    const BucketSpace space = *BucketSpace::Make(kBuckets);
    std::set<std::string> seen;
    for (const auto& [member, buckets] : ThreeMembers()) {
        const std::string selector = ShardSelector(space, ShardKey::kUid, buckets);
        auto listed = server.List("shards-on", selector);
        ASSERT_TRUE(listed.Ok()) << member << ": " << listed.GetStatus();
        auto& [list, uids] = *listed;
        EXPECT_EQ(*list.NestedString({"metadata", "shardInfo", "selector"}), selector) << member;
        const std::set<int> owned(buckets.begin(), buckets.end());
        std::set<std::string> expected;
        for (const std::string& uid : all) {
            if (owned.count(space.BucketOfValue(uid)) != 0)
                expected.insert(uid);
        }
        EXPECT_EQ(uids, expected) << member << " owns " << buckets.size() << " buckets";
        for (const std::string& uid : uids)
            EXPECT_TRUE(seen.insert(uid).second) << uid << " listed by two members";
    }
    EXPECT_EQ(seen, all);
}

TEST(ShardSelectorTest, TheServerRefusesBoundsThatAreNotSixteenHexDigits) {
    Server server(testing::SharedControlPlane().KubeconfigPath());
    auto listed = server.List("default", "shardRange(object.metadata.uid, '0x0', '0x8000000000000000')");
    ASSERT_FALSE(listed.Ok());
    EXPECT_NE(listed.GetStatus().Message().find("16-digit"), std::string::npos) << listed.GetStatus();
}

// Without the gate the parameter is ignored: every object, and no shardInfo to say otherwise.
TEST(ShardSelectorTest, WithoutTheGateTheServerIgnoresTheSelector) {
    testing::ControlPlane gate_off{testing::ControlPlane::Options{}};
    ASSERT_TRUE(gate_off.Start().Ok());
    Server server(gate_off.KubeconfigPath());
    const std::set<std::string> all = server.MakeConfigMaps("shards-off");
    const BucketSpace space = *BucketSpace::Make(kBuckets);
    const std::vector<int> first = ThreeMembers().begin()->second;
    auto listed = server.List("shards-off", ShardSelector(space, ShardKey::kUid, first));
    ASSERT_TRUE(listed.Ok()) << listed.GetStatus();
    auto& [list, uids] = *listed;
    EXPECT_EQ(uids, all);
    EXPECT_FALSE(list.NestedString({"metadata", "shardInfo", "selector"}).Ok());
}

}  // namespace
}  // namespace ctrl::sharding
