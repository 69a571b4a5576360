// The Manager's servers (issue 14, acceptance 2 and 4 at the manager level): /healthz passes,
// /readyz fails naming the checks that fail until the caches and the controllers have synced, bad
// requests get 4xx, and a real Prometheus scrapes the manager's /metrics and finds the controller's
// controller_runtime_reconcile_total series; promtool accepts a scrape.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <future>

#include "ctrl/api/config_map.hpp"
#include "ctrl/api/namespace.hpp"
#include "ctrl/builder/builder.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/manager/manager.hpp"
#include "test/support/command.hpp"
#include "test/support/eventually.hpp"
#include "test/support/kubeconfig_config.hpp"
#include "test/support/prometheus_server.hpp"

namespace ctrl::manager {
namespace {

using namespace std::chrono_literals;
using ctrl::testing::Curl;
using ctrl::testing::Eventually;
using ctrl::testing::Occurrences;
using ctrl::testing::TestContext;

TEST(ManagerServingTest, ProbesMetricsAndAPrometheusScrape) {
    metrics::Registry registry;
    Options options;
    options.registry = &registry;
    options.metrics.bind_address = "127.0.0.1:0";
    options.health_probe_bind_address = "127.0.0.1:0";
    options.cache.default_namespaces = {"mgr-serving"};
    StatusOr<std::unique_ptr<Manager>> made = New(ctrl::testing::SharedAdminConfig(), options);
    ASSERT_TRUE(made.Ok()) << made.GetStatus();
    Manager& mgr = **made;
    ASSERT_FALSE(mgr.MetricsURL().empty());
    ASSERT_FALSE(mgr.HealthProbeURL().empty());
    ASSERT_TRUE(
        builder::ControllerFor<api::ConfigMap>(mgr)
            .Named("served")
            .Complete(reconcile::AsReconciler([](Context, reconcile::Request) -> Task<StatusOr<reconcile::Result>> {
                co_return reconcile::Result{};
            }))
            .Ok());

    // Before Start nothing listens yet, but the checks already say what is missing.
    const std::map<std::string, Status> before = mgr.ReadyzChecks();
    EXPECT_FALSE(before.at("cache-sync").Ok());
    EXPECT_FALSE(before.at("controller-served").Ok());

    Context stop = Context::WithCancel(Context::Background());
    std::future<Status> done = std::async(std::launch::async, [&] { return mgr.Start(stop); });
    const std::string probes = mgr.HealthProbeURL();
    ASSERT_TRUE(Eventually([&] { return Curl(probes + "/healthz").status == 200; }));
    EXPECT_EQ(Curl(probes + "/healthz/ping").status, 200);
    ASSERT_TRUE(Eventually([&] { return Curl(probes + "/readyz").status == 200; }));
    const std::string verbose = Curl(probes + "/readyz?verbose").body;
    EXPECT_THAT(verbose, ::testing::HasSubstr("[+]cache-sync ok"));
    EXPECT_THAT(verbose, ::testing::HasSubstr("[+]controller-served ok"));
    EXPECT_EQ(Curl(probes + "/readyz/no-such-check").status, 404);
    EXPECT_EQ(Curl(probes + "/not-a-path").status, 404);

    api::Namespace ns;
    ns.SetName("mgr-serving");
    const Status ns_made = RunOn(mgr.GetExecutor(), mgr.GetAPIReader().Create(TestContext(), ns));
    ASSERT_TRUE(ns_made.Ok() || IsAlreadyExists(ns_made)) << ns_made;
    api::ConfigMap cm;
    cm.SetNamespace("mgr-serving");
    cm.SetName("one");
    ASSERT_TRUE(RunOn(mgr.GetExecutor(), mgr.GetAPIReader().Create(TestContext(), cm)).Ok());

    const std::string metrics_url = mgr.MetricsURL() + "/metrics";
    ASSERT_TRUE(Eventually([&] {
        return Curl(metrics_url)
                   .body.find("controller_runtime_reconcile_total{controller=\"served\",result=\"success\"} 1") !=
               std::string::npos;
    }));
    ctrl::testing::Command promtool;
    promtool.argv = {"promtool", "check", "metrics"};
    promtool.stdin_data = Curl(metrics_url).body;
    StatusOr<ctrl::testing::CommandResult> lint = ctrl::testing::RunCommand(promtool);
    ASSERT_TRUE(lint.Ok()) << lint.GetStatus();
    EXPECT_EQ(lint->exit_code, 0) << lint->out << lint->err;

    ctrl::testing::PrometheusServer prometheus;
    const std::string target = mgr.MetricsURL().substr(std::string("http://").size());
    ASSERT_TRUE(
        prometheus.Start("  - job_name: manager\n    static_configs:\n      - targets: ['" + target + "']\n").Ok());
    std::string targets;
    EXPECT_TRUE(Eventually(
        [&] {
            targets = prometheus.Api("/api/v1/targets?state=active");
            return Occurrences(targets, "\"health\":\"up\"") == 1;
        },
        60s, 500ms))
        << targets << prometheus.Log();
    std::string query;
    EXPECT_TRUE(Eventually(
        [&] {
            query =
                prometheus.Api("/api/v1/query?query=controller_runtime_reconcile_total%7Bcontroller%3D%22served%22%7D");
            return Occurrences(query, "\"result\":\"success\"") == 1;
        },
        60s, 500ms))
        << query << prometheus.Log();

    stop.Cancel();
    ASSERT_EQ(done.wait_for(ctrl::testing::kTestWait), std::future_status::ready);
    EXPECT_TRUE(done.get().Ok());
    EXPECT_EQ(Curl(probes + "/healthz").status, 0) << "the servers stop with the manager";
}

}  // namespace
}  // namespace ctrl::manager
