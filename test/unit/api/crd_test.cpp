#include "ctrl/api/custom_resource_definition.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test/unit/api/api_test_util.hpp"

namespace ctrl::api {
namespace {

using testing::ExpectRoundTrip;
using testing::MustParse;
using testing::ReadTestdata;

TEST(CustomResourceDefinitionTest, ReadsAnEstablishedCrd) {
    const std::string json = ReadTestdata("crd_sgp.json");
    CustomResourceDefinition crd = MustParse<CustomResourceDefinition>(json);
    EXPECT_EQ(crd.Group(), "vpcresources.k8s.aws");
    EXPECT_EQ(crd.Scope(), "Namespaced");
    EXPECT_TRUE(crd.IsNamespaced());
    const CustomResourceNames names{
        "securitygrouppolicies", "securitygrouppolicy", "SecurityGroupPolicy", "SecurityGroupPolicyList", {"sgp"}, {}};
    EXPECT_EQ(crd.Names(), names);
    EXPECT_EQ(crd.AcceptedNames(), names);

    const std::vector<CustomResourceDefinitionVersion> versions = crd.Versions();
    ASSERT_EQ(versions.size(), 2u);
    EXPECT_EQ(versions[0], (CustomResourceDefinitionVersion{"v1beta1", true, true, false, false, false}));
    EXPECT_EQ(versions[1], (CustomResourceDefinitionVersion{"v1alpha9", false, false, true, true, true}));
    EXPECT_EQ(crd.FindVersion("v1alpha9")->deprecated, true);
    EXPECT_EQ(crd.FindVersion("v2"), std::nullopt);
    EXPECT_EQ(crd.ServedKinds(),
              (std::vector<GroupVersionKind>{{"vpcresources.k8s.aws", "v1beta1", "SecurityGroupPolicy"}}));
    EXPECT_EQ(crd.StoredVersions(), std::vector<std::string>{"v1beta1"});

    EXPECT_TRUE(crd.IsEstablished());
    EXPECT_TRUE(crd.IsNamesAccepted());
    ASSERT_EQ(crd.Conditions().size(), 2u);
    EXPECT_EQ(crd.Conditions()[1].reason, "InitialNamesAccepted");
    ExpectRoundTrip(crd, json);
}

TEST(CustomResourceDefinitionTest, NotEstablishedUntilTheConditionIsTrue) {
    constexpr std::string_view kHead =
        R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"x"})";
    EXPECT_FALSE(MustParse<CustomResourceDefinition>(std::string(kHead) + "}").IsEstablished());
    EXPECT_FALSE(MustParse<CustomResourceDefinition>(std::string(kHead) +
                                                     R"(,"status":{"conditions":[)"
                                                     R"({"type":"NamesAccepted","status":"True"},)"
                                                     R"({"type":"Established","status":"False"}]}})")
                     .IsEstablished());
    EXPECT_FALSE(MustParse<CustomResourceDefinition>(std::string(kHead) +
                                                     R"(,"status":{"conditions":[)"
                                                     R"({"type":"NamesAccepted","status":"True"}]}})")
                     .IsEstablished());
    EXPECT_FALSE(MustParse<CustomResourceDefinition>(std::string(kHead) +
                                                     R"(,"status":{"conditions":[)"
                                                     R"({"type":"Established","status":"Unknown"}]}})")
                     .IsEstablished());
    EXPECT_TRUE(MustParse<CustomResourceDefinition>(std::string(kHead) + R"(,"status":{"conditions":[)"
                                                                         R"({"type":"Established","status":"True"}]}})")
                    .IsEstablished());
}

TEST(CustomResourceDefinitionTest, StopsServingAVersion) {
    CustomResourceDefinition crd = MustParse<CustomResourceDefinition>(ReadTestdata("crd_sgp.json"));
    ASSERT_TRUE(crd.SetVersionServed("v1beta1", false).Ok());
    EXPECT_FALSE(crd.FindVersion("v1beta1")->served);
    EXPECT_TRUE(crd.ServedKinds().empty());
    ASSERT_TRUE(crd.SetVersionServed("v1alpha9", true).Ok());
    EXPECT_EQ(crd.ServedKinds().size(), 1u);
    Status missing = crd.SetVersionServed("v3", true);
    EXPECT_TRUE(IsNotFound(missing)) << missing;
    // The version's other fields (schema, printer columns) are untouched.
    EXPECT_TRUE(crd.HasNestedField({"spec"}));
    auto versions = crd.NestedSlice({"spec", "versions"});
    ASSERT_TRUE(versions.Ok());
    EXPECT_TRUE((*versions)[0].HasNestedField({"additionalPrinterColumns"}));
}

TEST(CustomResourceDefinitionTest, ClusterScopedView) {
    auto object = Object::Parse(
        R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":)"
        R"("cninodes.vpcresources.k8s.aws"},"spec":{"group":"vpcresources.k8s.aws","scope":"Cluster","names":)"
        R"({"plural":"cninodes","kind":"CNINode","shortNames":["cnd"]},"versions":[{"name":"v1alpha1","served":true,)"
        R"("storage":true}]}})");
    ASSERT_TRUE(object.Ok());
    CustomResourceDefinitionView view(*object);
    EXPECT_FALSE(view.IsNamespaced());
    EXPECT_EQ(view.Names().short_names, std::vector<std::string>{"cnd"});
    EXPECT_EQ(view.Names().list_kind, "");  // not defaulted by the view: the server does that
    EXPECT_EQ(view.ServedKinds(), (std::vector<GroupVersionKind>{{"vpcresources.k8s.aws", "v1alpha1", "CNINode"}}));
}

}  // namespace
}  // namespace ctrl::api
