// The controller's priority queue against the real control plane, with 20,000 ConfigMaps and one
// worker (the start-up storm of a controller that restarts):
//  - a reconciler spending 2 ms per call: ConfigMaps created 5 s after the controller started
//    are reconciled within a second (p99), because the initial list waits at kLowPriority; the
//    plain FIFO queue makes them wait behind the whole list;
//  - 100 keys that requeue themselves at normal priority faster than the worker can serve them
//    do not starve the initial list: every item is reconciled, none after waiting longer than
//    the aging bound.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "ctrl/api/config_map.hpp"
#include "ctrl/builder/builder.hpp"
#include "ctrl/core/sleep.hpp"
#include "ctrl/reconcile/reconciler.hpp"
#include "test/integration/controller/controller_fixture.hpp"
#include "test/support/metrics_text.hpp"

namespace ctrl {
namespace {

using namespace std::chrono_literals;
using ctrl::testing::Eventually;
using ctrl::testing::TestContext;
using Clock = std::chrono::steady_clock;

// Sanitizers run the process several times slower: a quarter of the list keeps the test's
// proportions (the FIFO queue's wait is still seconds, the aging drain well inside its bound).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr int kInitial = 5'000;
constexpr double kFifoFloorSeconds = 2.0;
#else
constexpr int kInitial = 20'000;
constexpr double kFifoFloorSeconds = 5.0;
#endif
constexpr int kNew = 50;
constexpr int kHot = 100;

double Seconds(Clock::duration d) {
    return std::chrono::duration<double>(d).count();
}

// When each key was first reconciled, by one controller.
class FirstReconciles {
  public:
    void Saw(const std::string& key) {
        std::lock_guard lock(mu_);
        first_.emplace(key, Clock::now());
    }
    std::size_t Count() const {
        std::lock_guard lock(mu_);
        return first_.size();
    }
    std::optional<Clock::time_point> Of(const std::string& key) const {
        std::lock_guard lock(mu_);
        const auto it = first_.find(key);
        return it == first_.end() ? std::nullopt : std::optional<Clock::time_point>(it->second);
    }
    std::map<std::string, Clock::time_point> All() const {
        std::lock_guard lock(mu_);
        return first_;
    }

  private:
    mutable std::mutex mu_;
    std::map<std::string, Clock::time_point> first_;
};

// The 99th percentile of values (nearest rank).
double P99(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t rank = (values.size() * 99 + 99) / 100;
    return values[std::min(values.size(), std::max<std::size_t>(rank, 1)) - 1];
}

class PriorityQueueTest : public ctrl::testing::ControllerFixture {
  protected:
    void MakeInitial() {
        const Clock::time_point making = Clock::now();
        const Status made = CreateConfigMaps(kInitial, [&](int i) {
            api::ConfigMap cm;
            cm.SetNamespace(Namespace());
            cm.SetName("initial-" + std::to_string(i));
            return cm;
        });
        ASSERT_TRUE(made.Ok()) << made;
        std::printf("made %d ConfigMaps in %.1f s\n", kInitial, Seconds(Clock::now() - making));
    }

    // A controller of ConfigMaps with one worker whose reconciles record their first call and
    // spend `spend` each (none once `retired`).
    std::shared_ptr<controller::Controller> AddController(const std::string& name, bool priority_queue,
                                                          FirstReconciles& seen, Clock::duration spend,
                                                          std::atomic<bool>& retired) {
        auto reconciler = reconcile::AsReconciler(
            [&seen, spend, &retired](Context ctx, reconcile::Request request) -> Task<StatusOr<reconcile::Result>> {
                seen.Saw(request.String());
                if (!retired.load())
                    (void)co_await SleepFor(ctx, spend);
                co_return reconcile::Result{};
            });
        StatusOr<std::shared_ptr<controller::Controller>> built =
            builder::ControllerFor<api::ConfigMap>(*host_)
                .Named(name)
                .WithOptions(controller::Options{.use_priority_queue = priority_queue, .skip_name_validation = true})
                .Build(reconciler);
        EXPECT_TRUE(built.Ok()) << built.GetStatus();
        return built.Ok() ? *built : nullptr;
    }

    // Creates kNew ConfigMaps named prefix-<i>; returns when each was created.
    std::map<std::string, Clock::time_point> CreateNew(const std::string& prefix) {
        std::map<std::string, Clock::time_point> created;
        for (int i = 0; i < kNew; ++i) {
            api::ConfigMap cm;
            cm.SetNamespace(Namespace());
            cm.SetName(prefix + "-" + std::to_string(i));
            const Clock::time_point at = Clock::now();
            const Status status = Run(Direct().Create(TestContext(), cm));
            EXPECT_TRUE(status.Ok()) << status;
            created.emplace(Namespace() + "/" + std::string(cm.Name()), at);
        }
        return created;
    }

