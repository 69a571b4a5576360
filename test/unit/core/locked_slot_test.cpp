#include "ctrl/core/internal/locked_slot.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

namespace ctrl::internal {
namespace {

// Each published value is a pair whose halves agree, so a torn or stale-count read shows.
struct Pair {
    explicit Pair(int v) : first(v), second(v) {}
    int first;
    int second;
};

TEST(LockedSlotTest, ReadersSeeWholeValuesWhileWritersReplaceThem) {
    LockedSlot<std::shared_ptr<const Pair>> slot(std::make_shared<const Pair>(0));
    std::atomic<bool> stop{false};
    std::atomic<long> reads{0};
    std::atomic<long> torn{0};
    std::vector<std::thread> readers;
    for (int r = 0; r < 3; ++r) {
        readers.emplace_back([&] {
            while (!stop.load()) {
                const std::shared_ptr<const Pair> value = slot.Load();
                if (value == nullptr || value->first != value->second)
                    ++torn;
                ++reads;
            }
        });
    }
    std::thread writer([&] {
        for (int i = 1; i <= 20000; ++i)
            slot.Store(std::make_shared<const Pair>(i));
        stop = true;
    });
    writer.join();
    for (std::thread& reader : readers)
        reader.join();
    EXPECT_EQ(torn.load(), 0);
    EXPECT_GT(reads.load(), 0);
    EXPECT_EQ(slot.Load()->first, 20000);
}

TEST(LockedSlotTest, AWeakSlotForgetsAValueNoOneHolds) {
    LockedSlot<std::weak_ptr<const Pair>> slot;
    EXPECT_EQ(slot.Load().lock(), nullptr);
    auto held = std::make_shared<const Pair>(7);
    slot.Store(held);
    EXPECT_EQ(slot.Load().lock(), held);
    held.reset();
    EXPECT_EQ(slot.Load().lock(), nullptr);
}

}  // namespace
}  // namespace ctrl::internal
