#include "controllers/sgp/policy_webhook.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include "ctrl/builder/webhook_builder.hpp"
#include "ctrl/scheme/schema_validation.hpp"

namespace ctrl::sgp {
namespace {

using vpcresources::SecurityGroupPolicy;

// Whether spec.<field> is present and `{}`.
bool IsEmptySelector(const StatusOr<std::optional<LabelSelectorSpec>>& selector) {
    return selector.Ok() && selector->has_value() && (*selector)->match_labels.empty() &&
           (*selector)->match_expressions.empty();
}

bool IsPresent(const StatusOr<std::optional<LabelSelectorSpec>>& selector) {
    return !selector.Ok() || selector->has_value();
}

}  // namespace

bool IsSecurityGroupId(std::string_view id) {
    if (!id.starts_with("sg-"))
        return false;
    const std::string_view digits = id.substr(3);
    return (digits.size() == 8 || digits.size() == 17) && std::all_of(digits.begin(), digits.end(), [](char c) {
               return std::isdigit(static_cast<unsigned char>(c)) || (c >= 'a' && c <= 'f');
           });
}

Status CheckPolicy(const SecurityGroupPolicy& policy) {
    scheme::Validation validation;
    policy.Validate(validation);
    const std::vector<std::string> group_ids = policy.GroupIds();
    for (std::size_t i = 0; i < group_ids.size(); ++i) {
        if (!IsSecurityGroupId(group_ids[i]))
            validation.Add("FieldValueInvalid", "spec.securityGroups.groupIds[" + std::to_string(i) + "]",
                           "\"" + group_ids[i] + "\" is not a security group id (sg- and 8 or 17 hexadecimal digits)");
    }
    return validation.ToStatus("SecurityGroupPolicy", policy.Key());
}

bool DefaultPolicy(SecurityGroupPolicy& policy) {
    bool changed = false;
    const auto pod_selector = policy.PodSelector();
    const auto sa_selector = policy.ServiceAccountSelector();
    if (IsEmptySelector(sa_selector) && IsPresent(pod_selector) && !IsEmptySelector(pod_selector)) {
        policy.SetServiceAccountSelector(std::nullopt);
        changed = true;
    } else if (IsEmptySelector(pod_selector) && IsPresent(sa_selector) && !IsEmptySelector(sa_selector)) {
        policy.SetPodSelector(std::nullopt);
        changed = true;
    }
    const std::vector<std::string> group_ids = policy.GroupIds();
    std::vector<std::string> unique;
    std::set<std::string> seen;
    for (const std::string& id : group_ids)
        if (seen.insert(id).second)
            unique.push_back(id);
    if (unique.size() != group_ids.size()) {
        policy.SetGroupIds(unique);
        changed = true;
    }
    return changed;
}

Task<webhook::admission::Verdict> PolicyValidator::ValidateCreate(Context /*ctx*/, const SecurityGroupPolicy& policy) {
    co_return CheckPolicy(policy);
}

Task<webhook::admission::Verdict> PolicyValidator::ValidateUpdate(Context /*ctx*/,
                                                                  const SecurityGroupPolicy& /*old_policy*/,
                                                                  const SecurityGroupPolicy& policy) {
    co_return CheckPolicy(policy);
}

Task<Status> PolicyDefaulter::Default(Context /*ctx*/, SecurityGroupPolicy& policy) {
    (void)DefaultPolicy(policy);
    co_return OkStatus();
}

Status AddWebhooksToManager(manager::Manager& mgr) {
    return builder::WebhookManagedBy(mgr)
        .For<SecurityGroupPolicy>()
        .WithValidator(std::make_shared<PolicyValidator>())
        .WithDefaulter(std::make_shared<PolicyDefaulter>())
        .Complete();
}

}  // namespace ctrl::sgp
