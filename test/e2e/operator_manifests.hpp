#pragma once

// What the operator needs on the control plane, installed from the repository's manifests/ the way
// a user installs it (`kubectl apply -k manifests/`), and the credentials it runs with: a
// TokenRequest token of its ServiceAccount, so the RBAC of manifests/ is what the tests exercise.

#include <string>
#include <string_view>

#include "ctrl/core/status_or.hpp"

namespace ctrl::e2e {

inline constexpr std::string_view kOperatorNamespace = "ctrl-system";
inline constexpr std::string_view kOperatorServiceAccount = "ctrl-operator";
inline constexpr std::string_view kSgpCrdName = "securitygrouppolicies.vpcresources.k8s.aws";

// Applies what `kubectl kustomize manifests/` renders (namespace, ServiceAccount, RBAC, CRDs, ...)
// and waits until its CRDs are Established. Without the SecurityGroupPolicy CRD when with_sgp_crd is
// false (the CRD-arrives-late test installs it later with InstallSgpCrd).
Status InstallOperatorManifests(bool with_sgp_crd = true);

// Applies manifests/crd's SecurityGroupPolicy CRD and waits until it is Established.
Status InstallSgpCrd();

// A TokenRequest token (`kubectl create token`, valid one hour) of ServiceAccount
// ctrl-system/<service_account>.
StatusOr<std::string> ServiceAccountToken(std::string_view service_account = kOperatorServiceAccount);

// Creates ServiceAccount ctrl-system/<service_account> bound to copies of the ClusterRoles bound to
// ctrl-system/ctrl-operator, where `verb` is taken out of every rule that grants it on `resource`:
// the operator's RBAC with one rule less.
Status CreateServiceAccountWithout(std::string_view service_account, std::string_view resource, std::string_view verb);

}  // namespace ctrl::e2e
