#include "controllers/sgp/policy_webhook.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace ctrl::sgp {
namespace {

using vpcresources::SecurityGroupPolicy;

SecurityGroupPolicy Parse(std::string_view spec) {
    StatusOr<SecurityGroupPolicy> policy = SecurityGroupPolicy::Parse(
        R"({"apiVersion":"vpcresources.k8s.aws/v1beta1","kind":"SecurityGroupPolicy",
            "metadata":{"name":"p","namespace":"ns"},"spec":)" +
        std::string(spec) + "}");
    EXPECT_TRUE(policy.Ok()) << policy.GetStatus();
    return std::move(policy).Value();
}

TEST(PolicyWebhookTest, SecurityGroupIdsAreSgAnd8Or17LowerHexDigits) {
    EXPECT_TRUE(IsSecurityGroupId("sg-0123abcd"));
    EXPECT_TRUE(IsSecurityGroupId("sg-0123456789abcdef0"));
    for (std::string_view bad : {"sg-1", "sg-web", "sg-0123ABCD", "sg-0123456789", "0123abcd", "sg-0123abcg", ""})
        EXPECT_FALSE(IsSecurityGroupId(bad)) << bad;
}

TEST(PolicyWebhookTest, EachProblemIsACauseNamingItsField) {
    EXPECT_TRUE(CheckPolicy(Parse(R"({"podSelector":{"matchLabels":{"app":"web"}},
        "securityGroups":{"groupIds":["sg-0123456789abcdef0"]}})"))
                    .Ok());

    const Status none = CheckPolicy(Parse(R"({"securityGroups":{"groupIds":["sg-0123abcd"]}})"));
    EXPECT_TRUE(IsInvalid(none));
    EXPECT_THAT(none.Message(), ::testing::HasSubstr("at least one of podSelector and serviceAccountSelector"));

    const Status no_ids = CheckPolicy(Parse(R"({"podSelector":{}})"));
    EXPECT_THAT(no_ids.Message(), ::testing::HasSubstr("spec.securityGroups.groupIds"));

    const Status bad_id =
        CheckPolicy(Parse(R"({"podSelector":{},"securityGroups":{"groupIds":["sg-0123abcd","sg-web"]}})"));
    ASSERT_EQ(bad_id.Causes().size(), 1u);
    EXPECT_EQ(bad_id.Causes()[0].field, "spec.securityGroups.groupIds[1]");
    EXPECT_THAT(bad_id.Message(), ::testing::HasSubstr("\"sg-web\" is not a security group id"));

    const Status bad_operator = CheckPolicy(Parse(R"({"podSelector":{"matchExpressions":[
        {"key":"app","operator":"Like","values":["x"]}]},"securityGroups":{"groupIds":["sg-0123abcd"]}})"));
    EXPECT_TRUE(IsInvalid(bad_operator));
    EXPECT_THAT(bad_operator.Message(), ::testing::HasSubstr("spec.podSelector"));
    EXPECT_THAT(bad_operator.Message(), ::testing::HasSubstr("\"Like\""));
}

TEST(PolicyWebhookTest, DefaultingRemovesOnlyWhatMeansNothing) {
    SecurityGroupPolicy both = Parse(R"({"podSelector":{"matchLabels":{"app":"web"}},"serviceAccountSelector":{},
        "securityGroups":{"groupIds":["sg-0123abcd","sg-0123abcd","sg-89abcdef"]}})");
    EXPECT_TRUE(DefaultPolicy(both));
    EXPECT_FALSE(both.ServiceAccountSelector()->has_value()) << "{} beside a selector matches everything: removed";
    EXPECT_EQ(both.GroupIds(), (std::vector<std::string>{"sg-0123abcd", "sg-89abcdef"}));

    SecurityGroupPolicy only_empty =
        Parse(R"({"serviceAccountSelector":{},"securityGroups":{"groupIds":["sg-0123abcd"]}})");
    EXPECT_FALSE(DefaultPolicy(only_empty)) << "the only selector, even {}, means something";
    EXPECT_TRUE(only_empty.ServiceAccountSelector()->has_value());
}

}  // namespace
}  // namespace ctrl::sgp
