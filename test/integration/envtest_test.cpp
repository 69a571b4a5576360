// ctrl::envtest::Environment against the real control plane, as an operator author's suite uses it:
// the repository's CRDs installed from their directory and usable at once; installing again updates;
// a CRD the server never establishes times out naming it.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <iostream>
#include <memory>

#include <boost/asio/io_context.hpp>

#include "ctrl/client/client.hpp"
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
