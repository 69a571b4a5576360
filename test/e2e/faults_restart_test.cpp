// Issue 17, part 1: the control plane's processes die under the running operator while pods,
// ServiceAccounts and policies churn. kube-apiserver is SIGKILLed and started again on the same etcd
// and port; then etcd is SIGKILLed and started again on its data. After each, the operator must
// converge on the final state (fault_fixture.hpp) as the same process, still leading.

#include <gtest/gtest.h>

#include "test/e2e/fault_fixture.hpp"
#include "test/support/control_plane_environment.hpp"

namespace ctrl::e2e {
namespace {

using namespace std::chrono_literals;

using RestartFaultTest = FaultTest;

TEST_F(RestartFaultTest, ApiserverKilledAndRestartedOnTheSameEtcd) {
    StartOperatorAndConverge();
    RunFault(
        "apiserver-sigkill", 3s,
        [] {
            const Status restarted = testing::SharedControlPlane().KillAndRestartApiserver();
            ASSERT_TRUE(restarted.Ok()) << restarted;
        },
        3s);
}

TEST_F(RestartFaultTest, EtcdKilledAndRestarted) {
    StartOperatorAndConverge();
    RunFault(
        "etcd-sigkill", 3s,
        [] {
            const Status restarted = testing::SharedControlPlane().KillAndRestartEtcd();
            ASSERT_TRUE(restarted.Ok()) << restarted;
        },
        3s);
}

}  // namespace
}  // namespace ctrl::e2e
