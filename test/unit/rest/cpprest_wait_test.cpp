// How the cpprestsdk transport waits: a coroutine suspended until another thread resumes it,
// a Context is cancelled or a deadline passes, and always continued on its own thread.

#include "runtime/rest/internal/cpprest_wait.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include <boost/asio/io_context.hpp>

#include "runtime/core/run_sync.hpp"
#include "test/support/eventually.hpp"

namespace ctrl::rest::internal::cpprest {
namespace {

using namespace std::chrono_literals;
using ctrl::testing::TestContext;

class CppRestWaitTest : public ::testing::Test {
  protected:
    void TearDown() override {
        if (other_.joinable())
            other_.join();
    }
    WaitEnd Wait(std::function<void(Resume<WaitEnd>)> arm, Context ctx,
                 std::optional<Context::Clock::time_point> deadline) {
        return RunSync(io_, WaitUntil(io_.get_executor(), std::move(arm), std::move(ctx), deadline));
    }

    boost::asio::io_context io_;
    std::thread other_;
};

TEST_F(CppRestWaitTest, AnotherThreadResumesAndTheCoroutineContinuesOnItsOwn) {
    const std::thread::id caller = std::this_thread::get_id();
    std::thread::id resumer;
    auto scenario = [&]() -> Task<WaitEnd> {
        std::function<void(Resume<WaitEnd>)> arm = [&](Resume<WaitEnd> resume) {
            other_ = std::thread([&resumer, resume] {
                std::this_thread::sleep_for(20ms);
                resumer = std::this_thread::get_id();
                resume(WaitEnd::kDone);
                resume(WaitEnd::kCancelled);  // later calls do nothing
            });
        };
        const WaitEnd end = co_await WaitUntil(io_.get_executor(), std::move(arm), TestContext(), std::nullopt);
        EXPECT_EQ(std::this_thread::get_id(), caller);
        co_return end;
    };
    EXPECT_EQ(RunSync(io_, scenario()), WaitEnd::kDone);
    other_.join();
    EXPECT_NE(resumer, caller);
}

TEST_F(CppRestWaitTest, ADeadlineEndsTheWait) {
    Resume<WaitEnd> kept;
    const auto start = Context::Clock::now();
    EXPECT_EQ(Wait([&](Resume<WaitEnd> resume) { kept = resume; }, TestContext(), start + 50ms), WaitEnd::kDeadline);
    EXPECT_GE(Context::Clock::now() - start, 50ms);
    kept(WaitEnd::kDone);  // the event after the end: nothing happens
}

TEST_F(CppRestWaitTest, CancellingTheContextEndsTheWait) {
    const Context ctx = Context::WithCancel(TestContext());
    Resume<WaitEnd> kept;
    other_ = std::thread([ctx] {
        std::this_thread::sleep_for(20ms);
        ctx.Cancel();
    });
    EXPECT_EQ(Wait([&](Resume<WaitEnd> resume) { kept = resume; }, ctx, std::nullopt), WaitEnd::kCancelled);
}

TEST_F(CppRestWaitTest, AnAlreadyCancelledContextEndsAtOnce) {
    const Context ctx = Context::WithCancel(TestContext());
    ctx.Cancel();
    Resume<WaitEnd> kept;
    EXPECT_EQ(Wait([&](Resume<WaitEnd> resume) { kept = resume; }, ctx, std::nullopt), WaitEnd::kCancelled);
}

TEST_F(CppRestWaitTest, AnEventThatAlreadyHappenedEndsAtOnce) {
    EXPECT_EQ(Wait([](Resume<WaitEnd> resume) { resume(WaitEnd::kDone); }, TestContext(), std::nullopt),
              WaitEnd::kDone);
}

TEST(RequestDeadlineTest, TheEarlierOfTimeoutAndContextWins) {
    EXPECT_FALSE(RequestDeadline(0ms, Context::Background()).at);

    const Deadline timeout = RequestDeadline(100ms, Context::WithTimeout(Context::Background(), 1h));
    ASSERT_TRUE(timeout.at);
    EXPECT_EQ(timeout.what, "request timeout of 100 ms");

    const Context short_lived = Context::WithTimeout(Context::Background(), 100ms);
    const Deadline ctx = RequestDeadline(1h, short_lived);
    ASSERT_TRUE(ctx.at);
    EXPECT_EQ(ctx.what, "context deadline");
    EXPECT_EQ(ctx.at, short_lived.Deadline());
}

}  // namespace
}  // namespace ctrl::rest::internal::cpprest
