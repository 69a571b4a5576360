// The cache store: ingest with the transform, reads as copies or shared views, Replace with the
// deletes it implies, the namespace order and user indexes, and readers running beside a writer.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "ctrl/cache/store.hpp"
#include "test/support/realistic_pod.hpp"

namespace ctrl::cache {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Object Pod(std::string_view ns, std::string_view name, std::string_view rv = "1", std::string_view node = "n1") {
    auto pod =
        Object::Parse(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + std::string(name) +
                      R"(","namespace":")" + std::string(ns) + R"(","resourceVersion":")" + std::string(rv) +
                      R"(","labels":{"app":"web"},"managedFields":[{"manager":"kubectl"}]},"spec":{"nodeName":")" +
                      std::string(node) + R"("}})");
    EXPECT_TRUE(pod.Ok()) << pod.GetStatus();
    return std::move(pod).Value();
}

std::vector<std::string> Keys(const std::vector<CachedObject>& objects) {
    std::vector<std::string> keys;
    for (const CachedObject& object : objects)
        keys.emplace_back(object.StoreKey());
    return keys;
}

TEST(StoreTest, AddStoresTheTransformedObject) {
    Store store;
    auto change = store.Add(Pod("ns", "a"));
    ASSERT_TRUE(change.Ok()) << change.GetStatus();
    EXPECT_FALSE(change->previous);
    ASSERT_TRUE(change->current);
    EXPECT_EQ(change->current.StoreKey(), "ns/a");
    EXPECT_EQ(change->current.Namespace(), "ns");
    EXPECT_EQ(change->current.Name(), "a");
    EXPECT_EQ(change->current.Key(), (ObjectKey{"ns", "a"}));

    const CachedObject got = store.Get("ns", "a");
    ASSERT_TRUE(got);
    Object copy = got.Copy();
    EXPECT_FALSE(copy.HasManagedFields());
    Object expected = Pod("ns", "a");
    expected.RemoveManagedFields();
    EXPECT_EQ(copy, expected);
    EXPECT_EQ(got.ResourceVersion(), "1");
    EXPECT_EQ(got.Labels(), (std::map<std::string, std::string>{{"app", "web"}}));
    EXPECT_FALSE(store.Get("ns", "b"));
    EXPECT_FALSE(store.Get("other", "a"));
}

TEST(StoreTest, CopiesAreIndependentOfTheStore) {
    Store store;
    ASSERT_TRUE(store.Add(Pod("ns", "a")).Ok());
    Object copy = store.Get("ns", "a").Copy();
    copy.SetLabel("app", "changed");
    EXPECT_EQ(store.Get("ns", "a").Copy().Label("app"), "web");
}

TEST(StoreTest, NullTransformKeepsEverythingAndCustomTransformsApply) {
    Store plain({.transform = nullptr});
    ASSERT_TRUE(plain.Add(Pod("ns", "a")).Ok());
    EXPECT_TRUE(plain.Get("ns", "a").Copy().HasManagedFields());

    Store custom({.transform = [](Object& object) {
        object.SetAnnotation("seen", "yes");
        return OkStatus();
    }});
    ASSERT_TRUE(custom.Add(Pod("ns", "a")).Ok());
    EXPECT_EQ(custom.Get("ns", "a").Copy().Annotation("seen"), "yes");
}

TEST(StoreTest, TransformErrorsAndRenamesAreRefused) {
    Store failing({.transform = [](Object&) { return ForbiddenError("no"); }});
    auto added = failing.Add(Pod("ns", "a"));
    ASSERT_FALSE(added.Ok());
    EXPECT_THAT(added.GetStatus().Message(), HasSubstr("transform of ns/a"));
    EXPECT_EQ(failing.Size(), 0u);

    Store renaming({.transform = [](Object& object) {
        object.SetName("other");
        return OkStatus();
    }});
    EXPECT_EQ(renaming.Add(Pod("ns", "a")).GetStatus().Code(), StatusCode::kBadRequest);

    Store store;
    Object nameless = Pod("ns", "");
    EXPECT_EQ(store.Add(std::move(nameless)).GetStatus().Code(), StatusCode::kBadRequest);
}

