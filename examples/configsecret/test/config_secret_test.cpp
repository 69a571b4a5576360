// The ConfigSecret controller against a real kube-apiserver + etcd (ctrl::envtest, with the
// project's CRD), run by a Manager in this process as the operator runs it, with its conversion
// webhook (the tests write v1alpha1 ConfigSecrets; v1beta1 is stored and reconciled): the Secret
// it keeps, its status, the ConfigMap watch, the finalizer, a renamed Secret, what the API server's
// schema validation refuses, and a ConfigSecret read back in both versions.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <thread>

#include <boost/asio/io_context.hpp>

#include <ctrl/core/run_sync.hpp>
#include <ctrl/ctrl.hpp>
#include <ctrl/envtest/environment.hpp>

#include "config_secret_reconciler.hpp"
#include "config_secret_webhook.hpp"
#include "configsecret_api/config_secret_v1alpha1.hpp"
#include "configsecret_api/examples_v1alpha1.hpp"
#include "configsecret_api/examples_v1beta1.hpp"
#include "secret_content.hpp"

namespace configsecret {
namespace {

using namespace std::chrono_literals;
using examples::v1alpha1::ConfigSecret;

// One control plane for the binary, as envtest suites start it in their TestMain.
class ControlPlane final : public ::testing::Environment {
  public:
    void SetUp() override {
        ctrl::envtest::EnvironmentOptions options;
        options.crd_paths = {CONFIGSECRET_CRD_DIR};
        options.webhook = ctrl::envtest::WebhookInstallOptions{};  // the CRD's conversion: this process
        env_ = std::make_unique<ctrl::envtest::Environment>(std::move(options));
        const ctrl::StatusOr<ctrl::rest::Config> config = env_->Start();
        ASSERT_TRUE(config.Ok()) << config.GetStatus();
    }
    void TearDown() override { env_->Stop(); }
    static const ctrl::rest::Config& Config() { return env_->Config(); }
    static const ctrl::envtest::InstalledWebhooks& Webhooks() { return env_->Webhooks(); }

  private:
    static inline std::unique_ptr<ctrl::envtest::Environment> env_;
};

ctrl::Context Deadline() {
    return ctrl::Context::WithTimeout(ctrl::Context::Background(), 30s);
}

// Polls check until it holds, for up to 60 s.
bool Eventually(const std::function<bool()>& check) {
    for (auto end = std::chrono::steady_clock::now() + 60s; std::chrono::steady_clock::now() < end;
         std::this_thread::sleep_for(100ms))
        if (check())
            return true;
    return check();
}

// Each test: its own namespace, a manager running the controller, and a client of its own.
class ConfigSecretTest : public ::testing::Test {
  protected:
    void SetUp() override {
        auto scheme = std::make_shared<ctrl::scheme::Scheme>();
        ASSERT_TRUE(ctrl::api::AddAllBuiltinsToScheme(*scheme).Ok());
        ASSERT_TRUE(examples::v1alpha1::AddToScheme(*scheme).Ok());
        ASSERT_TRUE(examples::v1beta1::AddToScheme(*scheme).Ok());
        ctrl::client::Options client_options;
        client_options.scheme = scheme;
        auto client = ctrl::client::New(ControlPlane::Config(), io_.get_executor(), client_options);
        ASSERT_TRUE(client.Ok()) << client.GetStatus();
        client_ = std::move(client).Value();

        ns_ = ::testing::UnitTest::GetInstance()->current_test_info()->name();
        for (char& c : ns_)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        ns_ = ns_.substr(0, 50);
        ctrl::api::Namespace ns;
        ns.SetName(ns_);
        ASSERT_TRUE(Run(client_->Create(Deadline(), ns)).Ok());

        ctrl::manager::Options options;
        options.scheme = scheme;
        options.metrics.bind_address = "0";
        options.health_probe_bind_address = "0";
        options.cache.default_namespaces = {ns_};
        const ctrl::envtest::InstalledWebhooks& webhooks = ControlPlane::Webhooks();
        options.webhook = {.host = webhooks.host, .port = webhooks.port, .cert_dir = webhooks.cert_dir};
        auto mgr = ctrl::manager::New(ControlPlane::Config(), std::move(options));
        ASSERT_TRUE(mgr.Ok()) << mgr.GetStatus();
        mgr_ = std::move(mgr).Value();
        ASSERT_TRUE(SetupWithManager(*mgr_).Ok());
        ASSERT_TRUE(SetupWebhookWithManager(*mgr_).Ok());
        done_ = std::async(std::launch::async, [this] { return mgr_->Start(stop_); });
        ASSERT_TRUE(Eventually([&] { return mgr_->ReadyzChecks()["webhook-server"].Ok(); }))
            << "the conversion webhook serves";
    }
    void TearDown() override {
        stop_.Cancel();
        if (done_.valid()) {
            ASSERT_EQ(done_.wait_for(60s), std::future_status::ready);
            EXPECT_TRUE(done_.get().Ok());
        }
    }
    template <typename T>
    T Run(ctrl::Task<T> task) {
        return ctrl::RunSync(io_, std::move(task));
    }

