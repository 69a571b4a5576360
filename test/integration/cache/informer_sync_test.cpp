// The reflector against the real control plane (issue 6, acceptance 1): 1,000 realistic pods sync,
// then creates, updates and deletes become visible in the cache within a 10 s deadline; the typical
// delay is printed. Every way of listing (issue 19): the watch-list stream in JSON and in protobuf, and
// pages; the cache then equals a fresh JSON list.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "test/integration/cache/cluster_fixture.hpp"
#include "test/integration/cache/pod_ops.hpp"

namespace ctrl::cache::test {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

double Millis(Clock::duration d) {
    return std::chrono::duration<double, std::milli>(d).count();
}

// "median 12.3 ms, max 40.1 ms" of a list of delays.
std::string Summary(std::vector<Clock::duration> delays) {
    if (delays.empty())
        return "none";
    std::sort(delays.begin(), delays.end());
    char text[96];
    std::snprintf(text, sizeof text, "median %.1f ms, p90 %.1f ms, max %.1f ms", Millis(delays[delays.size() / 2]),
                  Millis(delays[delays.size() * 9 / 10]), Millis(delays.back()));
    return text;
}

// How the reflector lists and watches.
enum class Listing { kWatchList, kPages, kWatchListProtobuf };

class InformerSyncTest : public ClusterTest, public ::testing::WithParamInterface<Listing> {
  protected:
    // Waits (polling every millisecond, at most kTestWait) until condition holds; returns how long
    // it took from `since`, or nullopt when the deadline passed.
    static std::optional<Clock::duration> WhenVisible(Clock::time_point since, const std::function<bool()>& condition) {
        if (!Eventually(condition, ctrl::testing::kTestWait, 1ms))
            return std::nullopt;
        return Clock::now() - since;
    }
};

TEST_P(InformerSyncTest, ThousandPodsSyncThenChangesAreVisibleWithinTenSeconds) {
    constexpr std::size_t kPods = 1000;
    const bool watch_list = GetParam() != Listing::kPages;
    const bool protobuf = GetParam() == Listing::kWatchListProtobuf;
    const std::string ns = protobuf ? "cache-sync-protobuf" : watch_list ? "cache-sync-stream" : "cache-sync-pages";
    ASSERT_TRUE(Run(CreateNamespace(*client_, ns, Within(30s))).Ok());
    const auto create_started = Clock::now();
    Status created = Run(CreatePods(*client_, ns, "pod-", kPods, /*parallel=*/32, Within(300s)));
    ASSERT_TRUE(created.Ok()) << created;
    std::printf("created %zu pods in %.0f ms\n", kPods, Millis(Clock::now() - create_started));

    const auto sync_started = Clock::now();
    StartReflector(ns, {.watch_list = watch_list}, protobuf);
    Status synced = Run(reflector_->WaitForSync(Within(60s)));
    ASSERT_TRUE(synced.Ok()) << synced;
    const auto sync_took = Clock::now() - sync_started;
    ASSERT_EQ(store_.Size(), kPods);
    std::size_t json_bytes = 0;
    for (const CachedObject& object : store_.List())
        json_bytes += object.Copy().ToJson().size();
    std::printf("synced %zu pods in %.0f ms (%s); compact form %.0f B/pod for %.0f B/pod of JSON\n", kPods,
                Millis(sync_took), watch_list ? "a watch-list" : "pages of 500",
                static_cast<double>(store_.EncodedBytes()) / kPods, static_cast<double>(json_bytes) / kPods);
    const ReflectorStats synced_stats = reflector_->Stats();
    // What the cache holds is what a JSON list says, however it came.
    StatusOr<std::vector<Object>> fresh = Run(ListPods(*client_, ns, Within(60s)));
    ASSERT_TRUE(fresh.Ok()) << fresh.GetStatus();
    EXPECT_EQ(CompareStore(store_, *fresh), "");
    EXPECT_EQ(synced_stats.protobuf_watches, protobuf ? 1 : 0);
    EXPECT_EQ(synced_stats.protobuf_fallbacks, 0);
    if (watch_list) {
        // The real server streams it: no page, no fallback, one watch for the list and what follows.
        EXPECT_EQ(synced_stats.watch_lists, 1);
        EXPECT_EQ(synced_stats.list_pages, 0);
        EXPECT_EQ(synced_stats.watch_list_fallbacks, 0);
        EXPECT_EQ(synced_stats.watches, 1);
    } else {
        EXPECT_EQ(synced_stats.list_pages, 2);  // 500 per page
        EXPECT_EQ(synced_stats.watch_lists, 0);
    }
    const Object first = store_.Get(ns, PodName("pod-", 0)).Copy();
    EXPECT_EQ(first.Kind(), "Pod");
    EXPECT_FALSE(first.HasManagedFields());
    EXPECT_EQ(first.NestedString({"spec", "containers"}).GetStatus().Code(), StatusCode::kBadRequest);  // an array
    EXPECT_EQ(recorder_->Count(), kPods);

    constexpr std::size_t kChanges = 20;
    std::vector<Clock::duration> creates, updates, deletes;
    for (std::size_t i = 0; i < kChanges; ++i) {
        const std::string late = PodName("late-", i);
        auto start = Clock::now();
        ASSERT_TRUE(Run(CreatePod(*client_, ns, late, i, Within(30s))).Ok());
        auto delay = WhenVisible(start, [&] { return static_cast<bool>(store_.Get(ns, late)); });
        ASSERT_TRUE(delay) << late << " not in the cache within the test's wait";
        creates.push_back(*delay);

        const std::string touched = PodName("pod-", i);
        const std::string round = std::to_string(i);
        start = Clock::now();
        ASSERT_TRUE(Run(LabelPod(*client_, ns, touched, "round", round, Within(30s))).Ok());
        delay = WhenVisible(start, [&] { return store_.Get(ns, touched).Labels()["round"] == round; });
        ASSERT_TRUE(delay) << touched << " update not in the cache within the test's wait";
        updates.push_back(*delay);

        const std::string doomed = PodName("pod-", kPods - 1 - i);
        start = Clock::now();
        ASSERT_TRUE(Run(DeletePod(*client_, ns, doomed, Within(30s))).Ok());
        delay = WhenVisible(start, [&] { return !store_.Get(ns, doomed); });
        ASSERT_TRUE(delay) << doomed << " still in the cache after the test's wait";
        deletes.push_back(*delay);
    }
    std::printf("visible in the cache after the write was sent: create %s; update %s; delete %s\n",
                Summary(creates).c_str(), Summary(updates).c_str(), Summary(deletes).c_str());
    EXPECT_EQ(store_.Size(), kPods);
    // A delete is a MODIFIED (deletionTimestamp set) then a DELETED: two updates per change.
    ASSERT_TRUE(Eventually([&] { return recorder_->Count() == kPods + 4 * kChanges; })) << recorder_->Count();
    const auto events = recorder_->Events();
    EXPECT_EQ(std::count_if(events.begin(), events.end(), [](const std::string& e) { return e.starts_with("add"); }),
              static_cast<long>(kPods + kChanges));
    EXPECT_EQ(std::count_if(events.begin(), events.end(), [](const std::string& e) { return e.starts_with("update"); }),
              static_cast<long>(2 * kChanges));
    EXPECT_EQ(std::count_if(events.begin(), events.end(), [](const std::string& e) { return e.starts_with("delete"); }),
              static_cast<long>(kChanges));
    EXPECT_EQ(reflector_->Stats().lists, 1);
    EXPECT_TRUE(reflector_->LastError().Ok()) << reflector_->LastError();
}

INSTANTIATE_TEST_SUITE_P(Listing, InformerSyncTest,
                         ::testing::Values(Listing::kWatchList, Listing::kPages, Listing::kWatchListProtobuf),
                         [](const ::testing::TestParamInfo<Listing>& info) {
                             return info.param == Listing::kWatchList ? "WatchList"
                                    : info.param == Listing::kPages   ? "Pages"
                                                                      : "WatchListProtobuf";
                         });

}  // namespace
}  // namespace ctrl::cache::test