TEST(StoreTest, UpdateReturnsThePreviousStateWhichStaysReadable) {
    Store store;
    ASSERT_TRUE(store.Add(Pod("ns", "a", "1")).Ok());
    auto change = store.Update(Pod("ns", "a", "2"));
    ASSERT_TRUE(change.Ok());
    ASSERT_TRUE(change->previous);
    EXPECT_EQ(change->previous.ResourceVersion(), "1");
    EXPECT_EQ(change->previous.Copy().ResourceVersion(), "1");
    EXPECT_EQ(change->current.ResourceVersion(), "2");
    EXPECT_EQ(store.Get("ns", "a").ResourceVersion(), "2");
    EXPECT_EQ(store.Size(), 1u);
}

TEST(StoreTest, DeleteReturnsTheLastState) {
    Store store;
    ASSERT_TRUE(store.Add(Pod("ns", "a", "7")).Ok());
    const CachedObject last = store.Delete("ns", "a");
    ASSERT_TRUE(last);
    EXPECT_EQ(last.Copy().ResourceVersion(), "7");
    EXPECT_FALSE(store.Get("ns", "a"));
    EXPECT_FALSE(store.Delete("ns", "a"));
    EXPECT_EQ(store.Size(), 0u);
    EXPECT_EQ(store.EncodedBytes(), 0u);
}

TEST(StoreTest, ListsByNamespaceInKeyOrder) {
    Store store;
    for (const auto& [ns, name] : std::vector<std::pair<std::string, std::string>>{
             {"b", "2"}, {"a", "9"}, {"b", "1"}, {"ab", "1"}, {"a", "10"}}) {
        ASSERT_TRUE(store.Add(Pod(ns, name)).Ok());
    }
    EXPECT_THAT(Keys(store.List()), ElementsAre("a/10", "a/9", "ab/1", "b/1", "b/2"));
    EXPECT_THAT(Keys(store.List("a")), ElementsAre("a/10", "a/9"));
    EXPECT_THAT(Keys(store.List("b")), ElementsAre("b/1", "b/2"));
    EXPECT_TRUE(store.List("c").empty());
    EXPECT_THAT(Keys(*store.ByIndex(kNamespaceIndex, "ab")), ElementsAre("ab/1"));
    EXPECT_THAT(*store.IndexValues(kNamespaceIndex), ElementsAre("a", "ab", "b"));
    EXPECT_THAT(store.ListKeys(), ElementsAre("a/10", "a/9", "ab/1", "b/1", "b/2"));
}

TEST(StoreTest, ClusterScopedObjectsAreKeyedByName) {
    Store store;
    auto ns = Object::Parse(R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"kube-system"}})");
    ASSERT_TRUE(store.Add(std::move(ns).Value()).Ok());
    EXPECT_THAT(Keys(store.List()), ElementsAre("kube-system"));
    EXPECT_TRUE(store.Get("", "kube-system"));
    EXPECT_EQ(store.Get("", "kube-system").Namespace(), "");
    EXPECT_EQ(store.Get("", "kube-system").Name(), "kube-system");
}

TEST(StoreTest, ReplaceSwapsTheSetAndReportsDeletesAndPreviousStates) {
    Store store;
    ASSERT_TRUE(store.Add(Pod("ns", "keep", "1")).Ok());
    ASSERT_TRUE(store.Add(Pod("ns", "gone", "1")).Ok());
    ASSERT_TRUE(store.Add(Pod("other", "gone-too", "1")).Ok());

    std::vector<Object> fresh;
    fresh.push_back(Pod("ns", "keep", "5"));
    fresh.push_back(Pod("ns", "new", "5"));
    auto result = store.Replace(std::move(fresh), "5");
    ASSERT_TRUE(result.Ok()) << result.GetStatus();
    ASSERT_EQ(result->changes.size(), 2u);
    EXPECT_EQ(result->changes[0].previous.ResourceVersion(), "1");
    EXPECT_EQ(result->changes[0].current.ResourceVersion(), "5");
    EXPECT_FALSE(result->changes[1].previous);
    EXPECT_THAT(Keys(result->deleted), ElementsAre("ns/gone", "other/gone-too"));
    EXPECT_EQ(result->deleted[0].Copy().Name(), "gone");
    EXPECT_THAT(store.ListKeys(), ElementsAre("ns/keep", "ns/new"));
    EXPECT_EQ(store.LastSyncResourceVersion(), "5");
}