    // The p99 of create -> first reconcile of created's keys, waiting up to `wait` for them.
    double CreateToReconcileP99(const std::map<std::string, Clock::time_point>& created, const FirstReconciles& seen,
                                Clock::duration wait) {
        EXPECT_TRUE(Eventually(
            [&] {
                return std::all_of(created.begin(), created.end(), [&](const auto& c) { return seen.Of(c.first); });
            },
            wait, 50ms));
        std::vector<double> latencies;
        for (const auto& [key, at] : created)
            latencies.push_back(Seconds(seen.Of(key).value_or(Clock::now()) - at));
        return P99(latencies);
    }

    // Runs a controller over the initial ConfigMaps for 5 s, then creates kNew more: their p99
    // from create to first reconcile.
    double StormLatency(const std::string& name, bool priority_queue) {
        FirstReconciles& seen = seen_.emplace_back();
        std::atomic<bool>& retired = retired_.emplace_back(false);
        std::shared_ptr<controller::Controller> controller = AddController(name, priority_queue, seen, 2ms, retired);
        if (!controller)
            return -1;
        const Clock::time_point started = Clock::now();
        EXPECT_TRUE(Run(controller->WaitForStarted(TestContext())).Ok());
        std::this_thread::sleep_for(5s - (Clock::now() - started));
        std::printf("%s at 5 s: %zu keys reconciled, %zu queued\n", name.c_str(), seen.Count(),
                    controller->Queue().Len());
        if (priority_queue) {
            const std::optional<double> low =
                ctrl::testing::MetricValue(Scrape(), "workqueue_depth", {{"name", name}, {"priority", "-100"}});
            EXPECT_GT(low.value_or(0), kInitial / 20) << "the initial list waits at kLowPriority";
        }
        const double p99 = CreateToReconcileP99(CreateNew(name), seen, 120s);
        retired.store(true);  // the rest of its list drains at once
        return p99;
    }

    // What the controllers' reconcilers record into: they live as long as the fixture, since the
    // controllers run until TearDown stops the host.
    std::deque<FirstReconciles> seen_;
    std::deque<std::atomic<bool>> retired_;
    std::atomic<int> hot_calls_{0};
    std::atomic<bool> hot_stop_{false};  // the hot keys stop requeueing
};

TEST_F(PriorityQueueTest, NewObjectsAreReconciledAheadOfTheInitialListAndNothingStarves) {
    MakeInitial();
    StartHost();

    const double priority_p99 = StormLatency("storm-priority", true);
    const double fifo_p99 = StormLatency("storm-fifo", false);
    std::printf(
        "%d ConfigMaps, 1 worker, 2 ms per reconcile, %d created 5 s after start: create -> first "
        "reconcile p99 %.3f s with the priority queue, %.3f s with the plain FIFO queue\n",
        kInitial, kNew, priority_p99, fifo_p99);
    EXPECT_LT(priority_p99, 1.0);
    EXPECT_GT(fifo_p99, 10 * priority_p99);
    EXPECT_GT(fifo_p99, kFifoFloorSeconds);

    // Starvation: 100 keys requeue themselves at normal priority after 1 ms of work each.
    const Clock::duration aging_bound = 10s;
    FirstReconciles& seen = seen_.emplace_back();
    auto reconciler = reconcile::AsReconciler(
        [this, &seen](Context ctx, reconcile::Request request) -> Task<StatusOr<reconcile::Result>> {
            if (request.namespace_name != "hot") {
                seen.Saw(request.String());
                co_return reconcile::Result{};
            }
            if (hot_stop_.load())
                co_return reconcile::Result{};
            hot_calls_.fetch_add(1);
            (void)co_await SleepFor(ctx, 1ms);
            co_return reconcile::Result{.requeue_after = 1ms, .priority = 0};
        });
    StatusOr<std::shared_ptr<controller::Controller>> aging =
        builder::ControllerFor<api::ConfigMap>(*host_)
            .Named("aging")
            .WithOptions(controller::Options{.aging_bound = aging_bound, .skip_name_validation = true})
            .Build(reconciler);
    ASSERT_TRUE(aging.Ok()) << aging.GetStatus();
    const Clock::time_point started = Clock::now();
    for (int i = 0; i < kHot; ++i)
        (*aging)->Queue().Add(reconcile::Request("hot", "hot-" + std::to_string(i)));
    const std::size_t objects = kInitial + 2 * kNew;
    ASSERT_TRUE(Eventually([&] { return seen.Count() >= objects; }, 120s, 50ms))
        << seen.Count() << " of " << objects << " reconciled";
    Clock::duration longest{};
    for (const auto& [key, at] : seen.All())
        longest = std::max(longest, at - started);
    std::printf(
        "aging bound %.0f s: %zu objects reconciled while %d hot keys took %d reconciles; the last "
        "waited %.2f s\n",
        Seconds(aging_bound), seen.Count(), kHot, hot_calls_.load(), Seconds(longest));
    EXPECT_LE(longest, aging_bound);
    EXPECT_GT(hot_calls_.load(), 2 * kHot) << "the hot keys kept requeueing";
    hot_stop_.store(true);
}

}  // namespace
}  // namespace ctrl
