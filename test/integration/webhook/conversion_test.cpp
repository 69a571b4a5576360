// Conversion webhooks against the real kube-apiserver (issue 32, acceptance 2): the ConfigSecret
// CRD of examples/configsecret (v1beta1 stored, the hub; v1alpha1 a spoke), its conversion
// registered by the example's SetupWebhookWithManager, and a test Widget CRD whose spec and status
// keep unknown fields (v2 stored, the hub; v1 and v3 spokes: test/unit/webhook/widget_kinds.hpp),
// installed by envtest::InstallCRDs pointed at a manager's webhook server on loopback. A v1alpha1
// ConfigSecret reads back as it was written after being stored as v1beta1, what only v1beta1 says
// survives an update through v1alpha1, fields no version declares survive, and a conversion the
// spoke cannot express reaches the client (kubectl and the client) with the webhook's message.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <future>
#include <string>

#include "config_secret_webhook.hpp"
#include "configsecret_api/config_secret_v1alpha1.hpp"
#include "configsecret_api/examples_v1alpha1.hpp"
#include "configsecret_api/examples_v1beta1.hpp"
#include "ctrl/api/builtins.hpp"
#include "ctrl/api/namespace.hpp"
#include "ctrl/builder/webhook_builder.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/envtest/crd_install.hpp"
#include "ctrl/envtest/webhook_install.hpp"
#include "ctrl/manager/manager.hpp"
#include "ctrl/webhook/conversion/converter.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/eventually.hpp"
#include "test/support/kubeconfig_config.hpp"
#include "test/support/kubectl.hpp"
#include "test/unit/webhook/widget_kinds.hpp"

namespace ctrl {
namespace {

using ctrl::testing::TestContext;
using ::testing::HasSubstr;
namespace widgets = ctrl::testing::widgets;

constexpr std::string_view kNamespace = "converted";

// Widgets whose spec and status keep any field (x-kubernetes-preserve-unknown-fields): what no
// version's conversion declares reaches the webhook and must come back.
constexpr std::string_view kWidgetCrd = R"(
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.test.ctrl.dev}
spec:
  group: test.ctrl.dev
  names: {kind: Widget, listKind: WidgetList, plural: widgets, singular: widget}
  scope: Namespaced
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v1]
      clientConfig: {service: {name: webhook, namespace: system, path: /convert}}
  versions:
  - name: v1
    served: true
    storage: false
    schema: &schema
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
          status: {type: object, x-kubernetes-preserve-unknown-fields: true}
  - {name: v2, served: true, storage: true, schema: *schema}
  - {name: v3, served: true, storage: false, schema: *schema}
)";

class ConversionTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        StatusOr<envtest::InstalledWebhooks> installed =
            envtest::InstallWebhooks(ctrl::testing::SharedAdminConfig(), {});
        ASSERT_TRUE(installed.Ok()) << installed.GetStatus();
        installed_ = new envtest::InstalledWebhooks(*installed);
        envtest::CRDInstallOptions crds;
        crds.paths = {CONFIGSECRET_CRD};
        crds.manifests = {std::string(kWidgetCrd)};
        crds.conversion_webhook = installed_->ConversionClient();
        StatusOr<std::vector<api::CustomResourceDefinition>> made =
            envtest::InstallCRDs(ctrl::testing::SharedAdminConfig(), crds);
        ASSERT_TRUE(made.Ok()) << made.GetStatus();
        for (const api::CustomResourceDefinition& crd : *made) {
            EXPECT_EQ(crd.NestedString({"spec", "conversion", "webhook", "clientConfig", "url"}).ValueOr(""),
                      installed_->ConversionClient().url);
            EXPECT_FALSE(crd.HasNestedField({"spec", "conversion", "webhook", "clientConfig", "service"}));
        }
        const StatusOr<envtest::CommandResult> ns =
            ctrl::testing::Kubectl(Kubeconfig(), {"create", "namespace", std::string(kNamespace)});
        ASSERT_TRUE(ns.Ok() && ns->exit_code == 0) << (ns.Ok() ? ns->err : ns.GetStatus().Message());
        StartManager();
    }
    static void TearDownTestSuite() {
        if (done_ != nullptr) {
            stop_->Cancel();
            EXPECT_EQ(done_->wait_for(ctrl::testing::kTestWait), std::future_status::ready);
            EXPECT_TRUE(done_->get().Ok());
        }
        delete done_;
        delete stop_;
        delete mgr_;
        if (installed_ != nullptr)
            std::filesystem::remove_all(installed_->cert_dir);
        delete installed_;
        done_ = nullptr, stop_ = nullptr, mgr_ = nullptr, installed_ = nullptr;
    }

    static void StartManager() {
        auto scheme = std::make_shared<scheme::Scheme>();
        ASSERT_TRUE(api::AddAllBuiltinsToScheme(*scheme).Ok());
        ASSERT_TRUE(examples::v1alpha1::AddToScheme(*scheme).Ok());
        ASSERT_TRUE(examples::v1beta1::AddToScheme(*scheme).Ok());
        manager::Options options;
        options.scheme = scheme;
        options.metrics.bind_address = "0";
        options.health_probe_bind_address = "0";
        options.webhook = {.host = installed_->host, .port = installed_->port, .cert_dir = installed_->cert_dir};
        StatusOr<std::unique_ptr<manager::Manager>> made = manager::New(ctrl::testing::SharedAdminConfig(), options);
        ASSERT_TRUE(made.Ok()) << made.GetStatus();
        mgr_ = std::move(made).Value().release();
        ASSERT_TRUE(configsecret::SetupWebhookWithManager(*mgr_).Ok());
        ASSERT_TRUE(builder::WebhookManagedBy(*mgr_).For<widgets::v2::Widget>().Complete().Ok());
        stop_ = new Context(Context::WithCancel(Context::Background()));
        done_ = new std::future<Status>(std::async(std::launch::async, [] { return mgr_->Start(*stop_); }));
        ASSERT_TRUE(ctrl::testing::Eventually([] { return mgr_->ReadyzChecks()["webhook-server"].Ok(); }))
            << "the webhook server is ready";
    }

    static std::string Kubeconfig() { return ctrl::testing::SharedControlPlane().KubeconfigPath(); }
    static envtest::CommandResult Kubectl(std::vector<std::string> args, const std::string& stdin_data = "") {
        StatusOr<envtest::CommandResult> ran =
            ctrl::testing::Kubectl(Kubeconfig(), args, std::chrono::seconds(30), stdin_data);
        EXPECT_TRUE(ran.Ok()) << ran.GetStatus();
        return ran.Ok() ? *ran : envtest::CommandResult{};
    }
    // The object name in kNamespace as version ("configsecrets.v1alpha1.examples.ctrl.dev"), from kubectl.
    static Object KubectlGet(const std::string& resource, const std::string& name) {
        const envtest::CommandResult got =
            Kubectl({"get", resource, name, "-n", std::string(kNamespace), "-o", "json"});
        EXPECT_EQ(got.exit_code, 0) << got.err;
        StatusOr<Object> object = Object::Parse(got.out);
        return object.Ok() ? std::move(object).Value() : Object();
    }
    template <typename T>
    static T On(Task<T> task) {
        return RunOn(mgr_->GetExecutor(), std::move(task));
    }
    template <typename Kind>
    static StatusOr<Kind> Read(const std::string& name) {
        Kind object;
        const Status read =
            On(mgr_->GetAPIReader().Get(TestContext(), ObjectKey(std::string(kNamespace), name), object));
        if (!read.Ok())
            return read;
        return object;
    }

    static inline envtest::InstalledWebhooks* installed_ = nullptr;
    static inline manager::Manager* mgr_ = nullptr;
    static inline Context* stop_ = nullptr;
    static inline std::future<Status>* done_ = nullptr;
};

