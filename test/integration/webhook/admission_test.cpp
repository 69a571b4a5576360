// Admission webhooks against the real kube-apiserver (issue 32): a validator and a defaulter of
// ConfigMaps registered with builder::WebhookManagedBy on a manager's webhook server, which the
// API server calls through configurations envtest::InstallWebhooks installed. Refusals reach the
// client with the validator's message, defaults are stored, dry runs leave nothing and are seen
// as dry runs, warnings reach kubectl, the metrics count, replaced certificate files are served
// from the next handshake on while four clients keep calling, and with failurePolicy Fail a
// stopped server refuses writes.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <future>
#include <string>

#include "ctrl/api/config_map.hpp"
#include "ctrl/api/namespace.hpp"
#include "ctrl/builder/webhook_builder.hpp"
#include "ctrl/client/option_values.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/envtest/command.hpp"
#include "ctrl/envtest/pki.hpp"
#include "ctrl/envtest/webhook_install.hpp"
#include "ctrl/manager/manager.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/dry_run_load.hpp"
#include "test/support/eventually.hpp"
#include "test/support/kubeconfig_config.hpp"
#include "test/support/kubectl.hpp"
#include "test/support/metrics_text.hpp"
#include "test/support/presented_serial.hpp"

namespace ctrl {
namespace {

using namespace std::chrono_literals;
using ctrl::testing::Eventually;
using ctrl::testing::PresentedSerial;
using ctrl::testing::TestContext;
using webhook::admission::Verdict;

constexpr std::string_view kNamespace = "webhooked";

// Both configurations select the namespace labelled ctrl-webhook-test=on.
constexpr std::string_view kConfigurations = R"(
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: configmap-rules}
webhooks:
- name: rules.configmaps.ctrl.test
  admissionReviewVersions: [v1]
  sideEffects: None
  failurePolicy: Fail
  timeoutSeconds: 5
  clientConfig: {service: {name: webhook, namespace: system, path: /validate--v1-configmap}}
  namespaceSelector: {matchLabels: {ctrl-webhook-test: "on"}}
  rules:
  - {apiGroups: [""], apiVersions: [v1], operations: [CREATE, UPDATE, DELETE], resources: [configmaps]}
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: configmap-defaults}
webhooks:
- name: defaults.configmaps.ctrl.test
  admissionReviewVersions: [v1]
  sideEffects: None
  failurePolicy: Fail
  timeoutSeconds: 5
  clientConfig: {service: {name: webhook, namespace: system, path: /mutate--v1-configmap}}
  namespaceSelector: {matchLabels: {ctrl-webhook-test: "on"}}
  rules:
  - {apiGroups: [""], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [configmaps]}
)";

// Refuses data["forbidden"], warns on data["old"]; counts the dry runs it saw.
class ConfigMapRules final : public webhook::admission::Validator<api::ConfigMap> {
  public:
    Task<Verdict> ValidateCreate(Context ctx, const api::ConfigMap& cm) override {
        const webhook::admission::Request* request = webhook::admission::RequestFrom(ctx);
        if (request != nullptr && request->dry_run)
            dry_runs.fetch_add(1);
        co_return Check(cm);
    }
    Task<Verdict> ValidateUpdate(Context /*ctx*/, const api::ConfigMap& /*old_cm*/, const api::ConfigMap& cm) override {
        co_return Check(cm);
    }
    std::atomic<int> dry_runs{0};

  private:
    static Verdict Check(const api::ConfigMap& cm) {
        if (cm.DataValue("forbidden"))
            return InvalidError("data.forbidden: a ConfigMap here may not say that",
                                {{"FieldValueForbidden", "may not say that", "data.forbidden"}});
        if (cm.DataValue("old"))
            return Verdict(OkStatus(), {"data.old is deprecated"});
        return OkStatus();
    }
};

// data["mode"] defaults to "default".
class ConfigMapDefaults final : public webhook::admission::Defaulter<api::ConfigMap> {
  public:
    Task<Status> Default(Context /*ctx*/, api::ConfigMap& cm) override {
        if (!cm.DataValue("mode"))
            cm.SetDataValue("mode", "default");
        co_return OkStatus();
    }
};

class AdmissionTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        StatusOr<envtest::InstalledWebhooks> installed =
            envtest::InstallWebhooks(ctrl::testing::SharedAdminConfig(), {.manifests = {std::string(kConfigurations)}});
        ASSERT_TRUE(installed.Ok()) << installed.GetStatus();
        installed_ = new envtest::InstalledWebhooks(*installed);
        ASSERT_EQ(installed_->validating, std::vector<std::string>{"configmap-rules"});
        ASSERT_EQ(installed_->mutating, std::vector<std::string>{"configmap-defaults"});
        const StatusOr<envtest::CommandResult> made =
            ctrl::testing::Kubectl(Kubeconfig(), {"create", "namespace", std::string(kNamespace)});
        ASSERT_TRUE(made.Ok() && made->exit_code == 0) << (made.Ok() ? made->err : made.GetStatus().Message());
        const StatusOr<envtest::CommandResult> labelled = ctrl::testing::Kubectl(
            Kubeconfig(), {"label", "namespace", std::string(kNamespace), "ctrl-webhook-test=on"});
        ASSERT_TRUE(labelled.Ok() && labelled->exit_code == 0);
    }
    static void TearDownTestSuite() {
        if (installed_ != nullptr)
            std::filesystem::remove_all(installed_->cert_dir);
        delete installed_;
        installed_ = nullptr;
    }

    void SetUp() override { StartManager(); }
    void TearDown() override { StopManager(); }

    void StartManager() {
        manager::Options options;
        options.registry = &registry_;
        options.metrics.bind_address = "0";
        options.health_probe_bind_address = "0";
        options.webhook = {.host = installed_->host, .port = installed_->port, .cert_dir = installed_->cert_dir};
        StatusOr<std::unique_ptr<manager::Manager>> made = manager::New(ctrl::testing::SharedAdminConfig(), options);
        ASSERT_TRUE(made.Ok()) << made.GetStatus();
        mgr_ = std::move(made).Value();
        ASSERT_TRUE(builder::WebhookManagedBy(*mgr_)
                        .For<api::ConfigMap>()
                        .WithValidator(rules_)
                        .WithDefaulter(std::make_shared<ConfigMapDefaults>())
                        .Complete()
                        .Ok());
        stop_ = Context::WithCancel(Context::Background());
        done_ = std::async(std::launch::async, [this] { return mgr_->Start(stop_); });
        ASSERT_TRUE(Eventually([&] { return mgr_->ReadyzChecks()["webhook-server"].Ok(); }))
            << "the webhook server is ready";
    }
    void StopManager() {
        if (!done_.valid())
            return;
        stop_.Cancel();
        ASSERT_EQ(done_.wait_for(ctrl::testing::kTestWait), std::future_status::ready);
        EXPECT_TRUE(done_.get().Ok());
    }

    static std::string Kubeconfig() { return ctrl::testing::SharedControlPlane().KubeconfigPath(); }
    // kubectl create configmap <name> in the webhooked namespace with one data key; its result.
    static envtest::CommandResult CreateWithKubectl(const std::string& name, const std::string& key,
                                                    std::vector<std::string> extra = {}) {
        std::vector<std::string> args = {
            "create", "configmap", name, "-n", std::string(kNamespace), "--from-literal=" + key + "=1"};
        args.insert(args.end(), extra.begin(), extra.end());
        StatusOr<envtest::CommandResult> ran = ctrl::testing::Kubectl(Kubeconfig(), args);
        EXPECT_TRUE(ran.Ok()) << ran.GetStatus();
        return ran.Ok() ? *ran : envtest::CommandResult{};
    }
    // The API server picks new configurations up within a moment: the first refusal tells.
    void WaitUntilTheApiServerCallsTheWebhook() {
        ASSERT_TRUE(Eventually([&] {
            const envtest::CommandResult probe = CreateWithKubectl("probe", "forbidden", {"--dry-run=server"});
            return probe.exit_code != 0;
        })) << "the API server never refused a forbidden ConfigMap";
    }
    template <typename T>
    T On(Task<T> task) {
        return RunOn(mgr_->GetExecutor(), std::move(task));
    }

    static inline envtest::InstalledWebhooks* installed_ = nullptr;
    metrics::Registry registry_;
    std::shared_ptr<ConfigMapRules> rules_ = std::make_shared<ConfigMapRules>();
    std::unique_ptr<manager::Manager> mgr_;
    Context stop_ = Context::Background();
    std::future<Status> done_;
};

TEST_F(AdmissionTest, AnInvalidObjectIsRefusedWithTheValidatorsMessageAndAValidOneIsDefaulted) {
    WaitUntilTheApiServerCallsTheWebhook();
    const envtest::CommandResult refused = CreateWithKubectl("bad", "forbidden");
    EXPECT_NE(refused.exit_code, 0);
    EXPECT_THAT(refused.err,
                ::testing::HasSubstr("denied the request: data.forbidden: a ConfigMap here may not say that"));

    api::ConfigMap through_client;
    through_client.SetNamespace(kNamespace);
    through_client.SetName("bad-client");
    through_client.SetDataValue("forbidden", "1");
    const Status status = On(mgr_->GetAPIReader().Create(TestContext(), through_client));
    EXPECT_FALSE(status.Ok());
    EXPECT_THAT(status.Message(), ::testing::HasSubstr("data.forbidden: a ConfigMap here may not say that"));

    const envtest::CommandResult warned = CreateWithKubectl("good", "old");
    EXPECT_EQ(warned.exit_code, 0) << warned.err;
    EXPECT_THAT(warned.err, ::testing::HasSubstr("Warning: data.old is deprecated"));
    api::ConfigMap stored;
    ASSERT_TRUE(On(mgr_->GetAPIReader().Get(TestContext(), ObjectKey(std::string(kNamespace), "good"), stored)).Ok());
    EXPECT_EQ(stored.DataValue("mode"), std::optional<std::string_view>("default"))
        << "the defaulter's value is stored";
    EXPECT_EQ(stored.DataValue("old"), std::optional<std::string_view>("1"));
}

