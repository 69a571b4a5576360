#include "ctrl/core/context.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace ctrl {
namespace {

using namespace std::chrono_literals;

TEST(ContextTest, BackgroundIsLiveForever) {
    Context ctx = Context::Background();
    EXPECT_FALSE(ctx.Cancelled());
    EXPECT_TRUE(ctx.Err().Ok());
    EXPECT_FALSE(ctx.Deadline().has_value());
    EXPECT_FALSE(ctx.Remaining().has_value());
}

TEST(ContextTest, CancelReachesChildrenAndCallbacksOnce) {
    Context root = Context::WithCancel(Context::Background());
    Context child = Context::WithCancel(root);
    Context grandchild = Context::WithTimeout(child, 1h);
    int calls = 0;
    grandchild.OnCancel([&](const Status& why) {
        ++calls;
        EXPECT_EQ(why.Message(), "shutting down");
    });
    root.Cancel(CancelledError("shutting down"));
    root.Cancel(CancelledError("again"));
    EXPECT_TRUE(child.Cancelled());
    EXPECT_TRUE(grandchild.Cancelled());
    EXPECT_EQ(grandchild.Err().Message(), "shutting down");
    EXPECT_EQ(calls, 1);
}

TEST(ContextTest, CancellingAChildLeavesTheParentLive) {
    Context root = Context::WithCancel(Context::Background());
    Context child = Context::WithCancel(root);
    child.Cancel();
    EXPECT_TRUE(child.Cancelled());
    EXPECT_FALSE(root.Cancelled());
    EXPECT_TRUE(IsCancelled(child.Err()));
}

TEST(ContextTest, CallbackOnAnAlreadyCancelledContextRunsAtOnce) {
    Context ctx = Context::WithCancel(Context::Background());
    ctx.Cancel();
    bool ran = false;
    ctx.OnCancel([&](const Status&) { ran = true; });
    EXPECT_TRUE(ran);
}

TEST(ContextTest, RemovedCallbacksDoNotRun) {
    Context ctx = Context::WithCancel(Context::Background());
    bool ran = false;
    auto id = ctx.OnCancel([&](const Status&) { ran = true; });
    ctx.RemoveCallback(id);
    ctx.Cancel();
    EXPECT_FALSE(ran);
}

TEST(ContextTest, DeadlineIsTheEarlierOfParentAndChild) {
    Context parent = Context::WithTimeout(Context::Background(), 1h);
    Context later = Context::WithTimeout(parent, 2h);
    Context sooner = Context::WithTimeout(parent, 1s);
    EXPECT_EQ(later.Deadline(), parent.Deadline());
    EXPECT_LT(*sooner.Deadline(), *parent.Deadline());
}

TEST(ContextTest, ExpiredDeadlineIsTimeout) {
    Context ctx = Context::WithDeadline(Context::Background(), Context::Clock::now() - 1ms);
    EXPECT_TRUE(IsTimeout(ctx.Err()));
    EXPECT_EQ(*ctx.Remaining(), Context::Clock::duration::zero());
}

TEST(ContextTest, ChildrenOutlivedByParentsUnregister) {
    Context root = Context::WithCancel(Context::Background());
    for (int i = 0; i < 1000; ++i) {
        Context child = Context::WithCancel(root);
    }
    std::atomic<int> calls = 0;
    root.OnCancel([&](const Status&) { ++calls; });
    root.Cancel();
    EXPECT_EQ(calls, 1);
}

TEST(ContextTest, ConcurrentCancelRunsCallbacksExactlyOnce) {
    Context ctx = Context::WithCancel(Context::Background());
    std::atomic<int> calls = 0;
    for (int i = 0; i < 100; ++i)
        ctx.OnCancel([&](const Status&) { ++calls; });
    std::vector<std::thread> threads;
    for (int i = 0; i < 8; ++i)
        threads.emplace_back([&] { ctx.Cancel(); });
    for (auto& t : threads)
        t.join();
    EXPECT_EQ(calls, 100);
}

}  // namespace
}  // namespace ctrl
