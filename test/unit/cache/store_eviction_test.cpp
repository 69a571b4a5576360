// A bounded store (StoreOptions::max_bytes): it holds at most its limit of compact bytes, evicts
// the objects least recently stored or read, says it evicted (HasEvicted), and a relist starts it
// complete again before evicting.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ctrl/cache/store.hpp"

namespace ctrl::cache {
namespace {

// A ConfigMap of about `size` bytes of data.
Object ConfigMap(const std::string& name, std::size_t size = 1000) {
    StatusOr<Object> object =
        Object::Parse(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"namespace":"ns","name":")" + name +
                      R"(","resourceVersion":"1"},"data":{"payload":")" + std::string(size, 'x') + R"("}})");
    EXPECT_TRUE(object.Ok()) << object.GetStatus();
    return std::move(object).Value();
}

TEST(StoreEvictionTest, HoldsAtMostItsLimitEvictingTheLeastRecentlyUsed) {
    Store store(StoreOptions{.max_bytes = 20'000});
    for (int i = 0; i < 10; ++i)
        ASSERT_TRUE(store.Add(ConfigMap("cm-" + std::to_string(i))).Ok());
    EXPECT_FALSE(store.HasEvicted());
    const std::size_t ten = store.EncodedBytes();
    ASSERT_LT(ten, 20'000u);
    // Read the oldest: it becomes the most recently used.
    ASSERT_TRUE(store.Get("ns", "cm-0"));
    for (int i = 10; i < 40; ++i) {
        ASSERT_TRUE(store.Add(ConfigMap("cm-" + std::to_string(i))).Ok());
        EXPECT_LE(store.EncodedBytes(), 20'000u) << "after cm-" << i;
        ASSERT_TRUE(store.Get("ns", "cm-0")) << "a read object stays (evicted after cm-" << i << ")";
    }
    EXPECT_TRUE(store.HasEvicted());
    EXPECT_GT(store.Evictions(), 0);
    EXPECT_EQ(store.Size() + static_cast<std::size_t>(store.Evictions()), 40u);
    EXPECT_FALSE(store.Get("ns", "cm-1")) << "the least recently used went first";
    EXPECT_TRUE(store.Get("ns", "cm-39"));
}

TEST(StoreEvictionTest, ARelistIsCompleteThenEvictedDownToTheLimit) {
    Store store(StoreOptions{.max_bytes = 20'000});
    std::vector<Object> objects;
    for (int i = 0; i < 5; ++i)
        objects.push_back(ConfigMap("cm-" + std::to_string(i)));
    StatusOr<StoreReplaceResult> small = store.Replace(std::move(objects), "10");
    ASSERT_TRUE(small.Ok());
    EXPECT_FALSE(store.HasEvicted());

    objects.clear();
    for (int i = 0; i < 50; ++i)
        objects.push_back(ConfigMap("cm-" + std::to_string(i)));
    StatusOr<StoreReplaceResult> large = store.Replace(std::move(objects), "20");
    ASSERT_TRUE(large.Ok());
    EXPECT_EQ(large->changes.size(), 50u) << "every listed object reaches the handlers";
    EXPECT_TRUE(store.HasEvicted());
    EXPECT_LE(store.EncodedBytes(), 20'000u);
    EXPECT_GE(store.EncodedBytes(), 20'000u / 10 * 9 - 2'000) << "evicted down to 90%, not further";
    EXPECT_TRUE(store.Get("ns", "cm-49")) << "the last listed are the most recent";

    // Deleting everything it holds does not make it complete: evicted objects may still exist.
    for (const std::string& key : store.ListKeys())
        (void)store.Delete("ns", key.substr(3));
    EXPECT_EQ(store.Size(), 0u);
    EXPECT_TRUE(store.HasEvicted());
}

TEST(StoreEvictionTest, AnUnboundedStoreNeverEvicts) {
    Store store;
    for (int i = 0; i < 100; ++i)
        ASSERT_TRUE(store.Add(ConfigMap("cm-" + std::to_string(i), 5'000)).Ok());
    EXPECT_EQ(store.Size(), 100u);
    EXPECT_FALSE(store.HasEvicted());
    EXPECT_EQ(store.Evictions(), 0);
}

}  // namespace
}  // namespace ctrl::cache
