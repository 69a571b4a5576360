#include "controllers/sgp/policy_status.hpp"

#include <array>
#include <optional>
#include <string_view>
#include <vector>

#include "ctrl/api/condition.hpp"
#include "ctrl/core/label_selector.hpp"

namespace ctrl::sgp {
namespace {

// FieldPath does not own its names: these outlive every use.
constexpr std::array<std::string_view, 3> kGroupIdsPath{"spec", "securityGroups", "groupIds"};
constexpr std::array<std::string_view, 2> kConditionsPath{"status", "conditions"};

// Why a selector (spec.<field>) cannot be used, or nullopt when it can (or is absent).
std::optional<std::string> SelectorProblem(const StatusOr<std::optional<LabelSelectorSpec>>& selector,
                                           const std::string& field) {
    if (!selector.Ok())
        return "spec." + field + ": " + selector.GetStatus().Message();
    if (!selector->has_value())
        return std::nullopt;
    StatusOr<LabelSelector> usable = ToSelector(**selector);
    if (!usable.Ok())
        return "spec." + field + ": " + usable.GetStatus().Message();
    return std::nullopt;
}

PolicyVerdict Invalid(const char* reason, std::string message) {
    return PolicyVerdict{false, reason, std::move(message)};
}

}  // namespace

PolicyVerdict JudgePolicy(const vpcresources::SecurityGroupPolicyView& policy) {
    const auto pod_selector = policy.PodSelector();
    const auto sa_selector = policy.ServiceAccountSelector();
    const bool pod_absent = pod_selector.Ok() && !pod_selector->has_value();
    const bool sa_absent = sa_selector.Ok() && !sa_selector->has_value();
    if (pod_absent && sa_absent)
        return Invalid(kReasonNoSelector, "spec: neither podSelector nor serviceAccountSelector is set");
    if (std::optional<std::string> problem = SelectorProblem(pod_selector, "podSelector"))
        return Invalid(kReasonInvalidSelector, *problem);
    if (std::optional<std::string> problem = SelectorProblem(sa_selector, "serviceAccountSelector"))
        return Invalid(kReasonInvalidSelector, *problem);
    const FieldPath group_ids_path(kGroupIdsPath);
    const StatusOr<std::vector<Object>> group_ids = policy.AsObject().NestedSlice(group_ids_path);
    if (!policy.AsObject().HasNestedField(group_ids_path) || (group_ids.Ok() && group_ids->empty()))
        return Invalid(kReasonNoGroupIds, "spec.securityGroups.groupIds: at least one security group id is required");
    if (!group_ids.Ok())
        return Invalid(kReasonInvalidGroupIds, "spec.securityGroups.groupIds: " + group_ids.GetStatus().Message());
    if (Status valid = policy.Validate(); !valid.Ok())
        return Invalid(kReasonInvalidGroupIds, valid.Message());
    return PolicyVerdict{true, kReasonValid, ""};
}

StatusOr<bool> ApplyPolicyStatus(Object& policy, const PolicyStatus& status, api::Timestamp now) {
    const FieldPath conditions_path(kConditionsPath);
    std::vector<api::Condition> conditions = api::ReadConditions(policy, conditions_path);
    api::Condition ready;
    ready.type = "Ready";
    ready.status = status.verdict.valid ? "True" : "False";
    ready.reason = status.verdict.reason;
    ready.message =
        status.verdict.valid ? "selects " + std::to_string(status.matched_pods) + " pod(s)" : status.verdict.message;
    ready.observed_generation = status.observed_generation;
    bool changed = api::SetStatusCondition(conditions, std::move(ready), now);

    const StatusOr<int64_t> generation = policy.NestedInt({"status", "observedGeneration"});
    if (!generation.Ok() || *generation != status.observed_generation) {
        CTRL_RETURN_IF_ERROR(policy.SetNestedInt({"status", "observedGeneration"}, status.observed_generation));
        changed = true;
    }
    const StatusOr<int64_t> matched = policy.NestedInt({"status", "matchedPods"});
    if (!matched.Ok() || *matched != status.matched_pods) {
        CTRL_RETURN_IF_ERROR(policy.SetNestedInt({"status", "matchedPods"}, status.matched_pods));
        changed = true;
    }
    if (changed)
        CTRL_RETURN_IF_ERROR(api::WriteConditions(policy, conditions_path, conditions));
    return changed;
}

}  // namespace ctrl::sgp
