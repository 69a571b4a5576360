// The static RESTMapper and the mapper the fake client builds from a scheme.
#include "ctrl/discovery/static_rest_mapper.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include "controllers/sgp/api/vpcresources.hpp"
#include "ctrl/api/builtins.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/fake/builtin_kinds.hpp"
#include "test/support/eventually.hpp"

namespace ctrl::fake {
namespace {

using ctrl::testing::TestContext;

using discovery::Scope;

TEST(StaticRESTMapperTest, MapsWhatItWasGivenAndNothingElse) {
    discovery::StaticRESTMapper mapper;
    const GroupVersionKind v1{"example.com", "v1", "Widget"};
    const GroupVersionKind v2{"example.com", "v2", "Widget"};
    mapper.Add(v1, "widgets", Scope::kNamespace);
    mapper.Add(v2, "widgets", Scope::kNamespace);
    boost::asio::io_context io;
    const GroupKind kind{"example.com", "Widget"};
    const std::vector<std::string> any;
    StatusOr<discovery::RESTMapping> preferred = RunSync(io, mapper.RESTMapping(TestContext(), kind, any));
    ASSERT_TRUE(preferred.Ok()) << preferred.GetStatus();
    EXPECT_EQ(preferred->resource.version, "v1") << "versions are preferred in the order added";
    ASSERT_TRUE(mapper.CachedMapping(v2).has_value());
    EXPECT_EQ(mapper.CachedMapping(v2)->resource.resource, "widgets");

    const GroupVersionResource singular{"example.com", "", "widget"};
    StatusOr<GroupVersionKind> by_singular = RunSync(io, mapper.KindFor(TestContext(), singular));
    ASSERT_TRUE(by_singular.Ok()) << by_singular.GetStatus();
    EXPECT_EQ(*by_singular, v1);
    StatusOr<std::string> single = RunSync(io, mapper.ResourceSingularizer(TestContext(), "widgets"));
    EXPECT_EQ(single.ValueOr(""), "widget");

    const GroupKind absent{"example.com", "Gadget"};
    EXPECT_TRUE(IsNoMatch(RunSync(io, mapper.RESTMapping(TestContext(), absent, any)).GetStatus()));
    EXPECT_FALSE(mapper.CachedMapping({"example.com", "v3", "Widget"}).has_value());

    mapper.Add(v1, "widgets", Scope::kRoot);
    EXPECT_EQ(mapper.CachedMapping(v1)->scope, Scope::kRoot) << "adding again replaces";
}

TEST(StaticRESTMapperTest, GuessesPluralsAsApimachineryDoes) {
    EXPECT_EQ(discovery::GuessPluralResource("Pod"), "pods");
    EXPECT_EQ(discovery::GuessPluralResource("Ingress"), "ingresses");
    EXPECT_EQ(discovery::GuessPluralResource("NetworkPolicy"), "networkpolicies");
    EXPECT_EQ(discovery::GuessPluralResource("SecurityGroupPolicy"), "securitygrouppolicies");
}

TEST(RESTMapperForSchemeTest, KnowsTheScopeOfBuiltInKinds) {
    scheme::Scheme scheme;
    ASSERT_TRUE(api::AddAllBuiltinsToScheme(scheme).Ok());
    ASSERT_TRUE(vpcresources::vpcresourcesv1beta1::AddToScheme(scheme).Ok());
    ASSERT_TRUE(vpcresources::vpcresourcesv1alpha1::AddToScheme(scheme).Ok());
    const GroupKind lease{"coordination.k8s.io", "Lease"};
    const GroupKind cni_node{"vpcresources.k8s.aws", "CNINode"};
    std::shared_ptr<discovery::StaticRESTMapper> mapper = NewRESTMapperForScheme(scheme, {lease, cni_node});
    auto scope = [&](const GroupVersionKind& gvk) {
        std::optional<discovery::RESTMapping> mapping = mapper->CachedMapping(gvk);
        EXPECT_TRUE(mapping.has_value()) << gvk.String();
        return mapping ? mapping->scope : Scope::kNamespace;
    };
    EXPECT_EQ(scope({"", "v1", "Pod"}), Scope::kNamespace);
    EXPECT_EQ(scope({"", "v1", "Namespace"}), Scope::kRoot);
    EXPECT_EQ(scope({"apiextensions.k8s.io", "v1", "CustomResourceDefinition"}), Scope::kRoot);
    EXPECT_EQ(scope({"vpcresources.k8s.aws", "v1alpha1", "CNINode"}), Scope::kRoot)
        << "a custom kind added as cluster-scoped";
    EXPECT_EQ(scope({"vpcresources.k8s.aws", "v1beta1", "SecurityGroupPolicy"}), Scope::kNamespace);
    EXPECT_EQ(scope({"coordination.k8s.io", "v1", "Lease"}), Scope::kRoot) << "added as cluster-scoped";
    EXPECT_EQ(mapper->CachedMapping({"", "v1", "ConfigMap"})->resource.resource, "configmaps");
    EXPECT_EQ(scope({"apps", "v1", "Deployment"}), Scope::kNamespace) << "built-in kinds the scheme lacks";
    EXPECT_EQ(scope({"rbac.authorization.k8s.io", "v1", "ClusterRole"}), Scope::kRoot);
    EXPECT_EQ(mapper->CachedMapping({"", "v1", "Endpoints"})->resource.resource, "endpoints");
    EXPECT_EQ(mapper->CachedMapping({"networking.k8s.io", "v1", "Ingress"})->resource.resource, "ingresses");
}

}  // namespace
}  // namespace ctrl::fake
