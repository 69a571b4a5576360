// source::Kind over real informers fed by a scripted transport (fake_informers.hpp): the initial
// list and watch events reach the handler through the predicates; a kind not served yet (NoMatch)
// and a forbidden list are reported by Ready() and WaitForSync() while the source keeps trying, and
// it delivers once they clear, without a restart.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "ctrl/core/run_sync.hpp"
#include "ctrl/source/kind.hpp"
#include "ctrl/workqueue/queue.hpp"
#include "test/support/eventually.hpp"
#include "test/support/manual_loop.hpp"
#include "test/support/recording_event_handler.hpp"
#include "test/unit/source/fake_informers.hpp"

namespace ctrl::source::test {
namespace {

using ctrl::testing::NameIsNot;
using ctrl::testing::RecordingHandler;

using namespace std::chrono_literals;
using ctrl::testing::Eventually;
using ctrl::testing::Within;
using ::testing::HasSubstr;

const GroupVersionKind kPod{"", "v1", "Pod"};

class KindSourceTest : public ::testing::Test {
  protected:
    KindSourceTest() {
        server_->SetPods({"a", "b"});
        loop_ = std::thread([this] { io_.run(); });
    }
    ~KindSourceTest() override {
        stop_.Cancel();
        if (informers_)
            informers_->Stop();
        work_.reset();
        loop_.join();
    }

    std::shared_ptr<KindSource> Make(int no_match_answers, std::vector<predicate::PredicatePtr> predicates = {}) {
        informers_ = std::make_unique<FakeInformers>(server_, no_match_answers);
        KindOptions options;
        options.initial_backoff = 10ms;
        options.max_backoff = 40ms;
        options.error_check_interval = 20ms;
        return std::static_pointer_cast<KindSource>(Kind(*informers_, kPod, handler_, std::move(predicates), options));
    }

    template <typename T>
    T Run(Task<T> task) {
        return RunOn(io_.get_executor(), std::move(task));
    }

