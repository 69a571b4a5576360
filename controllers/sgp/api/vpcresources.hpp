#pragma once

// The vpcresources.k8s.aws API group of AWS's VPC resource controller: not built into Kubernetes (its
// CRDs are in manifests/crd/), registered the way a user registers their own kinds. The kinds and the
// AddToScheme of each version are generated from those CRDs by ctrl-gen (runtime/api/CMakeLists.txt):
//   vpcresourcesv1beta1::AddToScheme   SecurityGroupPolicy, SecurityGroupPolicyList
//   vpcresourcesv1alpha1::AddToScheme  CNINode, CNINodeList
#include "controllers/sgp/api/vpcresources_v1alpha1.hpp"
#include "controllers/sgp/api/vpcresources_v1beta1.hpp"
