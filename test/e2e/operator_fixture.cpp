#include "test/e2e/operator_fixture.hpp"

#include <cctype>
#include <sstream>

#include "test/support/control_plane_environment.hpp"
#include "test/support/eventually.hpp"

namespace ctrl::e2e {
namespace {

// Installs manifests/ once the control plane runs (environments set up in registration order).
class ManifestsEnvironment final : public ::testing::Environment {
  public:
    explicit ManifestsEnvironment(bool with_sgp_crd) : with_sgp_crd_(with_sgp_crd) {}
    void SetUp() override {
        const Status installed = InstallOperatorManifests(with_sgp_crd_);
        ASSERT_TRUE(installed.Ok()) << "installing manifests/: " << installed;
    }

  private:
    bool with_sgp_crd_;
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

// Indents each line of a YAML fragment.
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

void InstallE2eEnvironment(bool with_sgp_crd) {
    testing::InstallControlPlaneEnvironment();
    ::testing::AddGlobalTestEnvironment(new ManifestsEnvironment(with_sgp_crd));
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
    if (testing::Eventually(
            [&] {
                StatusOr<ClusterSnapshot> snapshot = ReadSnapshot(namespaces);
                mismatches = snapshot.Ok() ? AnnotationMismatches(*snapshot) : snapshot.GetStatus().ToString();
                return mismatches.empty();
            },
            bound, std::chrono::milliseconds(50)))
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "annotations not as the rules give within "
                                         << std::chrono::duration<double>(bound).count() << " s:\n"
                                         << mismatches;
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

}  // namespace ctrl::e2e
