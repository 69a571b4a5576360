// The rest layer's integration tests share one real control plane, started once for the binary.

#include <gtest/gtest.h>

#include "test/support/control_plane_environment.hpp"

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    // Static-token users for the auth tests: kube-apiserver reads its token file at start only.
    ctrl::testing::ControlPlane::Options options;
    options.token_users = {{"token-alice", {"ctrl:testers"}}, {"token-bob", {"ctrl:testers"}}};
    ctrl::testing::InstallControlPlaneEnvironment(std::move(options));
    return RUN_ALL_TESTS();
}
