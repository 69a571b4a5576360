// Issue 15, acceptance 4 (second half), against the real control plane: `kubectl apply
// --dry-run=server -k manifests/` passes and creates nothing, the real apply succeeds (and again,
// unchanged), and the operator's ServiceAccount may do exactly what the contract lists: every
// allowed verb is "yes", the rest (pods delete, secrets get, securitygrouppolicies update, ...)
// "no", and its `kubectl auth can-i --list` differs from an unbound account's by exactly the
// contract's rows. The CRDs come from manifests/overlays/bare, as on a bare control plane;
// manifests/ beside AWS's own CRDs is tested in aws_crd_test.cpp (issue 28).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>

#include "test/e2e/manifests_objects.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/kubectl.hpp"

namespace ctrl::testing {
namespace {

using namespace std::chrono_literals;

constexpr char kOperator[] = "system:serviceaccount:ctrl-system:ctrl-operator";
constexpr char kPrometheus[] = "system:serviceaccount:monitoring:prometheus";
constexpr char kSgps[] = "securitygrouppolicies.vpcresources.k8s.aws";
constexpr char kCertSecret[] = "ctrl-operator-webhook-certs";
constexpr char kValidating[] = "validatingwebhookconfigurations.admissionregistration.k8s.io";
constexpr char kMutating[] = "mutatingwebhookconfigurations.admissionregistration.k8s.io";

CommandResult RunKubectl(const std::vector<std::string>& args) {
    StatusOr<CommandResult> result = Kubectl(SharedControlPlane().KubeconfigPath(), args, 60s);
    EXPECT_TRUE(result.Ok()) << result.GetStatus();
    return result.Ok() ? std::move(result).Value() : CommandResult{};
}

// Runs kubectl and expects exit 0, printing what it said otherwise.
CommandResult RunOk(const std::vector<std::string>& args) {
    CommandResult result = RunKubectl(args);
    std::string command = "kubectl";
    for (const std::string& arg : args)
        command += " " + arg;
    EXPECT_EQ(result.exit_code, 0) << command << "\n" << result.out << result.err;
    return result;
}

// kubectl apply -k manifests/overlays/bare (idempotent: manifests/ and the project's CRDs, as on a
// bare control plane), then waits for the CRDs to be served.
void ApplyBase() {
    RunOk({"apply", "-k", RepoPath("manifests/overlays/bare")});
    RunOk({"wait", "--for=condition=Established", "--timeout=60s", std::string("crd/") + kSgps});
}

// `kubectl auth can-i VERB RESOURCE --as USER [args...]`: true for "yes".
bool CanI(const std::string& user, const std::string& verb, const std::string& resource,
          const std::vector<std::string>& args = {}) {
    std::vector<std::string> command = {"auth", "can-i", verb, resource, "--as=" + user};
    command.insert(command.end(), args.begin(), args.end());
    const CommandResult result = RunKubectl(command);
    EXPECT_TRUE(result.out == "yes\n" || result.out == "no\n") << result.out << result.err;
    return result.out == "yes\n";
}

// The rows of `kubectl auth can-i --list` in a namespace, whitespace collapsed and the verbs of
// each row sorted: "pods [] [] [list patch watch]".
std::set<std::string> CanIList(const std::string& user, const std::string& namespace_name) {
    const CommandResult result = RunOk({"auth", "can-i", "--list", "--as=" + user, "-n", namespace_name});
    static const std::regex kRow(R"(^(\S*)\s+(\[[^\]]*\])\s+(\[[^\]]*\])\s+\[([^\]]*)\]\s*$)");
    std::set<std::string> rows;
    std::istringstream lines(result.out);
    for (std::string line; std::getline(lines, line);) {
        std::smatch row;
        if (!std::regex_match(line, row, kRow))
            continue;  // the header
        std::istringstream verb_words(row[4].str());
        std::set<std::string> verbs{std::istream_iterator<std::string>(verb_words), {}};
        std::string joined;
        for (const std::string& verb : verbs)
            joined += (joined.empty() ? "" : " ") + verb;
        rows.insert(row[1].str() + " " + row[2].str() + " " + row[3].str() + " [" + joined + "]");
    }
    return rows;
}

std::set<std::string> Minus(const std::set<std::string>& a, const std::set<std::string>& b) {
    std::set<std::string> difference;
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::inserter(difference, difference.end()));
    return difference;
}

TEST(ManifestsApplyTest, ServerDryRunPassesAndCreatesNothingThenTheRealApplySucceeds) {
    StatusOr<std::vector<Object>> objects = KustomizeBuild(RepoPath("manifests"));
    ASSERT_TRUE(objects.Ok()) << objects.GetStatus();
    // A server dry run cannot create objects in a namespace that does not exist yet (the
    // Namespace itself is only dry-run too): create it for real first, as docs/deploying.md says.
    RunOk({"apply", "-f", RepoPath("manifests/manager/namespace.yaml")});

    const CommandResult dry_run = RunOk({"apply", "--dry-run=server", "-k", RepoPath("manifests")});
    std::istringstream lines(dry_run.out);
    size_t dry_run_lines = 0;
    for (std::string line; std::getline(lines, line); ++dry_run_lines)
        EXPECT_THAT(line, ::testing::EndsWith("(server dry run)"));
    EXPECT_EQ(dry_run_lines, objects->size()) << dry_run.out;
    const CommandResult absent = RunKubectl({"get", "serviceaccount", "ctrl-operator", "-n", "ctrl-system"});
    if (absent.exit_code == 0) {
        GTEST_LOG_(INFO) << "ctrl-operator exists already (another test applied first); not checking the dry run "
                            "created nothing";
    } else {
        EXPECT_THAT(absent.err, ::testing::HasSubstr("NotFound"));
    }

    ApplyBase();
    for (const Object& object : *objects) {
        std::vector<std::string> get = {"get", std::string(object.Kind()), std::string(object.Name())};
        if (!object.Namespace().empty())
            get.insert(get.end(), {"-n", std::string(object.Namespace())});
        RunOk(get);
    }
    // Applying again changes nothing.
    const CommandResult again = RunOk({"apply", "-k", RepoPath("manifests")});
    EXPECT_THAT(again.out, ::testing::Not(::testing::HasSubstr("configured"))) << again.out;
}

TEST(ManifestsApplyTest, OperatorServiceAccountMayDoWhatTheContractSaysAndNothingElse) {
    ApplyBase();
    struct Access {
        std::string verb;
        std::string resource;
        std::vector<std::string> args;
    };
    const std::vector<Access> allowed = {
        {"list", "pods", {"-A"}},
        {"watch", "pods", {"-A"}},
        {"patch", "pods", {"-n", "default"}},
        {"list", "serviceaccounts", {"-A"}},
        {"watch", "serviceaccounts", {"-A"}},
        {"create", "events", {"-n", "default"}},
        {"patch", "events", {"-n", "default"}},
        {"list", kSgps, {"-A"}},
        {"watch", kSgps, {"-A"}},
        {"patch", kSgps, {"-n", "default", "--subresource=status"}},
        {"get", "leases.coordination.k8s.io", {"-n", "ctrl-system"}},
        {"create", "leases.coordination.k8s.io", {"-n", "ctrl-system"}},
        {"update", "leases.coordination.k8s.io", {"-n", "ctrl-system"}},
        {"create", "tokenreviews.authentication.k8s.io", {}},
        {"create", "subjectaccessreviews.authorization.k8s.io", {}},
        // Self-managed webhook certificates: the one Secret, and the CA bundle of the two
        // configurations.
        {"list", std::string("secrets/") + kCertSecret, {"-n", "ctrl-system"}},
        {"watch", std::string("secrets/") + kCertSecret, {"-n", "ctrl-system"}},
        {"update", std::string("secrets/") + kCertSecret, {"-n", "ctrl-system"}},
        {"create", "secrets", {"-n", "ctrl-system"}},
        {"get", std::string(kValidating) + "/ctrl-operator-sgp-rules", {}},
        {"list", std::string(kValidating) + "/ctrl-operator-sgp-rules", {}},
        {"watch", std::string(kValidating) + "/ctrl-operator-sgp-rules", {}},
        {"update", std::string(kValidating) + "/ctrl-operator-sgp-rules", {}},
        {"get", std::string(kMutating) + "/ctrl-operator-sgp-defaults", {}},
        {"update", std::string(kMutating) + "/ctrl-operator-sgp-defaults", {}},
    };
    for (const Access& access : allowed)
        EXPECT_TRUE(CanI(kOperator, access.verb, access.resource, access.args))
            << access.verb << " " << access.resource;
    const std::vector<Access> denied = {
        {"delete", "pods", {"-n", "default"}},
        {"get", "pods", {"-n", "default"}},
        {"update", "pods", {"-n", "default"}},
        {"create", "pods", {"-n", "default"}},
        {"patch", "pods", {"-n", "default", "--subresource=status"}},
        {"get", "secrets", {"-n", "ctrl-system"}},
        {"list", "secrets", {"-A"}},
        {"list", "configmaps", {"-A"}},
        {"patch", "serviceaccounts", {"-n", "default"}},
        {"update", kSgps, {"-n", "default"}},
        {"patch", kSgps, {"-n", "default"}},
        {"delete", kSgps, {"-n", "default"}},
        {"update", kSgps, {"-n", "default", "--subresource=status"}},
        {"delete", "events", {"-n", "default"}},
        {"get", "leases.coordination.k8s.io", {"-n", "default"}},
        {"delete", "leases.coordination.k8s.io", {"-n", "ctrl-system"}},
        {"list", "nodes", {}},
        {"create", "customresourcedefinitions.apiextensions.k8s.io", {}},
        {"get", "/metrics", {}},
        {"get", std::string("secrets/") + kCertSecret, {"-n", "ctrl-system"}},
        {"update", "secrets/another", {"-n", "ctrl-system"}},
        {"create", "secrets", {"-n", "default"}},
        {"delete", std::string("secrets/") + kCertSecret, {"-n", "ctrl-system"}},
        {"list", kValidating, {}},
        {"update", std::string(kValidating) + "/another", {}},
        {"delete", std::string(kValidating) + "/ctrl-operator-sgp-rules", {}},
        {"update", std::string(kMutating) + "/ctrl-operator-sgp-rules", {}},
        {"create", kMutating, {}},
    };
    for (const Access& access : denied)
        EXPECT_FALSE(CanI(kOperator, access.verb, access.resource, access.args))
            << access.verb << " " << access.resource;

    // Exactly: what it may do beyond an account bound to nothing.
    const std::string nobody = "system:serviceaccount:ctrl-system:nobody";
    const std::set<std::string> everywhere = {
        "events [] [] [create patch]",
        "pods [] [] [list patch watch]",
        std::string(kSgps) + " [] [] [list watch]",
        std::string(kSgps) + "/status [] [] [patch]",
        "serviceaccounts [] [] [list watch]",
        "subjectaccessreviews.authorization.k8s.io [] [] [create]",
        "tokenreviews.authentication.k8s.io [] [] [create]",
        std::string(kMutating) + " [] [ctrl-operator-sgp-defaults] [get list update watch]",
        std::string(kValidating) + " [] [ctrl-operator-sgp-rules] [get list update watch]",
    };
    EXPECT_EQ(Minus(CanIList(kOperator, "default"), CanIList(nobody, "default")), everywhere);
    std::set<std::string> in_own_namespace = everywhere;
    in_own_namespace.insert("leases.coordination.k8s.io [] [] [create get update]");
    in_own_namespace.insert("secrets [] [] [create]");
    in_own_namespace.insert(std::string("secrets [] [") + kCertSecret + "] [list update watch]");
    EXPECT_EQ(Minus(CanIList(kOperator, "ctrl-system"), CanIList(nobody, "ctrl-system")), in_own_namespace);
}

TEST(ManifestsApplyTest, PrometheusKustomizationLetsItsAccountDiscoverAndReadMetrics) {
    ApplyBase();
    RunOk({"apply", "-k", RepoPath("manifests/prometheus")});
    EXPECT_TRUE(CanI(kPrometheus, "get", "/metrics"));
    EXPECT_TRUE(CanI(kPrometheus, "list", "endpoints", {"-n", "ctrl-system"}));
    EXPECT_TRUE(CanI(kPrometheus, "watch", "pods", {"-n", "ctrl-system"}));
    EXPECT_FALSE(CanI(kPrometheus, "list", "endpoints", {"-n", "default"}));
    EXPECT_FALSE(CanI(kPrometheus, "get", "secrets", {"-n", "ctrl-system"}));
}

// With the webhook configurations of manifests/ and no replica serving (no kubelet runs here: the
// Service has no endpoints), failurePolicy Fail refuses every SecurityGroupPolicy write, naming the
// webhook. Without them (as hack/run-local.sh and the operator e2e tests install manifests/ before
// an operator serves) the samples apply, the invalid one too: its status reports it.
TEST(ManifestsApplyTest, SamplesApplyOnTopOfTheManifests) {
    ApplyBase();
    RunOk({"apply", "-f", RepoPath("manifests/samples/namespace.yaml")});
    const CommandResult refused =
        RunKubectl({"apply", "--dry-run=server", "-f", RepoPath("manifests/samples/securitygrouppolicy-pods.yaml")});
    EXPECT_NE(refused.exit_code, 0) << refused.out;
    EXPECT_THAT(refused.err, ::testing::HasSubstr("failed calling webhook"));
    EXPECT_THAT(refused.err, ::testing::HasSubstr("securitygrouppolicy.ctrl-operator.ctrl.example.com"));

    RunOk({"delete", "validatingwebhookconfiguration", "ctrl-operator-sgp-rules"});
    RunOk({"delete", "mutatingwebhookconfiguration", "ctrl-operator-sgp-defaults"});
    RunOk({"apply", "-k", RepoPath("manifests/samples")});
    const CommandResult sgps = RunOk({"get", kSgps, "-n", "sgp-demo", "-o", "name"});
    EXPECT_THAT(sgps.out, ::testing::HasSubstr("/no-selector"));
    EXPECT_THAT(sgps.out, ::testing::HasSubstr("/monitoring-agents"));
    const CommandResult pods = RunOk({"get", "pods", "-n", "sgp-demo", "-o", "name"});
    EXPECT_THAT(pods.out, ::testing::HasSubstr("pod/web-edge-agent"));
}

TEST(ManifestsApplyTest, ServiceMonitorOverlayNeedsThePrometheusOperatorsCrd) {
    ApplyBase();
    // Why the ServiceMonitor is an optional component: without the Prometheus Operator the
    // server does not know the kind.
    const CommandResult result =
        RunKubectl({"apply", "--dry-run=server", "-k", RepoPath("manifests/overlays/prometheus-operator")});
    EXPECT_NE(result.exit_code, 0);
    EXPECT_THAT(result.err, ::testing::HasSubstr("ServiceMonitor"));
}

}  // namespace
}  // namespace ctrl::testing

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ctrl::testing::InstallControlPlaneEnvironment();
    return RUN_ALL_TESTS();
}
