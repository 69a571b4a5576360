// The discovery client against the real control plane: aggregated discovery in two requests, the
// legacy documents when aggregation is refused, group versions, NotFound for what is not served, and
// CRDs that appear while the client is in use. Every request is counted (ctrl_discovery_requests_total).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "ctrl/core/run_sync.hpp"
#include "ctrl/discovery/discovery_client.hpp"
#include "ctrl/rest/kubeconfig.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/eventually.hpp"
#include "test/support/kubectl.hpp"

namespace ctrl::discovery::test {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsSupersetOf;

const APIGroup* FindGroup(const std::vector<APIGroup>& groups, const std::string& name) {
    auto it = std::find_if(groups.begin(), groups.end(), [&](const APIGroup& g) { return g.name == name; });
    return it == groups.end() ? nullptr : &*it;
}

const GroupVersionResources* FindVersion(const std::vector<GroupVersionResources>& versions, const GroupVersion& gv) {
    auto it = std::find_if(versions.begin(), versions.end(),
                           [&](const GroupVersionResources& v) { return v.group_version == gv; });
    return it == versions.end() ? nullptr : &*it;
}

const APIResource* FindResource(const GroupVersionResources& gvr, const std::string& name) {
    auto it =
        std::find_if(gvr.resources.begin(), gvr.resources.end(), [&](const APIResource& r) { return r.name == name; });
    return it == gvr.resources.end() ? nullptr : &*it;
}

// A RestClient on the admin's kubeconfig and a registry of its own per test, so counts start at 0.
class DiscoveryIntegrationTest : public ::testing::Test {
  protected:
    void SetUp() override {
        rest::KubeconfigOptions options;
        options.explicit_path = ctrl::testing::SharedControlPlane().KubeconfigPath();
        StatusOr<rest::Config> config = rest::LoadKubeconfig(options);
        ASSERT_TRUE(config.Ok()) << config.GetStatus();
        StatusOr<std::unique_ptr<rest::RestClient>> client =
            rest::RestClient::New(*config, io_.get_executor(), registry_);
        ASSERT_TRUE(client.Ok()) << client.GetStatus();
        rest_ = std::move(client).Value();
    }

    DiscoveryClient Client(bool aggregated) { return DiscoveryClient(*rest_, {.aggregated = aggregated}, registry_); }
    template <typename T>
    T Run(Task<T> task) {
        return RunSync(io_, std::move(task));
    }
    static Context Deadline() { return Context::WithTimeout(Context::Background(), std::chrono::seconds(30)); }
    double Requests(std::string_view path_kind, std::string_view result) {
        return DiscoveryMetrics(registry_).Requests(path_kind, result);
    }
    double Requests(std::string_view path_kind) { return DiscoveryMetrics(registry_).Requests(path_kind); }

