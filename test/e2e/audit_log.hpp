#pragma once

// The API server's own record of the requests the operator made: kube-apiserver started with an
// audit policy that logs every request to SecurityGroupPolicies (and their subresources) at level
// Metadata, one JSON event per request, so a test can count what was attempted, whatever the answer.

#include <string>

#include "ctrl/core/status_or.hpp"
#include "test/e2e/operator_manifests.hpp"

namespace ctrl::e2e {

// Like InstallE2eEnvironment(crd), with kube-apiserver auditing SecurityGroupPolicy requests to a
// file of this test binary (removed at exit unless CTRL_KEEP_CONTROL_PLANE_DIR is set).
void InstallAuditedE2eEnvironment(SgpCrd crd);

// The SecurityGroupPolicy requests of the audit log so far.
struct SgpRequests {
    int all = 0;     // of any verb, to the resource or a subresource
    int status = 0;  // to the status subresource (any verb, any answer)
};

// The requests that user ("system:serviceaccount:ctrl-system:ctrl-operator") made in namespace ns.
StatusOr<SgpRequests> AuditedSgpRequests(const std::string& user, const std::string& ns);

}  // namespace ctrl::e2e
