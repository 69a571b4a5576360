// The broadcaster over the fake client: recorders queue without waiting, the drain coroutine
// creates or patches Events, retries what could not be sent, and drops what does not fit.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "ctrl/api/event.hpp"
#include "ctrl/api/namespace.hpp"
#include "ctrl/api/pod.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/fake/client_builder.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/record/event_broadcaster.hpp"
#include "test/support/eventually.hpp"

namespace ctrl::record {
namespace {

using namespace std::chrono_literals;
using ctrl::testing::Eventually;
using ctrl::testing::TestContext;

class EventBroadcasterTest : public ::testing::Test {
  protected:
    void SetUp() override {
        loop_ = std::thread([this] { io_.run(); });
    }

    void TearDown() override {
        StopRun();
        broadcaster_.reset();
        work_.reset();
        loop_.join();
    }

    void Build(fake::ClientBuilder builder = fake::NewClientBuilder()) {
        StatusOr<std::unique_ptr<fake::FakeClient>> client = builder.Build();
        ASSERT_TRUE(client.Ok()) << client.GetStatus();
        client_ = std::move(client).Value();
    }

    // The broadcaster under test: it outlives its Run (TearDown stops Run first).
    // Its metrics go to registry_.
    Broadcaster& NewBroadcaster(BroadcasterOptions options = {}) {
        options.registry = &registry_;
        broadcaster_ = std::make_unique<Broadcaster>(*client_, options);
        return *broadcaster_;
    }

    void StartRun(Broadcaster& broadcaster) {
        boost::asio::co_spawn(io_, broadcaster.Run(run_ctx_), [this](std::exception_ptr, Status) { ran_ = true; });
        running_ = true;
    }

    void StopRun() {
        if (!running_)
            return;
        run_ctx_.Cancel();
        EXPECT_TRUE(Eventually([&] { return ran_.load(); }));
        running_ = false;
    }

    std::vector<api::Event> ListEvents() {
        api::EventList list;
        const Status status = RunOn(io_.get_executor(), client_->List(TestContext(), list));
        EXPECT_TRUE(status.Ok()) << status;
        StatusOr<std::vector<api::Event>> events = list.TakeItems();
        EXPECT_TRUE(events.Ok()) << events.GetStatus();
        return events.Ok() ? std::move(events).Value() : std::vector<api::Event>();
    }

    static api::Pod NewPod(const std::string& name) {
        api::Pod pod;
        pod.SetNamespace("ns");
        pod.SetName(name);
        pod.SetUid("uid-" + name);
        return pod;
    }

    boost::asio::io_context io_;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_{io_.get_executor()};
    std::thread loop_;
    std::unique_ptr<fake::FakeClient> client_;
    metrics::Registry registry_;
    std::unique_ptr<Broadcaster> broadcaster_;
    Context run_ctx_ = Context::WithCancel(Context::Background());
    std::atomic<bool> ran_{false};
    bool running_ = false;
};

TEST_F(EventBroadcasterTest, WritesAnEventAboutTheObject) {
    Build();
    BroadcasterOptions options;
    options.host = "host-1";
    Broadcaster& broadcaster = NewBroadcaster(options);
    EventRecorder recorder = broadcaster.GetEventRecorderFor("my-controller");
    const api::Pod pod = NewPod("web");
    recorder.Eventf(pod, api::kEventTypeWarning, "Failed", "attempt %d of %s", 3, "web");
    StartRun(broadcaster);
    ASSERT_TRUE(Eventually([&] { return broadcaster.Stats().created == 1; }));
    const std::vector<api::Event> events = ListEvents();
    ASSERT_EQ(events.size(), 1u);
    const api::Event& event = events[0];
    EXPECT_EQ(event.Namespace(), "ns");
    EXPECT_EQ(event.InvolvedObject().kind, "Pod");
    EXPECT_EQ(event.InvolvedObject().name, "web");
    EXPECT_EQ(event.InvolvedObject().uid, "uid-web");
    EXPECT_EQ(event.Type(), "Warning");
    EXPECT_EQ(event.Reason(), "Failed");
    EXPECT_EQ(event.Message(), "attempt 3 of web");
    EXPECT_EQ(event.Count(), 1);
    EXPECT_EQ(event.Source().component, "my-controller");
    EXPECT_EQ(event.Source().host, "host-1");
    EXPECT_EQ(event.ReportingController(), "my-controller");
    EXPECT_EQ(event.ReportingInstance(), "host-1");
}

TEST_F(EventBroadcasterTest, IdenticalEventsBecomeOneEventWithACount) {
    Build();
    Broadcaster& broadcaster = NewBroadcaster();
    EventRecorder recorder = broadcaster.GetEventRecorderFor("my-controller");
    StartRun(broadcaster);
    const api::Pod pod = NewPod("web");
    for (int i = 0; i < 5; ++i) {
        recorder.Event(pod, api::kEventTypeNormal, "Synced", "synced");
        ASSERT_TRUE(Eventually([&] { return broadcaster.Stats().created + broadcaster.Stats().patched == i + 1u; }));
    }
    const std::vector<api::Event> events = ListEvents();
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].Count(), 5);
    EXPECT_EQ(broadcaster.Stats().created, 1u);
    EXPECT_EQ(broadcaster.Stats().patched, 4u);
}

