// Issue 17, part 1: the operator's connections fail while pods, ServiceAccounts and policies churn;
// it talks to the control plane through test/support's TCP proxy (TLS end to end).
//  - Every connection is cut every 200-1000 ms (seeded) for 30 s.
//  - Forced 410: the operator is cut off (connections cut, new ones refused) while things change and
//    etcd is compacted up to its current revision; this binary's apiserver keeps no watch cache for
//    pods, so the pod watch resumed from the old resourceVersion is answered 410 and the informer
//    relists (ctrl_informer_relists_total{reason="gone_410"} shows it happened).
// After each, the operator must converge on the final state as the same process, still leading.

#include <gtest/gtest.h>

#include <random>
#include <thread>

#include "test/e2e/fault_fixture.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/tcp_proxy.hpp"

namespace ctrl::e2e {
namespace {

using namespace std::chrono_literals;

class NetworkFaultTest : public FaultTest {
  protected:
    // Starts the proxy in front of the control plane and the operator behind it.
    void StartBehindProxy() {
        StatusOr<std::unique_ptr<testing::TcpProxy>> proxy =
            testing::TcpProxy::Start("127.0.0.1", UrlPort(testing::SharedControlPlane().Host()));
        ASSERT_TRUE(proxy.Ok()) << proxy.GetStatus();
        proxy_ = std::move(proxy).Value();
        StartOperatorAndConverge("https://127.0.0.1:" + std::to_string(proxy_->Port()));
    }

    void TearDown() override {
        FaultTest::TearDown();  // the operator first, while the proxy still forwards
        proxy_.reset();
    }

    std::unique_ptr<testing::TcpProxy> proxy_;
};

TEST_F(NetworkFaultTest, EveryConnectionCutEvery200To1000MsFor30s) {
    StartBehindProxy();
    int rounds = 0;
    int cut = 0;
    RunFault(
        "connection-cuts-30s", 1s,
        [&] {
            std::mt19937 random(churn_->SeedValue());
            std::uniform_int_distribution<int> pause_ms(200, 1000);
            const auto end = std::chrono::steady_clock::now() + 30s;
            while (std::chrono::steady_clock::now() < end) {
                std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms(random)));
                cut += proxy_->CutAll();
                ++rounds;
            }
        },
        0s);
    std::printf("[ faults ] connection-cuts-30s: %d rounds cut %d connections\n", rounds, cut);
    EXPECT_GT(cut, 0) << "the operator had no connection open through the proxy: the fault did not happen";
}

TEST_F(NetworkFaultTest, WatchGoneAfterCompactionWhileCutOff) {
    StartBehindProxy();
    RunFault(
        "watch-410-compaction", 1s,
        [&] {
            proxy_->SetRefusing(true);
            proxy_->CutAll();
            std::this_thread::sleep_for(4s);  // churn behind the operator's back
            testing::ControlPlane& control_plane = testing::SharedControlPlane();
            StatusOr<int64_t> revision = control_plane.EtcdRevision();
            ASSERT_TRUE(revision.Ok()) << revision.GetStatus();
            const Status compacted = control_plane.CompactEtcd(*revision);
            ASSERT_TRUE(compacted.Ok()) << compacted;
            proxy_->SetRefusing(false);
        },
        2s);
    EXPECT_GE(Counters().gone_relists - baseline_.gone_relists, 1)
        << "no informer relisted after a 410: the fault did not happen";
}

}  // namespace
}  // namespace ctrl::e2e
