#include "controllers/sgp/api/security_group_policy.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "controllers/sgp/api/cni_node.hpp"
#include "test/unit/api/api_test_util.hpp"

namespace ctrl::vpcresources {
namespace {

using api::testing::ExpectRoundTrip;
using api::testing::MustParse;
using api::testing::ReadTestdata;

SecurityGroupPolicy SgpWithSpec(std::string_view spec) {
    return MustParse<SecurityGroupPolicy>(
        R"({"apiVersion":"vpcresources.k8s.aws/v1beta1","kind":"SecurityGroupPolicy",)"
        R"("metadata":{"name":"p","namespace":"ns"},"spec":)" +
        std::string(spec) + "}");
}

std::vector<std::string> CauseFields(const Status& status) {
    std::vector<std::string> fields;
    for (const StatusCause& cause : status.Causes())
        fields.push_back(cause.field);
    return fields;
}

TEST(SecurityGroupPolicyTest, ReadsBothSelectorsAndGroupIds) {
    const std::string json = ReadTestdata("sgp.json");
    SecurityGroupPolicy sgp = MustParse<SecurityGroupPolicy>(json);
    auto pod_selector = sgp.PodSelector();
    ASSERT_TRUE(pod_selector.Ok()) << pod_selector.GetStatus();
    ASSERT_TRUE(pod_selector->has_value());
    EXPECT_EQ((*pod_selector)->match_labels, (std::map<std::string, std::string>{{"app", "web"}}));
    ASSERT_EQ((*pod_selector)->match_expressions.size(), 1u);
    EXPECT_EQ((*pod_selector)->match_expressions[0],
              (LabelSelectorRequirement{"tier", LabelSelectorOperator::kIn, {"frontend", "edge"}}));
    auto sa_selector = sgp.ServiceAccountSelector();
    ASSERT_TRUE(sa_selector.Ok());
    EXPECT_EQ((*sa_selector)->match_labels, (std::map<std::string, std::string>{{"role", "frontend"}}));
    EXPECT_EQ(sgp.GroupIds(), (std::vector<std::string>{"sg-0a1b2c3d4e5f60718", "sg-0123456789abcdef0"}));
    EXPECT_TRUE(sgp.Validate().Ok()) << sgp.Validate();
    ExpectRoundTrip(sgp, json);  // spec.x-future-field survives
}

TEST(SecurityGroupPolicyTest, AbsentAndEmptySelectorsDiffer) {
    SecurityGroupPolicy empty = SgpWithSpec(R"({"podSelector":{},"securityGroups":{"groupIds":["sg-1"]}})");
    auto selector = empty.PodSelector();
    ASSERT_TRUE(selector.Ok());
    ASSERT_TRUE(selector->has_value());  // {} is present: it selects every pod
    EXPECT_EQ(**selector, LabelSelectorSpec{});
    auto everything = ToSelector(**selector);
    ASSERT_TRUE(everything.Ok());
    EXPECT_TRUE(everything->Empty());
    EXPECT_TRUE(empty.Validate().Ok());

    auto absent = empty.ServiceAccountSelector();
    ASSERT_TRUE(absent.Ok());
    EXPECT_FALSE(absent->has_value());

    SecurityGroupPolicy null_selector =
        SgpWithSpec(R"({"podSelector":null,"serviceAccountSelector":{},"securityGroups":{"groupIds":["sg-1"]}})");
    EXPECT_FALSE(null_selector.PodSelector()->has_value());  // null reads as absent
    EXPECT_TRUE(null_selector.ServiceAccountSelector()->has_value());
    EXPECT_TRUE(null_selector.Validate().Ok());
}

TEST(SecurityGroupPolicyTest, ValidateNeedsASelector) {
    Status status = SgpWithSpec(R"({"securityGroups":{"groupIds":["sg-1"]}})").Validate();
    EXPECT_TRUE(IsInvalid(status)) << status;
    EXPECT_EQ(CauseFields(status), std::vector<std::string>{"spec"});
    EXPECT_EQ(status.Causes()[0].type, "FieldValueRequired");
    EXPECT_EQ(status.Message(),
              "SecurityGroupPolicy ns/p is invalid: spec: at least one of podSelector and serviceAccountSelector "
              "is required");
}

TEST(SecurityGroupPolicyTest, ValidateNeedsGroupIds) {
    Status missing = SgpWithSpec(R"({"podSelector":{}})").Validate();
    EXPECT_TRUE(IsInvalid(missing));
    EXPECT_EQ(CauseFields(missing), std::vector<std::string>{"spec.securityGroups.groupIds"});

    Status empty = SgpWithSpec(R"({"podSelector":{},"securityGroups":{"groupIds":[]}})").Validate();
    EXPECT_EQ(CauseFields(empty), std::vector<std::string>{"spec.securityGroups.groupIds"});

    Status wrong_type = SgpWithSpec(R"({"podSelector":{},"securityGroups":{"groupIds":"sg-1"}})").Validate();
    EXPECT_EQ(CauseFields(wrong_type), std::vector<std::string>{"spec.securityGroups.groupIds"});
    EXPECT_EQ(wrong_type.Causes()[0].type, "FieldValueInvalid");

    Status bad_entry = SgpWithSpec(R"({"podSelector":{},"securityGroups":{"groupIds":["sg-1",7]}})").Validate();
    EXPECT_EQ(CauseFields(bad_entry), std::vector<std::string>{"spec.securityGroups.groupIds[1]"});
}

TEST(SecurityGroupPolicyTest, ValidateReportsMalformedSelectors) {
    SecurityGroupPolicy sgp =
        SgpWithSpec(R"({"podSelector":{"matchExpressions":[{"key":"a","operator":"Near","values":["x"]}]},)"
                    R"("serviceAccountSelector":"all","securityGroups":{"groupIds":["sg-1"]}})");
    EXPECT_TRUE(IsBadRequest(sgp.PodSelector().GetStatus()));
    EXPECT_EQ(sgp.PodSelector().GetStatus().Message().rfind("spec.podSelector: ", 0), 0u)
        << sgp.PodSelector().GetStatus();
    EXPECT_TRUE(IsBadRequest(sgp.ServiceAccountSelector().GetStatus()));

    Status status = sgp.Validate();
    EXPECT_TRUE(IsInvalid(status));
    EXPECT_EQ(CauseFields(status), (std::vector<std::string>{"spec.podSelector", "spec.serviceAccountSelector"}));
    EXPECT_NE(status.Causes()[0].message.find("Near"), std::string::npos) << status;
    EXPECT_EQ(status.Causes()[1].message, "is a string, not an object");
}

TEST(SecurityGroupPolicyTest, ValidateReportsEveryProblem) {
    Status status = SgpWithSpec("{}").Validate();
    EXPECT_EQ(CauseFields(status), (std::vector<std::string>{"spec", "spec.securityGroups.groupIds"}));
    Status no_spec = SecurityGroupPolicy().Validate();
    EXPECT_EQ(CauseFields(no_spec), (std::vector<std::string>{"spec", "spec.securityGroups.groupIds"}));
}

TEST(SecurityGroupPolicyTest, WritesSelectorsThatReadBack) {
    SecurityGroupPolicy sgp;
    sgp.SetName("p");
    sgp.SetNamespace("ns");
    const LabelSelectorSpec pods{
        {{"app", "web"}},
        {{"tier", LabelSelectorOperator::kNotIn, {"batch"}}, {"canary", LabelSelectorOperator::kDoesNotExist, {}}}};
    sgp.SetPodSelector(pods);
    sgp.SetServiceAccountSelector(LabelSelectorSpec{});
    sgp.SetGroupIds({"sg-1", "sg-2"});
    EXPECT_EQ(sgp.ToJson(),
              R"({"apiVersion":"vpcresources.k8s.aws/v1beta1","kind":"SecurityGroupPolicy","metadata":{"name":"p",)"
              R"("namespace":"ns"},"spec":{"podSelector":{"matchLabels":{"app":"web"},"matchExpressions":[)"
              R"({"key":"tier","operator":"NotIn","values":["batch"]},{"key":"canary","operator":"DoesNotExist"}]},)"
              R"("serviceAccountSelector":{},"securityGroups":{"groupIds":["sg-1","sg-2"]}}})");
    EXPECT_EQ(**sgp.PodSelector(), pods);
    EXPECT_EQ(**sgp.ServiceAccountSelector(), LabelSelectorSpec{});
    EXPECT_TRUE(sgp.Validate().Ok());

    sgp.SetServiceAccountSelector(std::nullopt);
    EXPECT_FALSE(sgp.ServiceAccountSelector()->has_value());
    EXPECT_FALSE(sgp.HasNestedField({"spec", "serviceAccountSelector"}));
}

TEST(SecurityGroupPolicyTest, ViewOfAListItem) {
    SecurityGroupPolicyList list = MustParse<SecurityGroupPolicyList>(
        R"({"apiVersion":"vpcresources.k8s.aws/v1beta1","kind":"SecurityGroupPolicyList","items":[)"
        R"({"metadata":{"name":"a"},"spec":{"podSelector":{},"securityGroups":{"groupIds":["sg-1"]}}},)"
        R"({"metadata":{"name":"b"},"spec":{}}]})");
    std::vector<bool> valid;
    for (SecurityGroupPolicyView sgp : list.Views())
        valid.push_back(sgp.Validate().Ok());
    EXPECT_EQ(valid, (std::vector<bool>{true, false}));
}

TEST(CNINodeTest, ReadsFeaturesAndTags) {
    const std::string json = ReadTestdata("cninode.json");
    CNINode node = MustParse<CNINode>(json);
    const std::vector<CNINodeSpecFeatures> features = node.Spec().Features();
    ASSERT_EQ(features.size(), 2u);
    EXPECT_EQ(features[0].Name(), std::optional<std::string>("SecurityGroupsForPods"));
    EXPECT_EQ(features[0].Value(), std::nullopt);
    EXPECT_EQ(features[1].Name(), std::optional<std::string>("CustomNetworking"));
    EXPECT_EQ(features[1].Value(), std::optional<std::string>("eniconfig-us-east-1a"));
    EXPECT_EQ(node.Spec().Tags().at("kubernetes.io/cluster/shop"), "owned");
    EXPECT_EQ(node.Namespace(), "");
    EXPECT_FALSE(CNINode::kNamespaced);
    ExpectRoundTrip(node, json);

    CNINode fresh;
    fresh.MutableSpec().AddFeatures().SetName("SecurityGroupsForPods");
    EXPECT_EQ(fresh.ToJson(), R"({"apiVersion":"vpcresources.k8s.aws/v1alpha1","kind":"CNINode",)"
                              R"("spec":{"features":[{"name":"SecurityGroupsForPods"}]}})");
    fresh.MutableSpec().ClearFeatures();
    EXPECT_TRUE(CNINodeView(fresh).Spec().Features().empty());
}

}  // namespace
}  // namespace ctrl::vpcresources
