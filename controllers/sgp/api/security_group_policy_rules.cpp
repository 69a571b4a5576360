#include "controllers/sgp/api/security_group_policy_rules.hpp"

#include "controllers/sgp/api/security_group_policy.hpp"
#include "ctrl/scheme/field_ref.hpp"

namespace ctrl::vpcresources::sgp_rules {

namespace {

// ReadSelector without the field in the message.
StatusOr<std::optional<LabelSelectorSpec>> DecodeSelector(const Object& policy, std::string_view field) {
    StatusOr<Object> value = policy.NestedMap({"spec", field});
    if (IsNotFound(value.GetStatus()))
        return std::optional<LabelSelectorSpec>();
    if (!value.Ok()) {
        const scheme::JsonType type = scheme::FieldRef(policy).Child("spec").Child(field).Type();
        if (type == scheme::JsonType::kAbsent)  // spec itself is not an object; the status says so
            return value.GetStatus();
        return BadRequestError("is " + std::string(scheme::JsonTypeName(type)) + ", not an object");
    }
    CTRL_ASSIGN_OR_RETURN(LabelSelectorSpec spec, LabelSelectorSpec::FromObject(*value));
    return std::optional<LabelSelectorSpec>(std::move(spec));
}

}  // namespace

StatusOr<std::optional<LabelSelectorSpec>> ReadSelector(const Object& policy, std::string_view field) {
    StatusOr<std::optional<LabelSelectorSpec>> selector = DecodeSelector(policy, field);
    if (!selector.Ok())
        return selector.GetStatus().Annotate("spec." + std::string(field));
    return selector;
}

void WriteSelector(Object& policy, std::string_view field, const std::optional<LabelSelectorSpec>& selector) {
    if (!selector) {
        policy.RemoveNestedField({"spec", field});
        return;
    }
    // {} first, in the selector's place, so nothing of the previous selector stays.
    scheme::MutableFieldRef(policy).Child("spec").Child(field).Set(Object());
    // Both selectors have the podSelector's shape: its generated writer serves both paths.
    const SecurityGroupPolicySpecPodSelectorRef out(scheme::MutableFieldRef(policy).Child("spec").Child(field));
    if (!selector->match_labels.empty())
        out.SetMatchLabels(selector->match_labels);
    for (const LabelSelectorRequirement& requirement : selector->match_expressions) {
        const SecurityGroupPolicySpecPodSelectorMatchExpressionsRef expression = out.AddMatchExpressions();
        expression.SetKey(requirement.key);
        expression.SetOperator(std::string(LabelSelectorOperatorName(requirement.op)));
        if (!requirement.values.empty())
            expression.SetValues(requirement.values);
    }
}

std::vector<std::string> GroupIds(const Object& policy) {
    return SecurityGroupPolicyView(policy).Spec().SecurityGroups().GroupIds();
}

void SetGroupIds(Object& policy, const std::vector<std::string>& group_ids) {
    SecurityGroupPolicySpecRef(scheme::MutableFieldRef(policy).Child("spec"))
        .MutableSecurityGroups()
        .SetGroupIds(group_ids);
}

void ValidateRules(const Object& policy, scheme::Validation& validation) {
    const auto pod_selector = DecodeSelector(policy, "podSelector");
    const auto sa_selector = DecodeSelector(policy, "serviceAccountSelector");
    if (!pod_selector.Ok())
        validation.Add("FieldValueInvalid", "spec.podSelector", pod_selector.GetStatus().Message());
    if (!sa_selector.Ok())
        validation.Add("FieldValueInvalid", "spec.serviceAccountSelector", sa_selector.GetStatus().Message());
    const bool pod_absent = pod_selector.Ok() && !pod_selector->has_value();
    const bool sa_absent = sa_selector.Ok() && !sa_selector->has_value();
    if (pod_absent && sa_absent)
        validation.Add("FieldValueRequired", "spec",
                       "at least one of podSelector and serviceAccountSelector is required");
    if (!SecurityGroupPolicyView(policy).Spec().SecurityGroups().HasGroupIds())
        validation.Add("FieldValueRequired", "spec.securityGroups.groupIds",
                       "at least one security group id is required");
}

}  // namespace ctrl::vpcresources::sgp_rules
