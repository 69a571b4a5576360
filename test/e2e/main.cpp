// The main of every e2e test binary: one control plane for the binary, manifests/overlays/bare
// installed on it (without the SecurityGroupPolicy CRD when CTRL_E2E_WITHOUT_SGP_CRD is defined);
// with CTRL_E2E_IN_CONTAINERS, every operator is the operator image run as a container.

#include <gtest/gtest.h>

#include "test/e2e/operator_fixture.hpp"

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
#ifdef CTRL_E2E_IN_CONTAINERS
    ctrl::e2e::RunOperatorsAsContainers();
#endif
#ifdef CTRL_E2E_WITHOUT_SGP_CRD
    ctrl::e2e::InstallE2eEnvironment(ctrl::e2e::SgpCrd::kNone);
#else
    ctrl::e2e::InstallE2eEnvironment(ctrl::e2e::SgpCrd::kProject);
#endif
    return RUN_ALL_TESTS();
}