    void CreateConfigMap(const std::string& name, const std::map<std::string, std::string>& data) {
        ctrl::api::ConfigMap config_map;
        config_map.SetNamespace(ns_);
        config_map.SetName(name);
        config_map.SetData(data);
        const ctrl::Status created = Run(client_->Create(Deadline(), config_map));
        ASSERT_TRUE(created.Ok()) << created;
    }
    ctrl::Status CreateConfigSecret(const std::string& yaml_spec_json) {
        auto object = ctrl::Object::Parse(R"({"apiVersion":"examples.ctrl.dev/v1alpha1","kind":"ConfigSecret",)"
                                          R"("metadata":{"name":"creds","namespace":")" +
                                          ns_ + R"("},"spec":)" + yaml_spec_json + "}");
        if (!object.Ok())
            return object.GetStatus();
        return Run(client_->Create(Deadline(), *object));
    }
    std::optional<ctrl::api::Secret> GetSecret(const std::string& name) {
        ctrl::api::Secret secret;
        if (!Run(client_->Get(Deadline(), ctrl::ObjectKey(ns_, name), secret)).Ok())
            return std::nullopt;
        return secret;
    }
    std::optional<ConfigSecret> GetConfigSecret() {
        ConfigSecret object;
        if (!Run(client_->Get(Deadline(), ctrl::ObjectKey(ns_, "creds"), object)).Ok())
            return std::nullopt;
        return object;
    }
    // The Ready condition's reason once the status describes the current generation.
    std::string ReadyReason() {
        const std::optional<ConfigSecret> object = GetConfigSecret();
        if (!object || object->NestedInt({"status", "observedGeneration"}).ValueOr(-1) != object->Generation())
            return "";
        const std::vector<ctrl::api::Condition> conditions =
            ctrl::api::ReadConditions(*object, {"status", "conditions"});
        const std::optional<ctrl::api::Condition> ready = ctrl::api::FindCondition(conditions, "Ready");
        return ready ? ready->status + "/" + ready->reason : "";
    }
    std::map<std::string, std::string> SecretData(const std::string& name) {
        const std::optional<ctrl::api::Secret> secret = GetSecret(name);
        if (!secret)
            return {};
        return secret->Data().ValueOr(std::map<std::string, std::string>{});
    }

    boost::asio::io_context io_;
    std::unique_ptr<ctrl::client::Client> client_;
    std::string ns_;
    std::unique_ptr<ctrl::manager::Manager> mgr_;
    ctrl::Context stop_ = ctrl::Context::WithCancel(ctrl::Context::Background());
    std::future<ctrl::Status> done_;
};

