// Issue 32: what manifests/ builds for the SecurityGroupPolicy admission webhooks, on by default
// with self-managed certificates, and with cert-manager's through components/cert-manager. The
// RBAC they need is checked with the rest of the contract (manifests_build_test.cpp,
// manifests_apply_test.cpp).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include "test/e2e/manifests_objects.hpp"

namespace ctrl::testing {
namespace {

using ::testing::ElementsAreArray;
using ::testing::IsSupersetOf;

// The webhooks are on by default: both configurations call the webhook Service at the paths the
// operator serves, which reaches the Deployment's webhook port; the Deployment keeps self-managed
// certificates in the Secret its RBAC names, for the Service's names; the rotator injects the CA
// into exactly the configurations its ClusterRole names (the operator's constants).
TEST(ManifestsWebhookTest, WebhooksAreOnWithSelfManagedCertificates) {
    const std::vector<Object> objects = BuildOrFail("manifests");
    const Object* service = FindObject(objects, "Service", "ctrl-operator-webhook");
    ASSERT_NE(service, nullptr);
    EXPECT_EQ(service->Namespace(), "ctrl-system");
    EXPECT_EQ(StringMapAt(*service, {"spec", "selector"}),
              (std::map<std::string, std::string>{{"app.kubernetes.io/name", "ctrl-operator"}}));
    std::vector<Object> ports = ObjectsAt(*service, {"spec", "ports"});
    ASSERT_EQ(ports.size(), 1u);
    EXPECT_EQ(IntAt(ports[0], {"port"}), 443);
    EXPECT_EQ(StringAt(ports[0], {"targetPort"}), "webhook");

    for (const auto& [kind, name, path] : {
             std::tuple<std::string, std::string, std::string>{
                 "ValidatingWebhookConfiguration", "ctrl-operator-sgp-rules",
                 "/validate-vpcresources-k8s-aws-v1beta1-securitygrouppolicy"},
             {"MutatingWebhookConfiguration", "ctrl-operator-sgp-defaults",
              "/mutate-vpcresources-k8s-aws-v1beta1-securitygrouppolicy"},
         }) {
        const Object* configuration = FindObject(objects, kind, name);
        ASSERT_NE(configuration, nullptr) << kind << " " << name;
        std::vector<Object> webhooks = ObjectsAt(*configuration, {"webhooks"});
        ASSERT_EQ(webhooks.size(), 1u) << name;
        EXPECT_EQ(StringAt(webhooks[0], {"clientConfig", "service", "name"}), "ctrl-operator-webhook") << name;
        EXPECT_EQ(StringAt(webhooks[0], {"clientConfig", "service", "namespace"}), "ctrl-system") << name;
        EXPECT_EQ(StringAt(webhooks[0], {"clientConfig", "service", "path"}), path) << name;
        EXPECT_FALSE(webhooks[0].HasNestedField({"clientConfig", "caBundle"})) << name << ": the rotator injects it";
        EXPECT_EQ(StringAt(webhooks[0], {"failurePolicy"}), "Fail") << name;
        EXPECT_EQ(StringAt(webhooks[0], {"sideEffects"}), "None") << name;
    }

    const Object manager = ManagerContainer(objects);
    EXPECT_THAT(StringsAt(manager, {"args"}),
                IsSupersetOf({"--webhook-port=9443", "--webhook-cert-secret=ctrl-system/ctrl-operator-webhook-certs",
                              "--webhook-service=ctrl-system/ctrl-operator-webhook"}));
    for (const std::string& arg : StringsAt(manager, {"args"}))
        EXPECT_FALSE(arg.starts_with("--webhook-cert-path")) << arg << ": files and a Secret exclude each other";
}

// components/cert-manager (overlays/cert-manager): cert-manager's Certificate for the Service's names,
// mounted and served with --webhook-cert-path, the CA injected by cert-manager into both
// configurations, and none of the RBAC of self-managed certificates.
TEST(ManifestsWebhookTest, CertManagerOverlayServesCertManagersCertificate) {
    const std::vector<Object> objects = BuildOrFail("manifests/overlays/cert-manager");
    std::vector<std::string> expected;
    for (const std::string& id : OperatorObjectIds()) {
        if (id.find("ctrl-operator-webhook-certs") == std::string::npos &&
            id.find("ctrl-operator-webhook-ca-injection") == std::string::npos)
            expected.push_back(id);
    }
    expected.push_back("Certificate/ctrl-system/ctrl-operator-webhook");
    expected.push_back("Issuer/ctrl-system/ctrl-operator-selfsigned");
    std::sort(expected.begin(), expected.end());
    EXPECT_THAT(ObjectIds(objects), ElementsAreArray(expected));

    const Object* certificate = FindObject(objects, "Certificate", "ctrl-operator-webhook");
    ASSERT_NE(certificate, nullptr);
    EXPECT_EQ(StringsAt(*certificate, {"spec", "dnsNames"}),
              (std::vector<std::string>{"ctrl-operator-webhook.ctrl-system.svc",
                                        "ctrl-operator-webhook.ctrl-system.svc.cluster.local"}));
    EXPECT_EQ(StringAt(*certificate, {"spec", "issuerRef", "name"}), "ctrl-operator-selfsigned");
    const std::string secret = StringAt(*certificate, {"spec", "secretName"});
    for (const auto& [kind, name] :
         {std::pair<std::string, std::string>{"ValidatingWebhookConfiguration", "ctrl-operator-sgp-rules"},
          {"MutatingWebhookConfiguration", "ctrl-operator-sgp-defaults"}}) {
        const Object* configuration = FindObject(objects, kind, name);
        ASSERT_NE(configuration, nullptr) << name;
        EXPECT_EQ(StringAt(*configuration, {"metadata", "annotations", "cert-manager.io/inject-ca-from"}),
                  "ctrl-system/ctrl-operator-webhook")
            << name;
    }

    const Object manager = ManagerContainer(objects);
    const std::vector<std::string> args = StringsAt(manager, {"args"});
    EXPECT_THAT(args, IsSupersetOf({"--leader-elect", "--metrics-bind-address=:8443", "--metrics-secure",
                                    "--health-probe-bind-address=:8081", "--webhook-port=9443",
                                    "--webhook-cert-path=/tmp/k8s-webhook-server/serving-certs"}));
    for (const std::string& arg : args)
        EXPECT_FALSE(arg.starts_with("--webhook-cert-secret") || arg.starts_with("--webhook-service")) << arg;
    std::vector<Object> mounts = ObjectsAt(manager, {"volumeMounts"});
    ASSERT_EQ(mounts.size(), 1u);
    EXPECT_EQ(StringAt(mounts[0], {"mountPath"}), "/tmp/k8s-webhook-server/serving-certs");
    const Object* deployment = FindObject(objects, "Deployment", "ctrl-operator");
    ASSERT_NE(deployment, nullptr);
    std::vector<Object> volumes = ObjectsAt(*deployment, {"spec", "template", "spec", "volumes"});
    ASSERT_EQ(volumes.size(), 1u);
    EXPECT_EQ(StringAt(volumes[0], {"name"}), StringAt(mounts[0], {"name"}));
    EXPECT_EQ(StringAt(volumes[0], {"secret", "secretName"}), secret);
}

}  // namespace
}  // namespace ctrl::testing
