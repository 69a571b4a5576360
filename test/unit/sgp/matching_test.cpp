// docs/sgp.md's matching rules, case by case (issue 15, acceptance 1 at the function level).

#include "controllers/sgp/matching.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace ctrl::sgp {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

api::Pod MakePod(const std::string& ns, Labels labels, const std::string& service_account = "") {
    api::Pod pod;
    pod.SetNamespace(ns);
    pod.SetName("pod");
    pod.SetLabels(labels);
    if (!service_account.empty())
        pod.SetServiceAccountName(service_account);
    return pod;
}

vpcresources::SecurityGroupPolicy MakePolicy(const std::string& ns, const std::string& name,
                                             std::optional<LabelSelectorSpec> pod_selector,
                                             std::optional<LabelSelectorSpec> sa_selector,
                                             std::vector<std::string> groups) {
    vpcresources::SecurityGroupPolicy policy;
    policy.SetNamespace(ns);
    policy.SetName(name);
    policy.SetPodSelector(pod_selector);
    policy.SetServiceAccountSelector(sa_selector);
    if (!groups.empty())
        policy.SetGroupIds(groups);
    return policy;
}

template <typename... P>
std::vector<vpcresources::SecurityGroupPolicy> Policies(P&&... policies) {
    std::vector<vpcresources::SecurityGroupPolicy> all;
    (all.push_back(std::forward<P>(policies)), ...);
    return all;
}

LabelSelectorSpec MatchLabels(Labels labels) {
    LabelSelectorSpec spec;
    spec.match_labels = std::move(labels);
    return spec;
}

LabelSelectorSpec MatchExpression(const std::string& key, LabelSelectorOperator op,
                                  std::vector<std::string> values = {}) {
    LabelSelectorSpec spec;
    spec.match_expressions.push_back(LabelSelectorRequirement{key, op, std::move(values)});
    return spec;
}

Matching For(const api::Pod& pod, const std::vector<vpcresources::SecurityGroupPolicy>& policies,
             std::optional<Labels> sa_labels = Labels{}) {
    std::vector<vpcresources::SecurityGroupPolicyView> views;
    for (const vpcresources::SecurityGroupPolicy& policy : policies)
        views.emplace_back(policy);
    return SecurityGroupsFor(pod, sa_labels, views);
}

TEST(MatchingTest, PodSelectorOnly) {
    const std::vector<vpcresources::SecurityGroupPolicy> policies =
        Policies(MakePolicy("ns", "web", MatchLabels({{"app", "web"}}), std::nullopt, {"sg-web"}));
    const api::Pod web = MakePod("ns", {{"app", "web"}});
    const api::Pod db = MakePod("ns", {{"app", "db"}});
    EXPECT_THAT(For(web, policies).groups, ElementsAre("sg-web"));
    EXPECT_THAT(For(db, policies).groups, IsEmpty());
}

TEST(MatchingTest, BothSelectorsMustMatch) {
    const std::vector<vpcresources::SecurityGroupPolicy> policies =
        Policies(MakePolicy("ns", "both", MatchLabels({{"app", "web"}}), MatchLabels({{"team", "a"}}), {"sg-both"}));
    const api::Pod pod = MakePod("ns", {{"app", "web"}}, "runner");
    EXPECT_THAT(For(pod, policies, Labels{{"team", "a"}}).groups, ElementsAre("sg-both"));
    EXPECT_THAT(For(pod, policies, Labels{{"team", "b"}}).groups, IsEmpty()) << "the ServiceAccount fails";
    EXPECT_THAT(For(MakePod("ns", {{"app", "db"}}, "runner"), policies, Labels{{"team", "a"}}).groups, IsEmpty())
        << "the pod fails";
    EXPECT_THAT(For(pod, policies, std::nullopt).groups, IsEmpty()) << "no such ServiceAccount";
}

TEST(MatchingTest, AnEmptySelectorMatchesEverything) {
    const std::vector<vpcresources::SecurityGroupPolicy> policies =
        Policies(MakePolicy("ns", "all", LabelSelectorSpec{}, std::nullopt, {"sg-all"}));
    EXPECT_THAT(For(MakePod("ns", {}), policies).groups, ElementsAre("sg-all"));
}

TEST(MatchingTest, OnlyPoliciesOfThePodsNamespaceCount) {
    const std::vector<vpcresources::SecurityGroupPolicy> policies =
        Policies(MakePolicy("other", "all", LabelSelectorSpec{}, std::nullopt, {"sg-other"}));
    EXPECT_THAT(For(MakePod("ns", {}), policies).groups, IsEmpty());
}

