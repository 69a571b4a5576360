// The main of the fault suite (operator_faults_e2e_test): one control plane whose kube-apiserver keeps
// no watch cache for pods, so a watch from a resourceVersion etcd has compacted away is answered 410
// (the forced-410 fault); manifests/ installed with the SecurityGroupPolicy CRD.

#include <gtest/gtest.h>

#include "test/e2e/operator_fixture.hpp"

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ctrl::e2e::InstallE2eEnvironment(ctrl::e2e::SgpCrd::kProject, {"--watch-cache-sizes=pods#0"});
    return RUN_ALL_TESTS();
}
