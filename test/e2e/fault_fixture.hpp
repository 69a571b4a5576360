#pragma once

// The fixture of the fault suite (issue 17, part 1): two namespaces seeded and then churned by a
// ChurnDriver, one operator with leader election; after a fault, the checks every fault shares:
// within a bound, every pod's annotation and every policy's status are what the rules give for the
// final state (read afresh, sgp_expectation.hpp), the operator is the same process and still runs,
// and it still holds the Lease. The figures of each fault (time to converge, reconciles, relists and
// requests from the operator's /metrics) are printed as a "[ figures ]" line.

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "test/e2e/churn_driver.hpp"
#include "test/e2e/operator_fixture.hpp"

namespace ctrl::e2e {

// How long the operator gets to converge once a fault is over: a deadline, not an expectation of
// speed; reaching it fails the test naming what has not converged. $CTRL_FAULT_CONVERGE_BOUND_S
// overrides it (a very slow machine; or a short bound when checking that a broken runtime fails).
inline constexpr std::chrono::seconds kFaultConvergeBound{120};
std::chrono::seconds FaultConvergeBound();

// The counters a fault's figures are differences of.
struct OperatorCounters {
    double reconciles = 0;    // controller_runtime_reconcile_total, every controller and result
    double relists = 0;       // ctrl_informer_relists_total minus the initial lists
    double gone_relists = 0;  // of which reason gone_410
    double requests = 0;      // rest_client_requests_total, every code and method
    double retries = 0;       // rest_client_request_retries_total
};

class FaultTest : public OperatorTest {
  protected:
    void SetUp() override;
    void TearDown() override;

    // Starts the operator (leader election on, watching the two namespaces), talking to `server`
    // (the control plane when empty), waits until it is ready, leads, and has converged on the
    // seeded objects; records its pid and Lease holder.
    void StartOperatorAndConverge(const std::string& server = "");
    // Churns for `before`, runs the fault, churns for `after`, stops churning; then checks the
    // recovery (ExpectRecovered) and prints the figures under `fault`.
    void RunFault(const std::string& fault, std::chrono::milliseconds before, const std::function<void()>& inject,
                  std::chrono::milliseconds after);
    // The checks after a fault, with the figures since the baseline counters. converged_s is
    // counted from the end of the churn (the first moment the final state exists), and also
    // printed from fault_ended (the end of the fault; churn may go on after it).
    void ExpectRecovered(const std::string& fault, std::chrono::steady_clock::time_point fault_ended);
    OperatorCounters Counters() const;

    std::string ns_a_;
    std::string ns_b_;
    std::unique_ptr<ChurnDriver> churn_;
    OperatorProcess* operator_ = nullptr;
    pid_t pid_ = 0;
    std::string holder_;
    OperatorCounters baseline_;
};

// The holderIdentity of the operator's Lease in ctrl-system ("" when released or unreadable).
std::string LeaseHolder();

// The port of an https://host:port URL (0 when there is none).
int UrlPort(const std::string& url);

}  // namespace ctrl::e2e