    boost::asio::io_context io_;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_{io_.get_executor()};
    std::thread loop_;
    std::shared_ptr<FakePodServer> server_ = std::make_shared<FakePodServer>();
    std::unique_ptr<FakeInformers> informers_;
    std::shared_ptr<RecordingHandler> handler_ = std::make_shared<RecordingHandler>();
    workqueue::Queue<reconcile::Request> queue_{io_.get_executor()};
    Context stop_ = Context::WithCancel(Context::Background());
};

TEST_F(KindSourceTest, DeliversTheInitialListAndWatchEventsThroughThePredicates) {
    auto source = Make(0, {std::make_shared<NameIsNot>("b")});
    EXPECT_EQ(source->String(), "kind source: /v1, Kind=Pod");
    EXPECT_TRUE(IsUnavailable(source->Ready())) << source->Ready();
    ASSERT_TRUE(Run(source->Start(stop_, queue_)).Ok());
    const Status synced = Run(source->WaitForSync(Within(ctrl::testing::kTestWait)));
    ASSERT_TRUE(synced.Ok()) << synced;
    EXPECT_TRUE(source->Ready().Ok()) << source->Ready();
    EXPECT_EQ(handler_->Log(), std::vector<std::string>{"create a initial"}) << "b is filtered out";
    EXPECT_EQ(handler_->prepared.load(), 1);

    ASSERT_TRUE(Eventually([&] { return server_->OpenWatches() == 1; }));
    server_->PushWatchEvent("ADDED", FakePodServer::PodJson("c", 2));
    server_->PushWatchEvent("MODIFIED", FakePodServer::PodJson("a", 3));
    server_->PushWatchEvent("MODIFIED", FakePodServer::PodJson("b", 4));
    server_->PushWatchEvent("DELETED", FakePodServer::PodJson("c", 5));
    ASSERT_TRUE(Eventually([&] { return handler_->Log().size() == 4; })) << ::testing::PrintToString(handler_->Log());
    EXPECT_EQ(handler_->Log(), (std::vector<std::string>{"create a initial", "create c", "update a", "delete c"}));
    EXPECT_EQ(queue_.Len(), 2u) << "the handler enqueued a and c";

    EXPECT_TRUE(IsAlreadyExists(Run(source->Start(stop_, queue_))));
}

TEST_F(KindSourceTest, AKindNotServedYetIsReportedAndDeliveredOnceServed) {
    auto source = Make(/*no_match_answers=*/3);
    ASSERT_TRUE(Run(source->Start(stop_, queue_)).Ok());
    const Status waiting = Run(source->WaitForSync(Within(ctrl::testing::kTestWait)));
    EXPECT_TRUE(IsNoMatch(waiting)) << waiting;
    EXPECT_THAT(waiting.Message(), HasSubstr("waiting for kind /v1, Kind=Pod: no match"));

    // No restart: the source goes on trying and delivers once the kind is served.
    ASSERT_TRUE(Eventually([&] { return source->Ready().Ok(); })) << source->Ready();
    EXPECT_EQ(handler_->Log(), (std::vector<std::string>{"create a initial", "create b initial"}));
    const KindSourceStats stats = source->Stats();
    EXPECT_EQ(stats.attempts, 4);
    EXPECT_EQ(stats.unserved_attempts, 3);
    EXPECT_EQ(stats.failed_attempts, 0);
    EXPECT_TRUE(Run(source->WaitForSync(Within(ctrl::testing::kTestWait))).Ok());
}

TEST_F(KindSourceTest, AForbiddenListIsReportedUntilItIsAllowed) {
    server_->SetForbidden(true);
    auto source = Make(0);
    ASSERT_TRUE(Run(source->Start(stop_, queue_)).Ok());
    const Status waiting = Run(source->WaitForSync(Within(ctrl::testing::kTestWait)));
    EXPECT_TRUE(IsForbidden(waiting)) << waiting;
    EXPECT_THAT(source->Ready().Message(), HasSubstr("waiting for kind /v1, Kind=Pod: Forbidden"));
    // The watch-list's refusal or the paged list's after it: either names what is forbidden.
    EXPECT_THAT(source->Ready().Message(), ::testing::ContainsRegex("cannot (list|watch) resource"));
    EXPECT_TRUE(handler_->Log().empty());

    server_->SetForbidden(false);
    ASSERT_TRUE(Eventually([&] { return source->Ready().Ok(); })) << source->Ready();
    EXPECT_EQ(handler_->Log().size(), 2u);
}

TEST_F(KindSourceTest, AWaitEndsWithItsContextNamingWhy) {
    auto source = Make(0);
    const Status before = Run(source->WaitForSync(Within(10ms)));
    EXPECT_TRUE(IsTimeout(before)) << before;
    EXPECT_THAT(before.Message(), HasSubstr("not started"));
}

TEST_F(KindSourceTest, StoppingEndsTheRetriesAndTheDeliveries) {
    auto source = Make(/*no_match_answers=*/1000);
    ASSERT_TRUE(Run(source->Start(stop_, queue_)).Ok());
    ASSERT_TRUE(Eventually([&] { return source->Stats().attempts >= 3; }));
    stop_.Cancel();
    ASSERT_TRUE(Eventually([&] { return IsCancelled(source->Ready()); })) << source->Ready();
    EXPECT_THAT(source->Ready().Message(),
                HasSubstr("stopped before it synced: waiting for kind /v1, Kind=Pod: no match"));
    EXPECT_TRUE(IsCancelled(Run(source->WaitForSync(Within(1s)))));
    const int64_t attempts = source->Stats().attempts;
    std::this_thread::sleep_for(100ms);
    EXPECT_EQ(source->Stats().attempts, attempts) << "no retry after the context ended";
}

TEST_F(KindSourceTest, NoEventReachesTheHandlerAfterTheContextEnds) {
    auto source = Make(0);
    ASSERT_TRUE(Run(source->Start(stop_, queue_)).Ok());
    ASSERT_TRUE(Run(source->WaitForSync(Within(ctrl::testing::kTestWait))).Ok());
    ASSERT_TRUE(Eventually([&] { return server_->OpenWatches() == 1; }));
    stop_.Cancel();
    server_->PushWatchEvent("ADDED", FakePodServer::PodJson("late", 9));
    std::this_thread::sleep_for(100ms);
    EXPECT_EQ(handler_->Log().size(), 2u);
}

// Driven by a ManualLoop on the test's thread: no loop thread, and no timer ever fires (poll runs only
// what is ready), so a source that slept until its registrations synced would not get there.
class KindSourceWithoutTimersTest : public ::testing::Test {
  protected:
    ~KindSourceWithoutTimersTest() override {
        stop_.Cancel();
        informers_.Stop();
        RunReady();
    }
    void RunReady() { loop_.RunReady(); }
    // Starts source and runs what is ready; Start's result.
    Status Start(KindSource& source) {
        const auto started = loop_.Spawn(source.Start(stop_, queue_));
        RunReady();
        return started->value_or(InternalError("Start did not return"));
    }

    ctrl::testing::ManualLoop loop_;
    std::shared_ptr<FakePodServer> server_ = std::make_shared<FakePodServer>();
    FakeInformers informers_{server_};
    std::shared_ptr<RecordingHandler> handler_ = std::make_shared<RecordingHandler>();
    workqueue::Queue<reconcile::Request> queue_{loop_.Executor()};
    Context stop_ = Context::WithCancel(Context::Background());
};

TEST_F(KindSourceWithoutTimersTest, SyncsAsSoonAsItsRegistrationsHaveTheFirstList) {
    server_->SetPods({"a", "b"});
    auto first = std::static_pointer_cast<KindSource>(Kind(informers_, kPod, handler_));
    ASSERT_TRUE(Start(*first).Ok());
    EXPECT_TRUE(first->Ready().Ok()) << first->Ready();
    EXPECT_EQ(handler_->Log(), (std::vector<std::string>{"create a initial", "create b initial"}));

    // On an informer synced already, the replay to a new registration is posted to the executor:
    // the source waits for that delivery, not for a timer.
    auto second_handler = std::make_shared<RecordingHandler>();
    auto second = std::static_pointer_cast<KindSource>(Kind(informers_, kPod, second_handler));
    ASSERT_TRUE(Start(*second).Ok());
    EXPECT_TRUE(second->Ready().Ok()) << second->Ready();
    EXPECT_EQ(second_handler->Log(), (std::vector<std::string>{"create a initial", "create b initial"}));
    const auto synced = loop_.Spawn(second->WaitForSync(Context::Background()));
    RunReady();
    ASSERT_TRUE(synced->has_value());
    EXPECT_TRUE(synced->value().Ok()) << synced->value();
}

}  // namespace
}  // namespace ctrl::source::test
