// Issue 17, part 1: the server misbehaves at the HTTP level while pods, ServiceAccounts and policies
// churn. The operator talks to the control plane through test/support's FaultHttpProxy (TLS
// terminated with the control plane's own serving certificate, so the operator's kubeconfig CA is
// unchanged), which for 15 s answers a share of the requests itself:
//  - a storm of 429 Too Many Requests with Retry-After: 1, and of 503 Service Unavailable;
//  - malformed bodies (a 200 whose JSON breaks off; a watch stream whose event is not JSON) and
//    truncated ones (the real answer cut after 64-6000 bytes, mid-stream for a watch).
// The operator's Lease requests pass untouched: losing the Lease exits the operator by design
// (leader election's own tests cover that), and this suite checks the controllers and informers.
// After each, the operator must converge on the final state as the same process, still leading.

#include <gtest/gtest.h>

#include <thread>

#include "test/e2e/fault_fixture.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/fault_http_proxy.hpp"

namespace ctrl::e2e {
namespace {

using namespace std::chrono_literals;

class HttpFaultTest : public FaultTest {
  protected:
    void StartBehindFaultProxy() {
        const testing::ControlPlane& control_plane = testing::SharedControlPlane();
        const std::string pki = control_plane.WorkDir() + "/pki/";
        testing::FaultHttpProxy::Options options;
        options.upstream_port = UrlPort(control_plane.Host());
        options.upstream_ca_file = control_plane.CaFile();
        options.serving_cert_file = pki + "kube-apiserver.crt";
        options.serving_key_file = pki + "kube-apiserver.key";
        options.exempt_path = "/leases/";
        options.seed = churn_->SeedValue();
        StatusOr<std::unique_ptr<testing::FaultHttpProxy>> proxy = testing::FaultHttpProxy::Start(options);
        ASSERT_TRUE(proxy.Ok()) << proxy.GetStatus();
        proxy_ = std::move(proxy).Value();
        StartOperatorAndConverge(proxy_->Url());
    }

    void TearDown() override {
        FaultTest::TearDown();
        proxy_.reset();
    }

    void PrintCounts(const std::string& fault) {
        const testing::FaultHttpProxy::Counts counts = proxy_->Totals();
        std::printf(
            "[ faults ] %s: the proxy saw %d requests: %d forwarded, %d answered 429, %d answered 503, "
            "%d malformed, %d truncated\n",
            fault.c_str(), counts.requests, counts.forwarded, counts.too_many_requests, counts.unavailable,
            counts.malformed, counts.truncated);
    }

    std::unique_ptr<testing::FaultHttpProxy> proxy_;
};

TEST_F(HttpFaultTest, StormOf429WithRetryAfterAnd503) {
    StartBehindFaultProxy();
    RunFault(
        "http-429-503-storm-15s", 1s,
        [&] {
            proxy_->SetFaults({.too_many_requests = 0.35, .unavailable = 0.25});
            std::this_thread::sleep_for(15s);
            proxy_->SetFaults({});
        },
        0s);
    PrintCounts("http-429-503-storm-15s");
    EXPECT_GT(proxy_->Totals().too_many_requests, 0);
    EXPECT_GT(proxy_->Totals().unavailable, 0);
}

TEST_F(HttpFaultTest, MalformedAndTruncatedBodies) {
    StartBehindFaultProxy();
    RunFault(
        "http-broken-bodies-15s", 1s,
        [&] {
            proxy_->SetFaults({.malformed = 0.2, .truncated = 0.3});
            std::this_thread::sleep_for(15s);
            proxy_->SetFaults({});
        },
        0s);
    PrintCounts("http-broken-bodies-15s");
    EXPECT_GT(proxy_->Totals().malformed, 0);
    EXPECT_GT(proxy_->Totals().truncated, 0);
}

}  // namespace
}  // namespace ctrl::e2e
