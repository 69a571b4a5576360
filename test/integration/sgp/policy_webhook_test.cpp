// The SecurityGroupPolicy webhooks of the sample operator against the real kube-apiserver (issue
// 32, acceptance 1): manifests/webhook/webhooks.yaml installed by envtest::InstallWebhooks (pointed
// at a local webhook server), the operator's validator and defaulter registered by
// sgp::AddWebhooksToManager. `kubectl apply` of each invalid policy is refused with a message
// naming the field; a valid one is admitted and stored defaulted; a server-side dry run leaves
// nothing behind (acceptance 1). With the operator stopped, failurePolicy Fail refuses writes and
// Ignore admits them, and the policy-status controller then reports the invalid one (acceptance 5).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <future>
#include <string>

#include "controllers/sgp/api/vpcresources.hpp"
#include "controllers/sgp/policy_webhook.hpp"
#include "controllers/sgp/sgp_controller.hpp"
#include "ctrl/api/builtins.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/envtest/webhook_install.hpp"
#include "ctrl/manager/manager.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/eventually.hpp"
#include "test/support/kubeconfig_config.hpp"
#include "test/support/kubectl.hpp"
#include "test/support/repo_path.hpp"

namespace ctrl::sgp {
namespace {

using namespace std::chrono_literals;
using ctrl::testing::Eventually;
using ctrl::testing::TestContext;

constexpr std::string_view kNs = "sgp-webhook";

std::string Policy(const std::string& name, const std::string& spec) {
    return "apiVersion: vpcresources.k8s.aws/v1beta1\nkind: SecurityGroupPolicy\nmetadata: {name: " + name +
           ", namespace: " + std::string(kNs) + "}\nspec: " + spec + "\n";
}

class PolicyWebhookTest : public ::testing::Test {
  protected:
    static std::string Kubeconfig() { return ctrl::testing::SharedControlPlane().KubeconfigPath(); }
    static envtest::CommandResult KubectlOk(const std::vector<std::string>& args, const std::string& input = "") {
        StatusOr<envtest::CommandResult> ran = ctrl::testing::Kubectl(Kubeconfig(), args, 60s, input);
        EXPECT_TRUE(ran.Ok()) << ran.GetStatus();
        return ran.Ok() ? *ran : envtest::CommandResult{};
    }
    static envtest::CommandResult Apply(const std::string& manifest, std::vector<std::string> extra = {}) {
        std::vector<std::string> args = {"apply", "-f", "-"};
        args.insert(args.end(), extra.begin(), extra.end());
        return KubectlOk(args, manifest);
    }

    static void SetUpTestSuite() {
        const std::string crd = testing::RepoPath("manifests/crd/securitygrouppolicies.vpcresources.k8s.aws.yaml");
        ASSERT_EQ(KubectlOk({"apply", "-f", crd}).exit_code, 0);
        ASSERT_EQ(KubectlOk({"wait", "--for=condition=Established", "--timeout=60s",
                             "crd/securitygrouppolicies.vpcresources.k8s.aws"})
                      .exit_code,
                  0);
        ASSERT_EQ(KubectlOk({"create", "namespace", std::string(kNs)}).exit_code, 0);
        StatusOr<envtest::InstalledWebhooks> installed = envtest::InstallWebhooks(
            ctrl::testing::SharedAdminConfig(), {.paths = {testing::RepoPath("manifests/webhook/webhooks.yaml")}});
        ASSERT_TRUE(installed.Ok()) << installed.GetStatus();
        installed_ = new envtest::InstalledWebhooks(*installed);
    }
    static void TearDownTestSuite() {
        if (installed_ != nullptr)
            std::filesystem::remove_all(installed_->cert_dir);
        delete installed_;
        installed_ = nullptr;
    }

    void SetUp() override { StartOperator(/*with_controllers=*/false); }
    void TearDown() override { StopOperator(); }