TEST(StoreTest, FailedReplaceChangesNothing) {
    int calls = 0;
    Store store({.transform = [&calls](Object& object) {
        return ++calls == 3 ? InternalError("third") : StripManagedFields(object);
    }});
    ASSERT_TRUE(store.Add(Pod("ns", "a")).Ok());
    std::vector<Object> fresh;
    fresh.push_back(Pod("ns", "b"));
    fresh.push_back(Pod("ns", "c"));
    EXPECT_FALSE(store.Replace(std::move(fresh), "9").Ok());
    EXPECT_THAT(store.ListKeys(), ElementsAre("ns/a"));
    EXPECT_EQ(store.LastSyncResourceVersion(), "");
}

// Issue 19: only the default transform lets a watch leave managedFields out before the store sees them.
TEST(StoreTest, DropsManagedFieldsOnlyWithTheDefaultTransform) {
    EXPECT_TRUE(Store().DropsManagedFields());
    EXPECT_TRUE(Store({.transform = StripManagedFields}).DropsManagedFields());
    EXPECT_FALSE(Store({.transform = nullptr}).DropsManagedFields());
    EXPECT_FALSE(Store({.transform = [](Object& object) { return StripManagedFields(object); }}).DropsManagedFields());
}

// Issue 19: a shared read of a hot object decodes nothing. The store keeps its last hot_views
// decoded views alive after their readers let go; an older one is freed when pushed out.
TEST(StoreTest, HotViewsKeepTheLastDecodedViewsAliveUntilPushedOut) {
    Store store({.hot_views = 2});
    for (const char* name : {"a", "b", "c"})
        ASSERT_TRUE(store.Add(Pod("ns", name)).Ok());
    std::weak_ptr<const Object> a_view = store.Get("ns", "a").Shared();
    ASSERT_FALSE(a_view.expired()) << "no reader holds it, yet the store keeps it";
    EXPECT_EQ(store.Get("ns", "a").Shared(), a_view.lock()) << "a reread is the same view, not a fresh decode";
    std::weak_ptr<const Object> b_view = store.Get("ns", "b").Shared();
    std::weak_ptr<const Object> c_view = store.Get("ns", "c").Shared();  // the third decode pushes a's out
    EXPECT_TRUE(a_view.expired());
    EXPECT_FALSE(b_view.expired());
    EXPECT_FALSE(c_view.expired());
    EXPECT_EQ(store.Get("ns", "a").Shared()->Name(), "a");  // decoded again
    EXPECT_TRUE(b_view.expired());
}

TEST(StoreTest, NoHotViewsFreesAViewWhenItsLastReaderLetsGo) {
    Store store({.hot_views = 0});
    ASSERT_TRUE(store.Add(Pod("ns", "a")).Ok());
    std::shared_ptr<const Object> held = store.Get("ns", "a").Shared();
    std::weak_ptr<const Object> view = held;
    EXPECT_EQ(store.Get("ns", "a").Shared(), held);
    held.reset();
    EXPECT_TRUE(view.expired());
}

TEST(StoreTest, SharedViewsAreDecodedOnceWhileHeld) {
    Store store;
    auto change = store.Add(Pod("ns", "a"));
    ASSERT_TRUE(change.Ok());
    // The object as ingested is the view while someone holds it.
    std::shared_ptr<const Object> first = change->current.Shared();
    EXPECT_EQ(store.Get("ns", "a").Shared(), first);
    EXPECT_FALSE(first->HasManagedFields());
    const Object* address = first.get();
    change->current = {};
    first.reset();
    // Nobody holds it: a fresh decode, shared again by the next reader.
    std::shared_ptr<const Object> second = store.Get("ns", "a").Shared();
    ASSERT_NE(second, nullptr);
    EXPECT_EQ(store.Get("ns", "a").Shared(), second);
    (void)address;
    Object expected = Pod("ns", "a");
    expected.RemoveManagedFields();
    EXPECT_EQ(*second, expected);
}

