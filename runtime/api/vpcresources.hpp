#pragma once

#include "runtime/core/status.hpp"
#include "runtime/scheme/scheme.hpp"

// The vpcresources.k8s.aws API group of AWS's VPC resource controller: not built into Kubernetes
// (its CRDs are in manifests/crd/), registered the way a user registers their own kinds.
namespace ctrl::api {

namespace vpcresourcesv1beta1 {
// Registers SecurityGroupPolicy and SecurityGroupPolicyList.
Status AddToScheme(scheme::Scheme& scheme);
}  // namespace vpcresourcesv1beta1

namespace vpcresourcesv1alpha1 {
// Registers CNINode and CNINodeList.
Status AddToScheme(scheme::Scheme& scheme);
}  // namespace vpcresourcesv1alpha1

}  // namespace ctrl::api
