#include "controllers/podlister/pod_output.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "controllers/podlister/json_indent.hpp"
#include "ctrl/core/object_list.hpp"

namespace ctrl::podlister {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// 2024-05-01T12:00:00Z.
const api::Timestamp kNow = std::chrono::sys_days(std::chrono::year(2024) / 5 / 1) + std::chrono::hours(12);

api::Pod MakePod(std::string_view ns, std::string_view name, std::string_view node, std::string_view status_json) {
    std::string json = R"({"metadata":{"namespace":")" + std::string(ns) + R"(","name":")" + std::string(name) +
                       R"(","creationTimestamp":"2024-05-01T11:00:00Z","managedFields":[{"manager":"kubectl"}]},)" +
                       R"("spec":{"containers":[{"name":"a","image":"i"},{"name":"b","image":"i"}])" +
                       (node.empty() ? std::string() : R"(,"nodeName":")" + std::string(node) + "\"") +
                       R"(},"status":)" + std::string(status_json) + "}";
    StatusOr<api::Pod> pod = api::Pod::Parse(json);
    EXPECT_TRUE(pod.Ok()) << pod.GetStatus();
    return std::move(pod).Value();
}

api::PodList ThreePods() {
    api::PodList pods;
    pods.AddItem(MakePod("default", "web-0", "", R"({"phase":"Pending"})"));
    pods.AddItem(MakePod("kube-system", "coredns-5d78c9869d-abcde", "node-a",
                         R"({"phase":"Running","conditions":[{"type":"Ready","status":"True"}],"containerStatuses":[)"
                         R"({"name":"a","ready":true,"restartCount":0,"state":{"running":{}}},)"
                         R"({"name":"b","ready":true,"restartCount":2,"state":{"running":{}}}]})"));
    pods.AddItem(MakePod("shop", "cart-1", "node-b", R"({"phase":"Succeeded"})"));
    return pods;
}

TEST(PodOutputTest, TableLikeKubectl) {
    std::ostringstream out;
    WritePodTable(out, ThreePods(), kNow);
    EXPECT_EQ(out.str(),
              "NAMESPACE     NAME                       READY   STATUS      RESTARTS   AGE   NODE\n"
              "default       web-0                      0/2     Pending     0          60m   <none>\n"
              "kube-system   coredns-5d78c9869d-abcde   2/2     Running     2          60m   node-a\n"
              "shop          cart-1                     0/2     Succeeded   0          60m   node-b\n");
}

TEST(PodOutputTest, TableWithoutHeadersAndEmpty) {
    std::ostringstream out;
    WritePodTable(out, ThreePods(), kNow, /*no_headers=*/true);
    // Without the header the columns are as wide as their cells (as kubectl --no-headers prints).
    EXPECT_EQ(out.str().substr(0, out.str().find('\n')),
              "default       web-0                      0/2   Pending     0     60m   <none>");
    std::ostringstream empty;
    WritePodTable(empty, api::PodList(), kNow);
    EXPECT_EQ(empty.str(), "");
}

TEST(PodOutputTest, CellsFollowTheHeader) {
    api::PodList pods = ThreePods();
    std::vector<std::string> cells = PodTableCells(api::PodView(pods.Items()[1]), kNow);
    ASSERT_EQ(cells.size(), PodTableHeader().size());
    EXPECT_EQ(cells, (std::vector<std::string>{"kube-system", "coredns-5d78c9869d-abcde", "2/2", "Running", "2", "60m",
                                               "node-a"}));
}

// A v1 List like kubectl -o json: items with apiVersion and kind, managedFields hidden.
TEST(PodOutputTest, JsonIsAV1List) {
    api::PodList pods = ThreePods();
    std::ostringstream out;
    WritePodListJson(out, pods);
    const std::string json = out.str();
    EXPECT_EQ(json.substr(0, 41), "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n");
    EXPECT_THAT(json, Not(HasSubstr("managedFields")));
    StatusOr<ObjectList> list = ObjectList::Parse(json);
    ASSERT_TRUE(list.Ok()) << list.GetStatus();
    EXPECT_EQ(list->ApiVersion(), "v1");
    EXPECT_EQ(list->Kind(), "List");
    ASSERT_EQ(list->Items().size(), 3u);
    EXPECT_EQ(list->Items()[1].Name(), "coredns-5d78c9869d-abcde");
    EXPECT_EQ(list->Items()[1].Kind(), "Pod");
    EXPECT_EQ(list->Items()[1].ApiVersion(), "v1");
    EXPECT_EQ(list->Items()[1].NestedString({"spec", "nodeName"}).Value(), "node-a");
    EXPECT_TRUE(pods.Items()[0].HasManagedFields());  // the list itself is not changed
}

TEST(PodOutputTest, EmptyJsonList) {
    std::ostringstream out;
    WritePodListJson(out, api::PodList());
    EXPECT_EQ(out.str(),
              "{\n    \"apiVersion\": \"v1\",\n    \"items\": [],\n    \"kind\": \"List\",\n"
              "    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n");
}

TEST(JsonIndentTest, LikeGoMarshalIndent) {
    EXPECT_EQ(IndentJson(R"({"a":1,"b":[true,null],"c":{},"d":[],"e":{"f":"x"}})", 2),
              "{\n  \"a\": 1,\n  \"b\": [\n    true,\n    null\n  ],\n  \"c\": {},\n  \"d\": [],\n"
              "  \"e\": {\n    \"f\": \"x\"\n  }\n}");
}

// Punctuation inside strings (escaped quotes and backslashes too) is copied as it is.
TEST(JsonIndentTest, StringsAreOpaque) {
    const std::string compact = R"({"k,:{":"v\"],[}\\","x":"\\"})";
    EXPECT_EQ(IndentJson(compact, 1), "{\n \"k,:{\": \"v\\\"],[}\\\\\",\n \"x\": \"\\\\\"\n}");
    StatusOr<Object> reparsed = Object::Parse(IndentJson(compact));
    ASSERT_TRUE(reparsed.Ok()) << reparsed.GetStatus();
    EXPECT_EQ(*reparsed, Object::Parse(compact).Value());
}

TEST(JsonIndentTest, BaseLevel) {
    EXPECT_EQ(IndentJson(R"({"a":1})", 4, 2), "{\n            \"a\": 1\n        }");
}

}  // namespace
}  // namespace ctrl::podlister
