#include <cstddef>
#include <functional>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "ctrl/workqueue/internal/node_index.hpp"

namespace ctrl::workqueue::internal {
namespace {

struct Node {
    int key;
};
using Index = NodeIndex<Node, std::equal_to<int>>;

TEST(NodeIndex, FindsInsertedNodesAndForgetsErasedOnes) {
    Index index;
    Node a{1}, b{2}, c{3};
    EXPECT_EQ(index.Find(1, 11), nullptr);
    index.Insert(&a, 11);
    index.Insert(&b, 22);
    index.Insert(&c, 33);
    EXPECT_EQ(index.Size(), 3u);
    EXPECT_EQ(index.Find(1, 11), &a);
    EXPECT_EQ(index.Find(2, 22), &b);
    EXPECT_EQ(index.Find(2, 11), nullptr);  // the hash is part of the match
    index.Erase(&b, 22);
    EXPECT_EQ(index.Find(2, 22), nullptr);
    EXPECT_EQ(index.Find(3, 33), &c);
    std::set<int> seen;
    index.ForEach([&](Node* node) { seen.insert(node->key); });
    EXPECT_EQ(seen, (std::set<int>{1, 3}));
    index.Clear();
    EXPECT_EQ(index.Size(), 0u);
    EXPECT_EQ(index.Find(1, 11), nullptr);
}

// Few distinct hashes make long runs of collisions, so erasing from the middle of a run (the
// backward shift) and growing with runs that wrap around the end of the array are exercised;
// the index must agree with a std::unordered_map at every step.
TEST(NodeIndex, AgreesWithAMapUnderRandomInsertsAndErasesWithCollidingHashes) {
    for (const std::size_t distinct_hashes : {std::size_t{1}, std::size_t{7}, std::size_t{1} << 20}) {
        Index index;
        std::unordered_map<int, std::unique_ptr<Node>> model;
        std::mt19937 rng(42);
        auto hash_of = [&](int key) { return static_cast<std::size_t>(key) % distinct_hashes * 0x5bd1e995u; };
        for (int step = 0; step < 20000; ++step) {
            const int key = static_cast<int>(rng() % 600);
            auto it = model.find(key);
            ASSERT_EQ(index.Find(key, hash_of(key)), it == model.end() ? nullptr : it->second.get())
                << "step " << step << ", " << distinct_hashes << " hashes";
            if (it == model.end()) {
                auto node = std::make_unique<Node>(Node{key});
                index.Insert(node.get(), hash_of(key));
                model.emplace(key, std::move(node));
            } else if (rng() % 3 != 0) {
                index.Erase(it->second.get(), hash_of(key));
                model.erase(it);
            }
            ASSERT_EQ(index.Size(), model.size());
        }
        for (int key = 0; key < 600; ++key) {
            auto it = model.find(key);
            EXPECT_EQ(index.Find(key, hash_of(key)), it == model.end() ? nullptr : it->second.get());
        }
    }
}

TEST(NodeIndex, LooksUpByAnyKeyTheEqualityAccepts) {
    struct StringNode {
        std::string key;
    };
    NodeIndex<StringNode, std::equal_to<>> index;
    StringNode a{"a"};
    const std::size_t hash = std::hash<std::string>{}("a");
    index.Insert(&a, hash);
    EXPECT_EQ(index.Find("a", hash), &a);
    EXPECT_EQ(index.Find(std::string("a"), hash), &a);
}

}  // namespace
}  // namespace ctrl::workqueue::internal
