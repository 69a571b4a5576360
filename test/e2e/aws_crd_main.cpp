// The main of operator_aws_crd_e2e_test: one control plane with AWS's SecurityGroupPolicy and
// CNINode CRDs as published, then manifests/ (as on EKS), kube-apiserver auditing SecurityGroupPolicy
// requests.

#include <gtest/gtest.h>

#include "test/e2e/audit_log.hpp"

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ctrl::e2e::InstallAuditedE2eEnvironment(ctrl::e2e::SgpCrd::kAws);
    return RUN_ALL_TESTS();
}
