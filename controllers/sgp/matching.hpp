#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "controllers/sgp/api/security_group_policy.hpp"
#include "ctrl/api/pod.hpp"
#include "ctrl/core/labels.hpp"
#include "ctrl/core/status.hpp"

namespace ctrl::sgp {

// The pod annotation the watcher writes: the pod's security groups, comma-separated, in order.
inline constexpr std::string_view kSecurityGroupsAnnotation = "ctrl.example.com/security-groups";

// A policy that cannot apply, and why (its Validate error: no selector, no groupIds, a bad
// matchExpression).
struct InvalidPolicy {
    std::string name;
    Status reason;
};

// What the policies of a namespace give one pod (docs/sgp.md, "What a pod gets").
struct Matching {
    // The union of the matching policies' groupIds: policies in name order (as the server lists
    // them), each policy's own order, duplicates dropped keeping the first.
    std::vector<std::string> groups;
    // Policies of the pod's namespace that were skipped as invalid.
    std::vector<InvalidPolicy> invalid;
};

// The ServiceAccount a pod runs as: spec.serviceAccountName, "default" when unset.
std::string ServiceAccountOf(const api::PodView& pod);

// Computes a pod's security groups from policies (of any namespace: only those in the pod's own
// count). service_account_labels are the labels of the pod's ServiceAccount object, nullopt when
// it does not exist (a policy with a serviceAccountSelector then does not match). A policy matches
// when each selector it has matches (podSelector the pod's labels, serviceAccountSelector the
// ServiceAccount's); an empty selector `{}` matches everything; a policy with neither selector or
// without groupIds is invalid and skipped. Pure: no I/O.
Matching SecurityGroupsFor(const api::PodView& pod, const std::optional<Labels>& service_account_labels,
                           const std::vector<vpcresources::SecurityGroupPolicyView>& policies);

// Whether policy selects a pod with these labels whose ServiceAccount has these (nullopt: it does
// not exist): each selector the policy has must match; `{}` matches everything. Invalid (the
// policy's error) when a selector cannot be read or turned into a label selector.
StatusOr<bool> PolicySelects(const vpcresources::SecurityGroupPolicyView& policy, const Labels& pod_labels,
                             const std::optional<Labels>& service_account_labels);

// groups joined with commas: the annotation's value ("" for none).
std::string AnnotationValue(const std::vector<std::string>& groups);

}  // namespace ctrl::sgp
