// Self-managed webhook certificates against the real kube-apiserver (issue 32, acceptances 3a and
// 4): two managers (replicas, leader election on) serve one validating webhook each, with
// certificates their CertRotators keep in one Secret and rotate every few seconds (a 45 s CA, 15 s
// serving certificates), the CA bundle injected into the configurations. Four clients send dry-run
// creates through the API server while the CA and the serving certificate rotate: none fails, and
// each new serving certificate is presented by both replicas' servers, the standby's too, within
// 10 s of its being written.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <future>
#include <string>
#include <thread>

#include <boost/asio/io_context.hpp>

#include "ctrl/api/config_map.hpp"
#include "ctrl/api/namespace.hpp"
#include "ctrl/api/secret.hpp"
#include "ctrl/builder/webhook_builder.hpp"
#include "ctrl/client/option_values.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/envtest/free_port.hpp"
#include "ctrl/manager/manager.hpp"
#include "ctrl/webhook/internal/certificate_authority.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/dry_run_load.hpp"
#include "test/support/eventually.hpp"
#include "test/support/kubeconfig_config.hpp"
#include "test/support/presented_serial.hpp"

namespace ctrl {
namespace {

using namespace std::chrono_literals;
using ctrl::testing::Eventually;
using ctrl::testing::PresentedSerial;
using ctrl::testing::TestContext;
using webhook::admission::Verdict;

constexpr std::string_view kNamespace = "self-managed";
constexpr std::string_view kSecret = "webhook-certs";

// Admits ConfigMaps without data["forbidden"].
class Rules final : public webhook::admission::Validator<api::ConfigMap> {
  public:
    Task<Verdict> ValidateCreate(Context /*ctx*/, const api::ConfigMap& cm) override {
        co_return cm.DataValue("forbidden") ? Verdict(ForbiddenError("forbidden")) : Verdict(OkStatus());
    }
    Task<Verdict> ValidateUpdate(Context /*ctx*/, const api::ConfigMap& /*old_cm*/, const api::ConfigMap& cm) override {
        co_return cm.DataValue("forbidden") ? Verdict(ForbiddenError("forbidden")) : Verdict(OkStatus());
    }
};

// A validating configuration named name calling https://127.0.0.1:port, with no CA bundle: the
// rotator injects it.
Object Configuration(const std::string& name, int port) {
    StatusOr<Object> made = Object::Parse(R"({"apiVersion":"admissionregistration.k8s.io/v1",
        "kind":"ValidatingWebhookConfiguration","metadata":{"name":")" +
                                          name + R"("},
        "webhooks":[{"name":")" + name + R"(.ctrl.test","admissionReviewVersions":["v1"],"sideEffects":"None",
          "failurePolicy":"Fail","timeoutSeconds":5,
          "clientConfig":{"url":"https://127.0.0.1:)" +
                                          std::to_string(port) + R"(/validate--v1-configmap"},
          "namespaceSelector":{"matchLabels":{"kubernetes.io/metadata.name":")" +
                                          std::string(kNamespace) + R"("}},
          "rules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["configmaps"]}]}]})");
    EXPECT_TRUE(made.Ok()) << made.GetStatus();
    return made.Ok() ? std::move(made).Value() : Object();
}

// One replica: a manager with leader election, its webhook server on port, self-managed certificates.
struct Replica {
    metrics::Registry registry;
    std::unique_ptr<manager::Manager> mgr;
    Context stop = Context::WithCancel(Context::Background());
    std::future<Status> done;
    int port = 0;

    void Start(int port_in, const std::vector<std::string>& configurations) {
        port = port_in;
        manager::Options options;
        options.registry = &registry;
        options.metrics.bind_address = "0";
        options.health_probe_bind_address = "0";
        options.leader_election.enabled = true;
        options.leader_election.id = "self-managed-webhooks";
        options.leader_election.namespace_name = std::string(kNamespace);
        options.webhook = {.host = "127.0.0.1", .port = port};
        webhook::CertRotatorOptions certificates;
        certificates.secret_namespace = std::string(kNamespace);
        certificates.secret_name = std::string(kSecret);
        certificates.ips = {"127.0.0.1"};
        certificates.ca_validity = 45s;
        certificates.cert_validity = 15s;
        certificates.propagation_delay = 2s;
        certificates.validating_webhooks = configurations;
        options.webhook_certificates = certificates;
        StatusOr<std::unique_ptr<manager::Manager>> made = manager::New(ctrl::testing::SharedAdminConfig(), options);
        ASSERT_TRUE(made.Ok()) << made.GetStatus();
        mgr = std::move(made).Value();
        ASSERT_TRUE(builder::WebhookManagedBy(*mgr)
                        .For<api::ConfigMap>()
                        .WithValidator(std::make_shared<Rules>())
                        .Complete()
                        .Ok());
        done = std::async(std::launch::async, [this] { return mgr->Start(stop); });
    }
    void Stop() {
        stop.Cancel();
        if (done.valid()) {
            ASSERT_EQ(done.wait_for(ctrl::testing::kTestWait), std::future_status::ready);
            EXPECT_TRUE(done.get().Ok());
        }
    }
};

class SelfManagedTest : public ::testing::Test {
  protected:
    template <typename T>
    T Admin(Task<T> task) {
        return RunSync(io_, std::move(task));
    }
    // The serving certificate's serial number in the Secret ("" before there is one).
    std::string SecretSerial() {
        api::Secret secret;
        if (!Admin(client_->Get(TestContext(), ObjectKey(std::string(kNamespace), std::string(kSecret)), secret)).Ok())
            return "";
        StatusOr<std::string> crt = secret.DataValue("tls.crt");
        StatusOr<webhook::internal::CertificateFacts> facts =
            crt.Ok() ? webhook::internal::ReadCertificate(*crt)
                     : StatusOr<webhook::internal::CertificateFacts>(crt.GetStatus());
        return facts.Ok() ? facts->serial_hex : "";
    }
    std::string SecretCaBundle() {
        api::Secret secret;
        if (!Admin(client_->Get(TestContext(), ObjectKey(std::string(kNamespace), std::string(kSecret)), secret)).Ok())
            return "";
        StatusOr<std::string> bundle = secret.DataValue("ca.crt");
        return bundle.Ok() ? *bundle : "";
    }

    void SetUp() override {
        StatusOr<std::unique_ptr<client::Client>> made =
            client::New(ctrl::testing::SharedAdminConfig(), io_.get_executor());
        ASSERT_TRUE(made.Ok()) << made.GetStatus();
        client_ = std::move(made).Value();
        api::Namespace ns;
        ns.SetName(std::string(kNamespace));
        const Status created = Admin(client_->Create(TestContext(), ns));
        ASSERT_TRUE(created.Ok() || IsAlreadyExists(created)) << created;
    }

    boost::asio::io_context io_;
    std::unique_ptr<client::Client> client_;
};

TEST_F(SelfManagedTest, RotationUnderLoadFailsNoRequestAndBothReplicasFollowIt) {
    StatusOr<std::vector<int>> ports = envtest::FreePorts(2);
    ASSERT_TRUE(ports.Ok());
    const std::vector<std::string> configurations = {"self-managed-a", "self-managed-b"};
    for (std::size_t i = 0; i < configurations.size(); ++i) {
        Object configuration = Configuration(configurations[i], (*ports)[i]);
        ASSERT_TRUE(Admin(client_->Create(TestContext(), configuration)).Ok());
    }
    Replica a, b;
    a.Start((*ports)[0], configurations);
    b.Start((*ports)[1], configurations);
    ASSERT_TRUE(Eventually(
        [&] { return a.mgr->ReadyzChecks()["webhook-server"].Ok() && b.mgr->ReadyzChecks()["webhook-server"].Ok(); },
        60s))
        << "both replicas serve once the Secret exists";
    // The API server calls both (a forbidden ConfigMap is refused) once the bundle is injected.
    ASSERT_TRUE(Eventually(
        [&] {
            api::ConfigMap forbidden;
            forbidden.SetNamespace(kNamespace);
            forbidden.SetGenerateName("probe-");
            forbidden.SetDataValue("forbidden", "1");
            const Status status = Admin(client_->Create(TestContext(), forbidden, client::DryRunAll()));
            return !status.Ok() && status.Message().find("forbidden") != std::string::npos &&
                   status.Message().find("x509") == std::string::npos;
        },
        30s));
    EXPECT_TRUE(a.mgr->IsLeader() != b.mgr->IsLeader() || !a.mgr->IsLeader()) << "one leader at most";

    ctrl::testing::DryRunLoad load(4, std::string(kNamespace));

    // Watch the Secret for 50 s: every new serving certificate must be presented by both servers
    // within 10 s; the CA must rotate at least once (a second CA in the bundle).
    const std::string first_bundle_ca = webhook::internal::SplitPemCertificates(SecretCaBundle()).front();
    std::string seen = SecretSerial();
    int rotations = 0;
    bool ca_rotated = false;
    const auto until = std::chrono::steady_clock::now() + 50s;
    while (std::chrono::steady_clock::now() < until) {
        const std::string serial = SecretSerial();
        if (!serial.empty() && serial != seen) {
            seen = serial;
            ++rotations;
            const auto written = std::chrono::steady_clock::now();
            for (Replica* replica : {&a, &b})
                EXPECT_TRUE(Eventually([&] { return PresentedSerial(replica->port) == serial; }, 10s))
                    << "port " << replica->port << " still presents an older certificate than " << serial;
            std::printf("serving certificate %s presented by both replicas %.1f s after it was read from the Secret\n",
                        serial.c_str(),
                        std::chrono::duration<double>(std::chrono::steady_clock::now() - written).count());
        }
        const std::vector<std::string> bundle = webhook::internal::SplitPemCertificates(SecretCaBundle());
        ca_rotated = ca_rotated || (!bundle.empty() && bundle.front() != first_bundle_ca);
        std::this_thread::sleep_for(200ms);
    }
    load.Stop();
    std::printf("%d admission requests from 4 clients, %d failed, %d serving certificates, CA rotated: %s\n",
                load.Sent(), load.Failed(), rotations, ca_rotated ? "yes" : "no");
    EXPECT_GE(load.Sent(), 500);
    EXPECT_EQ(load.Failed(), 0) << load.FirstFailure();
    EXPECT_GE(rotations, 2);
    EXPECT_TRUE(ca_rotated);
    a.Stop();
    b.Stop();
}

}  // namespace
}  // namespace ctrl