TEST(StoreTest, UserIndexesFollowUpdatesAndDeletes) {
    Store store;
    ASSERT_TRUE(store.Add(Pod("ns", "early", "1", "n1")).Ok());
    const IndexFunc by_node = [](const Object& object) {
        auto node = object.NestedString({"spec", "nodeName"});
        return node.Ok() ? std::vector<std::string>{*node} : std::vector<std::string>{};
    };
    ASSERT_TRUE(store.AddIndex("spec.nodeName", by_node).Ok());
    EXPECT_EQ(store.AddIndex("spec.nodeName", by_node).Code(), StatusCode::kAlreadyExists);
    EXPECT_EQ(store.AddIndex(std::string(kNamespaceIndex), by_node).Code(), StatusCode::kAlreadyExists);

    ASSERT_TRUE(store.Add(Pod("ns", "b", "1", "n1")).Ok());
    ASSERT_TRUE(store.Add(Pod("ns", "c", "1", "n2")).Ok());
    EXPECT_THAT(Keys(*store.ByIndex("spec.nodeName", "n1")), ElementsAre("ns/b", "ns/early"));
    ASSERT_TRUE(store.Update(Pod("ns", "b", "2", "n2")).Ok());
    EXPECT_THAT(Keys(*store.ByIndex("spec.nodeName", "n1")), ElementsAre("ns/early"));
    EXPECT_THAT(Keys(*store.ByIndex("spec.nodeName", "n2")), ElementsAre("ns/b", "ns/c"));
    (void)store.Delete("ns", "c");
    EXPECT_THAT(Keys(*store.ByIndex("spec.nodeName", "n2")), ElementsAre("ns/b"));
    EXPECT_THAT(*store.IndexValues("spec.nodeName"), ElementsAre("n1", "n2"));
    EXPECT_TRUE(store.ByIndex("spec.nodeName", "n9")->empty());
    EXPECT_EQ(store.ByIndex("nope", "x").GetStatus().Code(), StatusCode::kNotFound);
    EXPECT_EQ(store.IndexValues("nope").GetStatus().Code(), StatusCode::kNotFound);

    std::vector<Object> fresh;
    fresh.push_back(Pod("ns", "z", "3", "n3"));
    ASSERT_TRUE(store.Replace(std::move(fresh), "3").Ok());
    EXPECT_THAT(*store.IndexValues("spec.nodeName"), ElementsAre("n3"));
    EXPECT_THAT(Keys(*store.ByIndex("spec.nodeName", "n3")), ElementsAre("ns/z"));
}

TEST(StoreTest, ReadersRunBesideTheWriter) {
    Store store;
    constexpr int kObjects = 200;
    for (int i = 0; i < kObjects; ++i)
        ASSERT_TRUE(store.Add(Object::Parse(testing::RealisticPodJson(i, 1, 0)).Value()).Ok());
    std::atomic<bool> stop{false};
    std::atomic<int> bad{0};
    std::vector<std::thread> readers;
    for (int r = 0; r < 3; ++r) {
        readers.emplace_back([&] {
            while (!stop.load()) {
                for (const CachedObject& object : store.List("shop-1")) {
                    if (object.Copy().Namespace() != "shop-1" || object.Shared()->Name() != object.Name())
                        ++bad;
                }
            }
        });
    }
    for (int round = 1; round <= 5; ++round) {
        for (int i = 0; i < kObjects; ++i)  // EXPECT: the readers must be stopped whatever happens
            EXPECT_TRUE(store.Update(Object::Parse(testing::RealisticPodJson(i, 1 + round, round)).Value()).Ok());
    }
    stop = true;
    for (std::thread& t : readers)
        t.join();
    EXPECT_EQ(bad.load(), 0);
    EXPECT_EQ(store.Get("shop-1", Object::Parse(testing::RealisticPodJson(1, 1, 0)).Value().Name()).ResourceVersion(),
              "6");
}

}  // namespace
}  // namespace ctrl::cache