TEST(MatchingTest, InvalidPoliciesAreSkippedAndReported) {
    const std::vector<vpcresources::SecurityGroupPolicy> policies = Policies(
        MakePolicy("ns", "no-selector", std::nullopt, std::nullopt, {"sg-x"}),
        MakePolicy("ns", "no-groups", LabelSelectorSpec{}, std::nullopt, {}),
        MakePolicy("ns", "bad-expression", MatchExpression("app", LabelSelectorOperator::kIn), std::nullopt, {"sg-y"}),
        MakePolicy("ns", "good", LabelSelectorSpec{}, std::nullopt, {"sg-good"}));
    const Matching matching = For(MakePod("ns", {{"app", "web"}}), policies);
    EXPECT_THAT(matching.groups, ElementsAre("sg-good"));
    ASSERT_EQ(matching.invalid.size(), 3u);
    for (const InvalidPolicy& invalid : matching.invalid)
        EXPECT_FALSE(invalid.reason.Ok()) << invalid.name;
}

TEST(MatchingTest, OverlappingGroupsAreDeduplicatedInPolicyNameOrder) {
    const std::vector<vpcresources::SecurityGroupPolicy> policies =
        Policies(MakePolicy("ns", "b-second", LabelSelectorSpec{}, std::nullopt, {"sg-2", "sg-3", "sg-1"}),
                 MakePolicy("ns", "a-first", LabelSelectorSpec{}, std::nullopt, {"sg-1", "sg-2"}));
    const Matching matching = For(MakePod("ns", {}), policies);
    EXPECT_THAT(matching.groups, ElementsAre("sg-1", "sg-2", "sg-3"));
    EXPECT_EQ(AnnotationValue(matching.groups), "sg-1,sg-2,sg-3");
}

TEST(MatchingTest, NotInMatchesAnAbsentLabel) {
    const std::vector<vpcresources::SecurityGroupPolicy> policies = Policies(MakePolicy(
        "ns", "not-prod", MatchExpression("env", LabelSelectorOperator::kNotIn, {"prod"}), std::nullopt, {"sg-dev"}));
    EXPECT_THAT(For(MakePod("ns", {}), policies).groups, ElementsAre("sg-dev"));
    EXPECT_THAT(For(MakePod("ns", {{"env", "prod"}}), policies).groups, IsEmpty());
}

TEST(MatchingTest, ExistsAndDoesNotExist) {
    const std::vector<vpcresources::SecurityGroupPolicy> policies = Policies(
        MakePolicy("ns", "exists", MatchExpression("tier", LabelSelectorOperator::kExists), std::nullopt, {"sg-tier"}),
        MakePolicy("ns", "absent", MatchExpression("tier", LabelSelectorOperator::kDoesNotExist), std::nullopt,
                   {"sg-none"}));
    EXPECT_THAT(For(MakePod("ns", {{"tier", "x"}}), policies).groups, ElementsAre("sg-tier"));
    EXPECT_THAT(For(MakePod("ns", {}), policies).groups, ElementsAre("sg-none"));
}

TEST(MatchingTest, APodWithoutServiceAccountNameRunsAsDefault) {
    const api::Pod unnamed = MakePod("ns", {});
    const api::Pod named = MakePod("ns", {}, "runner");
    EXPECT_EQ(ServiceAccountOf(unnamed), "default");
    EXPECT_EQ(ServiceAccountOf(named), "runner");
}

TEST(MatchingTest, AServiceAccountsLabelsDecide) {
    const std::vector<vpcresources::SecurityGroupPolicy> policies =
        Policies(MakePolicy("ns", "sa", std::nullopt, MatchLabels({{"secure", "yes"}}), {"sg-sa"}));
    const api::Pod pod = MakePod("ns", {}, "runner");
    EXPECT_THAT(For(pod, policies, Labels{}).groups, IsEmpty());
    EXPECT_THAT(For(pod, policies, Labels{{"secure", "yes"}}).groups, ElementsAre("sg-sa"))
        << "the same pod once its ServiceAccount got the label";
}

TEST(MatchingTest, NoGroupsGiveAnEmptyAnnotation) {
    EXPECT_EQ(AnnotationValue({}), "");
}

}  // namespace
}  // namespace ctrl::sgp
