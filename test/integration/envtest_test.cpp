// ctrl::envtest::Environment against the real control plane, as an operator author's suite uses it:
// the repository's CRDs installed from their directory and usable at once; installing again updates;
// a CRD the server never establishes times out naming it; uninstalling waits until CRDs are gone.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <memory>

#include <boost/asio/io_context.hpp>

#include "ctrl/api/custom_resource_definition.hpp"
#include "ctrl/client/client.hpp"
#include "ctrl/client/patch.hpp"
#include "ctrl/core/object_list.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/envtest/environment.hpp"
#include "test/support/eventually.hpp"
#include "test/support/repo_path.hpp"

namespace ctrl::envtest {
namespace {

using ::testing::HasSubstr;

// One Environment for the binary, with the CRDs under manifests/crd (kustomization.yaml is skipped:
// not a CRD).
class EnvironmentFixture final : public ::testing::Environment {
  public:
    void SetUp() override {
        EnvironmentOptions options;
        options.crd_paths = {testing::RepoPath("manifests/crd")};
        env_ = std::make_unique<envtest::Environment>(std::move(options));
        StatusOr<rest::Config> config = env_->Start();
        ASSERT_TRUE(config.Ok()) << config.GetStatus();
        std::cout << "control plane: kube-apiserver " << env_->GetControlPlane().Version() << ", etcd "
                  << env_->GetControlPlane().EtcdVersion() << ", started by envtest::Environment" << std::endl;
    }
    void TearDown() override { env_->Stop(); }
    static envtest::Environment& Get() { return *env_; }

  private:
    static inline std::unique_ptr<envtest::Environment> env_;
};

// A CRD of group clash.ctrl.io, labelled version=<version>.
std::string Crd(const std::string& plural, const std::string& kind, const std::string& version = "1") {
    return R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":")" +
           plural + R"(.clash.ctrl.io","labels":{"version":")" + version +
           R"("}},"spec":{"group":"clash.ctrl.io","scope":"Namespaced","names":{"plural":")" + plural +
           R"(","kind":")" + kind +
           R"("},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}}]}})";
}

TEST(EnvironmentTest, InstallsTheRepositorysCrdsReadyForUse) {
    const auto& crds = EnvironmentFixture::Get().CRDs();
    ASSERT_EQ(crds.size(), 2u);
    for (const auto& crd : crds)
        EXPECT_TRUE(crd.IsEstablished()) << crd.Name();

    // A client made after Start lists the kind (unstructured) at once: no NoMatch, no wait.
    boost::asio::io_context io;
    auto client = client::New(EnvironmentFixture::Get().Config(), io.get_executor());
    ASSERT_TRUE(client.Ok()) << client.GetStatus();
    ObjectList policies;
    policies.SetGroupVersionKind(GroupVersionKind("vpcresources.k8s.aws", "v1beta1", "SecurityGroupPolicyList"));
    const Status listed = RunSync(io, (*client)->List(ctrl::testing::TestContext(), policies));
    EXPECT_TRUE(listed.Ok()) << listed;
}

TEST(EnvironmentTest, InstallingAgainUpdatesTheExistingCrd) {
    CRDInstallOptions options;
    options.manifests = {Crd("gammas", "Gamma", "1")};
    auto first = InstallCRDs(EnvironmentFixture::Get().Config(), options);
    ASSERT_TRUE(first.Ok()) << first.GetStatus();
    options.manifests = {Crd("gammas", "Gamma", "2")};
    auto second = InstallCRDs(EnvironmentFixture::Get().Config(), options);
    ASSERT_TRUE(second.Ok()) << second.GetStatus();
    ASSERT_EQ(second->size(), 1u);
    EXPECT_EQ((*second)[0].Label("version"), "2");
    EXPECT_TRUE((*second)[0].IsEstablished());
}

TEST(EnvironmentTest, ACrdTheServerNeverEstablishesTimesOutNamingIt) {
    CRDInstallOptions first;
    first.manifests = {Crd("alphas", "Thing")};
    ASSERT_TRUE(InstallCRDs(EnvironmentFixture::Get().Config(), first).Ok());
    // Same group and kind: the server refuses the names, so the CRD is never Established.
    CRDInstallOptions clash;
    clash.manifests = {Crd("betas", "Thing")};
    clash.max_time = std::chrono::seconds(3);
    auto installed = InstallCRDs(EnvironmentFixture::Get().Config(), clash);
    EXPECT_TRUE(IsTimeout(installed.GetStatus())) << installed.GetStatus();
    EXPECT_THAT(installed.GetStatus().Message(), HasSubstr("betas.clash.ctrl.io: not Established"));

    // A CRD never Established has no objects to clean up: it goes like any other.
    const Status uninstalled = UninstallCRDs(EnvironmentFixture::Get().Config(), clash);
    EXPECT_TRUE(uninstalled.Ok()) << uninstalled;
    EXPECT_TRUE(UninstallCRDs(EnvironmentFixture::Get().Config(), first).Ok());
}