TEST_F(AdmissionTest, ADryRunIsSeenAsOneAndLeavesNothingBehind) {
    WaitUntilTheApiServerCallsTheWebhook();
    const int before = rules_->dry_runs.load();
    const envtest::CommandResult dry = CreateWithKubectl("dry", "fine", {"--dry-run=server"});
    EXPECT_EQ(dry.exit_code, 0) << dry.err;
    EXPECT_GT(rules_->dry_runs.load(), before) << "the validator saw request.dryRun";
    api::ConfigMap absent;
    EXPECT_TRUE(
        IsNotFound(On(mgr_->GetAPIReader().Get(TestContext(), ObjectKey(std::string(kNamespace), "dry"), absent))));
}

TEST_F(AdmissionTest, ControllerRuntimesMetricsCountTheRequests) {
    WaitUntilTheApiServerCallsTheWebhook();
    const std::string text = registry_.SerializeText();
    const std::optional<double> allowed = ctrl::testing::MetricValue(
        text, "controller_runtime_webhook_requests_total", {{"webhook", "/validate--v1-configmap"}, {"code", "200"}});
    EXPECT_GT(allowed.value_or(0), 0) << "refusals are answered with HTTP 200 and a review that refuses";
    EXPECT_EQ(ctrl::testing::MetricValue(text, "controller_runtime_webhook_requests_in_flight",
                                         {{"webhook", "/mutate--v1-configmap"}}),
              std::optional<double>(0));
    EXPECT_GT(ctrl::testing::MetricValue(text, "controller_runtime_webhook_latency_seconds_count",
                                         {{"webhook", "/validate--v1-configmap"}})
                  .value_or(0),
              0);
}

// Acceptance 3(b): four clients send admission requests through the API server while the
// mounted PEM files are replaced three times; none fails, and each new pair is presented within 10 s.
TEST_F(AdmissionTest, ReplacedCertificateFilesAreServedUnderLoadWithoutAFailedRequest) {
    WaitUntilTheApiServerCallsTheWebhook();
    StatusOr<envtest::Pki> ca = envtest::Pki::Open(installed_->cert_dir);
    ASSERT_TRUE(ca.Ok()) << ca.GetStatus();
    ctrl::testing::DryRunLoad load(4, std::string(kNamespace));
    for (int replacement = 1; replacement <= 3; ++replacement) {
        const std::string before = PresentedSerial(installed_->port);
        ASSERT_FALSE(before.empty());
        ASSERT_TRUE(Eventually([&] { return load.Sent() >= replacement * 150; }, 60s)) << load.Sent() << " sent";
        // A new pair from the same CA, written beside the old one and moved over it (as a Secret
        // volume or cert-manager's csi driver swaps files).
        StatusOr<envtest::KeyPairFiles> next = ca->IssueServing("next", "ctrl-envtest-webhook");
        ASSERT_TRUE(next.Ok()) << next.GetStatus();
        std::filesystem::rename(next->key, installed_->cert_dir + "/tls.key.new");
        std::filesystem::rename(next->cert, installed_->cert_dir + "/tls.crt.new");
        std::filesystem::rename(installed_->cert_dir + "/tls.crt.new", installed_->cert_dir + "/tls.crt");
        std::filesystem::rename(installed_->cert_dir + "/tls.key.new", installed_->cert_dir + "/tls.key");
        const auto replaced = std::chrono::steady_clock::now();
        std::string presented;
        EXPECT_TRUE(Eventually(
            [&] { return (presented = PresentedSerial(installed_->port)) != before && !presented.empty(); }, 10s))
            << "replacement " << replacement << ": still " << before;
        std::printf("replacement %d: serial %s presented %.1f s after the files were replaced\n", replacement,
                    presented.c_str(),
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - replaced).count());
    }
    ASSERT_TRUE(Eventually([&] { return load.Sent() >= 500; }, 120s)) << load.Sent() << " sent";
    load.Stop();
    std::printf("%d admission requests from 4 clients across 3 replacements, %d failed\n", load.Sent(), load.Failed());
    EXPECT_EQ(load.Failed(), 0) << load.FirstFailure();
}

TEST_F(AdmissionTest, WithFailurePolicyFailAStoppedServerRefusesWritesClearly) {
    WaitUntilTheApiServerCallsTheWebhook();
    StopManager();
    const envtest::CommandResult refused = CreateWithKubectl("while-down", "fine");
    EXPECT_NE(refused.exit_code, 0);
    EXPECT_THAT(refused.err, ::testing::HasSubstr("failed calling webhook"));
    EXPECT_THAT(refused.err, ::testing::HasSubstr("defaults.configmaps.ctrl.test"));
}

}  // namespace
}  // namespace ctrl
