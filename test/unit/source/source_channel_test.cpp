// source::Channel and source::Func: events pushed by user code reach the handler's Generic through
// the predicates (buffered before start, one copy per source sharing a channel, none after the
// context ends); a Func source enqueues by hand.
#include <gtest/gtest.h>

#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "ctrl/core/run_sync.hpp"
#include "ctrl/source/channel.hpp"
#include "ctrl/source/func.hpp"
#include "ctrl/workqueue/queue.hpp"
#include "test/support/eventually.hpp"
#include "test/support/recording_event_handler.hpp"

namespace ctrl::source::test {
namespace {

using ctrl::testing::NameIsNot;
using ctrl::testing::RecordingHandler;

using namespace std::chrono_literals;
using ctrl::testing::Eventually;

std::shared_ptr<const Object> Named(const std::string& name) {
    auto object = std::make_shared<Object>();
    object->SetNamespace("ns");
    object->SetName(name);
    return object;
}

class ChannelSourceTest : public ::testing::Test {
  protected:
    ChannelSourceTest() {
        loop_ = std::thread([this] { io_.run(); });
    }
    ~ChannelSourceTest() override {
        stop_.Cancel();
        work_.reset();
        loop_.join();
    }

    template <typename T>
    T Run(Task<T> task) {
        return RunOn(io_.get_executor(), std::move(task));
    }

    boost::asio::io_context io_;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_{io_.get_executor()};
    std::thread loop_;
    workqueue::Queue<reconcile::Request> queue_{io_.get_executor()};
    Context stop_ = Context::WithCancel(Context::Background());
};

TEST_F(ChannelSourceTest, EventsPushedBeforeAndAfterStartReachGenericThroughThePredicates) {
    auto channel = std::make_shared<EventChannel>();
    channel->Push(Named("early"));  // before any source: kept for the first one
    auto handler = std::make_shared<RecordingHandler>();
    auto source = Channel(channel, handler, {std::make_shared<NameIsNot>("skipped")});
    EXPECT_EQ(source->String(), "channel source");
    channel->Push(event::GenericEvent(Named("buffered")));
    channel->Push(Named("skipped"));
    std::this_thread::sleep_for(20ms);
    EXPECT_TRUE(handler->Log().empty()) << "nothing is delivered before Start";

    ASSERT_TRUE(Run(source->Start(stop_, queue_)).Ok());
    EXPECT_EQ(handler->prepared.load(), 1);
    EXPECT_TRUE(Run(source->WaitForSync(ctrl::testing::TestContext())).Ok());
    EXPECT_TRUE(source->Ready().Ok());
    channel->Push(Named("late"));
    ASSERT_TRUE(Eventually([&] { return handler->Log().size() == 3; }));
    EXPECT_EQ(handler->Log(), (std::vector<std::string>{"generic early", "generic buffered", "generic late"}));
    EXPECT_EQ(queue_.Len(), 3u);
    EXPECT_TRUE(IsAlreadyExists(Run(source->Start(stop_, queue_))));
}

TEST_F(ChannelSourceTest, SourcesSharingAChannelEachGetEveryEvent) {
    auto channel = std::make_shared<EventChannel>();
    auto first = std::make_shared<RecordingHandler>();
    auto second = std::make_shared<RecordingHandler>();
    auto a = Channel(channel, first);
    auto b = Channel(channel, second);
    EXPECT_EQ(channel->Subscribers(), 2u);
    ASSERT_TRUE(Run(a->Start(stop_, queue_)).Ok());
    ASSERT_TRUE(Run(b->Start(stop_, queue_)).Ok());
    std::vector<std::thread> pushers;
    for (int t = 0; t < 4; ++t)
        pushers.emplace_back([&, t] {
            for (int i = 0; i < 25; ++i)
                channel->Push(Named("o" + std::to_string(t) + "-" + std::to_string(i)));
        });
    for (auto& p : pushers)
        p.join();
    ASSERT_TRUE(Eventually([&] { return first->Log().size() == 100 && second->Log().size() == 100; }))
        << first->Log().size() << " " << second->Log().size();
}

TEST_F(ChannelSourceTest, NothingIsDeliveredAfterTheContextEnds) {
    auto channel = std::make_shared<EventChannel>();
    auto handler = std::make_shared<RecordingHandler>();
    auto source = Channel(channel, handler);
    ASSERT_TRUE(Run(source->Start(stop_, queue_)).Ok());
    channel->Push(Named("one"));
    ASSERT_TRUE(Eventually([&] { return handler->Log().size() == 1; }));
    stop_.Cancel();
    EXPECT_EQ(channel->Subscribers(), 0u);
    channel->Push(Named("two"));
    std::this_thread::sleep_for(20ms);
    EXPECT_EQ(handler->Log().size(), 1u);
}

TEST_F(ChannelSourceTest, AFailedPrepareFailsStart) {
    auto handler = std::make_shared<RecordingHandler>();
    handler->prepare_result = NoMatchError("no owner kind");
    auto source = Channel(std::make_shared<EventChannel>(), handler);
    const Status started = Run(source->Start(stop_, queue_));
    EXPECT_TRUE(IsNoMatch(started)) << started;
}

TEST_F(ChannelSourceTest, AFuncSourceEnqueuesByHand) {
    Context seen = Context::Background();
    auto source = Func([&seen](Context ctx, RequestQueue& queue) -> Task<Status> {
        seen = ctx;
        queue.Add(reconcile::Request("ns", "by-hand"));
        co_return OkStatus();
    });
    EXPECT_EQ(source->String(), "func source");
    ASSERT_TRUE(Run(source->Start(stop_, queue_)).Ok());
    EXPECT_EQ(queue_.Len(), 1u);
    EXPECT_TRUE(source->Ready().Ok());
    EXPECT_TRUE(IsAlreadyExists(Run(source->Start(stop_, queue_))));
    stop_.Cancel();
    EXPECT_TRUE(seen.Cancelled()) << "the function got the controller's context";

    auto failing = Func([](Context, RequestQueue&) -> Task<Status> { co_return UnavailableError("down"); });
    EXPECT_TRUE(IsUnavailable(Run(failing->Start(stop_, queue_))));
}

}  // namespace
}  // namespace ctrl::source::test