// An object of kind (group clash.ctrl.io, v1) in the default namespace.
Object ClashObject(const std::string& kind, const std::string& name) {
    Object object;
    object.SetApiVersion("clash.ctrl.io/v1");
    object.SetKind(kind);
    object.SetNamespace("default");
    object.SetName(name);
    return object;
}

// Creates ClashObject(kind, name); with a finalizer when one is given.
Status CreateClashObject(const std::string& kind, const std::string& name, const std::string& finalizer = "") {
    boost::asio::io_context io;
    auto client = client::New(EnvironmentFixture::Get().Config(), io.get_executor());
    if (!client.Ok())
        return client.GetStatus();
    Object object = ClashObject(kind, name);
    if (!finalizer.empty())
        (void)object.AddFinalizer(finalizer);
    return RunSync(io, (*client)->Create(ctrl::testing::TestContext(), object));
}

// The server deletes a CRD only after its own finalizer has deleted the CRD's objects; right after
// the CRD's creation its first try fails while the kind's watch cache loads and is retried with a
// doubling backoff. UninstallCRDs waits until each CRD is gone, and does not wait out that backoff.
TEST(EnvironmentTest, UninstallingDeletesCrdsAndTheirObjectsAndWaitsUntilTheyAreGone) {
    CRDInstallOptions options;
    options.manifests = {Crd("deltas", "Delta"), Crd("zetas", "Zeta")};
    ASSERT_TRUE(InstallCRDs(EnvironmentFixture::Get().Config(), options).Ok());
    ASSERT_TRUE(CreateClashObject("Delta", "one").Ok());

    const auto start = std::chrono::steady_clock::now();
    const Status uninstalled = UninstallCRDs(EnvironmentFixture::Get().Config(), options);
    ASSERT_TRUE(uninstalled.Ok()) << uninstalled;
    std::cout << "envtest: two CRDs, one object, uninstalled in "
              << std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count()
              << " ms" << std::endl;

    boost::asio::io_context io;
    auto client = client::New(EnvironmentFixture::Get().Config(), io.get_executor());
    ASSERT_TRUE(client.Ok()) << client.GetStatus();
    for (const std::string name : {"deltas.clash.ctrl.io", "zetas.clash.ctrl.io"}) {
        api::CustomResourceDefinition crd;
        const Status read = RunSync(io, (*client)->Get(ctrl::testing::TestContext(), ObjectKey("", name), crd));
        EXPECT_TRUE(IsNotFound(read)) << name << ": " << read;
    }
    EXPECT_TRUE(IsNoMatch(CreateClashObject("Delta", "two"))) << "the kind is not served any more";

    // Nothing left to delete: not an error.
    const Status again = UninstallCRDs(EnvironmentFixture::Get().Config(), options);
    EXPECT_TRUE(again.Ok()) << again;
}

TEST(EnvironmentTest, ACrdWhoseObjectsCannotGoTimesOutNamingIt) {
    CRDInstallOptions options;
    options.manifests = {Crd("etas", "Eta")};
    ASSERT_TRUE(InstallCRDs(EnvironmentFixture::Get().Config(), options).Ok());
    ASSERT_TRUE(CreateClashObject("Eta", "held", "test.ctrl.io/hold").Ok());

    options.max_time = std::chrono::seconds(3);
    const Status stuck = UninstallCRDs(EnvironmentFixture::Get().Config(), options);
    EXPECT_TRUE(IsTimeout(stuck)) << stuck;
    std::cout << "envtest: " << stuck << std::endl;
    EXPECT_THAT(stuck.Message(), HasSubstr("not deleted within 3000 ms: etas.clash.ctrl.io ("));

    // The object's finalizer removed, the CRD goes.
    boost::asio::io_context io;
    auto client = client::New(EnvironmentFixture::Get().Config(), io.get_executor());
    ASSERT_TRUE(client.Ok()) << client.GetStatus();
    Object held = ClashObject("Eta", "held");
    const std::string release = R"({"metadata":{"finalizers":null}})";
    const Status released = RunSync(io, (*client)->Patch(ctrl::testing::TestContext(), held,
                                                         client::RawPatch(client::PatchType::kMergePatch, release)));
    ASSERT_TRUE(released.Ok()) << released;
    options.max_time = std::chrono::seconds(60);
    const Status uninstalled = UninstallCRDs(EnvironmentFixture::Get().Config(), options);
    EXPECT_TRUE(uninstalled.Ok()) << uninstalled;
}