    boost::asio::io_context io_;
    metrics::Registry registry_;
    std::unique_ptr<rest::RestClient> rest_;
};

TEST_F(DiscoveryIntegrationTest, FetchRootAggregatedInTwoRequests) {
    DiscoveryClient client = Client(/*aggregated=*/true);
    StatusOr<RootDiscovery> root = Run(client.FetchRoot(Deadline()));
    ASSERT_TRUE(root.Ok()) << root.GetStatus();
    EXPECT_TRUE(root->aggregated);
    EXPECT_EQ(Requests(kPathKindAggregated, kResultSuccess), 2);
    EXPECT_EQ(Requests(kPathKindAggregated), 2);
    EXPECT_EQ(Requests(kPathKindLegacyGroupList) + Requests(kPathKindGroupVersion), 0);

    ASSERT_FALSE(root->groups.empty());
    EXPECT_EQ(root->groups[0], (APIGroup{"", {"v1"}}));
    const APIGroup* apps = FindGroup(root->groups, "apps");
    ASSERT_NE(apps, nullptr);
    EXPECT_EQ(apps->PreferredVersion(), "v1");
    const APIGroup* autoscaling = FindGroup(root->groups, "autoscaling");
    ASSERT_NE(autoscaling, nullptr);
    EXPECT_EQ(autoscaling->versions, (std::vector<std::string>{"v2", "v1"}));

    ASSERT_FALSE(root->versions.empty());
    const GroupVersionResources& core = root->versions[0];
    EXPECT_EQ(core.group_version, (GroupVersion{"", "v1"}));
    EXPECT_EQ(core.freshness, Freshness::kCurrent);
    const APIResource* pods = FindResource(core, "pods");
    ASSERT_NE(pods, nullptr);
    EXPECT_TRUE(pods->namespaced);
    EXPECT_EQ(pods->kind, "Pod");
    EXPECT_EQ(pods->singular_name, "pod");
    EXPECT_THAT(pods->verbs, IsSupersetOf({"get", "list", "watch", "create", "delete", "patch", "update"}));
    EXPECT_THAT(pods->short_names, ElementsAre("po"));
    EXPECT_THAT(pods->categories, Contains("all"));
    for (const char* sub : {"pods/status", "pods/log", "pods/exec", "pods/eviction", "pods/binding"}) {
        const APIResource* subresource = FindResource(core, sub);
        ASSERT_NE(subresource, nullptr) << sub;
        EXPECT_TRUE(subresource->IsSubresource());
        EXPECT_TRUE(subresource->namespaced) << sub;
    }
    EXPECT_EQ(FindResource(core, "pods/status")->kind, "Pod");
    EXPECT_EQ(FindResource(core, "pods/eviction")->group, "policy");
    const APIResource* namespaces = FindResource(core, "namespaces");
    ASSERT_NE(namespaces, nullptr);
    EXPECT_FALSE(namespaces->namespaced);
    EXPECT_EQ(namespaces->kind, "Namespace");
    EXPECT_FALSE(FindResource(core, "namespaces/status")->namespaced);

    const GroupVersionResources* apps_v1 = FindVersion(root->versions, {"apps", "v1"});
    ASSERT_NE(apps_v1, nullptr);
    ASSERT_NE(FindResource(*apps_v1, "deployments"), nullptr);
    EXPECT_EQ(FindResource(*apps_v1, "deployments")->kind, "Deployment");
    ASSERT_NE(FindResource(*apps_v1, "deployments/scale"), nullptr);
    EXPECT_EQ(FindResource(*apps_v1, "deployments/scale")->group, "autoscaling");
    for (const GroupVersionResources& version : root->versions)
        EXPECT_EQ(version.freshness, Freshness::kCurrent) << version.group_version.String();
}

TEST_F(DiscoveryIntegrationTest, AggregatedAndLegacyDescribeTheSameResources) {
    DiscoveryClient client = Client(/*aggregated=*/true);
    StatusOr<RootDiscovery> root = Run(client.FetchRoot(Deadline()));
    ASSERT_TRUE(root.Ok()) << root.GetStatus();
    for (const GroupVersion& gv : {GroupVersion{"", "v1"}, GroupVersion{"apps", "v1"}}) {
        StatusOr<GroupVersionResources> legacy = Run(client.FetchGroupVersion(Deadline(), gv));
        ASSERT_TRUE(legacy.Ok()) << legacy.GetStatus();
        const GroupVersionResources* aggregated = FindVersion(root->versions, gv);
        ASSERT_NE(aggregated, nullptr);
        EXPECT_EQ(aggregated->resources, legacy->resources) << gv.String();
    }
    EXPECT_EQ(Requests(kPathKindGroupVersion, kResultSuccess), 2);
}

TEST_F(DiscoveryIntegrationTest, FetchRootLegacyWhenAggregationIsRefused) {
    DiscoveryClient client = Client(/*aggregated=*/false);
    StatusOr<RootDiscovery> root = Run(client.FetchRoot(Deadline()));
    ASSERT_TRUE(root.Ok()) << root.GetStatus();
    EXPECT_FALSE(root->aggregated);
    EXPECT_TRUE(root->versions.empty());
    ASSERT_FALSE(root->groups.empty());
    EXPECT_EQ(root->groups[0], (APIGroup{"", {"v1"}}));
    const APIGroup* autoscaling = FindGroup(root->groups, "autoscaling");
    ASSERT_NE(autoscaling, nullptr);
    EXPECT_EQ(autoscaling->versions, (std::vector<std::string>{"v2", "v1"}));
    EXPECT_NE(FindGroup(root->groups, "apiextensions.k8s.io"), nullptr);
    EXPECT_EQ(Requests(kPathKindLegacyGroupList, kResultSuccess), 2);
    EXPECT_EQ(Requests(kPathKindAggregated), 0);

    // The group lists agree with the aggregated answer.
    StatusOr<RootDiscovery> aggregated = Run(Client(/*aggregated=*/true).FetchRoot(Deadline()));
    ASSERT_TRUE(aggregated.Ok()) << aggregated.GetStatus();
    EXPECT_EQ(aggregated->groups, root->groups);
}

TEST_F(DiscoveryIntegrationTest, FetchGroupListOneSideAtATime) {
    DiscoveryClient client = Client(/*aggregated=*/true);
    StatusOr<std::vector<APIGroup>> core = Run(client.FetchGroupList(Deadline(), /*core=*/true));
    ASSERT_TRUE(core.Ok()) << core.GetStatus();
    EXPECT_THAT(*core, ElementsAre(APIGroup{"", {"v1"}}));
    StatusOr<std::vector<APIGroup>> named = Run(client.FetchGroupList(Deadline(), /*core=*/false));
    ASSERT_TRUE(named.Ok()) << named.GetStatus();
    EXPECT_NE(FindGroup(*named, "apps"), nullptr);
    EXPECT_EQ(FindGroup(*named, ""), nullptr);
    EXPECT_EQ(Requests(kPathKindLegacyGroupList, kResultSuccess), 2);
}

TEST_F(DiscoveryIntegrationTest, FetchGroupVersions) {
    DiscoveryClient client = Client(/*aggregated=*/true);
    StatusOr<GroupVersionResources> core = Run(client.FetchGroupVersion(Deadline(), {"", "v1"}));
    ASSERT_TRUE(core.Ok()) << core.GetStatus();
    EXPECT_EQ(core->group_version, (GroupVersion{"", "v1"}));
    ASSERT_NE(FindResource(*core, "configmaps"), nullptr);
    EXPECT_EQ(FindResource(*core, "configmaps")->kind, "ConfigMap");
    EXPECT_TRUE(FindResource(*core, "configmaps")->namespaced);
    ASSERT_NE(FindResource(*core, "serviceaccounts/token"), nullptr);
    EXPECT_EQ(FindResource(*core, "serviceaccounts/token")->group, "authentication.k8s.io");

    StatusOr<GroupVersionResources> apps = Run(client.FetchGroupVersion(Deadline(), {"apps", "v1"}));
    ASSERT_TRUE(apps.Ok()) << apps.GetStatus();
    ASSERT_NE(FindResource(*apps, "statefulsets"), nullptr);
    EXPECT_EQ(FindResource(*apps, "statefulsets")->kind, "StatefulSet");
    EXPECT_THAT(FindResource(*apps, "statefulsets")->short_names, ElementsAre("sts"));
    EXPECT_EQ(Requests(kPathKindGroupVersion, kResultSuccess), 2);
}

TEST_F(DiscoveryIntegrationTest, MissingGroupVersionsAreNotFound) {
    DiscoveryClient client = Client(/*aggregated=*/true);
    for (const GroupVersion& gv :
         {GroupVersion{"apps", "v9"}, GroupVersion{"vpcresources.k8s.aws", "v1beta1"}, GroupVersion{"", "v2"}}) {
        StatusOr<GroupVersionResources> missing = Run(client.FetchGroupVersion(Deadline(), gv));
        ASSERT_FALSE(missing.Ok()) << gv.String();
        EXPECT_TRUE(IsNotFound(missing.GetStatus())) << missing.GetStatus();
        EXPECT_EQ(missing.GetStatus().HttpCode(), 404);
        EXPECT_THAT(missing.GetStatus().Message(), HasSubstr("group version \"" + gv.String() + "\""));
    }
    EXPECT_EQ(Requests(kPathKindGroupVersion, kResultNotFound), 3);
    EXPECT_EQ(Requests(kPathKindGroupVersion, kResultError), 0);
}

TEST_F(DiscoveryIntegrationTest, CustomResourcesAppearInBothForms) {
    constexpr char kCrds[] = R"(
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: securitygrouppolicies.vpcresources.k8s.aws
spec:
  group: vpcresources.k8s.aws
  scope: Namespaced
  names: {plural: securitygrouppolicies, singular: securitygrouppolicy, kind: SecurityGroupPolicy, shortNames: [sgp]}
  versions:
  - name: v1beta1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: cninodes.vpcresources.k8s.aws
spec:
  group: vpcresources.k8s.aws
  scope: Cluster
  names: {plural: cninodes, singular: cninode, kind: CNINode, shortNames: [cnd]}
  versions:
  - name: v1alpha1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
    subresources: {status: {}}
)";
    const std::string kubeconfig = ctrl::testing::SharedControlPlane().KubeconfigPath();
    StatusOr<ctrl::testing::CommandResult> applied =
        ctrl::testing::Kubectl(kubeconfig, {"apply", "-f", "-"}, std::chrono::seconds(30), kCrds);
    ASSERT_TRUE(applied.Ok()) << applied.GetStatus();
    ASSERT_EQ(applied->exit_code, 0) << applied->err;
    StatusOr<ctrl::testing::CommandResult> established =
        ctrl::testing::Kubectl(kubeconfig,
                               {"wait", "--for=condition=Established", "--timeout=30s",
                                "crd/securitygrouppolicies.vpcresources.k8s.aws", "crd/cninodes.vpcresources.k8s.aws"},
                               std::chrono::seconds(40));
    ASSERT_TRUE(established.Ok()) << established.GetStatus();
    ASSERT_EQ(established->exit_code, 0) << established->err;

