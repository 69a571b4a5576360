#include <gtest/gtest.h>

#include "test/support/control_plane_environment.hpp"

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ctrl::testing::InstallControlPlaneEnvironment();
    return RUN_ALL_TESTS();
}
