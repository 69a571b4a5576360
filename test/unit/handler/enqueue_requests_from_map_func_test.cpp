// EnqueueRequestsFromMapFunc and its async form: what the map returns, each once per event; a
// throwing map drops its event and never escapes.

#include "ctrl/handler/enqueue_requests_from_map_func.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "ctrl/log/log.hpp"
#include "test/unit/handler/recording_queue.hpp"

namespace ctrl::handler {
namespace {

using controller::testing::MakeObject;
using controller::testing::RecordingQueue;
using reconcile::Request;

// Keeps the error lines written while it lives.
class ErrorLines final : public log::Sink {
  public:
    void Write(const log::Record& record) override {
        if (!record.is_error)
            return;
        const std::lock_guard<std::mutex> lock(mutex_);
        lines_.push_back(std::string(record.logger) + ": " + std::string(record.message) + ": " +
                         std::string(record.error));
    }
    std::vector<std::string> Lines() const {
        const std::lock_guard<std::mutex> lock(mutex_);
        return lines_;
    }

  private:
    mutable std::mutex mutex_;
    std::vector<std::string> lines_;
};

class CapturedErrors {
  public:
    CapturedErrors() : sink_(std::make_shared<ErrorLines>()) { log::SetSink(sink_); }
    ~CapturedErrors() { log::SetSink(nullptr); }
    CapturedErrors(const CapturedErrors&) = delete;
    CapturedErrors& operator=(const CapturedErrors&) = delete;
    std::vector<std::string> Lines() const { return sink_->Lines(); }

