#include "test/e2e/fault_fixture.hpp"

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <thread>

#include "test/e2e/kubectl_admin.hpp"
#include "test/support/eventually.hpp"
#include "test/support/metrics_text.hpp"

namespace ctrl::e2e {

using ctrl::testing::MetricLines;
using ctrl::testing::MetricSum;
using ctrl::testing::MetricValue;
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr char kLeaseName[] = "ctrl-operator.ctrl.example.com";

double Seconds(Clock::duration d) {
    return std::chrono::duration<double>(d).count();
}

// $CTRL_FAULT_SEED, else one seed per test name (so each fault replays its own sequence).
uint32_t ChurnSeed() {
    if (const char* seed = std::getenv("CTRL_FAULT_SEED"); seed != nullptr && *seed != '\0')
        return static_cast<uint32_t>(std::strtoul(seed, nullptr, 10));
    return static_cast<uint32_t>(
        std::hash<std::string>()(::testing::UnitTest::GetInstance()->current_test_info()->name()) % 100000);
}

// What differs from the rules in a fresh snapshot: pods whose annotation and policies whose status
// are not what the rules give ("" when everything agrees).
std::string Disagreements(const std::vector<std::string>& namespaces) {
    StatusOr<ClusterSnapshot> snapshot = ReadSnapshot(namespaces);
    if (!snapshot.Ok())
        return "reading the cluster: " + snapshot.GetStatus().ToString();
    std::string out = AnnotationMismatches(*snapshot);
    for (const Object& policy : snapshot->policies) {
        const std::string expected = ExpectedPolicyStatus(policy, *snapshot);
        const std::string has = PolicyStatusOf(policy);
        if (has != expected)
            out += "policy " + std::string(policy.Namespace()) + "/" + std::string(policy.Name()) + ": expected \"" +
                   expected + "\", has \"" + has + "\"\n";
    }
    return out;
}

}  // namespace

std::string LeaseHolder() {
    StatusOr<Object> lease = KubectlJson({"get", "lease", "-n", std::string(kOperatorNamespace), kLeaseName});
    if (!lease.Ok())
        return "";
    StatusOr<std::string> holder = lease->NestedString({"spec", "holderIdentity"});
    return holder.Ok() ? *holder : "";
}

std::chrono::seconds FaultConvergeBound() {
    if (const char* bound = std::getenv("CTRL_FAULT_CONVERGE_BOUND_S"); bound != nullptr && std::atoi(bound) > 0)
        return std::chrono::seconds(std::atoi(bound));
    return kFaultConvergeBound;
}

int UrlPort(const std::string& url) {
    const size_t colon = url.rfind(':');
    if (colon == std::string::npos)
        return 0;
    return std::atoi(url.c_str() + colon + 1);
}

void FaultTest::SetUp() {
    ns_a_ = MakeNamespace("a");
    ns_b_ = MakeNamespace("b");
    churn_ = std::make_unique<ChurnDriver>(std::vector<std::string>{ns_a_, ns_b_}, ChurnSeed());
    std::printf("[ faults ] churn seed %u (CTRL_FAULT_SEED replays it)\n", churn_->SeedValue());
    const Status seeded = churn_->Seed();
    ASSERT_TRUE(seeded.Ok()) << seeded;
}

void FaultTest::TearDown() {
    if (churn_)
        churn_->Stop();
    OperatorTest::TearDown();
}

