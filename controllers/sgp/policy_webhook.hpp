#pragma once

#include <string_view>

#include "controllers/sgp/api/security_group_policy.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/manager/manager.hpp"
#include "ctrl/webhook/admission/handler.hpp"

namespace ctrl::sgp {

// Whether id is an AWS security group id: "sg-" and 8 or 17 lower-case hexadecimal digits.
bool IsSecurityGroupId(std::string_view id);

// What the validating webhook checks of a policy: the rules of docs/sgp.md and the CRD's schema
// (SecurityGroupPolicy::Validate: a selector, readable selectors with known operators, group ids),
// and what neither can say: each group id is a security group id. Invalid with one cause per
// problem, each naming its field ("spec.securityGroups.groupIds[1]").
Status CheckPolicy(const vpcresources::SecurityGroupPolicy& policy);

// Sets what a policy leaves to defaults, changing nothing it means: a selector that is `{}` while
// the other one is set is removed (both must match, and `{}` matches everything), and a group id
// listed twice keeps its first place only. Returns whether it changed the policy.
bool DefaultPolicy(vpcresources::SecurityGroupPolicy& policy);

// The validating webhook (CheckPolicy on create and update).
class PolicyValidator final : public webhook::admission::Validator<vpcresources::SecurityGroupPolicy> {
  public:
    Task<webhook::admission::Verdict> ValidateCreate(Context ctx,
                                                     const vpcresources::SecurityGroupPolicy& policy) override;
    Task<webhook::admission::Verdict> ValidateUpdate(Context ctx, const vpcresources::SecurityGroupPolicy& old_policy,
                                                     const vpcresources::SecurityGroupPolicy& policy) override;
};

// The defaulting webhook (DefaultPolicy).
class PolicyDefaulter final : public webhook::admission::Defaulter<vpcresources::SecurityGroupPolicy> {
  public:
    Task<Status> Default(Context ctx, vpcresources::SecurityGroupPolicy& policy) override;
};

// Registers both on mgr's webhook server, at controller-runtime's paths
// (/validate-vpcresources-k8s-aws-v1beta1-securitygrouppolicy, /mutate-...).
Status AddWebhooksToManager(manager::Manager& mgr);

// The webhook configurations that call them (manifests/webhook/webhooks.yaml): with self-managed
// certificates the operator injects its CA bundle into these two and no others.
inline constexpr const char* kValidatingWebhookConfiguration = "ctrl-operator-sgp-rules";
inline constexpr const char* kMutatingWebhookConfiguration = "ctrl-operator-sgp-defaults";

}  // namespace ctrl::sgp