    // Aggregated discovery learns of an established CRD shortly after: poll, with a deadline.
    DiscoveryClient client = Client(/*aggregated=*/true);
    StatusOr<RootDiscovery> root = Status(UnknownError("not fetched"));
    const auto both_versions_listed = [&] {
        root = Run(client.FetchRoot(Deadline()));
        const APIGroup* group = root.Ok() ? FindGroup(root->groups, "vpcresources.k8s.aws") : nullptr;
        return group != nullptr && group->versions.size() == 2;
    };
    (void)ctrl::testing::Eventually(both_versions_listed, ctrl::testing::kTestWait, std::chrono::milliseconds(100));
    ASSERT_TRUE(root.Ok()) << root.GetStatus();
    const APIGroup* group = FindGroup(root->groups, "vpcresources.k8s.aws");
    ASSERT_NE(group, nullptr);
    EXPECT_EQ(group->versions, (std::vector<std::string>{"v1beta1", "v1alpha1"}));
    const GroupVersionResources* v1beta1 = FindVersion(root->versions, {"vpcresources.k8s.aws", "v1beta1"});
    const GroupVersionResources* v1alpha1 = FindVersion(root->versions, {"vpcresources.k8s.aws", "v1alpha1"});
    ASSERT_NE(v1beta1, nullptr);
    ASSERT_NE(v1alpha1, nullptr);
    const APIResource* sgp = FindResource(*v1beta1, "securitygrouppolicies");
    ASSERT_NE(sgp, nullptr);
    EXPECT_EQ(sgp->kind, "SecurityGroupPolicy");
    EXPECT_EQ(sgp->singular_name, "securitygrouppolicy");
    EXPECT_TRUE(sgp->namespaced);
    EXPECT_THAT(sgp->short_names, ElementsAre("sgp"));
    EXPECT_EQ(sgp->group, "");
    const APIResource* cni = FindResource(*v1alpha1, "cninodes");
    ASSERT_NE(cni, nullptr);
    EXPECT_EQ(cni->kind, "CNINode");
    EXPECT_FALSE(cni->namespaced);
    ASSERT_NE(FindResource(*v1alpha1, "cninodes/status"), nullptr);
    EXPECT_FALSE(FindResource(*v1alpha1, "cninodes/status")->namespaced);

