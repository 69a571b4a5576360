#include "test/e2e/churn_driver.hpp"

#include <chrono>

#include "test/e2e/kubectl_admin.hpp"
#include "test/e2e/operator_fixture.hpp"
#include "test/support/kubectl.hpp"

namespace ctrl::e2e {
namespace {

using namespace std::chrono_literals;

// The names the driver draws from: a few of each, so operations hit existing objects often.
const std::vector<std::string> kServiceAccounts{"sa-a", "sa-b", "sa-c"};
const std::vector<std::string> kPolicies{"pol-a", "pol-b", "pol-c", "pol-d"};
const std::vector<std::string> kApps{"web", "db", "api"};
const std::vector<std::string> kTiers{"front", "back"};
const std::vector<std::string> kRoles{"payments", "batch"};
constexpr int kPodNames = 24;  // pod-0 ... pod-23 per namespace
constexpr int kSeedPods = 8;

// kubectl as admin with a short deadline; true when it exited 0.
bool Kubectl(const std::vector<std::string>& args, const std::string& stdin_data = "") {
    std::vector<std::string> with_timeout = args;
    with_timeout.push_back("--request-timeout=5s");
    StatusOr<testing::CommandResult> result = testing::Kubectl(AdminKubeconfig(), with_timeout, 15s, stdin_data);
    return result.Ok() && result->exit_code == 0;
}

bool Apply(const std::string& ns, const std::string& yaml) {
    return Kubectl({"apply", "-n", ns, "-f", "-"}, yaml);
}

}  // namespace

ChurnDriver::ChurnDriver(std::vector<std::string> namespaces, uint32_t seed)
    : namespaces_(std::move(namespaces)), seed_(seed), random_(seed) {}

ChurnDriver::~ChurnDriver() {
    Stop();
}

Status ChurnDriver::Seed() {
    for (const std::string& ns : namespaces_) {
        std::string yaml;
        for (const std::string& account : kServiceAccounts)
            yaml += ServiceAccountYaml(account, "role=" + Pick(kRoles));
        for (const std::string& policy : kPolicies)
            yaml += PolicyYaml(policy);
        for (int i = 0; i < kSeedPods; ++i)
            yaml += PodYaml("pod-" + std::to_string(i), RandomPodLabels(), Pick(kServiceAccounts));
        if (!Apply(ns, yaml))
            return KubectlApply(yaml, ns).Annotate("seeding namespace " + ns);
    }
    return OkStatus();
}

void ChurnDriver::Start(std::chrono::milliseconds interval) {
    stop_ = false;
    thread_ = std::thread([this, interval] { Loop(interval); });
}

void ChurnDriver::Stop() {
    stop_ = true;
    if (thread_.joinable())
        thread_.join();
}

void ChurnDriver::Loop(std::chrono::milliseconds interval) {
    auto next = std::chrono::steady_clock::now();
    while (!stop_) {
        ++operations_;
        if (!Step())
            ++failures_;
        next += interval;
        const auto now = std::chrono::steady_clock::now();
        if (next > now)
            std::this_thread::sleep_until(next);
        else
            next = now;  // an operation that hung (an outage) does not make the next ones burst
    }
}

bool ChurnDriver::Step() {
    const std::string& ns = Pick(namespaces_);
    const int roll = std::uniform_int_distribution<int>(0, 99)(random_);
    if (roll < 30)
        return CreatePod(ns);
    if (roll < 60)
        return RelabelPod(ns);
    if (roll < 75)
        return DeletePod(ns);
    if (roll < 88)
        return RelabelServiceAccount(ns);
    return ChangePolicy(ns);
}

std::string ChurnDriver::RandomPodLabels() {
    std::string labels = "app=" + Pick(kApps);
    if (std::uniform_int_distribution<int>(0, 1)(random_) == 1)
        labels += ",tier=" + Pick(kTiers);
    return labels;
}

bool ChurnDriver::CreatePod(const std::string& ns) {
    const std::string name = "pod-" + std::to_string(next_pod_++ % kPodNames);
    const std::string labels = RandomPodLabels();
    const std::string account = Pick(kServiceAccounts);
    // The name may exist already: apply then changes its labels (the ServiceAccount is immutable:
    // such an apply fails, which is counted like any refusal).
    return Apply(ns, PodYaml(name, labels, account));
}

bool ChurnDriver::RelabelPod(const std::string& ns) {
    const std::string name = "pod-" + std::to_string(std::uniform_int_distribution<int>(0, kPodNames - 1)(random_));
    const std::string app = "app=" + Pick(kApps);
    const bool tier = std::uniform_int_distribution<int>(0, 1)(random_) == 1;
    return Kubectl({"label", "pod", name, "-n", ns, "--overwrite", app, tier ? "tier=" + Pick(kTiers) : "tier-"});
}

bool ChurnDriver::DeletePod(const std::string& ns) {
    const std::string name = "pod-" + std::to_string(std::uniform_int_distribution<int>(0, kPodNames - 1)(random_));
    return Kubectl({"delete", "pod", name, "-n", ns, "--wait=false", "--ignore-not-found"});
}

bool ChurnDriver::RelabelServiceAccount(const std::string& ns) {
    const std::string& account = Pick(kServiceAccounts);
    return Kubectl({"label", "serviceaccount", account, "-n", ns, "--overwrite", "role=" + Pick(kRoles)});
}

bool ChurnDriver::ChangePolicy(const std::string& ns) {
    const std::string& policy = Pick(kPolicies);
    return Apply(ns, PolicyYaml(policy));
}

// A policy with a random shape: a pod selector by app, or by tier with an expression, or a
// ServiceAccount selector by role, or both; one or two groups (sometimes shared between policies).
std::string ChurnDriver::PolicyYaml(const std::string& name) {
    std::string spec;
    const int shape = std::uniform_int_distribution<int>(0, 3)(random_);
    if (shape == 0 || shape == 3)
        spec += "  podSelector:\n    matchLabels:\n      app: " + Pick(kApps) + "\n";
    if (shape == 1)
        spec += "  podSelector:\n    matchExpressions:\n      - key: tier\n        operator: In\n        values: [" +
                Pick(kTiers) + "]\n";
    if (shape == 2 || shape == 3)
        spec += "  serviceAccountSelector:\n    matchLabels:\n      role: " + Pick(kRoles) + "\n";
    const int group = std::uniform_int_distribution<int>(1, 6)(random_);
    spec += "  securityGroups:\n    groupIds: [sg-" + std::to_string(group) + ", sg-" + name + "]\n";
    return "---\napiVersion: vpcresources.k8s.aws/v1beta1\nkind: SecurityGroupPolicy\nmetadata:\n  name: " + name +
           "\nspec:\n" + spec;
}

}  // namespace ctrl::e2e
