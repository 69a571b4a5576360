// The Manager's start and stop without a server (no informer, no leader election, no HTTP): it
// waits for its cache to start and sync, elects itself and runs its leader runnables; a stop ends
// it, including while it waits for a controller whose sources never sync (the wait for the
// controllers' start before malloc_trim ends with the manager's context, not at a poll).

#include "ctrl/manager/manager.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <memory>

#include "ctrl/core/notification.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/reconcile/reconciler.hpp"
#include "test/support/eventually.hpp"

namespace ctrl::manager {
namespace {

using namespace std::chrono_literals;
using ctrl::testing::kTestWait;
using ctrl::testing::TestContext;

// A source that never syncs: its controller never starts its workers.
class NeverSyncs final : public source::Source {
  public:
    Task<Status> Start(Context, source::RequestQueue&) override { co_return OkStatus(); }
    Task<Status> WaitForSync(Context ctx) override {
        const Notification never;
        co_return co_await never.Wait(std::move(ctx));
    }
    std::string String() const override { return "never-syncing source"; }
};

// A leader runnable that says when it runs, then waits for its context.
class Signalling final : public Runnable {
  public:
    Task<Status> Run(Context ctx) override {
        ran.set_value();
        const Notification never;
        (void)co_await never.Wait(std::move(ctx));
        co_return OkStatus();
    }
    std::string Name() const override { return "signalling runnable"; }

    std::promise<void> ran;
};

class ManagerStartStopTest : public ::testing::Test {
  protected:
    void SetUp() override {
        Options options;
        options.registry = &registry_;
        options.metrics.bind_address = "0";
        options.health_probe_bind_address = "0";
        options.controller.cache_sync_timeout = std::chrono::hours(1);
        rest::Config config;
        config.host = "https://127.0.0.1:1";  // never dialled: nothing is read or watched
        StatusOr<std::unique_ptr<Manager>> made = New(config, std::move(options));
        ASSERT_TRUE(made.Ok()) << made.GetStatus();
        mgr_ = std::move(made).Value();
    }
    void Run() {
        done_ = std::async(std::launch::async, [this] { return mgr_->Start(stop_); });
    }
    // Stops the manager; its Start's result.
    Status Stop() {
        stop_.Cancel();
        EXPECT_EQ(done_.wait_for(kTestWait), std::future_status::ready) << "the manager did not stop";
        return done_.get();
    }

    metrics::Registry registry_;
    std::unique_ptr<Manager> mgr_;
    Context stop_ = Context::WithCancel(Context::Background());
    std::future<Status> done_;
};

TEST_F(ManagerStartStopTest, StartsOnceItsCacheStartedAndSyncedThenStops) {
    auto runnable = std::make_shared<Signalling>();
    std::future<void> ran = runnable->ran.get_future();
    ASSERT_TRUE(mgr_->Add(std::static_pointer_cast<Runnable>(runnable)).Ok());
    Run();
    ASSERT_EQ(ran.wait_for(kTestWait), std::future_status::ready) << "the leader runnables did not run";
    EXPECT_TRUE(RunOn(mgr_->GetExecutor(), mgr_->Elected().Wait(TestContext())).Ok());
    EXPECT_TRUE(mgr_->IsLeader());
    EXPECT_TRUE(mgr_->ReadyzChecks().at("cache-sync").Ok());
    EXPECT_TRUE(Stop().Ok());
}

TEST_F(ManagerStartStopTest, AStopWhileAControllerWaitsForItsSourcesEndsEveryWait) {
    auto reconciler = reconcile::AsReconciler(
        [](Context, reconcile::Request) -> Task<StatusOr<reconcile::Result>> { co_return reconcile::Result{}; });
    StatusOr<std::shared_ptr<controller::Controller>> made =
        controller::Controller::New("never-started", reconciler, mgr_->GetExecutor(), mgr_->ControllerDefaults());
    ASSERT_TRUE(made.Ok()) << made.GetStatus();
    const std::shared_ptr<controller::Controller> controller = *made;
    ASSERT_TRUE(controller->Watch(std::make_shared<NeverSyncs>()).Ok());
    ASSERT_TRUE(mgr_->Add(controller).Ok());
    Run();
    EXPECT_TRUE(RunOn(mgr_->GetExecutor(), mgr_->Elected().Wait(TestContext())).Ok());
    EXPECT_FALSE(controller->Started());
    EXPECT_FALSE(mgr_->ReadyzChecks().at("controller-never-started").Ok());
    // Its sync timeout and the manager's wait for it to start are an hour away: the stop ends them.
    EXPECT_TRUE(Stop().Ok());
    EXPECT_FALSE(controller->Started());
}

}  // namespace
}  // namespace ctrl::manager