  private:
    std::shared_ptr<ErrorLines> sink_;
};

// Maps a "team-N" object to the members named in its label "members" count: team-N/0 .. N-1.
std::vector<Request> Members(const Object& object, int count) {
    std::vector<Request> requests;
    for (int i = 0; i < count; ++i)
        requests.emplace_back(std::string(object.Namespace()), std::string(object.Name()) + "-" + std::to_string(i));
    return requests;
}

TEST(EnqueueRequestsFromMapFuncTest, FansOneObjectOutToNKeysForEveryEventType) {
    const auto handler = EnqueueRequestsFromMapFunc([](const Context&, const Object& o) { return Members(o, 3); });
    const Context ctx = Context::Background();
    const auto team = MakeObject("ns1", "team");
    const std::vector<Request> fan_out{Request("ns1", "team-0"), Request("ns1", "team-1"), Request("ns1", "team-2")};
    for (int type = 0; type < 3; ++type) {
        RecordingQueue queue;
        if (type == 0)
            handler->Create(ctx, event::CreateEvent(team), queue);
        if (type == 1)
            handler->Delete(ctx, event::DeleteEvent(team), queue);
        if (type == 2)
            handler->Generic(ctx, event::GenericEvent(team), queue);
        EXPECT_EQ(queue.Added(), fan_out) << "event type " << type;
    }
}

TEST(EnqueueRequestsFromMapFuncTest, AnUpdateMapsOldAndNewAndEnqueuesEachRequestOnce) {
    const auto handler = EnqueueRequestsFromMapFunc(
        [](const Context&, const Object& o) { return Members(o, o.Label("size") == "2" ? 2 : 3); });
    RecordingQueue queue;
    handler->Update(
        Context::Background(),
        event::UpdateEvent(MakeObject("ns1", "team", {{"size", "3"}}), MakeObject("ns1", "team", {{"size", "2"}})),
        queue);
    EXPECT_EQ(queue.Added(),
              (std::vector<Request>{Request("ns1", "team-0"), Request("ns1", "team-1"), Request("ns1", "team-2")}));
}

TEST(EnqueueRequestsFromMapFuncTest, AThrowingMapDropsTheEventAndIsLogged) {
    const CapturedErrors errors;
    const auto handler = EnqueueRequestsFromMapFunc([](const Context&, const Object& o) -> std::vector<Request> {
        if (o.Name() == "bad")
            throw std::runtime_error("no such team");
        return {Request("ns1", "ok")};
    });
    RecordingQueue queue;
    const Context ctx = Context::Background();
    EXPECT_NO_THROW(handler->Create(ctx, event::CreateEvent(MakeObject("ns1", "bad")), queue));
    // One side of an update throwing drops the whole event.
    EXPECT_NO_THROW(
        handler->Update(ctx, event::UpdateEvent(MakeObject("ns1", "good"), MakeObject("ns1", "bad")), queue));
    EXPECT_TRUE(queue.Added().empty());
    handler->Create(ctx, event::CreateEvent(MakeObject("ns1", "good")), queue);
    EXPECT_EQ(queue.Added(), (std::vector<Request>{Request("ns1", "ok")}));
    const std::vector<std::string> lines = errors.Lines();
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_NE(lines[0].find("eventhandler.EnqueueRequestsFromMapFunc: event dropped"), std::string::npos) << lines[0];
    EXPECT_NE(lines[0].find("map function threw: no such team"), std::string::npos) << lines[0];
}

TEST(EnqueueRequestsFromMapFuncTest, AnEventWithoutAnObjectMapsNothing) {
    int calls = 0;
    const auto handler = EnqueueRequestsFromMapFunc([&calls](const Context&, const Object&) {
        ++calls;
        return std::vector<Request>{};
    });
    RecordingQueue queue;
    handler->Create(Context::Background(), event::CreateEvent(), queue);
    handler->Update(Context::Background(), event::UpdateEvent(), queue);
    EXPECT_EQ(calls, 0);
    EXPECT_TRUE(queue.Added().empty());
}

// An async map that waits on a timer (as a client read would) before fanning out.
Task<std::vector<Request>> SlowMembers(Context /*ctx*/, std::shared_ptr<const Object> object) {
    boost::asio::steady_timer timer(co_await boost::asio::this_coro::executor, std::chrono::milliseconds(2));
    co_await timer.async_wait(boost::asio::use_awaitable);
    if (object->Name() == "bad")
        throw std::runtime_error("lookup failed");
    co_return Members(*object, object->Label("size") == "2" ? 2 : 3);
}

TEST(EnqueueRequestsFromAsyncMapFuncTest, EnqueuesWhatTheCoroutineReturnsOnceItEnds) {
    boost::asio::io_context io;
    const auto handler = EnqueueRequestsFromAsyncMapFunc(io.get_executor(), &SlowMembers);
    RecordingQueue queue;
    const Context ctx = Context::Background();
    handler->Create(ctx, event::CreateEvent(MakeObject("ns1", "team")), queue);
    handler->Update(
        ctx, event::UpdateEvent(MakeObject("ns2", "team", {{"size", "2"}}), MakeObject("ns2", "team", {{"size", "3"}})),
        queue);
    EXPECT_TRUE(queue.Added().empty()) << "the event returns before the map runs";
    io.run_for(std::chrono::seconds(10));
    std::vector<Request> added = queue.Added();
    std::sort(added.begin(), added.end());
    EXPECT_EQ(added,
              (std::vector<Request>{Request("ns1", "team-0"), Request("ns1", "team-1"), Request("ns1", "team-2"),
                                    Request("ns2", "team-0"), Request("ns2", "team-1"), Request("ns2", "team-2")}));
}

TEST(EnqueueRequestsFromAsyncMapFuncTest, AThrowingCoroutineIsLoggedAndNeverEscapes) {
    const CapturedErrors errors;
    boost::asio::io_context io;
    const auto handler = EnqueueRequestsFromAsyncMapFunc(io.get_executor(), &SlowMembers);
    RecordingQueue queue;
    handler->Generic(Context::Background(), event::GenericEvent(MakeObject("ns1", "bad")), queue);
    handler->Delete(Context::Background(), event::DeleteEvent(MakeObject("ns1", "good")), queue);
    EXPECT_NO_THROW(io.run_for(std::chrono::seconds(10)));
    EXPECT_EQ(queue.Added().size(), 3u) << "the other event is still enqueued";
    const std::vector<std::string> lines = errors.Lines();
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_NE(lines[0].find("map function threw: lookup failed"), std::string::npos) << lines[0];
}

TEST(EnqueueRequestsFromAsyncMapFuncTest, AThrowBeforeTheFirstSuspensionIsCaughtToo) {
    const CapturedErrors errors;
    boost::asio::io_context io;
    const auto handler = EnqueueRequestsFromAsyncMapFunc(
        io.get_executor(), [](Context, std::shared_ptr<const Object>) -> Task<std::vector<Request>> {
            throw std::logic_error("not a coroutine body");
        });
    RecordingQueue queue;
    handler->Create(Context::Background(), event::CreateEvent(MakeObject("ns1", "a")), queue);
    EXPECT_NO_THROW(io.run_for(std::chrono::seconds(10)));
    EXPECT_TRUE(queue.Added().empty());
    ASSERT_EQ(errors.Lines().size(), 1u);
}

TEST(EnqueueRequestsFromAsyncMapFuncTest, NothingIsEnqueuedOnceTheControllersContextIsCancelled) {
    boost::asio::io_context io;
    // The map waits until the test lets it go, as a slow client read would.
    boost::asio::steady_timer release(io, boost::asio::steady_timer::time_point::max());
    const auto handler = EnqueueRequestsFromAsyncMapFunc(
        io.get_executor(), [&release](Context, std::shared_ptr<const Object> object) -> Task<std::vector<Request>> {
            boost::system::error_code ignored;
            co_await release.async_wait(boost::asio::redirect_error(boost::asio::use_awaitable, ignored));
            co_return Members(*object, 2);
        });
    RecordingQueue queue;
    const Context ctx = Context::WithCancel(Context::Background());
    handler->Create(ctx, event::CreateEvent(MakeObject("ns1", "team")), queue);
    io.poll();  // the map starts and waits
    ctx.Cancel();
    release.cancel();
    io.run_for(std::chrono::seconds(10));
    EXPECT_TRUE(queue.Added().empty());
}

}  // namespace
}  // namespace ctrl::handler
