#include "ctrl/core/object_list.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "ctrl/core/internal/json.hpp"
#include "test/unit/core/testdata.hpp"

namespace ctrl {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

ObjectList MustParse(std::string_view json) {
    return test::MustParse<ObjectList>(json);
}

ObjectList PodList() {
    const std::string json = test::ReadTestdata("podlist.json");
    EXPECT_FALSE(json.empty()) << "testdata podlist.json is missing";
    return MustParse(json);
}

std::vector<std::string> Names(const ObjectList& list) {
    std::vector<std::string> names;
    for (const Object& item : list.Items())
        names.emplace_back(item.Name());
    return names;
}

TEST(ObjectListTest, ParsesAListResponse) {
    const ObjectList list = PodList();
    EXPECT_EQ(list.ApiVersion(), "v1");
    EXPECT_EQ(list.Kind(), "PodList");
    EXPECT_EQ(list.GetGroupVersionKind().ValueOr(GroupVersionKind{}), (GroupVersionKind{"", "v1", "PodList"}));
    EXPECT_EQ(list.ResourceVersion(), "918300");
    EXPECT_EQ(list.Continue(), "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6OTE4MzAwLCJzdGFydCI6InNob3AvZGItMFx1MDAwMCJ9");
    EXPECT_EQ(list.RemainingItemCount(), 1207);
    EXPECT_THAT(Names(list), ElementsAre("web-7d9c6b8f5-x2kqp", "db-0", "static-web-worker-2"));

    const Object& web = list.Items()[0];
    EXPECT_EQ(web.Namespace(), "shop");
    EXPECT_EQ(web.Label("app.kubernetes.io/name"), "web");
    EXPECT_TRUE(web.HasManagedFields());
    EXPECT_EQ(web.NestedString({"status", "phase"}).ValueOr(""), "Running");
    const Object& db = list.Items()[1];
    EXPECT_EQ(db.DeletionTimestamp(), "2026-03-14T09:30:00Z");
    EXPECT_THAT(db.Finalizers(), ElementsAre("example.com/backup"));
    EXPECT_EQ(db.NestedFloat({"spec", "x-unknown", "ratio"}).ValueOr(0), 0.1);
    EXPECT_EQ(db.ToJson(),
              R"({"metadata":{"name":"db-0","namespace":"shop","uid":"0e8d7c6b-5a49-4382-9170-6f5e4d3c2b1a",)"
              R"("resourceVersion":"918100","creationTimestamp":"2026-03-13T22:01:07Z",)"
              R"("deletionTimestamp":"2026-03-14T09:30:00Z","finalizers":["example.com/backup"]},)"
              R"("spec":{"containers":[{"name":"db","image":"postgres:16"}],"x-unknown":{"ratio":0.1}},)"
              R"("status":{"phase":"Pending","conditions":null}})");
    // Items come without a type, as a typed List response sends them.
    EXPECT_EQ(web.ApiVersion(), "");
    EXPECT_EQ(web.Kind(), "");
}

TEST(ObjectListTest, EachItemOwnsItsDocument) {
    ObjectList list = PodList();
    const internal::JsonDocument* first = &list.Items()[0].Document();
    EXPECT_NE(first, &list.Items()[1].Document());
    EXPECT_LE(list.Items()[2].Document().pool.Capacity(), 2 * internal::PoolAllocator::kMaxChunkBytes);

    // An item moved out outlives the list.
    Object kept = std::move(list.Items()[0]);
    list = ObjectList();
    EXPECT_EQ(&kept.Document(), first);
    EXPECT_EQ(kept.Name(), "web-7d9c6b8f5-x2kqp");
    EXPECT_EQ(kept.NestedString({"spec", "nodeName"}).ValueOr(""), "worker-2");
}

TEST(ObjectListTest, NullOrMissingItemsAndMetadata) {
    const ObjectList null_items = MustParse(R"({"kind":"PodList","apiVersion":"v1","metadata":{},"items":null})");
    EXPECT_TRUE(null_items.Items().empty());
    EXPECT_EQ(null_items.RemainingItemCount(), std::nullopt);
    EXPECT_EQ(null_items.Continue(), "");

    const ObjectList bare = MustParse("{}");
    EXPECT_TRUE(bare.Items().empty());
    EXPECT_EQ(bare.Kind(), "");
    EXPECT_EQ(bare.ResourceVersion(), "");

    const ObjectList nulls =
        MustParse(R"({"kind":null,"metadata":{"resourceVersion":null,"continue":null,"remainingItemCount":null}})");
    EXPECT_EQ(nulls.Kind(), "");
    EXPECT_EQ(nulls.RemainingItemCount(), std::nullopt);

    const ObjectList last_page = MustParse(R"({"metadata":{"resourceVersion":"5","remainingItemCount":0},"items":[]})");
    EXPECT_EQ(last_page.RemainingItemCount(), 0);
}

TEST(ObjectListTest, ParseErrors) {
    struct Case {
        std::string json;
        std::string message;
    };
    const std::vector<Case> cases = {
        {R"({"items":[{"a":1},)", "invalid JSON at byte offset 18: Invalid value."},
        {R"({"items":[]}])", "invalid JSON at byte offset 12: The document root must not be followed by other values."},
        {"[]", "a list is an array, not an object"},
        {R"({"items":{}})", "items is an object, not an array"},
        {R"({"items":[{},"x"]})", "items[1] is a string, not an object"},
        {R"({"kind":1})", "kind is an integer, not a string"},
        {R"({"metadata":[]})", "metadata is an array, not an object"},
        {R"({"metadata":{"continue":false}})", "metadata.continue is a boolean, not a string"},
        {R"({"metadata":{"remainingItemCount":"3"}})", "metadata.remainingItemCount is a string, not an integer"},
        {R"({"metadata":{"remainingItemCount":1.5}})", "metadata.remainingItemCount is a float, not an integer"},
    };
    for (const Case& c : cases) {
        const StatusOr<ObjectList> list = ObjectList::Parse(c.json);
        ASSERT_FALSE(list.Ok()) << c.json;
        EXPECT_TRUE(IsBadRequest(list.GetStatus())) << list.GetStatus();
        EXPECT_EQ(list.GetStatus().Message(), c.message);
    }
}

TEST(ObjectListTest, ToJsonRoundTrip) {
    const ObjectList list = PodList();
    const std::string json = list.ToJson();
    const ObjectList back = MustParse(json);
    EXPECT_EQ(back.ApiVersion(), "v1");
    EXPECT_EQ(back.Kind(), "PodList");
    EXPECT_EQ(back.ResourceVersion(), list.ResourceVersion());
    EXPECT_EQ(back.Continue(), list.Continue());
    EXPECT_EQ(back.RemainingItemCount(), 1207);
    ASSERT_EQ(back.Items().size(), 3U);
    for (std::size_t i = 0; i < 3; ++i)
        EXPECT_TRUE(back.Items()[i] == list.Items()[i]) << i;
    EXPECT_EQ(back.ToJson(), json);

    ObjectList built;
    built.SetItemGroupVersionKind({"apps", "v1", "Deployment"});
    EXPECT_EQ(built.ToJson(), R"({"apiVersion":"apps/v1","kind":"DeploymentList","metadata":{},"items":[]})");
    built.SetResourceVersion("7");
    built.SetContinue("tok");
    built.SetRemainingItemCount(2);
    built.Items().push_back(Object::Parse(R"({"metadata":{"name":"a"}})").Value());
    EXPECT_EQ(built.ToJson(),
              R"({"apiVersion":"apps/v1","kind":"DeploymentList","metadata":{"resourceVersion":"7","continue":"tok",)"
              R"("remainingItemCount":2},"items":[{"metadata":{"name":"a"}}]})");
    EXPECT_EQ(ObjectList().ToJson(), R"({"metadata":{},"items":[]})");
}

TEST(ObjectListTest, ItemKinds) {
    ObjectList list;
    list.SetGroupVersionKind({"apps", "v1", "DeploymentList"});
    EXPECT_EQ(list.ItemKind(), "Deployment");
    EXPECT_EQ(list.ItemGroupVersionKind().ValueOr(GroupVersionKind{}), (GroupVersionKind{"apps", "v1", "Deployment"}));
    list.SetKind("List");
    EXPECT_EQ(list.ItemKind(), "");
    EXPECT_THAT(list.ItemGroupVersionKind().GetStatus().Message(), HasSubstr("list kind \"List\" does not name"));
    list.SetKind("Pods");
    EXPECT_EQ(list.ItemKind(), "");
    list.SetItemGroupVersionKind({"example.com", "v1alpha1", "SecurityGroupPolicy"});
    EXPECT_EQ(list.Kind(), "SecurityGroupPolicyList");
    EXPECT_EQ(list.ApiVersion(), "example.com/v1alpha1");
    list.SetApiVersion("");
    EXPECT_TRUE(IsBadRequest(list.ItemGroupVersionKind().GetStatus()));
}

TEST(ObjectListTest, FillItemTypeMeta) {
    ObjectList list = PodList();
    ASSERT_TRUE(list.FillItemTypeMeta().Ok());
    for (const Object& item : list.Items()) {
        EXPECT_EQ(item.ApiVersion(), "v1") << item.Name();
        EXPECT_EQ(item.Kind(), "Pod") << item.Name();
        EXPECT_EQ(item.GetGroupVersionKind().ValueOr(GroupVersionKind{}), (GroupVersionKind{"", "v1", "Pod"}));
    }
    EXPECT_THAT(list.Items()[1].ToJson(), StartsWith(R"({"metadata":{"name":"db-0","namespace":"shop",)"));

    // A v1 List of typed items needs nothing; one untyped item cannot be filled, and nothing changes.
    ObjectList mixed =
        MustParse(R"({"apiVersion":"v1","kind":"List","items":[{"apiVersion":"apps/v1","kind":"Deployment"},)"
                  R"({"apiVersion":"v1","kind":"Service"}]})");
    EXPECT_TRUE(mixed.FillItemTypeMeta().Ok());
    EXPECT_EQ(mixed.Items()[0].Kind(), "Deployment");
    EXPECT_EQ(mixed.Items()[0].ApiVersion(), "apps/v1");
    mixed.Items().push_back(Object());
    const Status status = mixed.FillItemTypeMeta();
    EXPECT_TRUE(IsBadRequest(status)) << status;
    EXPECT_EQ(mixed.Items()[2].ToJson(), "{}");

    ObjectList no_version = MustParse(R"({"kind":"PodList","items":[{"kind":"Pod"},{}]})");
    EXPECT_TRUE(IsBadRequest(no_version.FillItemTypeMeta()));
    EXPECT_EQ(no_version.Items()[1].ToJson(), "{}");
}

TEST(ObjectListTest, DeepCopyAndMove) {
    ObjectList list = PodList();
    ObjectList copy = list.DeepCopy();
    copy.Items()[0].SetName("renamed");
    copy.SetContinue("");
    EXPECT_EQ(list.Items()[0].Name(), "web-7d9c6b8f5-x2kqp");
    EXPECT_FALSE(list.Continue().empty());
    EXPECT_TRUE(copy.Items()[1] == list.Items()[1]);

    const internal::JsonDocument* doc = &list.Items()[2].Document();
    ObjectList moved(std::move(list));
    EXPECT_EQ(&moved.Items()[2].Document(), doc);
    EXPECT_EQ(moved.RemainingItemCount(), 1207);
    ObjectList assigned;
    assigned = std::move(moved);
    EXPECT_EQ(assigned.Items().size(), 3U);
    EXPECT_EQ(assigned.Kind(), "PodList");
}

}  // namespace
}  // namespace ctrl
