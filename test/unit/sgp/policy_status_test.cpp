// A SecurityGroupPolicy's status: the verdict on each kind of invalid policy, and the status fields
// written only when they change.

#include "controllers/sgp/policy_status.hpp"

#include <gtest/gtest.h>

#include <chrono>

#include "ctrl/api/condition.hpp"

namespace ctrl::sgp {
namespace {

using namespace std::chrono_literals;

const api::Timestamp kT0 = api::Timestamp(std::chrono::seconds(1'700'000'000));

vpcresources::SecurityGroupPolicy Parse(const std::string& spec) {
    StatusOr<Object> object = Object::Parse(
        R"({"apiVersion":"vpcresources.k8s.aws/v1beta1","kind":"SecurityGroupPolicy","metadata":{"name":"p",)"
        R"("namespace":"ns","generation":3},"spec":)" +
        spec + "}");
    EXPECT_TRUE(object.Ok()) << object.GetStatus();
    return *vpcresources::SecurityGroupPolicy::FromObject(std::move(object).Value());
}

TEST(JudgePolicyTest, AValidPolicy) {
    const vpcresources::SecurityGroupPolicy policy =
        Parse(R"({"podSelector":{"matchLabels":{"app":"web"}},"securityGroups":{"groupIds":["sg-1"]}})");
    const PolicyVerdict verdict = JudgePolicy(policy);
    EXPECT_TRUE(verdict.valid);
    EXPECT_EQ(verdict.reason, kReasonValid);
}

TEST(JudgePolicyTest, EachKindOfInvalidPolicyHasItsReason) {
    struct Case {
        const char* spec;
        const char* reason;
        const char* in_message;
    };
    for (const Case& c : {
             Case{R"({"securityGroups":{"groupIds":["sg-1"]}})", kReasonNoSelector, "podSelector"},
             Case{R"({"podSelector":{}})", kReasonNoGroupIds, "groupIds"},
             Case{R"({"podSelector":{},"securityGroups":{"groupIds":[]}})", kReasonNoGroupIds, "groupIds"},
             Case{R"({"podSelector":{"matchExpressions":[{"key":"a","operator":"Near"}]},)"
                  R"("securityGroups":{"groupIds":["sg-1"]}})",
                  kReasonInvalidSelector, "spec.podSelector"},
             Case{R"({"podSelector":{},"serviceAccountSelector":{"matchExpressions":[{"key":"a","operator":"In"}]},)"
                  R"("securityGroups":{"groupIds":["sg-1"]}})",
                  kReasonInvalidSelector, "spec.serviceAccountSelector"},
             Case{R"({"podSelector":{},"securityGroups":{"groupIds":"sg-1"}})", kReasonInvalidGroupIds, "groupIds"},
             Case{R"({"podSelector":{},"securityGroups":{"groupIds":["sg-1",7]}})", kReasonInvalidGroupIds,
                  "groupIds[1]"},
         }) {
        const vpcresources::SecurityGroupPolicy policy = Parse(c.spec);
        const PolicyVerdict verdict = JudgePolicy(policy);
        EXPECT_FALSE(verdict.valid) << c.spec;
        EXPECT_EQ(verdict.reason, c.reason) << c.spec;
        EXPECT_NE(verdict.message.find(c.in_message), std::string::npos) << c.spec << " -> " << verdict.message;
    }
}

TEST(ApplyPolicyStatusTest, WritesTheFieldsOnceAndThenReportsNoChange) {
    vpcresources::SecurityGroupPolicy policy = Parse(R"({"podSelector":{},"securityGroups":{"groupIds":["sg-1"]}})");
    const PolicyStatus status{3, 2, PolicyVerdict{}};
    StatusOr<bool> changed = ApplyPolicyStatus(policy, status, kT0);
    ASSERT_TRUE(changed.Ok()) << changed.GetStatus();
    EXPECT_TRUE(*changed);
    EXPECT_EQ(policy.NestedInt({"status", "observedGeneration"}).Value(), 3);
    EXPECT_EQ(policy.NestedInt({"status", "matchedPods"}).Value(), 2);
    const std::vector<api::Condition> conditions = api::ReadConditions(policy, {"status", "conditions"});
    ASSERT_EQ(conditions.size(), 1u);
    EXPECT_EQ(conditions[0].type, "Ready");
    EXPECT_EQ(conditions[0].status, "True");
    EXPECT_EQ(conditions[0].reason, "Valid");
    EXPECT_EQ(conditions[0].observed_generation, 3);
    EXPECT_EQ(conditions[0].last_transition_time, kT0);

    changed = ApplyPolicyStatus(policy, status, kT0 + 60s);
    ASSERT_TRUE(changed.Ok());
    EXPECT_FALSE(*changed) << "the same status again is no write";
}

TEST(ApplyPolicyStatusTest, BecomingInvalidFlipsReadyAndItsTransitionTime) {
    vpcresources::SecurityGroupPolicy policy = Parse(R"({"podSelector":{},"securityGroups":{"groupIds":["sg-1"]}})");
    ASSERT_TRUE(ApplyPolicyStatus(policy, PolicyStatus{3, 2, PolicyVerdict{}}, kT0).Ok());
    const PolicyStatus invalid{4, 0, PolicyVerdict{false, kReasonNoGroupIds, "no ids"}};
    StatusOr<bool> changed = ApplyPolicyStatus(policy, invalid, kT0 + 10s);
    ASSERT_TRUE(changed.Ok());
    EXPECT_TRUE(*changed);
    const std::vector<api::Condition> conditions = api::ReadConditions(policy, {"status", "conditions"});
    ASSERT_EQ(conditions.size(), 1u);
    EXPECT_EQ(conditions[0].status, "False");
    EXPECT_EQ(conditions[0].reason, "NoGroupIds");
    EXPECT_EQ(conditions[0].message, "no ids");
    EXPECT_EQ(conditions[0].last_transition_time, kT0 + 10s);
    EXPECT_EQ(policy.NestedInt({"status", "matchedPods"}).Value(), 0);
    EXPECT_EQ(policy.NestedInt({"status", "observedGeneration"}).Value(), 4);
}

}  // namespace
}  // namespace ctrl::sgp
