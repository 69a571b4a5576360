#pragma once

// The start every control-plane benchmark shares: a real kube-apiserver + etcd on loopback filled
// with N realistic pods (the workload tool), and the arguments that tell a probe child process
// where they are.

#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/status.hpp"
#include "test/support/control_plane.hpp"
#include "test/support/workload.hpp"

namespace ctrl::bench {

// The pod count a benchmark makes by default, and the most namespaces they are spread over.
inline constexpr int kDefaultPods = 10000;
inline constexpr int kMaxNamespaces = 20;

// The pods asked for: $CTRL_BENCH_PODS when set, else kDefaultPods (a --pods flag overrides it).
int PodsFromEnvironment();

// The layout of `pods` pods (rounded up to fill every namespace) named after prefix.
ctrl::testing::WorkloadOptions WorkloadLayout(const std::string& prefix, int pods);

// Starts control_plane and creates workload's pods, printing (prefixed by program) the versions,
// the load average and the creation rate. An error naming the step that failed.
Status StartWithWorkload(const char* program, ctrl::testing::ControlPlane& control_plane,
                         const ctrl::testing::WorkloadOptions& workload);

// "--kubeconfig <path> --prefix <p> --namespaces <n> --pods-per-namespace <m>" for a probe.
std::vector<std::string> WorkloadProbeArgs(const ctrl::testing::ControlPlane& control_plane,
                                           const ctrl::testing::WorkloadOptions& workload);
// Reads one of WorkloadProbeArgs' flags into kubeconfig or layout; false for another flag.
bool ParseWorkloadProbeArg(std::string_view name, const char* value, std::string& kubeconfig,
                           ctrl::testing::WorkloadOptions& layout);

}  // namespace ctrl::bench
