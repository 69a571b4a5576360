// Issue 17, part 1: the control plane's processes die under the running operator while pods,
// ServiceAccounts and policies churn. kube-apiserver is SIGKILLed and started again on the same etcd
// and port; then etcd is SIGKILLed and started again on its data. After each, the operator must
// converge on the final state (fault_fixture.hpp) as the same process, still leading.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <functional>

#include "test/e2e/fault_fixture.hpp"
#include "test/support/control_plane_environment.hpp"

namespace ctrl::e2e {
namespace {

using namespace std::chrono_literals;

// Runs a kill-and-restart of the control plane and prints how long it took (the outage).
void TimedRestart(const std::string& what, const std::function<Status()>& restart) {
    const auto began = std::chrono::steady_clock::now();
    const Status restarted = restart();
    ASSERT_TRUE(restarted.Ok()) << restarted;
    std::printf("[ faults ] %s: down and back (ready) in %.2f s\n", what.c_str(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count());
}

using RestartFaultTest = FaultTest;

TEST_F(RestartFaultTest, ApiserverKilledAndRestartedOnTheSameEtcd) {
    StartOperatorAndConverge();
    RunFault(
        "apiserver-sigkill", 3s,
        [] { TimedRestart("kube-apiserver", [] { return testing::SharedControlPlane().KillAndRestartApiserver(); }); },
        3s);
}

TEST_F(RestartFaultTest, EtcdKilledAndRestarted) {
    StartOperatorAndConverge();
    RunFault(
        "etcd-sigkill", 3s,
        [] { TimedRestart("etcd", [] { return testing::SharedControlPlane().KillAndRestartEtcd(); }); }, 3s);
}

}  // namespace
}  // namespace ctrl::e2e