void FaultTest::StartOperatorAndConverge(const std::string& server) {
    operator_ = StartOperator({.name = "faults",
                               .watch_namespaces = {ns_a_, ns_b_},
                               .args = {"--leader-elect", std::string("--leader-election-id=") + kLeaseName,
                                        "--leader-election-namespace=" + std::string(kOperatorNamespace)},
                               .server = server});
    ASSERT_NE(operator_, nullptr);
    ASSERT_TRUE(WaitReady(*operator_));
    pid_ = operator_->Pid();
    std::string text;
    ASSERT_TRUE(testing::Eventually(
        [&] {
            text = operator_->MetricsText();
            return MetricValue(text, "leader_election_master_status", {{"name", kLeaseName}}) == 1.0;
        },
        testing::kTestWait, 200ms))
        << "the operator did not become leader\n"
        << MetricLines(text, "leader_election_master_status");
    holder_ = LeaseHolder();
    ASSERT_FALSE(holder_.empty());
    ASSERT_EQ(operator_->LogLinesWith({"Starting manager", holder_}), 1) << "the Lease is not this operator's";
    std::string disagreements;
    ASSERT_TRUE(testing::Eventually(
        [&] {
            disagreements = Disagreements({ns_a_, ns_b_});
            return disagreements.empty();
        },
        FaultConvergeBound(), 500ms))
        << "the seeded objects did not converge before the fault:\n"
        << disagreements;
    baseline_ = Counters();
}

OperatorCounters FaultTest::Counters() const {
    const std::string text = operator_->MetricsText();
    OperatorCounters counters;
    counters.reconciles = MetricSum(text, "controller_runtime_reconcile_total");
    counters.relists = MetricSum(text, "ctrl_informer_relists_total") -
                       MetricSum(text, "ctrl_informer_relists_total", {{"reason", "initial"}});
    counters.gone_relists = MetricSum(text, "ctrl_informer_relists_total", {{"reason", "gone_410"}});
    counters.requests = MetricSum(text, "rest_client_requests_total");
    counters.retries = MetricSum(text, "rest_client_request_retries_total");
    return counters;
}

void FaultTest::RunFault(const std::string& fault, std::chrono::milliseconds before,
                         const std::function<void()>& inject, std::chrono::milliseconds after) {
    ASSERT_NE(operator_, nullptr);
    churn_->Start();
    std::this_thread::sleep_for(before);
    inject();
    const auto fault_ended = Clock::now();
    std::this_thread::sleep_for(after);
    churn_->Stop();
    std::printf("[ faults ] %s: churn made %d operations, %d refused or unanswered\n", fault.c_str(),
                churn_->Operations(), churn_->Failures());
    if (!HasFatalFailure())
        ExpectRecovered(fault, fault_ended);
}

void FaultTest::ExpectRecovered(const std::string& fault, Clock::time_point fault_ended) {
    const auto start = Clock::now();
    std::string disagreements = "(never read)";
    const bool converged = testing::Eventually(
        [&] {
            disagreements = Disagreements({ns_a_, ns_b_});
            return disagreements.empty();
        },
        FaultConvergeBound(), 500ms);
    const double took = Seconds(Clock::now() - start);
    const double since_fault = Seconds(Clock::now() - fault_ended);
    EXPECT_TRUE(converged) << fault << ": not converged within " << FaultConvergeBound().count()
                           << " s of the end of the fault:\n"
                           << disagreements;
    // Still the same process, still leading.
    EXPECT_TRUE(operator_->Running()) << fault << ": the operator exited: " << operator_->LogTail(40);
    EXPECT_EQ(operator_->Pid(), pid_) << fault << ": the operator restarted";
    EXPECT_EQ(LeaseHolder(), holder_) << fault << ": the leader changed";
    EXPECT_EQ(operator_->LogLinesWith({"eader election lost"}), 0) << fault << ": the operator lost its Lease";
    const OperatorCounters now = Counters();
    std::printf(
        "[ figures ] fault=%s converged_s=%.2f (%.2f after the fault ended) bound_s=%lld reconciles=%.0f "
        "relists=%.0f (gone_410 %.0f) requests=%.0f retries=%.0f churn_ops=%d churn_failed=%d seed=%u\n",
        fault.c_str(), converged ? took : -1.0, converged ? since_fault : -1.0,
        static_cast<long long>(FaultConvergeBound().count()), now.reconciles - baseline_.reconciles,
        now.relists - baseline_.relists, now.gone_relists - baseline_.gone_relists, now.requests - baseline_.requests,
        now.retries - baseline_.retries, churn_->Operations(), churn_->Failures(), churn_->SeedValue());
}

}  // namespace ctrl::e2e