TEST_F(ConfigSecretTest, KeepsASecretOfTheChosenKeysOwnedByTheConfigSecret) {
    CreateConfigMap("app", {{"user", "admin"}, {"password", "s3cret"}, {"color", "blue"}});
    ASSERT_TRUE(CreateConfigSecret(R"({"configMapName":"app","keys":["user","password"],"labels":{"team":"a"}})").Ok());

    using Data = std::map<std::string, std::string>;
    EXPECT_TRUE(Eventually([&] { return SecretData("creds") == Data{{"password", "s3cret"}, {"user", "admin"}}; }));
    EXPECT_TRUE(Eventually([&] { return ReadyReason() == "True/Synced"; })) << ReadyReason();
    const std::optional<ctrl::api::Secret> secret = GetSecret("creds");
    ASSERT_TRUE(secret);
    EXPECT_EQ(secret->Type(), "Opaque") << "the schema's default";
    EXPECT_EQ(secret->Label("team"), "a");
    const std::optional<ConfigSecret> owner = GetConfigSecret();
    ASSERT_TRUE(owner);
    const std::optional<ctrl::OwnerReference> controller = ctrl::controllerutil::GetControllerOf(*secret);
    ASSERT_TRUE(controller);
    EXPECT_EQ(controller->uid, owner->Uid());
    EXPECT_EQ(controller->kind, "ConfigSecret");
    EXPECT_THAT(owner->Finalizers(), ::testing::Contains(std::string(kFinalizer)));
    EXPECT_EQ(owner->NestedInt({"status", "copiedKeys"}).ValueOr(-1), 2);
    EXPECT_EQ(owner->NestedString({"status", "secretName"}).ValueOr(""), "creds");

    // The ConfigMap's change reaches the Secret through the ConfigMap watch and the field index.
    ctrl::api::ConfigMap config_map;
    ASSERT_TRUE(Run(client_->Get(Deadline(), ctrl::ObjectKey(ns_, "app"), config_map)).Ok());
    EXPECT_EQ(config_map.Annotation(kUsedByAnnotation), "creds");
    config_map.SetDataValue("password", "rotated");
    ASSERT_TRUE(Run(client_->Update(Deadline(), config_map)).Ok());
    EXPECT_TRUE(Eventually([&] { return SecretData("creds")["password"] == "rotated"; }));

    ctrl::api::EventList events;
    EXPECT_TRUE(Eventually([&] {
        if (!Run(client_->List(Deadline(), events, ctrl::client::InNamespace(ns_))).Ok())
            return false;
        for (const ctrl::Object& event : events.Items())
            if (ctrl::api::EventView(event).Reason() == "SecretCreated")
                return true;
        return false;
    })) << "a SecretCreated Event";
}

TEST_F(ConfigSecretTest, AMissingConfigMapOrKeyIsReportedUntilItAppears) {
    ASSERT_TRUE(CreateConfigSecret(R"({"configMapName":"later","keys":["a","b"]})").Ok());
    EXPECT_TRUE(Eventually([&] { return ReadyReason() == "False/ConfigMapNotFound"; })) << ReadyReason();
    EXPECT_FALSE(GetSecret("creds"));

    CreateConfigMap("later", {{"a", "1"}});
    EXPECT_TRUE(Eventually([&] { return ReadyReason() == "False/KeysMissing"; })) << ReadyReason();
    using Data = std::map<std::string, std::string>;
    EXPECT_EQ(SecretData("creds"), (Data{{"a", "1"}})) << "the keys there are copied";

    ctrl::api::ConfigMap config_map;
    ASSERT_TRUE(Run(client_->Get(Deadline(), ctrl::ObjectKey(ns_, "later"), config_map)).Ok());
    config_map.SetDataValue("b", "2");
    ASSERT_TRUE(Run(client_->Update(Deadline(), config_map)).Ok());
    EXPECT_TRUE(Eventually([&] { return ReadyReason() == "True/Synced"; })) << ReadyReason();
    EXPECT_EQ(SecretData("creds"), (Data{{"a", "1"}, {"b", "2"}}));
}

