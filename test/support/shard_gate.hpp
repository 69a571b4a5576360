#pragma once

// What the sharding tests' main (shard_gate_main.cpp) gives the binary's control plane.

#include <string>
#include <string_view>

#include "test/support/control_plane.hpp"

namespace ctrl::testing {

// A bearer-token user in system:masters, for operators the sharding tests run as processes: they
// authenticate as an operator in a cluster does with its ServiceAccount's token. kube-apiserver
// verifies a client certificate's chain on every request (a tenth of its CPU while the sharded
// e2e's replicas stamp 10,000 ConfigMaps, from a CPU profile of the server).
inline constexpr std::string_view kShardOperatorUser = "shard-operator";

// Options with the feature gate and kShardOperatorUser; gate off: the user only.
inline ControlPlane::Options ShardTestOptions(bool gate_on) {
    ControlPlane::Options options;
    if (gate_on)
        options.apiserver_flags.push_back("--feature-gates=ShardedListAndWatch=true");
    options.token_users.push_back({.name = std::string(kShardOperatorUser), .groups = {"system:masters"}});
    return options;
}

}  // namespace ctrl::testing
