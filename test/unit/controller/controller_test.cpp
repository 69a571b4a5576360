#include "ctrl/controller/controller.hpp"

#include <atomic>
#include <chrono>
#include <future>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ctrl/core/sleep.hpp"
#include "ctrl/metrics/registry.hpp"
#include "test/unit/workqueue/test_support.hpp"

namespace ctrl::controller {
namespace {

using namespace std::chrono_literals;
using reconcile::Request;
using reconcile::Result;
using workqueue::testing::Eventually;
using workqueue::testing::IoThreads;
using workqueue::testing::kQuiet;
using workqueue::testing::Spawn;

// A reconciler whose behaviour a test sets, recording each call.
class RecordingReconciler final : public reconcile::Reconciler {
  public:
    using Behaviour = std::function<Task<StatusOr<Result>>(Context, Request)>;
    explicit RecordingReconciler(Behaviour behaviour) : behaviour_(std::move(behaviour)) {}

    Task<StatusOr<Result>> Reconcile(Context ctx, Request request) override {
        {
            std::lock_guard lock(mu_);
            starts_[request.String()].push_back(std::chrono::steady_clock::now());
            if (++in_flight_[request.String()] > 1)
                overlapped_ = true;
        }
        StatusOr<Result> result = co_await behaviour_(ctx, request);
        {
            std::lock_guard lock(mu_);
            --in_flight_[request.String()];
            ++finished_;
        }
        co_return result;
    }

    std::vector<std::chrono::steady_clock::time_point> Starts(const std::string& key) {
        std::lock_guard lock(mu_);
        return starts_[key];
    }
    int Calls(const std::string& key) { return static_cast<int>(Starts(key).size()); }
    int Finished() {
        std::lock_guard lock(mu_);
        return finished_;
    }
    bool Overlapped() {
        std::lock_guard lock(mu_);
        return overlapped_;
    }

  private:
    Behaviour behaviour_;
    std::mutex mu_;
    std::map<std::string, std::vector<std::chrono::steady_clock::time_point>> starts_;
    std::map<std::string, int> in_flight_;
    int finished_ = 0;
    bool overlapped_ = false;
};

Task<StatusOr<Result>> Succeed(Context, Request) {
    co_return Result{};
}

class ControllerTest : public ::testing::Test {
  protected:
    std::shared_ptr<Controller> Make(RecordingReconciler::Behaviour behaviour, Options options = {}) {
        reconciler_ = std::make_shared<RecordingReconciler>(std::move(behaviour));
        options.registry = &registry_;
        StatusOr<std::shared_ptr<Controller>> made =
            Controller::New(::testing::UnitTest::GetInstance()->current_test_info()->name(), reconciler_,
                            io_.Executor(), std::move(options));
        EXPECT_TRUE(made.Ok()) << made.GetStatus();
        controller_ = made.Value();
        return controller_;
    }
    void Start() { run_ = Spawn(io_.Executor(), controller_->Run(run_ctx_)); }
    Status Stop() {
        run_ctx_.Cancel();
        EXPECT_EQ(run_.wait_for(workqueue::testing::kTestWait), std::future_status::ready);
        return run_.get();
    }
    std::string Scrape() const { return registry_.SerializeText(); }

