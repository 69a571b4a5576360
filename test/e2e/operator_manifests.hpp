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

// Which SecurityGroupPolicy and CNINode CRDs a test binary's control plane gets.
enum class SgpCrd {
    kProject,  // the project's (manifests/crd/, with a status subresource), from manifests/overlays/bare
    kNone,     // the bare overlay without the SecurityGroupPolicy CRD (it arrives late: InstallSgpCrd)
    kAws,      // AWS's, as published (test/e2e/testdata/aws/, created unmodified), then manifests/: EKS
};

// Installs the operator the way a user does on that kind of cluster and waits until the CRDs are
// Established: for kProject and kNone what `kubectl kustomize manifests/overlays/bare` renders
// (namespace, ServiceAccount, RBAC, CRDs, ...), for kAws AWS's CRDs (`kubectl create -f`) then what
// `kubectl kustomize manifests/` renders. Without the admission webhook configurations, as
// hack/run-local.sh before its operator serves: the tests' operators run as local processes
// without webhooks (no kubelet runs the Deployment behind the webhook Service), and with
// failurePolicy Fail the configurations would refuse every SecurityGroupPolicy write, the invalid
// policies the status tests create too (test/integration/sgp tests the webhooks).
Status InstallOperatorManifests(SgpCrd crd = SgpCrd::kProject);

// Deletes manifests/' two webhook configurations (those `kubectl apply -k manifests/` created).
Status DeleteWebhookConfigurations();

// `kubectl create -f` of AWS's two CRDs from test/e2e/testdata/aws/, waiting until Established.
Status InstallAwsCrds();

// The path of AWS's SecurityGroupPolicy CRD file in the repository.
inline constexpr std::string_view kAwsSgpCrdFile =
    "test/e2e/testdata/aws/vpcresources.k8s.aws_securitygrouppolicies.yaml";

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
