// The event recorder against the real control plane (issue 14, acceptance 7): a hot loop of
// identical events becomes one Event whose count rises, similar events are combined, and
// recording never waits for the server.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <boost/asio/co_spawn.hpp>

#include "ctrl/api/config_map.hpp"
#include "ctrl/api/event.hpp"
#include "ctrl/record/event_broadcaster.hpp"
#include "test/support/cluster_fixture.hpp"
#include "test/support/eventually.hpp"

namespace ctrl::record {
namespace {

using namespace std::chrono_literals;
using ctrl::testing::Eventually;
using ctrl::testing::TestContext;

class EventRecorderTest : public ctrl::testing::ClusterFixture {
  protected:
    void SetUp() override {
        ClusterFixture::SetUp();
        config_map_.SetNamespace("default");
        config_map_.SetName(UniqueName("events-about"));
        const Status created = Run(cluster_->GetAPIReader().Create(TestContext(), config_map_));
        ASSERT_TRUE(created.Ok()) << created;
        BroadcasterOptions options;
        options.registry = &registry_;
        broadcaster_ = std::make_unique<Broadcaster>(cluster_->GetAPIReader(), options);
    }

    void TearDown() override {
        if (running_) {
            stop_.Cancel();
            EXPECT_TRUE(Eventually([&] { return ran_.load(); }));
        }
        broadcaster_.reset();
        ClusterFixture::TearDown();
    }

    void StartBroadcaster() {
        boost::asio::co_spawn(io_, broadcaster_->Run(stop_), [this](std::exception_ptr, Status) { ran_ = true; });
        running_ = true;
    }

    // The Events about the config map, from the server.
    std::vector<api::Event> EventsAboutTheConfigMap() {
        api::EventList list;
        const Status status = Run(cluster_->GetAPIReader().List(TestContext(), list, client::InNamespace("default")));
        EXPECT_TRUE(status.Ok()) << status;
        StatusOr<std::vector<api::Event>> items = list.TakeItems();
        EXPECT_TRUE(items.Ok()) << items.GetStatus();
        std::vector<api::Event> events;
        if (items.Ok())
            for (api::Event& event : *items)
                if (event.InvolvedObject().uid == config_map_.Uid())
                    events.push_back(std::move(event));
        return events;
    }

    int EventRequests() const {
        const std::vector<std::string> paths = transport_->Paths();
        return static_cast<int>(std::count_if(paths.begin(), paths.end(), [](const std::string& path) {
            return path.find("/events") != std::string::npos;
        }));
    }

    uint64_t Processed() const {
        const BroadcasterStats stats = broadcaster_->Stats();
        return stats.created + stats.patched + stats.filtered + stats.failed;
    }

    api::ConfigMap config_map_;
    std::unique_ptr<Broadcaster> broadcaster_;
    Context stop_ = Context::WithCancel(Context::Background());
    std::atomic<bool> ran_{false};
    bool running_ = false;
};

TEST_F(EventRecorderTest, AThousandIdenticalEventsBecomeOneEventWithACount) {
    EventRecorder recorder = broadcaster_->GetEventRecorderFor("hot-loop-controller");
    // Recording does not wait for the server: with nothing draining the queue yet, 1,000 calls
    // return, and all 1,000 events wait in the queue (its size is 1,000).
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < 1000; ++i)
        recorder.Event(config_map_, api::kEventTypeNormal, "Reconciled", "reconciled the config map");
    const double loop_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(broadcaster_->Stats().dropped, 0u);
    EXPECT_EQ(EventRequests(), 0) << "Event() made no request";

    StartBroadcaster();
    ASSERT_TRUE(Eventually([&] { return Processed() == 1000; }));
    const int writes = EventRequests();
    const std::vector<api::Event> events = EventsAboutTheConfigMap();
    ASSERT_EQ(events.size(), 1u);
    const BroadcasterStats stats = broadcaster_->Stats();
    std::printf(
        "[ figures ] 1000 identical events: loop %.0f us (%.2f us/event); %zu Event object, count %lld; "
        "%d write requests (created %llu, patched %llu, spam-filtered %llu)\n",
        loop_us, loop_us / 1000, events.size(), static_cast<long long>(events[0].Count()), writes,
        static_cast<unsigned long long>(stats.created), static_cast<unsigned long long>(stats.patched),
        static_cast<unsigned long long>(stats.filtered));
    EXPECT_GT(events[0].Count(), 1) << "the count rose";
    EXPECT_EQ(events[0].Count(), static_cast<int64_t>(stats.created + stats.patched));
    EXPECT_EQ(events[0].Reason(), "Reconciled");
    EXPECT_EQ(events[0].Source().component, "hot-loop-controller");
    EXPECT_EQ(events[0].ReportingController(), "hot-loop-controller");
    EXPECT_FALSE(events[0].ReportingInstance().empty());
    EXPECT_LT(writes, 100) << "far fewer requests than events";
    EXPECT_EQ(stats.failed, 0u);
}

TEST_F(EventRecorderTest, SimilarEventsWithDifferentMessagesAreCombined) {
    StartBroadcaster();
    EventRecorder recorder = broadcaster_->GetEventRecorderFor("flaky-controller");
    for (int i = 1; i <= 12; ++i)
        recorder.Eventf(config_map_, api::kEventTypeWarning, "SyncFailed", "attempt %d failed", i);
    ASSERT_TRUE(Eventually([&] { return Processed() == 12; }));
    const int writes = EventRequests();
    const std::vector<api::Event> events = EventsAboutTheConfigMap();
    int combined = 0;
    int64_t combined_count = 0;
    for (const api::Event& event : events) {
        if (event.Message().rfind("(combined from similar events): ", 0) == 0) {
            ++combined;
            combined_count = event.Count();
            EXPECT_EQ(event.Message(), "(combined from similar events): attempt 12 failed");
        }
    }
    std::printf("[ figures ] 12 similar events: %zu Event objects, one combined with count %lld, %d requests\n",
                events.size(), static_cast<long long>(combined_count), writes);
    EXPECT_EQ(events.size(), 10u) << "9 as they came, then one combined";
    EXPECT_EQ(combined, 1);
    EXPECT_EQ(combined_count, 3);
    EXPECT_EQ(broadcaster_->Stats().failed, 0u);
}

}  // namespace
}  // namespace ctrl::record
