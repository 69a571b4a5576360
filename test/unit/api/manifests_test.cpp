// The manifests under manifests/ (CRDs and samples) say what docs/sgp.md says, and the test
// helper that hands them to integration tests as JSON reads them faithfully.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "controllers/sgp/api/security_group_policy.hpp"
#include "ctrl/api/custom_resource_definition.hpp"
#include "test/support/crds.hpp"

namespace ctrl::api {
namespace {

CustomResourceDefinition MustReadCrd(const StatusOr<std::string>& json) {
    EXPECT_TRUE(json.Ok()) << json.GetStatus();
    if (!json.Ok())
        return CustomResourceDefinition();
    auto crd = CustomResourceDefinition::Parse(*json);
    EXPECT_TRUE(crd.Ok()) << crd.GetStatus();
    return crd.Ok() ? std::move(crd).Value() : CustomResourceDefinition();
}

TEST(YamlToJsonTest, TypesScalarsAsYamlDoes) {
    auto json = ctrl::testing::YamlToJson(R"(
int: 15
negative: -3
float: 1.5
short_float: .5
quoted: "15"
single: 'true'
yes_bool: true
no_bool: False
tilde: ~
empty:
version: v1beta1
folded: >-
  two
  lines
literal: |
  keep
list:
  - a
  - {b: 1}
)");
    ASSERT_TRUE(json.Ok()) << json.GetStatus();
    EXPECT_EQ(*json, R"({"int":15,"negative":-3,"float":1.5,"short_float":0.5,"quoted":"15","single":"true",)"
                     R"("yes_bool":true,"no_bool":false,"tilde":null,"empty":null,"version":"v1beta1",)"
                     R"("folded":"two lines","literal":"keep\n","list":["a",{"b":1}]})");
}

TEST(YamlToJsonTest, RefusesMalformedOrSeveralDocuments) {
    EXPECT_TRUE(IsBadRequest(ctrl::testing::YamlToJson("a: [1, 2").GetStatus()));
    EXPECT_TRUE(IsBadRequest(ctrl::testing::YamlToJson("a: 1\n---\nb: 2\n").GetStatus()));
    EXPECT_TRUE(IsNotFound(ctrl::testing::ManifestJson("manifests/crd/nothing-here.yaml").GetStatus()));
}

TEST(CrdManifestTest, SecurityGroupPolicy) {
    CustomResourceDefinition crd = MustReadCrd(ctrl::testing::SecurityGroupPolicyCrdJson());
    EXPECT_EQ(crd.Name(), "securitygrouppolicies.vpcresources.k8s.aws");
    EXPECT_EQ(crd.Group(), "vpcresources.k8s.aws");
    EXPECT_EQ(crd.Names(), (CustomResourceNames{"securitygrouppolicies",
                                                "securitygrouppolicy",
                                                "SecurityGroupPolicy",
                                                "SecurityGroupPolicyList",
                                                {"sgp"},
                                                {}}));
    EXPECT_TRUE(crd.IsNamespaced());
    EXPECT_EQ(crd.Versions(),
              (std::vector<CustomResourceDefinitionVersion>{{"v1beta1", true, true, false, true, false}}));

    auto versions = crd.NestedSlice({"spec", "versions"});
    ASSERT_TRUE(versions.Ok()) << versions.GetStatus();
    const Object& v1beta1 = (*versions)[0];
    auto columns = v1beta1.NestedSlice({"additionalPrinterColumns"});
    ASSERT_TRUE(columns.Ok());
    ASSERT_EQ(columns->size(), 4u);
    EXPECT_EQ(*(*columns)[0].NestedString({"name"}), "Security-Group-Ids");
    EXPECT_EQ(*(*columns)[0].NestedString({"type"}), "string");
    EXPECT_EQ(*(*columns)[0].NestedString({"jsonPath"}), ".spec.securityGroups.groupIds");
    EXPECT_EQ(*(*columns)[1].NestedString({"jsonPath"}), ".status.conditions[?(@.type==\"Ready\")].status");
    EXPECT_EQ(*(*columns)[2].NestedString({"jsonPath"}), ".status.matchedPods");

    // A path below the schema of spec.
    const auto spec_path = [](std::initializer_list<std::string_view> rest) {
        std::vector<std::string_view> path = {"schema", "openAPIV3Schema", "properties", "spec", "properties"};
        path.insert(path.end(), rest);
        return path;
    };
    const auto min_items = spec_path({"securityGroups", "properties", "groupIds", "minItems"});
    EXPECT_EQ(v1beta1.NestedInt(FieldPath(min_items)).ValueOr(0), 1);
    const auto item_type = spec_path({"securityGroups", "properties", "groupIds", "items", "type"});
    EXPECT_EQ(v1beta1.NestedString(FieldPath(item_type)).ValueOr(""), "string");
    for (std::string_view selector : {"podSelector", "serviceAccountSelector"}) {
        for (std::string_view part : {"matchLabels", "matchExpressions"}) {
            const auto path = spec_path({selector, "properties", part, "type"});
            auto type = v1beta1.NestedString(FieldPath(path));
            ASSERT_TRUE(type.Ok()) << selector << "." << part << ": " << type.GetStatus();
            EXPECT_EQ(*type, part == "matchLabels" ? "object" : "array");
        }
    }
    // Ours, not upstream's: the status the SGP watcher writes, through the status subresource.
    EXPECT_TRUE(v1beta1.HasNestedField({"subresources", "status"}));
    EXPECT_EQ(
        v1beta1.NestedString({"schema", "openAPIV3Schema", "properties", "status", "properties", "matchedPods", "type"})
            .ValueOr(""),
        "integer");
}

TEST(CrdManifestTest, CniNode) {
    CustomResourceDefinition crd = MustReadCrd(ctrl::testing::CniNodeCrdJson());
    EXPECT_EQ(crd.Name(), "cninodes.vpcresources.k8s.aws");
    EXPECT_EQ(crd.Names(), (CustomResourceNames{"cninodes", "cninode", "CNINode", "CNINodeList", {"cnd"}, {}}));
    EXPECT_FALSE(crd.IsNamespaced());
    EXPECT_EQ(crd.ServedKinds(), (std::vector<GroupVersionKind>{{"vpcresources.k8s.aws", "v1alpha1", "CNINode"}}));
    auto versions = crd.NestedSlice({"spec", "versions"});
    ASSERT_TRUE(versions.Ok());
    for (std::string_view part : {"spec", "status"}) {
        EXPECT_EQ(*(*versions)[0].NestedBool(
                      {"schema", "openAPIV3Schema", "properties", part, "x-kubernetes-preserve-unknown-fields"}),
                  true)
            << part;
    }
}

TEST(SampleManifestTest, SamplesAreValidPolicies) {
    for (std::string_view path : {"manifests/samples/securitygrouppolicy-pods.yaml",
                                  "manifests/samples/securitygrouppolicy-serviceaccount.yaml"}) {
        auto json = ctrl::testing::ManifestJson(path);
        ASSERT_TRUE(json.Ok()) << json.GetStatus();
        auto sgp = vpcresources::SecurityGroupPolicy::Parse(*json);
        ASSERT_TRUE(sgp.Ok()) << path << ": " << sgp.GetStatus();
        EXPECT_TRUE(sgp->Validate().Ok()) << path << ": " << sgp->Validate();
        EXPECT_FALSE(sgp->GroupIds().empty()) << path;
    }
}

}  // namespace
}  // namespace ctrl::api