// A CRD of group clash.ctrl.io with versions v1 and v2, storage_version stored, converted by a
// webhook nobody serves (port 1 on loopback).
std::string CrdConvertedByAMissingWebhook(const std::string& storage_version) {
    const auto version = [&](const std::string& name) {
        return R"({"name":")" + name + R"(","served":true,"storage":)" + (name == storage_version ? "true" : "false") +
               R"(,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}})";
    };
    return R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",)"
           R"("metadata":{"name":"thetas.clash.ctrl.io"},"spec":{"group":"clash.ctrl.io","scope":"Namespaced",)"
           R"("names":{"plural":"thetas","kind":"Theta"},"versions":[)" +
           version("v1") + "," + version("v2") +
           R"(],"conversion":{"strategy":"Webhook","webhook":{"conversionReviewVersions":["v1"],)"
           R"("clientConfig":{"url":"https://127.0.0.1:1/convert"}}}}})";
}

// The server's cleanup finalizer cannot list a CRD's objects while they need a conversion webhook
// that is down: the CRD reports Terminating: InstanceDeletionFailed, and UninstallCRDs asks the
// finalizer to retry (by annotating the CRD) until its wait ends, then names the CRD, the failure and
// the retries. Once the conversion no longer needs the webhook, the next try deletes the objects.
TEST(EnvironmentTest, AFailingCleanupIsRetriedAtOnceAndNamedWhenItNeverSucceeds) {
    const rest::Config& config = EnvironmentFixture::Get().Config();
    CRDInstallOptions options;
    options.manifests = {CrdConvertedByAMissingWebhook("v1")};
    ASSERT_TRUE(InstallCRDs(config, options).Ok());
    ASSERT_TRUE(CreateClashObject("Theta", "stored-as-v1").Ok());  // v1 is stored: no conversion
    options.manifests = {CrdConvertedByAMissingWebhook("v2")};     // now listing it needs the webhook
    ASSERT_TRUE(InstallCRDs(config, options).Ok());

    options.max_time = std::chrono::seconds(15);  // the first failure shows within a second here
    const Status stuck = UninstallCRDs(config, options);
    std::cout << "envtest: " << stuck << std::endl;
    EXPECT_TRUE(IsTimeout(stuck)) << stuck;
    EXPECT_THAT(stuck.Message(), HasSubstr("thetas.clash.ctrl.io (Terminating: InstanceDeletionFailed"));
    EXPECT_THAT(stuck.Message(), ::testing::ContainsRegex("[1-9][0-9]* cleanup retries asked"));

    boost::asio::io_context io;
    auto client = client::New(config, io.get_executor());
    ASSERT_TRUE(client.Ok()) << client.GetStatus();
    api::CustomResourceDefinition crd;
    ASSERT_TRUE(
        RunSync(io, (*client)->Get(ctrl::testing::TestContext(), ObjectKey("", "thetas.clash.ctrl.io"), crd)).Ok());
    EXPECT_TRUE(crd.Annotation("envtest.ctrl.dev/cleanup-retry").has_value()) << crd.ToJson();
    const std::string no_webhook = R"({"spec":{"conversion":{"strategy":"None","webhook":null}}})";
    const Status fixed = RunSync(io, (*client)->Patch(ctrl::testing::TestContext(), crd,
                                                      client::RawPatch(client::PatchType::kMergePatch, no_webhook)));
    ASSERT_TRUE(fixed.Ok()) << fixed;
    options.max_time = std::chrono::seconds(60);
    const Status uninstalled = UninstallCRDs(config, options);
    EXPECT_TRUE(uninstalled.Ok()) << uninstalled;
}

TEST(EnvironmentTest, AnAddedUserIsAuthenticatedWithoutRights) {
    auto config = EnvironmentFixture::Get().AddUser("someone", {"some-group"});
    ASSERT_TRUE(config.Ok()) << config.GetStatus();
    boost::asio::io_context io;
    auto client = client::New(*config, io.get_executor());
    ASSERT_TRUE(client.Ok()) << client.GetStatus();
    ObjectList policies;
    policies.SetGroupVersionKind(GroupVersionKind("vpcresources.k8s.aws", "v1beta1", "SecurityGroupPolicyList"));
    const Status listed = RunSync(io, (*client)->List(ctrl::testing::TestContext(), policies));
    EXPECT_TRUE(IsForbidden(listed)) << listed;
}

}  // namespace
}  // namespace ctrl::envtest

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(new ctrl::envtest::EnvironmentFixture());
    return RUN_ALL_TESTS();
}