TEST_F(EventBroadcasterTest, AClusterScopedObjectsEventGoesToDefault) {
    Build();
    Broadcaster& broadcaster = NewBroadcaster();
    api::Namespace ns;
    ns.SetName("team-a");
    broadcaster.GetEventRecorderFor("c").Event(ns, api::kEventTypeNormal, "Seen", "seen");
    StartRun(broadcaster);
    ASSERT_TRUE(Eventually([&] { return broadcaster.Stats().created == 1; }));
    const std::vector<api::Event> events = ListEvents();
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].Namespace(), "default");
}

TEST_F(EventBroadcasterTest, AFullQueueDropsInsteadOfWaiting) {
    Build();
    BroadcasterOptions options;
    options.queue_size = 3;
    Broadcaster& broadcaster = NewBroadcaster(options);
    EventRecorder recorder = broadcaster.GetEventRecorderFor("c");
    for (int i = 0; i < 5; ++i)
        recorder.Event(NewPod("p" + std::to_string(i)), api::kEventTypeNormal, "R", "m");
    EXPECT_EQ(broadcaster.Stats().dropped, 2u);
    EXPECT_NE(registry_.SerializeText().find("ctrl_event_recorder_events_total{result=\"dropped\"} 2"),
              std::string::npos);
    recorder.Event(NewPod("x"), "Sideways", "R", "m");  // not a type: dropped before the queue
    StartRun(broadcaster);
    ASSERT_TRUE(Eventually([&] { return broadcaster.Stats().created == 3; }));
    EXPECT_EQ(ListEvents().size(), 3u);
}

TEST_F(EventBroadcasterTest, AnUnreachableServerIsRetriedARefusalIsNot) {
    std::atomic<int> unreachable{2};
    std::atomic<int> creates{0};
    Build(std::move(fake::NewClientBuilder().WithInterceptor([&](const fake::Call& call) {
        if (call.verb != "create")
            return OkStatus();
        ++creates;
        if (call.key.name.rfind("refused", 0) == 0)
            return ForbiddenError("events are forbidden").WithHttpCode(403);
        if (unreachable-- > 0)
            return UnavailableError("connection refused");
        return OkStatus();
    })));
    BroadcasterOptions options;
    options.retry_sleep = 10ms;
    Broadcaster& broadcaster = NewBroadcaster(options);
    EventRecorder recorder = broadcaster.GetEventRecorderFor("c");
    recorder.Event(NewPod("web"), api::kEventTypeNormal, "R", "m");
    StartRun(broadcaster);
    ASSERT_TRUE(Eventually([&] { return broadcaster.Stats().created == 1; }));
    EXPECT_EQ(creates, 3);
    recorder.Event(NewPod("refused"), api::kEventTypeNormal, "R", "m");
    ASSERT_TRUE(Eventually([&] { return broadcaster.Stats().failed == 1; }));
    EXPECT_EQ(creates, 4);
}

TEST_F(EventBroadcasterTest, StoppingFlushesWhatIsQueued) {
    Build();
    Broadcaster& broadcaster = NewBroadcaster();
    EventRecorder recorder = broadcaster.GetEventRecorderFor("c");
    for (int i = 0; i < 4; ++i)
        recorder.Event(NewPod("p" + std::to_string(i)), api::kEventTypeNormal, "R", "m");
    run_ctx_.Cancel();
    StartRun(broadcaster);
    StopRun();
    EXPECT_EQ(broadcaster.Stats().created, 4u);
    recorder.Event(NewPod("late"), api::kEventTypeNormal, "R", "m");
    EXPECT_EQ(broadcaster.Stats().dropped, 1u) << "after Run, the queue is closed";
}

}  // namespace
}  // namespace ctrl::record