    // A manager serving the operator's webhooks and, with_controllers, running its controllers
    // (the policy-status controller among them) over kNs.
    void StartOperator(bool with_controllers) {
        auto scheme = std::make_shared<scheme::Scheme>();
        ASSERT_TRUE(api::AddAllBuiltinsToScheme(*scheme).Ok());
        ASSERT_TRUE(vpcresources::vpcresourcesv1beta1::AddToScheme(*scheme).Ok());
        manager::Options options;
        options.scheme = scheme;
        options.registry = &registry_;
        options.metrics.bind_address = "0";
        options.health_probe_bind_address = "0";
        options.cache.default_namespaces = {std::string(kNs)};
        options.webhook = {.host = installed_->host, .port = installed_->port, .cert_dir = installed_->cert_dir};
        StatusOr<std::unique_ptr<manager::Manager>> made = manager::New(ctrl::testing::SharedAdminConfig(), options);
        ASSERT_TRUE(made.Ok()) << made.GetStatus();
        mgr_ = std::move(made).Value();
        ASSERT_TRUE(AddWebhooksToManager(*mgr_).Ok());
        if (with_controllers) {
            ASSERT_TRUE(AddToManager(*mgr_).Ok());
        }
        stop_ = Context::WithCancel(Context::Background());
        done_ = std::async(std::launch::async, [this] { return mgr_->Start(stop_); });
        ASSERT_TRUE(Eventually([&] { return mgr_->ReadyzChecks()["webhook-server"].Ok(); }));
        // The API server picks the configurations up within a moment: the first refusal tells.
        ASSERT_TRUE(Eventually([&] {
            return Apply(Policy("probe", "{securityGroups: {groupIds: [sg-0123abcd]}}"), {"--dry-run=server"})
                       .exit_code != 0;
        })) << "the API server never called the validating webhook";
    }
    void StopOperator() {
        stop_.Cancel();
        if (done_.valid()) {
            ASSERT_EQ(done_.wait_for(ctrl::testing::kTestWait), std::future_status::ready);
            EXPECT_TRUE(done_.get().Ok());
        }
    }
    // Sets failurePolicy of both of the operator's webhooks.
    static void SetFailurePolicy(const std::string& policy) {
        const std::string patch =
            R"([{"op":"replace","path":"/webhooks/0/failurePolicy","value":")" + policy + R"("}])";
        for (const char* configuration : {"validatingwebhookconfiguration/ctrl-operator-sgp-rules",
                                          "mutatingwebhookconfiguration/ctrl-operator-sgp-defaults"})
            ASSERT_EQ(KubectlOk({"patch", configuration, "--type=json", "-p", patch}).exit_code, 0) << configuration;
    }
    // The Ready condition of policy `name` in kNs as "<status>/<reason>", or what could not be read.
    std::string ReadyOf(const std::string& name) {
        const envtest::CommandResult got = KubectlOk(
            {"get", "securitygrouppolicy", name, "-n", std::string(kNs), "-o",
             R"(jsonpath={.status.conditions[?(@.type=="Ready")].status}/{.status.conditions[?(@.type=="Ready")].reason})"});
        return got.exit_code == 0 ? got.out : "<unreadable: " + got.err + ">";
    }