TEST_F(ConversionTest, AV1alpha1ConfigSecretReadsBackAsItWasWrittenAfterBeingStoredAsV1beta1) {
    const std::string manifest = R"({"apiVersion":"examples.ctrl.dev/v1alpha1","kind":"ConfigSecret",
        "metadata":{"name":"round-trip","labels":{"team":"a"}},
        "spec":{"configMapName":"app","keys":["user","password"],"secretName":"app-creds",
                "secretType":"kubernetes.io/basic-auth","labels":{"tier":"db"}}})";
    const envtest::CommandResult created = Kubectl({"create", "-n", std::string(kNamespace), "-f", "-"}, manifest);
    ASSERT_EQ(created.exit_code, 0) << created.err;
    const std::string written_spec = R"({"configMapName":"app","keys":["user","password"],"labels":{"tier":"db"},)"
                                     R"("secretName":"app-creds","secretType":"kubernetes.io/basic-auth"})";

    // As v1alpha1, through the client and through kubectl: the spec as written, nothing kept aside.
    StatusOr<examples::v1alpha1::ConfigSecret> spoke = Read<examples::v1alpha1::ConfigSecret>("round-trip");
    ASSERT_TRUE(spoke.Ok()) << spoke.GetStatus();
    EXPECT_EQ(spoke->NestedMap({"spec"})->ToJson(), written_spec);
    EXPECT_EQ(spoke->Label("team"), std::optional<std::string_view>("a"));
    EXPECT_TRUE(spoke->Annotations().empty()) << spoke->ToJson();
    const Object through_kubectl = KubectlGet("configsecrets.v1alpha1.examples.ctrl.dev", "round-trip");
    EXPECT_EQ(through_kubectl.ApiVersion(), "examples.ctrl.dev/v1alpha1");
    EXPECT_EQ(through_kubectl.NestedMap({"spec"})->ToJson(), written_spec);

    // As v1beta1, the version it is stored in: the same values, restructured.
    StatusOr<examples::v1beta1::ConfigSecret> hub = Read<examples::v1beta1::ConfigSecret>("round-trip");
    ASSERT_TRUE(hub.Ok()) << hub.GetStatus();
    EXPECT_EQ(hub->Spec().Source().ConfigMap(), "app");
    EXPECT_EQ(hub->Spec().Source().Keys(), (std::vector<std::string>{"user", "password"}));
    EXPECT_EQ(hub->Spec().Target().Name(), std::optional<std::string>("app-creds"));
    EXPECT_EQ(hub->Spec().Target().Type(), "kubernetes.io/basic-auth");
    EXPECT_EQ(hub->Spec().Target().Labels(), (std::map<std::string, std::string>{{"tier", "db"}}));
    EXPECT_TRUE(hub->Annotations().empty()) << "v1beta1 says all v1alpha1 said: " << hub->ToJson();
    EXPECT_EQ(hub->Uid(), spoke->Uid());
}

TEST_F(ConversionTest, WhatOnlyV1beta1SaysSurvivesAnUpdateThroughV1alpha1) {
    examples::v1beta1::ConfigSecret hub;
    hub.SetNamespace(kNamespace);
    hub.SetName("annotated");
    hub.MutableSpec().MutableSource().SetConfigMap("app");
    hub.MutableSpec().MutableTarget().SetAnnotations({{"vault.example/role", "db"}});
    ASSERT_TRUE(On(mgr_->GetAPIReader().Create(TestContext(), hub)).Ok());

    StatusOr<examples::v1alpha1::ConfigSecret> spoke = Read<examples::v1alpha1::ConfigSecret>("annotated");
    ASSERT_TRUE(spoke.Ok()) << spoke.GetStatus();
    EXPECT_TRUE(spoke->Annotation(webhook::conversion::KeptContentAnnotation("v1beta1")).has_value())
        << "v1alpha1 cannot say target.annotations: the v1beta1 content is kept aside: " << spoke->ToJson();
    // A v1alpha1 client changes what it can say and writes the whole object back.
    spoke->MutableSpec().SetKeys({"user"});
    ASSERT_TRUE(On(mgr_->GetAPIReader().Update(TestContext(), *spoke)).Ok());

    StatusOr<examples::v1beta1::ConfigSecret> updated = Read<examples::v1beta1::ConfigSecret>("annotated");
    ASSERT_TRUE(updated.Ok()) << updated.GetStatus();
    EXPECT_EQ(updated->Spec().Source().Keys(), std::vector<std::string>{"user"}) << "the v1alpha1 change is stored";
    EXPECT_EQ(updated->Spec().Target().Annotations(),
              (std::map<std::string, std::string>{{"vault.example/role", "db"}}))
        << "what v1alpha1 cannot say survived";
    EXPECT_TRUE(updated->Annotations().empty()) << "the kept content was used up: " << updated->ToJson();
}

