#include "controllers/sgp/matching.hpp"

#include <algorithm>
#include <set>

namespace ctrl::sgp {
namespace {

// Whether an optional selector matches labels: absent (nullopt) matches; a present one must.
// nullopt labels (the object does not exist) match only an absent selector.
StatusOr<bool> SelectorMatches(const std::optional<LabelSelectorSpec>& spec, const std::optional<Labels>& labels) {
    if (!spec)
        return true;
    if (!labels)
        return false;
    CTRL_ASSIGN_OR_RETURN(LabelSelector selector, ToSelector(*spec));
    return selector.Matches(*labels);
}

}  // namespace

StatusOr<bool> PolicySelects(const vpcresources::SecurityGroupPolicyView& policy, const Labels& pod_labels,
                             const std::optional<Labels>& service_account_labels) {
    CTRL_ASSIGN_OR_RETURN(std::optional<LabelSelectorSpec> pod_selector, policy.PodSelector());
    CTRL_ASSIGN_OR_RETURN(std::optional<LabelSelectorSpec> sa_selector, policy.ServiceAccountSelector());
    CTRL_ASSIGN_OR_RETURN(bool pod_matches, SelectorMatches(pod_selector, pod_labels));
    if (!pod_matches)
        return false;
    return SelectorMatches(sa_selector, service_account_labels);
}

std::string ServiceAccountOf(const api::PodView& pod) {
    const std::string_view name = pod.ServiceAccountName();
    return name.empty() ? std::string("default") : std::string(name);
}

Matching SecurityGroupsFor(const api::PodView& pod, const std::optional<Labels>& service_account_labels,
                           const std::vector<vpcresources::SecurityGroupPolicyView>& policies) {
    std::vector<const vpcresources::SecurityGroupPolicyView*> in_namespace;
    for (const vpcresources::SecurityGroupPolicyView& policy : policies) {
        if (policy.AsObject().Namespace() == pod.AsObject().Namespace())
            in_namespace.push_back(&policy);
    }
    std::stable_sort(in_namespace.begin(), in_namespace.end(),
                     [](const auto* a, const auto* b) { return a->AsObject().Name() < b->AsObject().Name(); });

    Matching matching;
    std::set<std::string> seen;
    const Labels pod_labels = pod.AsObject().Labels();
    for (const vpcresources::SecurityGroupPolicyView* policy : in_namespace) {
        if (Status valid = policy->Validate(); !valid.Ok()) {
            matching.invalid.push_back(InvalidPolicy{std::string(policy->AsObject().Name()), std::move(valid)});
            continue;
        }
        StatusOr<bool> matches = PolicySelects(*policy, pod_labels, service_account_labels);
        if (!matches.Ok()) {
            matching.invalid.push_back(InvalidPolicy{std::string(policy->AsObject().Name()), matches.GetStatus()});
            continue;
        }
        if (!*matches)
            continue;
        for (std::string& group : policy->GroupIds()) {
            if (seen.insert(group).second)
                matching.groups.push_back(std::move(group));
        }
    }
    return matching;
}

std::string AnnotationValue(const std::vector<std::string>& groups) {
    std::string value;
    for (const std::string& group : groups) {
        if (!value.empty())
            value += ",";
        value += group;
    }
    return value;
}

}  // namespace ctrl::sgp
