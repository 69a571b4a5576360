#include <gtest/gtest.h>

#include "test/support/control_plane_environment.hpp"

// The binary's control plane serves the alpha shard selector (kube-apiserver 1.36+).
int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ctrl::testing::ControlPlane::Options options;
    options.apiserver_flags = {"--feature-gates=ShardedListAndWatch=true"};
    ctrl::testing::InstallControlPlaneEnvironment(std::move(options));
    return RUN_ALL_TESTS();
}
