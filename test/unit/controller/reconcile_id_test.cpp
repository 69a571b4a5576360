#include "ctrl/controller/internal/reconcile_id.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <thread>

namespace ctrl::controller::internal {
namespace {

TEST(ReconcileIdTest, IsAVersion4UuidInTextForm) {
    EXPECT_THAT(NewReconcileId(),
                ::testing::MatchesRegex("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"));
}

TEST(ReconcileIdTest, TenThousandIdsFromOneThreadAreDistinct) {
    std::set<std::string> ids;
    for (int i = 0; i < 10000; ++i)
        ids.insert(NewReconcileId());
    EXPECT_EQ(ids.size(), 10000u);
}

// Each thread has its own engine: an unseeded engine would give every thread (and every process)
// the same sequence, so the first ids of fresh threads would be equal.
TEST(ReconcileIdTest, FreshThreadsDrawDifferentIds) {
    std::set<std::string> first_ids;
    for (int i = 0; i < 4; ++i) {
        std::string id;
        std::thread([&id] { id = NewReconcileId(); }).join();
        first_ids.insert(id);
    }
    EXPECT_EQ(first_ids.size(), 4u);
}

}  // namespace
}  // namespace ctrl::controller::internal
