// The core's one way to resume a coroutine from elsewhere (Suspend) and the awaitable
// Notification built on it: resumed on the waiter's own executor, ended by a Context's
// cancellation or deadline, every waiter woken by one Notify.

#include "ctrl/core/notification.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include "ctrl/core/run_sync.hpp"
#include "test/support/eventually.hpp"

namespace ctrl {
namespace {

using namespace std::chrono_literals;

using testing::kTestWait;
using testing::Within;

class SuspendTest : public ::testing::Test {
  protected:
    void TearDown() override {
        if (other_.joinable())
            other_.join();
    }
    Status Wait(std::function<void(Resume<Status>)> start, Context ctx) {
        return RunSync(io_, Suspend<Status>(std::move(ctx), std::move(start)));
    }

    boost::asio::io_context io_;
    std::thread other_;
};

TEST_F(SuspendTest, AnotherThreadResumesAndTheCoroutineContinuesOnItsOwn) {
    const std::thread::id caller = std::this_thread::get_id();
    std::thread::id resumer;
    auto scenario = [&]() -> Task<Status> {
        std::function<void(Resume<Status>)> start = [&](Resume<Status> resume) {
            other_ = std::thread([&resumer, resume] {
                std::this_thread::sleep_for(20ms);
                resumer = std::this_thread::get_id();
                resume(OkStatus());
                resume(InternalError("later calls do nothing"));
            });
        };
        Status status = co_await Suspend<Status>(Within(kTestWait), std::move(start));
        EXPECT_EQ(std::this_thread::get_id(), caller);
        co_return status;
    };
    EXPECT_TRUE(RunSync(io_, scenario()).Ok());
    other_.join();
    EXPECT_NE(resumer, caller);
}

TEST_F(SuspendTest, TheContextDeadlineEndsTheWaitWithTimeout) {
    Resume<Status> kept;
    const auto start = Context::Clock::now();
    const Status status = Wait([&](Resume<Status> resume) { kept = resume; }, Within(50ms));
    EXPECT_TRUE(IsTimeout(status)) << status;
    EXPECT_GE(Context::Clock::now() - start, 50ms);
    kept(OkStatus());  // the event after the end: nothing happens
}

TEST_F(SuspendTest, CancellingTheContextEndsTheWaitWithTheReason) {
    const Context ctx = Context::WithCancel(Within(kTestWait));
    Resume<Status> kept;
    other_ = std::thread([ctx] {
        std::this_thread::sleep_for(20ms);
        ctx.Cancel(CancelledError("stopping"));
    });
    const Status status = Wait([&](Resume<Status> resume) { kept = resume; }, ctx);
    EXPECT_TRUE(IsCancelled(status)) << status;
    EXPECT_EQ(status.Message(), "stopping");
}

TEST_F(SuspendTest, AnAlreadyCancelledContextEndsAtOnceWithoutStarting) {
    const Context ctx = Context::WithCancel(Context::Background());
    ctx.Cancel();
    bool started = false;
    EXPECT_TRUE(IsCancelled(Wait([&](Resume<Status>) { started = true; }, ctx)));
    EXPECT_FALSE(started);
}

TEST_F(SuspendTest, AResumeCalledAtOnceEndsAtOnce) {
    EXPECT_TRUE(Wait([](Resume<Status> resume) { resume(OkStatus()); }, Within(kTestWait)).Ok());
}

TEST(NotificationTest, AWaitAfterNotifyReturnsAtOnce) {
    boost::asio::io_context io;
    Notification done;
    EXPECT_FALSE(done.HasBeenNotified());
    done.Notify();
    done.Notify();
    EXPECT_TRUE(done.HasBeenNotified());
    EXPECT_TRUE(RunSync(io, done.Wait(Within(kTestWait))).Ok());
}

// Waits for done, then records the result and the thread it continued on.
Task<void> WaitAndRecord(const Notification& done, Context ctx, Status& result, std::thread::id& ran_on,
                         std::atomic<int>& finished) {
    result = co_await done.Wait(std::move(ctx));
    ran_on = std::this_thread::get_id();
    ++finished;
}

TEST(NotificationTest, NotifyFromAnotherThreadWakesEveryWaiterOnItsOwnExecutor) {
    constexpr int kWaiters = 16;
    boost::asio::io_context first;
    boost::asio::io_context second;
    Notification done;
    std::vector<Status> results(kWaiters, InternalError("not run"));
    std::vector<std::thread::id> ran_on(kWaiters);
    std::atomic<int> finished{0};
    for (int i = 0; i < kWaiters; ++i)
        boost::asio::co_spawn(i % 2 == 0 ? first : second,
                              WaitAndRecord(done, Within(kTestWait), results[i], ran_on[i], finished),
                              [](std::exception_ptr) {});
    std::thread::id second_id;
    std::thread second_loop([&] {
        second_id = std::this_thread::get_id();
        second.run();
    });
    std::thread notifier([&] {
        std::this_thread::sleep_for(20ms);
        done.Notify();
    });
    first.run();
    notifier.join();
    second_loop.join();
    ASSERT_EQ(finished.load(), kWaiters);
    for (int i = 0; i < kWaiters; ++i) {
        EXPECT_TRUE(results[i].Ok()) << i << ": " << results[i];
        EXPECT_EQ(ran_on[i], i % 2 == 0 ? std::this_thread::get_id() : second_id) << i;
    }
}

TEST(NotificationTest, AWaiterWhoseContextEndsGetsItsErrorAndOthersStillWake) {
    boost::asio::io_context io;
    Notification done;
    const Context impatient = Context::WithCancel(Within(kTestWait));
    std::vector<Status> results(2, InternalError("not run"));
    std::vector<std::thread::id> ran_on(2);
    std::atomic<int> finished{0};
    boost::asio::co_spawn(io, WaitAndRecord(done, impatient, results[0], ran_on[0], finished),
                          [](std::exception_ptr) {});
    boost::asio::co_spawn(io, WaitAndRecord(done, Within(kTestWait), results[1], ran_on[1], finished),
                          [](std::exception_ptr) {});
    io.poll();
    impatient.Cancel(CancelledError("gave up"));
    for (int i = 0; i < 1000 && finished.load() == 0; ++i)
        io.run_one_for(10ms);
    EXPECT_EQ(finished.load(), 1);
    EXPECT_TRUE(IsCancelled(results[0])) << results[0];
    done.Notify();
    io.restart();
    io.run_for(kTestWait);
    EXPECT_EQ(finished.load(), 2);
    EXPECT_TRUE(results[1].Ok()) << results[1];
}

}  // namespace
}  // namespace ctrl
