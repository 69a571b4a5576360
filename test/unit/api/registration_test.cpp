#include <gtest/gtest.h>

#include <typeindex>

#include "controllers/sgp/api/cni_node.hpp"
#include "controllers/sgp/api/security_group_policy.hpp"
#include "controllers/sgp/api/vpcresources.hpp"
#include "ctrl/api/builtins.hpp"
#include "ctrl/api/config_map.hpp"
#include "ctrl/api/custom_resource_definition.hpp"
#include "ctrl/api/lease.hpp"
#include "ctrl/api/pod.hpp"
#include "ctrl/scheme/scheme.hpp"

namespace ctrl::api {
namespace {

TEST(RegistrationTest, BuiltinsRegisterEveryTypedKindAndItsList) {
    scheme::Scheme scheme;
    ASSERT_TRUE(AddAllBuiltinsToScheme(scheme).Ok());
    const std::vector<GroupVersionKind> expected = {
        {"", "v1", "Pod"},
        {"", "v1", "PodList"},
        {"", "v1", "Namespace"},
        {"", "v1", "NamespaceList"},
        {"", "v1", "ServiceAccount"},
        {"", "v1", "ServiceAccountList"},
        {"", "v1", "ConfigMap"},
        {"", "v1", "ConfigMapList"},
        {"", "v1", "Secret"},
        {"", "v1", "SecretList"},
        {"", "v1", "Event"},
        {"", "v1", "EventList"},
        {"coordination.k8s.io", "v1", "Lease"},
        {"coordination.k8s.io", "v1", "LeaseList"},
        {"apiextensions.k8s.io", "v1", "CustomResourceDefinition"},
        {"apiextensions.k8s.io", "v1", "CustomResourceDefinitionList"},
    };
    for (const GroupVersionKind& gvk : expected)
        EXPECT_TRUE(scheme.Recognizes(gvk)) << gvk;
    EXPECT_EQ(scheme.AllKnownTypes().size(), expected.size());
    EXPECT_FALSE(scheme.IsGroupRegistered("vpcresources.k8s.aws"));

    EXPECT_EQ(*scheme.ObjectKind<Pod>(), (GroupVersionKind{"", "v1", "Pod"}));
    EXPECT_EQ(*scheme.TypeFor({"", "v1", "PodList"}), std::type_index(typeid(PodList)));
    EXPECT_EQ(*scheme.TypeFor({"coordination.k8s.io", "v1", "Lease"}), std::type_index(typeid(Lease)));
    EXPECT_EQ(*scheme.ListKindFor({"", "v1", "ConfigMap"}), (GroupVersionKind{"", "v1", "ConfigMapList"}));

    // Idempotent: a program may call it from several places.
    EXPECT_TRUE(AddAllBuiltinsToScheme(scheme).Ok());
}

TEST(RegistrationTest, NewObjectsAreTheTypedKinds) {
    scheme::Scheme scheme;
    ASSERT_TRUE(AddAllBuiltinsToScheme(scheme).Ok());
    auto object = scheme.New({"apiextensions.k8s.io", "v1", "CustomResourceDefinition"});
    ASSERT_TRUE(object.Ok()) << object.GetStatus();
    auto crd = CustomResourceDefinition::FromObject(std::move(object).Value());
    ASSERT_TRUE(crd.Ok()) << crd.GetStatus();
    EXPECT_FALSE(crd->IsEstablished());

    auto pod = scheme.New({"", "v1", "Pod"});
    ASSERT_TRUE(pod.Ok());
    EXPECT_TRUE(scheme::IsKind<Pod>(*pod));
    EXPECT_TRUE(scheme::IsNotRegistered(scheme.New({"", "v1", "Service"}).GetStatus()));
}

TEST(RegistrationTest, VpcResourcesTwoVersionsOfOneGroup) {
    scheme::Scheme scheme;
    ASSERT_TRUE(AddAllBuiltinsToScheme(scheme).Ok());
    ASSERT_TRUE(vpcresources::vpcresourcesv1beta1::AddToScheme(scheme).Ok());
    ASSERT_TRUE(vpcresources::vpcresourcesv1alpha1::AddToScheme(scheme).Ok());
    EXPECT_EQ(*scheme.ObjectKind<vpcresources::SecurityGroupPolicy>(),
              (GroupVersionKind{"vpcresources.k8s.aws", "v1beta1", "SecurityGroupPolicy"}));
    EXPECT_EQ(*scheme.ObjectKind<vpcresources::CNINodeList>(),
              (GroupVersionKind{"vpcresources.k8s.aws", "v1alpha1", "CNINodeList"}));
    EXPECT_EQ(scheme.VersionsForGroup("vpcresources.k8s.aws"), (std::vector<std::string>{"v1beta1", "v1alpha1"}));
    EXPECT_EQ(scheme.KnownTypes({"vpcresources.k8s.aws", "v1beta1"}).size(), 2u);
    EXPECT_FALSE(scheme.Recognizes({"vpcresources.k8s.aws", "v1beta1", "CNINode"}));
}

}  // namespace
}  // namespace ctrl::api
