// Controller::Warmup (Options::enable_warmup): the sources start and sync before Run, and Run
// reuses them instead of starting them again.

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "ctrl/controller/controller.hpp"
#include "ctrl/core/notification.hpp"
#include "ctrl/metrics/registry.hpp"
#include "test/unit/workqueue/test_support.hpp"

namespace ctrl::controller {
namespace {

using namespace std::chrono_literals;
using reconcile::Request;
using reconcile::Result;
using workqueue::testing::Eventually;
using workqueue::testing::IoThreads;
using workqueue::testing::kTestWait;
using workqueue::testing::Spawn;

// A source that counts its starts and sync waits, adds one request when started, and syncs once
// the test says so.
class CountingSource final : public source::Source {
  public:
    Task<Status> Start(Context, handler::RequestQueue& queue) override {
        ++starts;
        queue.Add(Request("ns", "warm"));
        co_return OkStatus();
    }
    Task<Status> WaitForSync(Context ctx) override {
        ++sync_waits;
        co_return co_await synced.Wait(ctx);
    }
    std::string String() const override { return "counting source"; }

    std::atomic<int> starts{0};
    std::atomic<int> sync_waits{0};
    Notification synced;
};

// Counts reconciles.
class CountingReconciler final : public reconcile::Reconciler {
  public:
    Task<StatusOr<Result>> Reconcile(Context, Request) override {
        ++calls;
        co_return Result{};
    }
    std::atomic<int> calls{0};
};

class WarmupTest : public ::testing::Test {
  protected:
    void Make(Options options) {
        options.registry = &registry_;
        StatusOr<std::shared_ptr<Controller>> made =
            Controller::New(::testing::UnitTest::GetInstance()->current_test_info()->name(), reconciler_,
                            io_.Executor(), std::move(options));
        ASSERT_TRUE(made.Ok()) << made.GetStatus();
        controller_ = made.Value();
        ASSERT_TRUE(controller_->Watch(source_).Ok());
    }
    Status Warmup() {
        std::future<Status> warmed = Spawn(io_.Executor(), controller_->Warmup(warmup_ctx_));
        EXPECT_EQ(warmed.wait_for(kTestWait), std::future_status::ready);
        return warmed.get();
    }
    void Start() { run_ = Spawn(io_.Executor(), controller_->Run(run_ctx_)); }
    Status Stop() {
        run_ctx_.Cancel();
        EXPECT_EQ(run_.wait_for(kTestWait), std::future_status::ready);
        return run_.get();
    }

    IoThreads io_{2};
    metrics::Registry registry_;
    std::shared_ptr<CountingReconciler> reconciler_ = std::make_shared<CountingReconciler>();
    std::shared_ptr<CountingSource> source_ = std::make_shared<CountingSource>();
    std::shared_ptr<Controller> controller_;
    Context warmup_ctx_ = Context::WithCancel(Context::Background());
    Context run_ctx_ = Context::WithCancel(Context::Background());
    std::future<Status> run_;
};

TEST_F(WarmupTest, WarmupFillsTheQueueWithoutWorkersAndRunReusesTheSources) {
    Make(Options{.enable_warmup = true});
    source_->synced.Notify();
    ASSERT_TRUE(Warmup().Ok());
    EXPECT_EQ(source_->starts.load(), 1);
    EXPECT_EQ(controller_->Queue().Len(), 1u) << "the warmed source delivered into the queue";
    EXPECT_FALSE(controller_->Started());
    EXPECT_EQ(reconciler_->calls.load(), 0);
    EXPECT_TRUE(Warmup().Ok()) << "a second Warmup is a no-op";

    Start();
    ASSERT_TRUE(Eventually([&] { return reconciler_->calls.load() == 1; }));
    EXPECT_EQ(source_->starts.load(), 1) << "Run must not start a warmed source again";
    EXPECT_EQ(source_->sync_waits.load(), 1) << "Run must not wait again for a source Warmup saw synced";
    EXPECT_TRUE(Stop().Ok());
}

TEST_F(WarmupTest, RunThatComesDuringWarmupWaitsForIt) {
    Make(Options{.enable_warmup = true});
    std::future<Status> warmed = Spawn(io_.Executor(), controller_->Warmup(warmup_ctx_));
    ASSERT_TRUE(Eventually([&] { return source_->sync_waits.load() == 1; }));
    Start();
    EXPECT_FALSE(Eventually([&] { return controller_->Started(); }, workqueue::testing::kQuiet));
    source_->synced.Notify();
    ASSERT_EQ(warmed.wait_for(kTestWait), std::future_status::ready);
    EXPECT_TRUE(warmed.get().Ok());
    ASSERT_TRUE(Eventually([&] { return reconciler_->calls.load() == 1; }));
    EXPECT_EQ(source_->starts.load(), 1);
    EXPECT_TRUE(Stop().Ok());
}

TEST_F(WarmupTest, WarmupIsANoOpWhenOffOrAfterRun) {
    Make(Options{});
    source_->synced.Notify();
    EXPECT_FALSE(controller_->WarmupEnabled());
    EXPECT_TRUE(Warmup().Ok());
    EXPECT_EQ(source_->starts.load(), 0) << "enable_warmup is off by default";
    Start();
    ASSERT_TRUE(Eventually([&] { return controller_->Started(); }));
    EXPECT_TRUE(Warmup().Ok());
    EXPECT_EQ(source_->starts.load(), 1);
    EXPECT_TRUE(Stop().Ok());
}

TEST_F(WarmupTest, AFailedWarmupLeavesTheSyncToRun) {
    Make(Options{.cache_sync_timeout = 50ms, .enable_warmup = true});
    const Status warmed = Warmup();
    EXPECT_TRUE(IsTimeout(warmed)) << warmed;
    EXPECT_EQ(source_->starts.load(), 1);
    source_->synced.Notify();
    Start();
    ASSERT_TRUE(Eventually([&] { return reconciler_->calls.load() == 1; }));
    EXPECT_EQ(source_->starts.load(), 1) << "the source started by Warmup is not started twice";
    EXPECT_EQ(source_->sync_waits.load(), 2) << "Run waits for the sync Warmup did not see";
    EXPECT_TRUE(Stop().Ok());
}

TEST_F(WarmupTest, RunStoppedWhileWarmupWaitsReturnsOk) {
    Make(Options{.enable_warmup = true});
    std::future<Status> warmed = Spawn(io_.Executor(), controller_->Warmup(warmup_ctx_));
    ASSERT_TRUE(Eventually([&] { return source_->sync_waits.load() == 1; }));
    Start();
    EXPECT_TRUE(Stop().Ok());
    warmup_ctx_.Cancel();
    ASSERT_EQ(warmed.wait_for(kTestWait), std::future_status::ready);
    EXPECT_FALSE(warmed.get().Ok());
    EXPECT_EQ(reconciler_->calls.load(), 0);
}

}  // namespace
}  // namespace ctrl::controller
