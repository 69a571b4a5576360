// Warm standbys in-process: two Managers (each its own event loop and metrics registry) elect a
// leader on one Lease over 2,000 ConfigMaps. With enable_warmup the standby's controller has its
// queue filled and its informer listed while the leader lives, without a reconcile or a write;
// once the leader stops (and releases the Lease) the standby leads and reconciles without listing
// again. Without warmup the standby lists only after its election. A warm standby stops cleanly.

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <memory>
#include <string>

#include "ctrl/api/config_map.hpp"
#include "ctrl/builder/builder.hpp"
#include "ctrl/manager/manager.hpp"
#include "test/integration/manager/process_fixture.hpp"
#include "test/support/eventually.hpp"
#include "test/support/kubeconfig_config.hpp"
#include "test/support/metrics_text.hpp"

namespace ctrl::manager {
namespace {

using namespace std::chrono_literals;
using ctrl::testing::Eventually;
using ctrl::testing::MetricSum;

constexpr int kConfigMaps = 2000;

// One manager with a controller counting its reconciles of the test namespace's ConfigMaps.
struct Replica {
    metrics::Registry registry;
    std::unique_ptr<Manager> mgr;
    std::shared_ptr<controller::Controller> controller;
    std::shared_ptr<std::atomic<int>> reconciles = std::make_shared<std::atomic<int>>(0);
    Context stop = Context::WithCancel(Context::Background());
    std::future<Status> done;

    std::string Metrics() const { return registry.SerializeText(); }
    // Requests that write (rest_client_requests_total by method).
    double Writes() const {
        const std::string text = Metrics();
        double writes = 0;
        for (const char* method : {"POST", "PUT", "PATCH", "DELETE"})
            writes += MetricSum(text, "rest_client_requests_total", {{"method", method}});
        return writes;
    }
    // The informers' complete lists (the first ones and any later).
    double Lists() const { return MetricSum(Metrics(), "ctrl_informer_relists_total"); }
    ~Replica() {
        stop.Cancel();
        if (done.valid()) {
            EXPECT_EQ(done.wait_for(ctrl::testing::kTestWait), std::future_status::ready);
        }
    }
};

class WarmupTest : public ctrl::testing::ManagerProcessTest {
  protected:
    std::unique_ptr<Replica> StartReplica(const std::string& name, bool warmup) {
        auto replica = std::make_unique<Replica>();
        Options options;
        options.registry = &replica->registry;
        options.metrics.bind_address = "0";
        options.health_probe_bind_address = "0";
        options.cache.default_namespaces = {namespace_};
        options.leader_election = {.enabled = true,
                                   .id = "warmup",
                                   .namespace_name = namespace_,
                                   .lease_duration = 3000ms,
                                   .renew_deadline = 2000ms,
                                   .retry_period = 500ms,
                                   .release_on_cancel = true};
        options.controller.enable_warmup = warmup;
        StatusOr<std::unique_ptr<Manager>> made = New(ctrl::testing::SharedAdminConfig(), std::move(options));
        EXPECT_TRUE(made.Ok()) << made.GetStatus();
        if (!made.Ok())
            return nullptr;
        replica->mgr = std::move(made).Value();
        std::shared_ptr<std::atomic<int>> reconciles = replica->reconciles;
        StatusOr<std::shared_ptr<controller::Controller>> built =
            builder::ControllerFor<api::ConfigMap>(*replica->mgr)
                .Named(namespace_.substr(4) + "-" + name)
                .Build(reconcile::AsReconciler(
                    [reconciles](Context, reconcile::Request) -> Task<StatusOr<reconcile::Result>> {
                        ++*reconciles;
                        co_return reconcile::Result{};
                    }));
        EXPECT_TRUE(built.Ok()) << built.GetStatus();
        if (!built.Ok())
            return nullptr;
        replica->controller = *built;
        Manager* mgr = replica->mgr.get();
        const Context stop = replica->stop;
        replica->done = std::async(std::launch::async, [mgr, stop] { return mgr->Start(stop); });
        return replica;
    }

