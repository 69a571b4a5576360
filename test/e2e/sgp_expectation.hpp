#pragma once

// What the SecurityGroupPolicy rules of docs/sgp.md give, computed by the tests themselves from a
// fresh `kubectl get` of pods, ServiceAccounts and policies: the independent side the operator's
// annotations and statuses are compared with. Written from the rules, not from controllers/sgp:
//  - only policies of the pod's namespace count;
//  - a policy with neither selector, without groupIds, or with a bad matchExpression (an unknown
//    operator, In/NotIn without values, Exists/DoesNotExist with values) is invalid and skipped;
//  - a present selector must match (`{}` matches everything): podSelector the pod's labels,
//    serviceAccountSelector the labels of the pod's ServiceAccount (spec.serviceAccountName,
//    "default" when unset; a ServiceAccount that does not exist matches no selector);
//  - the groups are the matching policies' groupIds, policies in name order, de-duplicated keeping
//    the first.

#include <string>
#include <vector>

#include "ctrl/core/object.hpp"
#include "ctrl/core/status_or.hpp"

namespace ctrl::e2e {

inline constexpr char kSecurityGroupsAnnotation[] = "ctrl.example.com/security-groups";

// Pods, ServiceAccounts and SecurityGroupPolicies of some namespaces, as kubectl lists them.
struct ClusterSnapshot {
    std::vector<Object> pods;
    std::vector<Object> service_accounts;
    std::vector<Object> policies;
};

// Reads the namespaces' pods, ServiceAccounts and (when with_policies) policies with kubectl.
StatusOr<ClusterSnapshot> ReadSnapshot(const std::vector<std::string>& namespaces, bool with_policies = true);

// Why a policy is invalid, as the status reason the contract names: "NoSelector", "InvalidSelector"
// or "NoGroupIds" (the first that applies, in that order, as the operator documents); "" when valid.
std::string InvalidReason(const Object& policy);

// Whether a valid policy selects the pod (same namespace, each present selector matching).
bool PolicySelects(const Object& policy, const Object& pod, const ClusterSnapshot& snapshot);

// The annotation value the pod should carry: its groups joined by commas ("" for none).
std::string ExpectedAnnotation(const Object& pod, const ClusterSnapshot& snapshot);

// How many of the snapshot's pods a policy selects (0 for an invalid policy).
int ExpectedMatchedPods(const Object& policy, const ClusterSnapshot& snapshot);

// The pod's annotation as it is ("" when absent).
std::string ActualAnnotation(const Object& pod);

// One line per pod whose annotation is not what the rules give ("" when every pod agrees).
std::string AnnotationMismatches(const ClusterSnapshot& snapshot);

// A pod of the snapshot by namespace and name (nullptr when absent).
const Object* FindPod(const ClusterSnapshot& snapshot, const std::string& namespace_name, const std::string& name);
const Object* FindPolicy(const ClusterSnapshot& snapshot, const std::string& namespace_name, const std::string& name);

}  // namespace ctrl::e2e