TEST_F(ConversionTest, FieldsNoVersionDeclaresSurviveARoundTrip) {
    const std::string manifest = R"({"apiVersion":"test.ctrl.dev/v1","kind":"Widget","metadata":{"name":"w"},
        "spec":{"sizeCm":30,"colour":"red","legacy":true,"extra":{"any":[1,{"deep":"x"}],"n":1.5}}})";
    const envtest::CommandResult created = Kubectl({"create", "-n", std::string(kNamespace), "-f", "-"}, manifest);
    ASSERT_EQ(created.exit_code, 0) << created.err;
    const std::string spec = R"({"colour":"red","extra":{"any":[1,{"deep":"x"}],"n":1.5},"legacy":true,"sizeCm":30})";
    EXPECT_EQ(KubectlGet("widgets.v1.test.ctrl.dev", "w").NestedMap({"spec"})->ToJson(), spec);
    const Object v2 = KubectlGet("widgets.v2.test.ctrl.dev", "w");
    EXPECT_EQ(v2.NestedMap({"spec"})->ToJson(), R"({"color":"red","size":{"unit":"cm","value":30}})");
    const Object v3 = KubectlGet("widgets.v3.test.ctrl.dev", "w");
    EXPECT_EQ(v3.ApiVersion(), "test.ctrl.dev/v3");
    EXPECT_EQ(KubectlGet("widgets.v1.test.ctrl.dev", "w").NestedMap({"spec"})->ToJson(), spec)
        << "read again after reads in the other versions";
}

TEST_F(ConversionTest, AConversionTheSpokeCannotExpressReachesTheClientWithTheWebhooksMessage) {
    examples::v1beta1::ConfigSecret tls;
    tls.SetNamespace(kNamespace);
    tls.SetName("tls");
    tls.MutableSpec().MutableSource().SetConfigMap("certs");
    tls.MutableSpec().MutableTarget().SetType("kubernetes.io/tls");
    ASSERT_TRUE(On(mgr_->GetAPIReader().Create(TestContext(), tls)).Ok());

    const std::string why =
        "converting ConfigSecret converted/tls from the hub examples.ctrl.dev/v1beta1 to "
        "examples.ctrl.dev/v1alpha1: spec.target.type kubernetes.io/tls has no v1alpha1 form";
    StatusOr<examples::v1alpha1::ConfigSecret> refused = Read<examples::v1alpha1::ConfigSecret>("tls");
    ASSERT_FALSE(refused.Ok());
    EXPECT_THAT(refused.GetStatus().Message(), HasSubstr(why));
    const envtest::CommandResult kubectl =
        Kubectl({"get", "configsecrets.v1alpha1.examples.ctrl.dev", "tls", "-n", std::string(kNamespace)});
    EXPECT_NE(kubectl.exit_code, 0);
    EXPECT_THAT(kubectl.err, HasSubstr("conversion webhook for examples.ctrl.dev/v1beta1, Kind=ConfigSecret failed"));
    EXPECT_THAT(kubectl.err, HasSubstr(why));
    EXPECT_TRUE(Read<examples::v1beta1::ConfigSecret>("tls").Ok()) << "as v1beta1 it reads";
}

}  // namespace
}  // namespace ctrl
