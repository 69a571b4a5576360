#pragma once

// One measured controller for controller_bench, run in a process of its own so that its CPU and
// RSS figures hold nothing of the workload's creation or of another controller.

#include <string>

#include "test/support/workload.hpp"

namespace ctrl::bench {

// What the probe measures and against which cluster.
struct ControllerProbeOptions {
    std::string kubeconfig{};
    // The pods the cluster holds (the workload's).
    ctrl::testing::WorkloadOptions layout{};
    // The controller's max_concurrent_reconciles.
    int workers = 1;
    // Seconds of patch load after every pod was reconciled once; 0: none.
    double patch_seconds = 0;
    // Merge patches in flight during the load.
    int patch_concurrency = 32;
};

// Builds a controller for pods as an operator does (a cluster::Cluster over the kubeconfig, a
// ClusterHost, builder::ControllerFor<api::Pod>), with a no-op ReconcileTimer, on one io thread;
// measures from the host's Run to every pod reconciled once (time, CPU, RSS after), then, when
// asked, runs the patch load and measures reconciles/s and the patch-to-reconcile delays. Prints
// one line "RESULT key=value ..." on stdout (ParseProbeResult reads it); returns the exit code.
int RunControllerProbe(const ControllerProbeOptions& options);

}  // namespace ctrl::bench