    IoThreads io_{2};
    metrics::Registry registry_;
    std::shared_ptr<RecordingReconciler> reconciler_;
    std::shared_ptr<Controller> controller_;
    Context run_ctx_ = Context::WithCancel(Context::Background());
    std::future<Status> run_;
};

TEST_F(ControllerTest, ReconcilesEachAddedKeyAndCountsSuccess) {
    Make(Succeed);
    Start();
    controller_->Queue().Add(Request("ns", "a"));
    controller_->Queue().Add(Request("ns", "b"));
    ASSERT_TRUE(Eventually([&] { return reconciler_->Finished() == 2; }));
    EXPECT_TRUE(Eventually([&] { return controller_->Metrics().reconcile_success.Value() == 2; }));
    EXPECT_EQ(controller_->Metrics().reconcile_error.Value(), 0);
    EXPECT_EQ(controller_->Metrics().reconcile_time.SampleCount(), 2u);
    EXPECT_TRUE(controller_->ReadyCheck().Ok());
    EXPECT_TRUE(Stop().Ok());
}

TEST_F(ControllerTest, NamesAreUniqueWhileTheControllerLives) {
    Make(Succeed);
    const StatusOr<std::shared_ptr<Controller>> clash =
        Controller::New(controller_->Name(), reconciler_, io_.Executor(), Options{.registry = &registry_});
    ASSERT_FALSE(clash.Ok());
    EXPECT_TRUE(IsAlreadyExists(clash.GetStatus())) << clash.GetStatus();
    EXPECT_NE(clash.GetStatus().Message().find("already exists"), std::string::npos);
    controller_.reset();
    EXPECT_TRUE(Controller::New(::testing::UnitTest::GetInstance()->current_test_info()->name(), reconciler_,
                                io_.Executor(), Options{.registry = &registry_})
                    .Ok());
}

TEST_F(ControllerTest, RejectsBadArguments) {
    EXPECT_TRUE(IsBadRequest(Controller::New("", std::make_shared<RecordingReconciler>(Succeed), io_.Executor(),
                                             Options{.registry = &registry_})
                                 .GetStatus()));
    EXPECT_TRUE(
        IsBadRequest(Controller::New("x", nullptr, io_.Executor(), Options{.registry = &registry_}).GetStatus()));
    EXPECT_TRUE(IsBadRequest(Controller::New("y", std::make_shared<RecordingReconciler>(Succeed), io_.Executor(),
                                             Options{.max_concurrent_reconciles = 0, .registry = &registry_})
                                 .GetStatus()));
}

TEST_F(ControllerTest, ErrorsBackOffFromFiveMillisecondsDoubling) {
    Make([](Context, Request) -> Task<StatusOr<Result>> { co_return UnavailableError("always fails"); });
    Start();
    controller_->Queue().Add(Request("ns", "failing"));
    ASSERT_TRUE(Eventually([&] { return reconciler_->Calls("ns/failing") >= 6; }));
    const auto starts = reconciler_->Starts("ns/failing");
    // Gaps are at least 5, 10, 20, 40, 80 ms (timers never fire early).
    for (std::size_t i = 1; i < 6; ++i)
        EXPECT_GE(starts[i] - starts[i - 1], 5ms * (1 << (i - 1))) << "retry " << i;
    EXPECT_GE(controller_->Metrics().errors.Value(), 5);
    EXPECT_GE(controller_->Metrics().reconcile_error.Value(), 5);
    EXPECT_NE(Scrape().find("workqueue_retries_total{controller=\"ErrorsBackOffFromFiveMillisecondsDoubling\""),
              std::string::npos);
    EXPECT_TRUE(Stop().Ok());
}

TEST_F(ControllerTest, TerminalErrorIsNotRetried) {
    Make([](Context, Request) -> Task<StatusOr<Result>> { co_return Terminal(InvalidError("bad spec")); });
    Start();
    controller_->Queue().Add(Request("ns", "t"));
    ASSERT_TRUE(Eventually([&] { return controller_->Metrics().terminal_errors.Value() == 1; }));
    std::this_thread::sleep_for(kQuiet);
    EXPECT_EQ(reconciler_->Calls("ns/t"), 1);
    EXPECT_EQ(controller_->Metrics().errors.Value(), 1);
    EXPECT_EQ(controller_->Metrics().reconcile_error.Value(), 1);
    EXPECT_TRUE(Stop().Ok());
}

TEST_F(ControllerTest, AThrowIsAPanicAndIsRetried) {
    Make([](Context, Request) -> Task<StatusOr<Result>> {
        throw std::runtime_error("boom");
        co_return Result{};
    });
    Start();
    controller_->Queue().Add(Request("ns", "p"));
    ASSERT_TRUE(Eventually([&] { return reconciler_->Calls("ns/p") >= 3; }));
    EXPECT_GE(controller_->Metrics().panics.Value(), 2);
    EXPECT_GE(controller_->Metrics().reconcile_error.Value(), 2);
    EXPECT_TRUE(Stop().Ok());
}

TEST_F(ControllerTest, AReconcilePastItsTimeoutSeesItsContextCancelled) {
    std::atomic<bool> saw_cancel{false};
    Make(
        [&](Context ctx, Request) -> Task<StatusOr<Result>> {
            const Status slept = co_await SleepFor(ctx, 10s);
            saw_cancel = IsTimeout(slept);
            co_return Terminal(slept);
        },
        Options{.reconcile_timeout = 50ms});
    Start();
    controller_->Queue().Add(Request("ns", "slow"));
    ASSERT_TRUE(Eventually([&] { return controller_->Metrics().timeouts.Value() == 1; }));
    EXPECT_TRUE(saw_cancel.load());
    EXPECT_TRUE(Stop().Ok());
}

TEST_F(ControllerTest, RequeueAfterWaitsAndRequeueRetries) {
    std::atomic<int> calls{0};
    Make([&](Context, Request) -> Task<StatusOr<Result>> {
        const int n = ++calls;
        if (n == 1)
            co_return Result{.requeue_after = 100ms};
        if (n == 2)
            co_return Result{.requeue = true};
        co_return Result{};
    });
    Start();
    controller_->Queue().Add(Request("ns", "r"));
    ASSERT_TRUE(Eventually([&] { return controller_->Metrics().reconcile_success.Value() == 1; }));
    const auto starts = reconciler_->Starts("ns/r");
    ASSERT_EQ(starts.size(), 3u);
    EXPECT_GE(starts[1] - starts[0], 100ms);
    EXPECT_EQ(controller_->Metrics().reconcile_requeue_after.Value(), 1);
    EXPECT_EQ(controller_->Metrics().reconcile_requeue.Value(), 1);
    EXPECT_TRUE(Stop().Ok());
}

TEST_F(ControllerTest, NeverTwoReconcilesOfOneKeyAtOnce) {
    Make(
        [](Context ctx, Request) -> Task<StatusOr<Result>> {
            (void)co_await SleepFor(ctx, 2ms);
            co_return Result{};
        },
        Options{.max_concurrent_reconciles = 4});
    Start();
    for (int i = 0; i < 200; ++i) {
        controller_->Queue().Add(Request("ns", "hot"));
        controller_->Queue().Add(Request("ns", "k" + std::to_string(i % 8)));
        std::this_thread::sleep_for(100us);
    }
    ASSERT_TRUE(Eventually(
        [&] { return controller_->Queue().Len() == 0 && controller_->Metrics().active_workers.Value() == 0; }));
    EXPECT_FALSE(reconciler_->Overlapped());
    EXPECT_GE(reconciler_->Calls("ns/hot"), 2);
    EXPECT_TRUE(Stop().Ok());
}

TEST_F(ControllerTest, StopLetsInFlightReconcilesFinishAndStartsNoNewOne) {
    std::atomic<int> finished_with_live_context{0};
    Make(
        [&](Context ctx, Request) -> Task<StatusOr<Result>> {
            const Status slept = co_await SleepFor(ctx, 300ms);
            if (slept.Ok())
                ++finished_with_live_context;
            co_return Result{};
        },
        Options{.max_concurrent_reconciles = 2});
    Start();
    for (int i = 0; i < 6; ++i)
        controller_->Queue().Add(Request("ns", "k" + std::to_string(i)));
    ASSERT_TRUE(Eventually([&] { return controller_->Metrics().active_workers.Value() == 2; }));
    EXPECT_TRUE(Stop().Ok());
    EXPECT_EQ(finished_with_live_context.load(), 2);
    EXPECT_EQ(reconciler_->Finished(), 2);
}

TEST_F(ControllerTest, PresetsEveryCounterAndTheReconcileTimeBuckets) {
    Make(Succeed, Options{.max_concurrent_reconciles = 3});
    const std::string text = Scrape();
    const std::string name = controller_->Name();
    for (const char* result : {"success", "error", "requeue", "requeue_after"})
        EXPECT_NE(
            text.find("controller_runtime_reconcile_total{controller=\"" + name + "\",result=\"" + result + "\"} 0"),
            std::string::npos)
            << result;
    for (const char* counter :
         {"controller_runtime_reconcile_errors_total", "controller_runtime_terminal_reconcile_errors_total",
          "controller_runtime_reconcile_panics_total"})
        EXPECT_NE(text.find(std::string(counter) + "{controller=\"" + name + "\"} 0"), std::string::npos) << counter;
    EXPECT_NE(text.find("controller_runtime_max_concurrent_reconciles{controller=\"" + name + "\"} 3"),
              std::string::npos);
    EXPECT_EQ(ReconcileTimeBuckets().size(), 40u);
    EXPECT_EQ(ReconcileTimeBuckets().front(), 0.005);
    EXPECT_EQ(ReconcileTimeBuckets().back(), 60);
}

TEST_F(ControllerTest, ASecondRunIsRefused) {
    Make(Succeed);
    Start();
    ASSERT_TRUE(Eventually([&] { return controller_->Started(); }));
    std::future<Status> second = Spawn(io_.Executor(), controller_->Run(Context::Background()));
    EXPECT_TRUE(IsAlreadyExists(second.get()));
    EXPECT_TRUE(Stop().Ok());
}

TEST_F(ControllerTest, AWaitForTheStartIsWokenByItAndEndsWithItsContext) {
    Make(Succeed);
    const Status before = Spawn(io_.Executor(), controller_->WaitForStarted(ctrl::testing::Within(10ms))).get();
    EXPECT_TRUE(IsTimeout(before)) << before;
    const Context cancelled = Context::WithCancel(Context::Background());
    std::future<Status> ended = Spawn(io_.Executor(), controller_->WaitForStarted(cancelled));
    std::future<Status> woken = Spawn(io_.Executor(), controller_->WaitForStarted(ctrl::testing::TestContext()));
    cancelled.Cancel();
    EXPECT_TRUE(IsCancelled(ended.get()));
    Start();
    EXPECT_TRUE(woken.get().Ok());
    EXPECT_TRUE(controller_->Started());
    EXPECT_TRUE(Spawn(io_.Executor(), controller_->WaitForStarted(Context::Background())).get().Ok());
    EXPECT_TRUE(Stop().Ok());
}

}  // namespace
}  // namespace ctrl::controller
