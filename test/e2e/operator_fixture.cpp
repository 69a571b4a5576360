#include "test/e2e/operator_fixture.hpp"

#include <cctype>
#include <sstream>
#include <thread>

#include "test/e2e/operator_container.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/eventually.hpp"

namespace ctrl::e2e {

using namespace std::chrono_literals;
using testing::Eventually;

namespace {

// Installs manifests/ once the control plane runs (environments set up in registration order).
class ManifestsEnvironment final : public ::testing::Environment {
  public:
    explicit ManifestsEnvironment(SgpCrd crd) : crd_(crd) {}
    void SetUp() override {
        const Status installed = InstallOperatorManifests(crd_);
        ASSERT_TRUE(installed.Ok()) << "installing manifests/: " << installed;
    }

  private:
    SgpCrd crd_;
};

bool operators_in_containers = false;

// Fails the test binary when podman or the operator image is missing.
class ImageEnvironment final : public ::testing::Environment {
  public:
    void SetUp() override {
        const Status present = RequireOperatorImage();
        ASSERT_TRUE(present.Ok()) << present;
    }
};

// "PodSelectorOnly" -> "pod-selector-only".
std::string KebabCase(const std::string& name) {
    std::string out;
    for (char c : name) {
        if (std::isupper(static_cast<unsigned char>(c))) {
            if (!out.empty())
                out += '-';
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        } else if (std::isalnum(static_cast<unsigned char>(c))) {
            out += c;
        } else if (!out.empty() && out.back() != '-') {
            out += '-';
        }
    }
    return out;
}

// "k=v,k2=v2" as YAML mapping entries (values quoted), one a line at indent.
std::string LabelsYaml(const std::string& labels, const std::string& indent) {
    std::string out;
    std::istringstream in(labels);
    for (std::string pair; std::getline(in, pair, ',');) {
        const size_t equals = pair.find('=');
        out += indent + pair.substr(0, equals) + ": \"" + pair.substr(equals + 1) + "\"\n";
    }
    return out;
}

}  // namespace

void InstallE2eEnvironment(SgpCrd crd) {
    InstallE2eEnvironment(crd, {});
}

void InstallE2eEnvironment(SgpCrd crd, const std::vector<std::string>& apiserver_flags) {
    testing::ControlPlane::Options options;
    options.apiserver_flags = apiserver_flags;
    testing::InstallControlPlaneEnvironment(std::move(options));
    ::testing::AddGlobalTestEnvironment(new ManifestsEnvironment(crd));
}

void RunOperatorsAsContainers() {
    operators_in_containers = true;
    ::testing::AddGlobalTestEnvironment(new ImageEnvironment());
}

void OperatorTest::TearDown() {
    if (HasFailure())
        std::printf("%s", Logs().c_str());
    operators_.clear();
}

std::string OperatorTest::MakeNamespace(const std::string& suffix) {
    std::string name = "e2e-" + KebabCase(::testing::UnitTest::GetInstance()->current_test_info()->name());
    const size_t room = 63 - (suffix.empty() ? 0 : suffix.size() + 1);
    if (name.size() > room)
        name.resize(room);
    while (name.back() == '-')
        name.pop_back();
    if (!suffix.empty())
        name += "-" + suffix;
    const Status made = KubectlApply("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: " + name + "\n");
    EXPECT_TRUE(made.Ok()) << made;
    return name;
}

OperatorProcess* OperatorTest::StartOperator(OperatorOptions options) {
    options.container = options.container || operators_in_containers;
    StatusOr<std::unique_ptr<OperatorProcess>> started = OperatorProcess::Start(options);
    if (!started.Ok()) {
        ADD_FAILURE() << "starting operator " << options.name << ": " << started.GetStatus();
        return nullptr;
    }
    operators_.push_back(std::move(started).Value());
    return operators_.back().get();
}

::testing::AssertionResult OperatorTest::WaitReady(const OperatorProcess& process) {
    testing::CurlResult last;
    if (testing::Eventually(
            [&] {
                last = process.Readyz();
                return last.status == 200;
            },
            testing::kTestWait, std::chrono::milliseconds(100)))
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "operator " << process.Name() << " not ready: /readyz?verbose answered "
                                         << last.status << ":\n"
                                         << last.body;
}

::testing::AssertionResult OperatorTest::AnnotationsConverge(const std::vector<std::string>& namespaces,
                                                             std::chrono::steady_clock::duration bound) {
    std::string mismatches = "(never read)";
    const auto start = std::chrono::steady_clock::now();
    const auto agree = [&] {
        StatusOr<ClusterSnapshot> snapshot = ReadSnapshot(namespaces);
        mismatches = snapshot.Ok() ? AnnotationMismatches(*snapshot) : snapshot.GetStatus().ToString();
        return mismatches.empty();
    };
    if (testing::Eventually(agree, bound, std::chrono::milliseconds(50))) {
        std::printf("[ figures ] every pod as the rules give after %.2f s (bound %.0f s)\n",
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                    std::chrono::duration<double>(bound).count());
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << "annotations not as the rules give within "
                                         << std::chrono::duration<double>(bound).count() << " s:\n"
                                         << mismatches;
}

void OperatorTest::ExpectStatusesAndEvents(const std::vector<std::string>& namespaces) {
    StatusOr<ClusterSnapshot> snapshot = ReadSnapshot(namespaces);
    ASSERT_TRUE(snapshot.Ok()) << snapshot.GetStatus();
    for (const Object& policy : snapshot->policies) {
        const std::string ns(policy.Namespace());
        const std::string name(policy.Name());
        const std::string expected = ExpectedPolicyStatus(policy, *snapshot);
        std::string seen;
        const auto status_as_expected = [&] {
            seen = PolicyStatus(ns, name);
            return seen == expected;
        };
        EXPECT_TRUE(Eventually(status_as_expected, testing::kTestWait, 200ms))
            << "policy " << ns << "/" << name << "\n  expected: " << expected << "\n  has:      " << seen;
        if (!InvalidReason(policy).empty()) {
            EXPECT_TRUE(
                Eventually([&] { return HasEvent(ns, name, "InvalidPolicy", "Warning"); }, testing::kTestWait, 200ms))
                << "no Warning Event InvalidPolicy on policy " << ns << "/" << name;
        }
    }
    for (const Object& pod : snapshot->pods) {
        if (ActualAnnotation(pod).empty())
            continue;
        const std::string ns(pod.Namespace());
        const std::string name(pod.Name());
        EXPECT_TRUE(Eventually([&] { return HasEvent(ns, name, "SecurityGroupsChanged"); }, testing::kTestWait, 200ms))
            << "no Event SecurityGroupsChanged on pod " << ns << "/" << name;
    }
    // And nothing moves afterwards.
    std::this_thread::sleep_for(1s);
    StatusOr<ClusterSnapshot> later = ReadSnapshot(namespaces);
    ASSERT_TRUE(later.Ok()) << later.GetStatus();
    EXPECT_EQ(AnnotationMismatches(*later), "");
}

void OperatorTest::Apply(const std::string& ns, const std::string& yaml) {
    const Status applied = KubectlApply(yaml, ns);
    ASSERT_TRUE(applied.Ok()) << applied << "\n" << yaml;
}

std::string OperatorTest::Logs() const {
    std::string logs;
    for (const auto& process : operators_)
        logs += process->LogTail(80);
    return logs;
}

std::string PodYaml(const std::string& name, const std::string& labels, const std::string& service_account) {
    std::string yaml = "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name + "\n";
    if (!labels.empty())
        yaml += "  labels:\n" + LabelsYaml(labels, "    ");
    yaml += "spec:\n";
    if (!service_account.empty())
        yaml += "  serviceAccountName: " + service_account + "\n";
    yaml += "  containers:\n    - name: c\n      image: registry.k8s.io/pause:3.10\n";
    return yaml;
}

std::string PodSelectorPolicyYaml(const std::string& name, const std::string& labels, const std::string& group_ids) {
    return "---\napiVersion: vpcresources.k8s.aws/v1beta1\nkind: SecurityGroupPolicy\nmetadata:\n  name: " + name +
           "\nspec:\n  podSelector:\n    matchLabels:\n" + LabelsYaml(labels, "      ") +
           "  securityGroups:\n    groupIds: [" + group_ids + "]\n";
}

std::string ServiceAccountSelectorPolicyYaml(const std::string& name, const std::string& labels,
                                             const std::string& group_ids) {
    return "---\napiVersion: vpcresources.k8s.aws/v1beta1\nkind: SecurityGroupPolicy\nmetadata:\n  name: " + name +
           "\nspec:\n  serviceAccountSelector:\n    matchLabels:\n" + LabelsYaml(labels, "      ") +
           "  securityGroups:\n    groupIds: [" + group_ids + "]\n";
}

std::string ServiceAccountYaml(const std::string& name, const std::string& labels) {
    std::string yaml = "---\napiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: " + name + "\n";
    if (!labels.empty())
        yaml += "  labels:\n" + LabelsYaml(labels, "    ");
    return yaml;
}

StatusOr<std::vector<Object>> EventsAbout(const std::string& ns, const std::string& name, const std::string& reason) {
    return KubectlItems(
        {"get", "events", "-n", ns, "--field-selector", "involvedObject.name=" + name + ",reason=" + reason});
}

bool HasEvent(const std::string& ns, const std::string& name, const std::string& reason, const std::string& type) {
    StatusOr<std::vector<Object>> events = EventsAbout(ns, name, reason);
    if (!events.Ok())
        return false;
    for (const Object& event : *events) {
        StatusOr<std::string> event_type = event.NestedString({"type"});
        if (type.empty() || (event_type.Ok() && *event_type == type))
            return true;
    }
    return false;
}

std::string ReadyCondition(const Object& policy) {
    StatusOr<std::vector<Object>> conditions = policy.NestedSlice({"status", "conditions"});
    if (!conditions.Ok())
        return "";
    for (const Object& condition : *conditions) {
        StatusOr<std::string> type = condition.NestedString({"type"});
        if (type.Ok() && *type == "Ready") {
            StatusOr<std::string> status = condition.NestedString({"status"});
            StatusOr<std::string> reason = condition.NestedString({"reason"});
            return (status.Ok() ? *status : "?") + "/" + (reason.Ok() ? *reason : "?");
        }
    }
    return "";
}

namespace {

std::string StatusText(int64_t observed, int64_t generation, int64_t matched, const std::string& ready) {
    const auto number = [](int64_t n) { return n < 0 ? std::string("-") : std::to_string(n); };
    return "observedGeneration " + number(observed) + " of " + number(generation) + ", matchedPods " + number(matched) +
           ", Ready " + (ready.empty() ? "-" : ready);
}

}  // namespace

std::string PolicyStatus(const std::string& ns, const std::string& name) {
    StatusOr<Object> policy = KubectlJson({"get", "securitygrouppolicies.vpcresources.k8s.aws", "-n", ns, name});
    if (!policy.Ok())
        return policy.GetStatus().ToString();
    return PolicyStatusOf(*policy);
}

std::string PolicyStatusOf(const Object& policy) {
    const StatusOr<int64_t> observed = policy.NestedInt({"status", "observedGeneration"});
    const StatusOr<int64_t> matched = policy.NestedInt({"status", "matchedPods"});
    return StatusText(observed.Ok() ? *observed : -1, policy.Generation(), matched.Ok() ? *matched : -1,
                      ReadyCondition(policy));
}

std::string ExpectedPolicyStatus(const Object& policy, const ClusterSnapshot& snapshot) {
    const std::string reason = InvalidReason(policy);
    return StatusText(policy.Generation(), policy.Generation(), ExpectedMatchedPods(policy, snapshot),
                      reason.empty() ? "True/Valid" : "False/" + reason);
}

}  // namespace ctrl::e2e
