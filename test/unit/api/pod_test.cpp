#include "ctrl/api/pod.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "test/unit/api/api_test_util.hpp"

namespace ctrl::api {
namespace {

using testing::At;
using testing::ExpectRoundTrip;
using testing::MustParse;
using testing::ReadTestdata;

TEST(PodTest, ReadsARunningPod) {
    const std::string json = ReadTestdata("pod_running.json");
    Pod pod = MustParse<Pod>(json);
    EXPECT_EQ(pod.Name(), "web-7c9f6d5b8-x2kqp");
    EXPECT_EQ(pod.Namespace(), "shop");
    EXPECT_EQ(pod.NodeName(), "ip-10-0-12-34.ec2.internal");
    EXPECT_EQ(pod.ServiceAccountName(), "web");
    EXPECT_EQ(pod.Phase(), "Running");
    EXPECT_EQ(pod.Reason(), "");
    EXPECT_EQ(pod.PodIp(), "10.0.13.201");
    EXPECT_TRUE(pod.IsReady());

    EXPECT_EQ(pod.Containers(),
              (std::vector<Container>{{"web", "nginx:1.27.0", ""}, {"log-shipper", "fluent/fluent-bit:3.0.4", ""}}));
    EXPECT_TRUE(pod.InitContainers().empty());

    const std::vector<Condition> conditions = pod.Conditions();
    ASSERT_EQ(conditions.size(), 5u);
    EXPECT_EQ(conditions[2].type, "Ready");
    EXPECT_TRUE(conditions[2].IsTrue());
    EXPECT_EQ(conditions[2].last_transition_time, At("2024-05-01T08:00:12Z"));

    const std::vector<ContainerStatus> statuses = pod.ContainerStatuses();
    ASSERT_EQ(statuses.size(), 2u);
    const ContainerStatus& web = statuses[1];
    EXPECT_EQ(web.name, "web");
    EXPECT_TRUE(web.ready);
    EXPECT_EQ(web.restart_count, 2);
    EXPECT_EQ(web.started, true);
    ASSERT_TRUE(web.state.running.has_value());
    EXPECT_EQ(web.state.running->started_at, At("2024-05-01T09:30:00Z"));
    EXPECT_FALSE(web.state.waiting.has_value());
    ASSERT_TRUE(web.last_state.terminated.has_value());
    EXPECT_EQ(web.last_state.terminated->exit_code, 137);
    EXPECT_EQ(web.last_state.terminated->reason, "OOMKilled");
    EXPECT_EQ(web.last_state.terminated->finished_at, At("2024-05-01T09:29:58Z"));
    EXPECT_FALSE(statuses[0].last_state.terminated.has_value());

    ExpectRoundTrip(pod, json);
}

TEST(PodTest, ReadsWaitingAndTerminatedStates) {
    Pod pod = MustParse<Pod>(ReadTestdata("pod_crashloop.json"));
    EXPECT_FALSE(pod.IsReady());
    const std::vector<ContainerStatus> statuses = pod.ContainerStatuses();
    ASSERT_EQ(statuses.size(), 1u);
    ASSERT_TRUE(statuses[0].state.waiting.has_value());
    EXPECT_EQ(statuses[0].state.waiting->reason, "CrashLoopBackOff");
    EXPECT_NE(statuses[0].state.waiting->message.find("back-off 5m0s"), std::string::npos);
    EXPECT_EQ(statuses[0].restart_count, 17);
    EXPECT_EQ(statuses[0].started, false);
    EXPECT_EQ(statuses[0].last_state.terminated->reason, "Error");
}

TEST(PodTest, ReadsInitContainers) {
    Pod pod = MustParse<Pod>(ReadTestdata("pod_init.json"));
    const std::vector<Container> init = pod.InitContainers();
    ASSERT_EQ(init.size(), 3u);
    EXPECT_EQ(init[2].restart_policy, "Always");
    EXPECT_EQ(pod.InitContainerStatuses().size(), 3u);
    EXPECT_EQ(pod.InitContainerStatuses()[0].state.terminated->exit_code, 0);
}

TEST(PodTest, ServiceAccountDefaults) {
    EXPECT_EQ(Pod().ServiceAccountName(), "default");
    Pod legacy = MustParse<Pod>(R"({"apiVersion":"v1","kind":"Pod","spec":{"serviceAccount":"old"}})");
    EXPECT_EQ(legacy.ServiceAccountName(), "old");
    Pod empty = MustParse<Pod>(R"({"apiVersion":"v1","kind":"Pod","spec":{"serviceAccountName":""}})");
    EXPECT_EQ(empty.ServiceAccountName(), "default");
}

TEST(PodTest, FieldsOfAnotherTypeReadAsEmpty) {
    Pod pod = MustParse<Pod>(
        R"({"apiVersion":"v1","kind":"Pod","spec":{"nodeName":7,"containers":[3,{"name":"a","image":null}]},)"
        R"("status":{"containerStatuses":{"not":"an array"},"phase":["Running"]}})");
    EXPECT_EQ(pod.NodeName(), "");
    EXPECT_EQ(pod.Phase(), "");
    EXPECT_EQ(pod.Containers(), (std::vector<Container>{{"a", "", ""}}));
    EXPECT_TRUE(pod.ContainerStatuses().empty());
}

TEST(PodTest, SettersKeepEveryOtherField) {
    const std::string json = ReadTestdata("pod_running.json");
    Pod pod = MustParse<Pod>(json);
    pod.SetNodeName("node-z");
    pod.SetPhase("Failed");
    EXPECT_EQ(pod.NodeName(), "node-z");
    EXPECT_EQ(pod.Phase(), "Failed");
    // Everything else is as it was: restore the two fields and compare with the file.
    pod.SetNodeName("ip-10-0-12-34.ec2.internal");
    pod.SetPhase("Running");
    ExpectRoundTrip(pod, json);
}

TEST(PodTest, BuildsAPodFromScratch) {
    Pod pod;
    pod.SetName("p");
    pod.SetNamespace("ns");
    pod.AddContainer("app", "busybox:1.36");
    pod.AddContainer("side", "envoy:1");
    pod.SetServiceAccountName("runner");
    EXPECT_EQ(
        pod.ToJson(),
        R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ns"},"spec":{"containers":[)"
        R"({"name":"app","image":"busybox:1.36"},{"name":"side","image":"envoy:1"}],"serviceAccountName":"runner"}})");
}

TEST(PodTest, ViewReadsACachedObject) {
    auto object = Object::Parse(ReadTestdata("pod_running.json"));
    ASSERT_TRUE(object.Ok());
    const Object& cached = *object;
    PodView view(cached);
    EXPECT_EQ(view.NodeName(), "ip-10-0-12-34.ec2.internal");
    EXPECT_EQ(view.Label("app"), "web");
    EXPECT_EQ(view.ContainerStatuses().size(), 2u);
    EXPECT_TRUE(view.IsReady());

    Pod pod = MustParse<Pod>(R"({"apiVersion":"v1","kind":"Pod","spec":{"nodeName":"n"}})");
    PodView from_pod = pod;  // a Pod converts to its view
    EXPECT_EQ(from_pod.NodeName(), "n");
}

TEST(PodListTest, ReadsAListPage) {
    PodList list = MustParse<PodList>(ReadTestdata("podlist.json"));
    EXPECT_EQ(list.ResourceVersion(), "184470");
    EXPECT_FALSE(list.Continue().empty());
    EXPECT_EQ(list.RemainingItemCount(), 7);
    std::vector<std::string> nodes;
    for (PodView pod : list.Views())
        nodes.emplace_back(pod.NodeName());
    EXPECT_EQ(nodes, (std::vector<std::string>{"node-a", ""}));

    auto pods = list.TakeItems();
    ASSERT_TRUE(pods.Ok()) << pods.GetStatus();
    ASSERT_EQ(pods->size(), 2u);
    EXPECT_EQ((*pods)[1].Name(), "web-2");
    EXPECT_EQ((*pods)[1].Kind(), "Pod");
    EXPECT_EQ((*pods)[1].ApiVersion(), "v1");
    EXPECT_EQ((*pods)[0].Phase(), "Running");
}

}  // namespace
}  // namespace ctrl::api