TEST_F(ConfigSecretTest, ARenamedSecretReplacesTheOldOne) {
    CreateConfigMap("app", {{"k", "v"}});
    ASSERT_TRUE(CreateConfigSecret(R"({"configMapName":"app"})").Ok());
    EXPECT_TRUE(Eventually([&] { return GetSecret("creds").has_value(); }));

    std::optional<ConfigSecret> object = GetConfigSecret();
    ASSERT_TRUE(object);
    ASSERT_TRUE(object->SetNestedString({"spec", "secretName"}, "creds-v2").Ok());
    ASSERT_TRUE(Run(client_->Update(Deadline(), *object)).Ok());
    EXPECT_TRUE(Eventually([&] { return GetSecret("creds-v2") && !GetSecret("creds"); }));
    EXPECT_TRUE(Eventually([&] { return ReadyReason() == "True/Synced"; })) << ReadyReason();
}

TEST_F(ConfigSecretTest, DeletingReleasesTheConfigMapThenTheFinalizerLetsGo) {
    CreateConfigMap("app", {{"k", "v"}});
    ASSERT_TRUE(CreateConfigSecret(R"({"configMapName":"app"})").Ok());
    EXPECT_TRUE(Eventually([&] {
        ctrl::api::ConfigMap config_map;
        return Run(client_->Get(Deadline(), ctrl::ObjectKey(ns_, "app"), config_map)).Ok() &&
               config_map.Annotation(kUsedByAnnotation) == "creds";
    }));
    std::optional<ConfigSecret> object = GetConfigSecret();
    ASSERT_TRUE(object);
    ASSERT_TRUE(Run(client_->Delete(Deadline(), *object)).Ok());
    EXPECT_TRUE(Eventually([&] { return !GetConfigSecret(); })) << "the finalizer was removed";
    ctrl::api::ConfigMap config_map;
    ASSERT_TRUE(Run(client_->Get(Deadline(), ctrl::ObjectKey(ns_, "app"), config_map)).Ok());
    EXPECT_FALSE(config_map.Annotation(kUsedByAnnotation)) << "released before the object went";
}

TEST_F(ConfigSecretTest, AV1alpha1ConfigSecretIsStoredAsV1beta1AndReadsBackAsItWasWritten) {
    CreateConfigMap("app", {{"k", "v"}});
    ASSERT_TRUE(CreateConfigSecret(R"({"configMapName":"app","keys":["k"],"secretName":"kept"})").Ok());
    examples::v1beta1::ConfigSecret hub;
    ASSERT_TRUE(Run(client_->Get(Deadline(), ctrl::ObjectKey(ns_, "creds"), hub)).Ok());
    EXPECT_EQ(hub.Spec().Source().ConfigMap(), "app");
    EXPECT_EQ(hub.Spec().Target().Name(), "kept");
    const std::optional<ConfigSecret> spoke = GetConfigSecret();
    ASSERT_TRUE(spoke);
    EXPECT_EQ(spoke->NestedMap({"spec"})->ToJson(),
              R"({"configMapName":"app","keys":["k"],"secretName":"kept","secretType":"Opaque"})");
    EXPECT_TRUE(Eventually([&] { return GetSecret("kept").has_value(); }));
}

TEST_F(ConfigSecretTest, TheSchemaRefusesWhatValidateRefuses) {
    const std::string bad = R"({"configMapName":"","secretType":"Bogus","keys":[]})";
    const ctrl::Status refused = CreateConfigSecret(bad);
    EXPECT_TRUE(ctrl::IsInvalid(refused)) << refused;
    auto object = ctrl::Object::Parse(R"({"apiVersion":"examples.ctrl.dev/v1alpha1","kind":"ConfigSecret",)"
                                      R"("metadata":{"name":"creds"},"spec":)" +
                                      bad + "}");
    ASSERT_TRUE(object.Ok());
    auto typed = ConfigSecret::FromObject(std::move(object).Value());
    ASSERT_TRUE(typed.Ok());
    const ctrl::Status validated = typed->Validate();
    EXPECT_TRUE(ctrl::IsInvalid(validated)) << validated;
    EXPECT_THAT(validated.ToString(), ::testing::HasSubstr("spec.configMapName"));
    EXPECT_THAT(validated.ToString(), ::testing::HasSubstr("spec.secretType"));
}

}  // namespace
}  // namespace configsecret

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(new configsecret::ControlPlane());
    return RUN_ALL_TESTS();
}
