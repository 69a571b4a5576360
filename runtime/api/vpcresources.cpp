#include "runtime/api/vpcresources.hpp"

#include "runtime/api/cni_node.hpp"
#include "runtime/api/security_group_policy.hpp"

namespace ctrl::api {

Status vpcresourcesv1beta1::AddToScheme(scheme::Scheme& scheme) {
    return scheme.AddKnownType<SecurityGroupPolicy>();
}

Status vpcresourcesv1alpha1::AddToScheme(scheme::Scheme& scheme) {
    return scheme.AddKnownType<CNINode>();
}

}  // namespace ctrl::api
