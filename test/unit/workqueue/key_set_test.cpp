#include <chrono>
#include <deque>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ctrl/workqueue/internal/key_set.hpp"

namespace ctrl::workqueue::internal {
namespace {

using namespace std::chrono_literals;
using Keys = KeySet<std::string, std::hash<std::string>, std::equal_to<std::string>>;
using Clock = Keys::Clock;

auto At(Clock::time_point t) {
    return [t] { return t; };
}

TEST(KeySet, FollowsClientGosDirtyAndProcessingRules) {
    Keys keys;
    const auto t0 = Clock::now();
    EXPECT_EQ(keys.Add("a", At(t0)), Keys::Added::kQueued);
    EXPECT_EQ(keys.Add("a", At(t0 + 1s)), Keys::Added::kDuplicate);
    EXPECT_EQ(keys.Add("b", At(t0 + 2s)), Keys::Added::kQueued);
    EXPECT_EQ(keys.Queued(), 2u);

    Clock::time_point added;
    EXPECT_EQ(keys.Take(t0 + 3s, &added), "a");
    EXPECT_EQ(added, t0);  // the first add counts
    EXPECT_EQ(keys.Processing(), 1u);
    EXPECT_EQ(keys.Add("a", At(t0 + 4s)), Keys::Added::kDeferred);
    EXPECT_EQ(keys.Add("a",
                       []() -> Clock::time_point {
                           ADD_FAILURE() << "no time for a duplicate";
                           return {};
                       }),
              Keys::Added::kDuplicate);
    EXPECT_EQ(keys.Queued(), 1u);

    Clock::time_point started;
    EXPECT_EQ(keys.Done("a", &started), Keys::Finished::kRequeued);
    EXPECT_EQ(started, t0 + 3s);
    EXPECT_EQ(keys.Done("a", &started), Keys::Finished::kNotProcessing);
    EXPECT_EQ(keys.Queued(), 2u);
    EXPECT_EQ(keys.Take(t0 + 6s, &added), "b");
    EXPECT_EQ(keys.Take(t0 + 7s, &added), "a");
    EXPECT_EQ(added, t0 + 4s);
    EXPECT_EQ(keys.Done("b", &started), Keys::Finished::kIdle);
    EXPECT_EQ(keys.Done("a", &started), Keys::Finished::kIdle);
    EXPECT_EQ(keys.Processing(), 0u);
    EXPECT_FALSE(keys.HasQueued());
}

TEST(KeySet, ListsProcessingKeysLongestRunningFirst) {
    Keys keys;
    const auto t0 = Clock::now();
    for (const char* key : {"a", "b", "c", "d"})
        keys.Add(key, At(t0));
    Clock::time_point ignored;
    for (int i = 0; i < 4; ++i)
        (void)keys.Take(t0 + std::chrono::seconds(i), &ignored);
    (void)keys.Done("a", &ignored);  // the head
    (void)keys.Done("c", &ignored);  // the middle
    std::vector<Clock::time_point> starts;
    keys.ForEachStart([&](Clock::time_point start) { starts.push_back(start); });
    EXPECT_EQ(starts, (std::vector<Clock::time_point>{t0 + 1s, t0 + 3s}));
    (void)keys.Done("d", &ignored);  // the tail
    keys.Add("e", At(t0));
    (void)keys.Take(t0 + 9s, &ignored);
    starts.clear();
    keys.ForEachStart([&](Clock::time_point start) { starts.push_back(start); });
    EXPECT_EQ(starts, (std::vector<Clock::time_point>{t0 + 1s, t0 + 9s}));
}

// client-go's rules as a model (a dirty set, a processing set, a FIFO), and the KeySet driven by
// random Adds, Takes and Dones over enough keys that its index grows and erases: every answer and
// every handed-out key must match the model.
TEST(KeySet, MatchesClientGosModelUnderRandomOperations) {
    Keys keys;
    std::set<std::string> dirty;
    std::set<std::string> processing;
    std::deque<std::string> fifo;
    std::mt19937 rng(3);
    const auto t0 = Clock::now();
    for (int step = 0; step < 50000; ++step) {
        const std::string key = "key-" + std::to_string(rng() % 300);
        switch (rng() % 3) {
            case 0: {
                Keys::Added want = Keys::Added::kQueued;
                if (dirty.count(key)) {
                    want = Keys::Added::kDuplicate;
                } else if (processing.count(key)) {
                    want = Keys::Added::kDeferred;
                }
                if (want != Keys::Added::kDuplicate)
                    dirty.insert(key);
                if (want == Keys::Added::kQueued)
                    fifo.push_back(key);
                ASSERT_EQ(keys.Add(key, At(t0)), want) << "step " << step;
                break;
            }
            case 1: {
                ASSERT_EQ(keys.HasQueued(), !fifo.empty());
                if (fifo.empty())
                    break;
                Clock::time_point added;
                ASSERT_EQ(keys.Take(t0, &added), fifo.front()) << "step " << step;
                dirty.erase(fifo.front());
                processing.insert(fifo.front());
                fifo.pop_front();
                break;
            }
            default: {
                Keys::Finished want = Keys::Finished::kNotProcessing;
                if (processing.count(key)) {
                    processing.erase(key);
                    want = dirty.count(key) ? Keys::Finished::kRequeued : Keys::Finished::kIdle;
                    if (want == Keys::Finished::kRequeued)
                        fifo.push_back(key);
                }
                Clock::time_point started;
                ASSERT_EQ(keys.Done(key, &started), want) << "step " << step;
            }
        }
        ASSERT_EQ(keys.Queued(), fifo.size());
        ASSERT_EQ(keys.Processing(), processing.size());
    }
}

// The nodes of the last 256 finished keys are kept: a re-Add takes its node back, a new key takes
// the oldest over, and no more are kept however many keys finish.
TEST(KeySet, KeepsTheNodesOfTheLastFinishedKeys) {
    Keys keys;
    const auto t0 = Clock::now();
    Clock::time_point ignored;
    for (int i = 0; i < 5000; ++i)
        ASSERT_EQ(keys.Add("key-" + std::to_string(i), At(t0)), Keys::Added::kQueued);
    for (int i = 0; i < 5000; ++i)
        ASSERT_EQ(keys.Take(t0, &ignored), "key-" + std::to_string(i));
    for (int i = 0; i < 5000; ++i) {
        ASSERT_EQ(keys.Done("key-" + std::to_string(i), &ignored), Keys::Finished::kIdle);
        ASSERT_LE(keys.Kept(), 256u);
    }
    EXPECT_EQ(keys.Kept(), 256u);                                   // key-4744 .. key-4999
    EXPECT_EQ(keys.Add("key-4999", At(t0)), Keys::Added::kQueued);  // its kept node
    EXPECT_EQ(keys.Kept(), 255u);
    EXPECT_EQ(keys.Done("key-4999", &ignored), Keys::Finished::kNotProcessing);
    EXPECT_EQ(keys.Done("key-4998", &ignored), Keys::Finished::kNotProcessing);  // kept, not processing
    EXPECT_EQ(keys.Add("new", At(t0)), Keys::Added::kQueued);                    // takes key-4744's node over
    EXPECT_EQ(keys.Kept(), 254u);
    EXPECT_EQ(keys.Add("key-4744", At(t0)), Keys::Added::kQueued);  // forgotten: new again
    EXPECT_EQ(keys.Add("key-4745", At(t0)), Keys::Added::kQueued);  // taken over by key-4744
    EXPECT_EQ(keys.Kept(), 252u);
    EXPECT_EQ(keys.Take(t0, &ignored), "key-4999");
    EXPECT_EQ(keys.Take(t0, &ignored), "new");
    EXPECT_EQ(keys.Take(t0, &ignored), "key-4744");
    EXPECT_EQ(keys.Take(t0, &ignored), "key-4745");
    EXPECT_FALSE(keys.HasQueued());
}

}  // namespace
}  // namespace ctrl::workqueue::internal
