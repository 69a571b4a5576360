// Acceptance 5 of issue 13 at the controller level: a controller for a CRD kind started before the
// CRD exists keeps running, says what it waits for in its readiness check, and reconciles without a
// restart once the CRD is served (the seed's failure: controller-runtime's lazy mapper once
// disabled SecurityGroupPolicies silently).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <regex>
#include <thread>

#include "controllers/sgp/api/security_group_policy.hpp"
#include "ctrl/builder/builder.hpp"
#include "test/integration/controller/controller_fixture.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/crds.hpp"
#include "test/support/kubectl.hpp"
#include "test/support/repo_path.hpp"

namespace ctrl::controller {
namespace {

using namespace std::chrono_literals;
using ctrl::testing::Eventually;
using ctrl::testing::TestContext;

// ctrl_discovery_requests_total summed over its series.
double DiscoveryRequests(const std::string& text) {
    double total = 0;
    const std::regex line(R"(ctrl_discovery_requests_total\{[^}]*\} ([0-9.e+]+))");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), line); it != std::sregex_iterator(); ++it)
        total += std::stod((*it)[1]);
    return total;
}

class CrdLaterTest : public ctrl::testing::ControllerFixture {};

TEST_F(CrdLaterTest, AControllerForAKindNotServedYetWaitsThenReconcilesWithoutARestart) {
    std::atomic<int> reconciles{0};
    ASSERT_TRUE(
        builder::ControllerFor<vpcresources::SecurityGroupPolicy>(*host_)
            .Named("sgp-later")
            .Complete(reconcile::AsReconciler([&](Context, reconcile::Request) -> Task<StatusOr<reconcile::Result>> {
                ++reconciles;
                co_return reconcile::Result{};
            }))
            .Ok());
    const auto started = std::chrono::steady_clock::now();
    StartHost();
    const std::shared_ptr<Controller> controller = host_->Controllers().at(0);

    ASSERT_TRUE(Eventually([&] { return IsNoMatch(controller->ReadyCheck()); }, 10s)) << controller->ReadyCheck();
    const Status waiting = controller->ReadyCheck();
    EXPECT_THAT(waiting.Message(), ::testing::HasSubstr("SecurityGroupPolicy"));
    EXPECT_THAT(waiting.Message(), ::testing::HasSubstr("no match"));
    ASSERT_TRUE(Eventually([&] { return controller->Started(); }, 10s)) << "the workers start anyway";
    const double discovery_at_first_miss = DiscoveryRequests(Scrape());

    std::this_thread::sleep_until(started + 12s);
    EXPECT_TRUE(IsNoMatch(controller->ReadyCheck())) << "still waiting, still saying why";
    const double discovery_while_waiting = DiscoveryRequests(Scrape()) - discovery_at_first_miss;

    const std::string kubeconfig = ctrl::testing::SharedControlPlane().KubeconfigPath();
    const std::string manifest = ctrl::testing::RepoPath(ctrl::testing::kSecurityGroupPolicyCrdPath);
    StatusOr<ctrl::testing::CommandResult> applied = ctrl::testing::Kubectl(kubeconfig, {"apply", "-f", manifest}, 60s);
    ASSERT_TRUE(applied.Ok() && applied->exit_code == 0) << applied.GetStatus();
    const auto crd_created = std::chrono::steady_clock::now();
    (void)ctrl::testing::Kubectl(
        kubeconfig,
        {"wait", "--for=condition=Established", "--timeout=60s", "crd/securitygrouppolicies.vpcresources.k8s.aws"},
        60s);
    vpcresources::SecurityGroupPolicy sgp;
    sgp.SetNamespace(Namespace());
    sgp.SetName("existing");
    sgp.SetGroupIds({"sg-0123456789abcdef0"});
    sgp.SetPodSelector(LabelSelectorSpec{{{"app", "web"}}, {}});
    Status created;
    ASSERT_TRUE(Eventually(
        [&] {
            created = Run(Direct().Create(TestContext(), sgp));
            return created.Ok();
        },
        30s, 200ms))
        << created;

    EXPECT_TRUE(
        Eventually([&] { return reconciles.load() >= 1; }, 15s - (std::chrono::steady_clock::now() - crd_created)))
        << "no reconcile within 15 s of the CRD's creation";
    const auto first_reconcile = std::chrono::steady_clock::now() - crd_created;
    EXPECT_TRUE(Eventually([&] { return controller->ReadyCheck().Ok(); })) << controller->ReadyCheck();
    std::printf("[ figures ] discovery requests while waiting %.0f s: %.0f; CRD created -> first reconcile: %.1f s\n",
                std::chrono::duration<double>(crd_created - started).count(), discovery_while_waiting,
                std::chrono::duration<double>(first_reconcile).count());
    // Retries back off (0.5 s doubling to 8 s): about five in 12 s, each at most one discovery round,
    // which after the first is one request (aggregated GET /apis; measured: 4 requests, 8 before).
    EXPECT_LE(discovery_while_waiting, 8) << "discovery while waiting is bounded";
}

}  // namespace
}  // namespace ctrl::controller