    static inline envtest::InstalledWebhooks* installed_ = nullptr;
    metrics::Registry registry_;
    std::unique_ptr<manager::Manager> mgr_;
    Context stop_ = Context::Background();
    std::future<Status> done_;
};

TEST_F(PolicyWebhookTest, EachInvalidPolicyIsRefusedWithAMessageNamingTheField) {
    const std::pair<std::string, std::string> cases[] = {
        {"{securityGroups: {groupIds: [sg-0123abcd]}}", "at least one of podSelector and serviceAccountSelector"},
        {"{podSelector: {matchLabels: {app: web}}}", "spec.securityGroups.groupIds"},
        {"{podSelector: {matchLabels: {app: web}}, securityGroups: {groupIds: [sg-0123abcd, sg-web]}}",
         "spec.securityGroups.groupIds[1]: \"sg-web\" is not a security group id"},
        {"{podSelector: {matchExpressions: [{key: app, operator: Like, values: [web]}]}, "
         "securityGroups: {groupIds: [sg-0123abcd]}}",
         "spec.podSelector"},
    };
    int i = 0;
    for (const auto& [spec, says] : cases) {
        const envtest::CommandResult refused = Apply(Policy("invalid-" + std::to_string(i++), spec));
        EXPECT_NE(refused.exit_code, 0) << spec;
        // kubectl shows an Invalid refusal by its causes: "The request is invalid: <field>: <message>".
        EXPECT_THAT(refused.err, ::testing::HasSubstr("The request is invalid")) << spec;
        EXPECT_THAT(refused.err, ::testing::HasSubstr(says)) << spec;
    }
    EXPECT_EQ(KubectlOk({"get", "securitygrouppolicies", "-n", std::string(kNs), "-o", "name"}).out, "")
        << "nothing refused was stored";
}

TEST_F(PolicyWebhookTest, AValidPolicyIsAdmittedAndStoredDefaulted) {
    const envtest::CommandResult applied =
        Apply(Policy("web",
                     "{podSelector: {matchLabels: {app: web}}, serviceAccountSelector: {}, "
                     "securityGroups: {groupIds: [sg-0123abcd, sg-0123456789abcdef0, sg-0123abcd]}}"));
    ASSERT_EQ(applied.exit_code, 0) << applied.err;
    const envtest::CommandResult stored =
        KubectlOk({"get", "securitygrouppolicy", "web", "-n", std::string(kNs), "-o", "jsonpath={.spec}"});
    EXPECT_THAT(stored.out, ::testing::Not(::testing::HasSubstr("serviceAccountSelector")))
        << "an empty selector beside the other one is removed: " << stored.out;
    EXPECT_THAT(stored.out, ::testing::HasSubstr(R"("groupIds":["sg-0123abcd","sg-0123456789abcdef0"])")) << stored.out;
}

TEST_F(PolicyWebhookTest, AServerSideDryRunLeavesNothingBehind) {
    const envtest::CommandResult dry =
        Apply(Policy("dry", "{podSelector: {matchLabels: {app: web}}, securityGroups: {groupIds: [sg-0123abcd]}}"),
              {"--dry-run=server"});
    ASSERT_EQ(dry.exit_code, 0) << dry.err;
    const envtest::CommandResult get = KubectlOk({"get", "securitygrouppolicy", "dry", "-n", std::string(kNs)});
    EXPECT_NE(get.exit_code, 0);
    EXPECT_THAT(get.err, ::testing::HasSubstr("NotFound"));
}

// Acceptance 5: with the operator stopped, failurePolicy Fail refuses writes and names the
// webhook; Ignore admits them, and the policy-status controller reports the invalid policy that got
// in once the operator is back.
TEST_F(PolicyWebhookTest, WhileTheOperatorIsDownFailRefusesAndIgnoreAdmitsWhatTheStatusControllerReports) {
    StopOperator();
    const std::string invalid = Policy("while-down", "{securityGroups: {groupIds: [sg-0123abcd]}}");
    const envtest::CommandResult refused = Apply(invalid);
    EXPECT_NE(refused.exit_code, 0);
    EXPECT_THAT(refused.err, ::testing::HasSubstr("failed calling webhook"));
    EXPECT_THAT(refused.err, ::testing::HasSubstr("securitygrouppolicy.ctrl-operator.ctrl.example.com"));

    SetFailurePolicy("Ignore");
    struct Restore {
        ~Restore() { SetFailurePolicy("Fail"); }
    } restore;
    // The API server picks the change up within a moment.
    EXPECT_TRUE(Eventually([&] { return Apply(invalid).exit_code == 0; }, 30s))
        << "Ignore admits while the operator is down";

    StartOperator(/*with_controllers=*/true);
    EXPECT_TRUE(Eventually([&] { return ReadyOf("while-down") == "False/NoSelector"; }, 60s)) << ReadyOf("while-down");
    EXPECT_TRUE(Eventually([&] {
        return registry_.SerializeText().find("sgp_invalid_policies{namespace=\"sgp-webhook\"} 1") != std::string::npos;
    })) << registry_.SerializeText();
    (void)KubectlOk({"delete", "securitygrouppolicy", "while-down", "-n", std::string(kNs)});
}

}  // namespace
}  // namespace ctrl::sgp