    // The leader reconciles everything; the standby waits (warm or cold); the leader stops and
    // the standby takes over. Checks what the standby did before and after.
    void FailOver(bool warmup) {
        CreateConfigMaps(kConfigMaps);
        const std::unique_ptr<Replica> leader = StartReplica("a", warmup);
        ASSERT_TRUE(leader);
        ASSERT_TRUE(Eventually([&] { return leader->reconciles->load() >= kConfigMaps; }));
        ASSERT_TRUE(leader->mgr->IsLeader());
        const std::unique_ptr<Replica> standby = StartReplica("b", warmup);
        ASSERT_TRUE(standby);
        const std::string depth_name = standby->controller->Name();
        if (warmup) {
            ASSERT_TRUE(Eventually([&] { return standby->controller->Queue().Len() == std::size_t{kConfigMaps}; }))
                << standby->controller->Queue().Len();
            EXPECT_EQ(
                ctrl::testing::MetricValue(standby->Metrics(), "workqueue_depth", {{"name", depth_name}}).value_or(-1),
                kConfigMaps);
            EXPECT_GE(standby->Lists(), 1) << "the standby's informer listed before its election";
        } else {
            // Once it has seen the leader's Lease, a cold standby has nothing more to do.
            ASSERT_TRUE(Eventually([&] {
                return MetricSum(standby->Metrics(), "rest_client_requests_total", {{"method", "GET"}}) > 2;
            }));
            EXPECT_EQ(standby->controller->Queue().Len(), 0u);
            EXPECT_EQ(standby->Lists(), 0) << "a cold standby lists nothing before its election";
        }
        EXPECT_FALSE(standby->mgr->IsLeader());
        EXPECT_FALSE(standby->controller->Started());
        EXPECT_EQ(standby->reconciles->load(), 0) << "a standby reconciles nothing";
        EXPECT_EQ(standby->Writes(), 0) << "a standby writes nothing while the leader lives: "
                                        << ctrl::testing::MetricLines(standby->Metrics(), "rest_client_requests_total");
        const double lists_before = standby->Lists();

        leader->stop.Cancel();  // releases the Lease
        ASSERT_EQ(leader->done.wait_for(ctrl::testing::kTestWait), std::future_status::ready);
        EXPECT_TRUE(leader->done.get().Ok());
        ASSERT_TRUE(Eventually([&] { return standby->reconciles->load() >= kConfigMaps; }))
            << standby->reconciles->load();
        EXPECT_TRUE(standby->mgr->IsLeader());
        if (warmup) {
            EXPECT_EQ(standby->Lists(), lists_before) << "the warmed informer is reused: no list after election";
        } else {
            EXPECT_GT(standby->Lists(), lists_before) << "a cold standby lists after its election";
        }
    }
};

TEST_F(WarmupTest, AWarmStandbyFillsItsQueueAndDoesNotListAfterElection) {
    FailOver(true);
}

TEST_F(WarmupTest, AColdStandbyListsAfterElection) {
    FailOver(false);
}

TEST_F(WarmupTest, AWarmStandbyStopsCleanlyBeforeItsElection) {
    constexpr int kFew = 100;
    CreateConfigMaps(kFew);
    const std::unique_ptr<Replica> leader = StartReplica("a", true);
    ASSERT_TRUE(leader);
    ASSERT_TRUE(Eventually([&] { return leader->mgr->IsLeader(); }));
    const std::unique_ptr<Replica> standby = StartReplica("b", true);
    ASSERT_TRUE(standby);
    ASSERT_TRUE(Eventually([&] { return standby->controller->Queue().Len() == std::size_t{kFew}; }));
    standby->stop.Cancel();
    ASSERT_EQ(standby->done.wait_for(ctrl::testing::kTestWait), std::future_status::ready);
    EXPECT_TRUE(standby->done.get().Ok()) << "a warm standby stops like a cold one";
    EXPECT_EQ(standby->reconciles->load(), 0);
    EXPECT_TRUE(leader->mgr->IsLeader());
}

}  // namespace
}  // namespace ctrl::manager
