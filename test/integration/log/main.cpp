// The logging integration test's control plane, with the bearer-token users it authenticates as.

#include <gtest/gtest.h>

#include "test/support/control_plane_environment.hpp"

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    // kube-apiserver reads its token file at start only.
    ctrl::testing::ControlPlane::Options options;
    options.token_users = {{"log-token-user", {"system:masters"}}, {"log-exec-user", {"system:masters"}}};
    ctrl::testing::InstallControlPlaneEnvironment(std::move(options));
    return RUN_ALL_TESTS();
}