    // The legacy documents say the same.
    for (const GroupVersionResources* aggregated : {v1beta1, v1alpha1}) {
        StatusOr<GroupVersionResources> legacy = Run(client.FetchGroupVersion(Deadline(), aggregated->group_version));
        ASSERT_TRUE(legacy.Ok()) << legacy.GetStatus();
        EXPECT_EQ(legacy->resources, aggregated->resources) << aggregated->group_version.String();
    }
    StatusOr<std::vector<APIGroup>> named = Run(Client(/*aggregated=*/false).FetchGroupList(Deadline(), false));
    ASSERT_TRUE(named.Ok()) << named.GetStatus();
    ASSERT_NE(FindGroup(*named, "vpcresources.k8s.aws"), nullptr);
    EXPECT_EQ(FindGroup(*named, "vpcresources.k8s.aws")->versions, (std::vector<std::string>{"v1beta1", "v1alpha1"}));

    StatusOr<ctrl::testing::CommandResult> deleted = ctrl::testing::Kubectl(
        kubeconfig, {"delete", "crd", "securitygrouppolicies.vpcresources.k8s.aws", "cninodes.vpcresources.k8s.aws"},
        std::chrono::seconds(60));
    ASSERT_TRUE(deleted.Ok()) << deleted.GetStatus();
    EXPECT_EQ(deleted->exit_code, 0) << deleted->err;
}

}  // namespace
}  // namespace ctrl::discovery::test

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ctrl::testing::InstallControlPlaneEnvironment();
    return RUN_ALL_TESTS();
}
