#pragma once

// One measured manager for manager_bench, run in a process of its own so that its RSS, threads and
// CPU hold nothing of the workload's creation.

#include <string>

#include "test/support/workload.hpp"

namespace ctrl::bench {

// What the probe measures and against which cluster.
struct ManagerProbeOptions {
    std::string kubeconfig{};
    // The pods the cluster holds (the workload's).
    ctrl::testing::WorkloadOptions layout{};
    // Seconds measured while idle, after every pod was reconciled once.
    double idle_seconds = 10;
};

// Builds a manager as an operator's main() does (manager::New with the metrics and probe servers
// on 127.0.0.1:0, leader election off, the default threads) with one controller for pods
// (builder::ControllerFor<api::Pod>, a no-op ReconcileTimer), runs Start on a thread, waits until
// every pod was reconciled once, then measures the idle process for options.idle_seconds: CPU
// seconds per second, context switches (wakeups), RSS, threads; then scrapes its own /metrics
// (plain and gzip) over a socket. Prints one line "RESULT key=value ..." on stdout
// (ParseProbeResult reads it); returns the exit code.
int RunManagerProbe(const ManagerProbeOptions& options);

}  // namespace ctrl::bench
