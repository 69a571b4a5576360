// A Context's deadline fires by itself, from the one deadline service of the process.
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <vector>

#include "ctrl/core/context.hpp"
#include "ctrl/core/internal/deadline_service.hpp"
#include "test/support/eventually.hpp"

namespace ctrl {
namespace {

using namespace std::chrono_literals;
using internal::DeadlineService;
using testing::kTestWait;

// Records the first reason an OnCancel callback gets, and lets the test wait for it (with a
// generous bound: the deadline thread runs when the machine lets it).
class Fired {
  public:
    explicit Fired(const Context& ctx) {
        ctx.OnCancel([this](const Status& why) {
            std::lock_guard lock(mu_);
            reason_ = why;
            fired_ = true;
            cv_.notify_all();
        });
    }
    bool Wait() {
        std::unique_lock lock(mu_);
        return cv_.wait_for(lock, kTestWait, [this] { return fired_; });
    }
    Status Reason() {
        std::lock_guard lock(mu_);
        return reason_;
    }

  private:
    std::mutex mu_;
    std::condition_variable cv_;
    bool fired_ = false;
    Status reason_;
};

DeadlineService::Stats Stats() {
    return DeadlineService::Get().GetStats();
}

TEST(ContextDeadlineTest, FiresWithoutAnyoneCallingErr) {
    const Context ctx = Context::WithTimeout(Context::Background(), 20ms);
    Fired fired(ctx);
    ASSERT_TRUE(fired.Wait()) << "the deadline never fired";
    EXPECT_TRUE(IsTimeout(fired.Reason()));
    EXPECT_EQ(fired.Reason().Message(), "context deadline exceeded");
    EXPECT_TRUE(ctx.Cancelled());
    EXPECT_TRUE(IsTimeout(ctx.Err()));
}

TEST(ContextDeadlineTest, ChildrenOfADeadlineParentFireWithIt) {
    const Context parent = Context::WithTimeout(Context::Background(), 20ms);
    const Context child = Context::WithCancel(parent);
    const Context later = Context::WithTimeout(child, 1h);  // the parent's deadline comes first
    const Context valued = Context::WithValue(later, &kTestWait, nullptr);
    Fired child_fired(child);
    Fired later_fired(later);
    Fired valued_fired(valued);
    ASSERT_TRUE(child_fired.Wait());
    ASSERT_TRUE(later_fired.Wait());
    ASSERT_TRUE(valued_fired.Wait());
    EXPECT_TRUE(IsTimeout(child_fired.Reason()));
    EXPECT_TRUE(IsTimeout(valued_fired.Reason()));
    EXPECT_EQ(later.Deadline(), parent.Deadline());
}

TEST(ContextDeadlineTest, ACauseIsTheReason) {
    const Context ctx =
        Context::WithTimeout(Context::Background(), 10ms, TimeoutError("reconcile timed out after 0.01 s"));
    Fired fired(ctx);
    ASSERT_TRUE(fired.Wait());
    EXPECT_EQ(fired.Reason().Message(), "reconcile timed out after 0.01 s");
    EXPECT_EQ(ctx.Err().Message(), "reconcile timed out after 0.01 s");
    // A child that inherits the deadline inherits its cause too.
    EXPECT_EQ(Context::WithCancel(ctx).Err().Message(), "reconcile timed out after 0.01 s");
}

TEST(ContextDeadlineTest, APastDeadlineCancelsAtOnce) {
    const Context ctx = Context::WithDeadline(Context::Background(), Context::Clock::now() - 1ms);
    EXPECT_TRUE(ctx.Cancelled());
    EXPECT_TRUE(IsTimeout(ctx.Err()));
}

TEST(ContextDeadlineTest, ACancelledContextDeregisters) {
    const DeadlineService::Stats before = Stats();
    const Context ctx = Context::WithTimeout(Context::Background(), 1h);
    EXPECT_EQ(Stats().pending, before.pending + 1);
    ctx.Cancel();
    EXPECT_EQ(Stats().pending, before.pending);
    EXPECT_EQ(Stats().removed, before.removed + 1);
    EXPECT_TRUE(IsCancelled(ctx.Err())) << "a cancel before the deadline stays a cancel";
}

TEST(ContextDeadlineTest, AContextCancelledByItsParentDeregisters) {
    const DeadlineService::Stats before = Stats();
    const Context parent = Context::WithCancel(Context::Background());
    const Context ctx = Context::WithTimeout(parent, 1h);
    parent.Cancel();
    EXPECT_TRUE(ctx.Cancelled());
    EXPECT_EQ(Stats().pending, before.pending);
}

TEST(ContextDeadlineTest, AReleasedContextDeregisters) {
    const DeadlineService::Stats before = Stats();
    { const Context ctx = Context::WithTimeout(Context::Background(), 1h); }
    EXPECT_EQ(Stats().pending, before.pending);
}

TEST(ContextDeadlineTest, OnlyAnEarlierDeadlineRegisters) {
    const Context parent = Context::WithTimeout(Context::Background(), 1h);
    const DeadlineService::Stats before = Stats();
    const Context later = Context::WithTimeout(parent, 2h);
    const Context child = Context::WithCancel(parent);
    EXPECT_EQ(Stats().added, before.added) << "these inherit the parent's deadline";
    const Context sooner = Context::WithTimeout(parent, 1s);
    EXPECT_EQ(Stats().added, before.added + 1);
}

// The thread sleeps until a far deadline; a nearer one must wake it.
TEST(ContextDeadlineTest, AnEarlierDeadlineWakesTheService) {
    const Context far = Context::WithTimeout(Context::Background(), 1h);
    const Context near = Context::WithTimeout(Context::Background(), 20ms);
    Fired fired(near);
    ASSERT_TRUE(fired.Wait());
    EXPECT_FALSE(far.Cancelled());
}

TEST(ContextDeadlineTest, ManyContextsOneMechanism) {
    constexpr int kContexts = 2000;
    const DeadlineService::Stats before = Stats();
    std::atomic<int> fired = 0;
    std::vector<Context> contexts;
    contexts.reserve(kContexts);
    for (int i = 0; i < kContexts; ++i) {
        contexts.push_back(Context::WithTimeout(Context::Background(), 1ms * (i % 50)));
        contexts.back().OnCancel([&fired](const Status& why) {
            if (IsTimeout(why))
                ++fired;
        });
    }
    ASSERT_TRUE(testing::Eventually([&] { return fired.load() == kContexts; })) << fired.load() << " fired";
    const DeadlineService::Stats after = Stats();
    EXPECT_LE(after.threads_started - before.threads_started, 1) << "one thread serves every deadline of the process";
    // Each registered once at most (the ones at 0 ms, and any a slow machine made after its
    // deadline, were cancelled at once instead).
    EXPECT_LE(after.added - before.added, static_cast<uint64_t>(kContexts - kContexts / 50));
    EXPECT_GT(after.fired, before.fired);
    EXPECT_EQ(after.pending, before.pending);
    // Deadlines that fall together are served by one wake-up: far fewer than one per context.
    EXPECT_LT(after.wakeups - before.wakeups, static_cast<uint64_t>(kContexts / 2));
}

// With nothing pending the thread ends (an idle process has no thread for deadlines); the next
// deadline starts one again, and it fires.
TEST(ContextDeadlineTest, TheThreadEndsWhenNothingIsPendingAndComesBack) {
    {
        const Context first = Context::WithTimeout(Context::Background(), 10ms);
        Fired fired(first);
        ASSERT_TRUE(fired.Wait());
    }
    ASSERT_TRUE(testing::Eventually([] { return Stats().threads_running == 0; }, 5s))
        << "the deadline thread is still running with nothing pending";
    const int started = Stats().threads_started;
    const Context second = Context::WithTimeout(Context::Background(), 10ms);
    Fired fired(second);
    ASSERT_TRUE(fired.Wait()) << "a deadline after the thread ended never fired";
    EXPECT_EQ(Stats().threads_started, started + 1);
}

}  // namespace
}  // namespace ctrl
