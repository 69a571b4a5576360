// The main of the sharding tests (sharding_integration_test, sharded_stamp_e2e_test): the binary's
// control plane serves the alpha shard selector (kube-apiserver 1.36+,
// --feature-gates=ShardedListAndWatch=true); a test that wants the gate off starts one of its own.

#include <gtest/gtest.h>

#include "test/support/control_plane_environment.hpp"
#include "test/support/shard_gate.hpp"

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ctrl::testing::InstallControlPlaneEnvironment(ctrl::testing::ShardTestOptions(/*gate_on=*/true));
    return RUN_ALL_TESTS();
}
