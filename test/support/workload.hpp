#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "ctrl/api/pod.hpp"
#include "ctrl/client/client.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"

namespace ctrl::testing {

// The label every object of a workload carries, valued with its prefix.
inline constexpr std::string_view kWorkloadLabel = "workload.ctrl.dev/prefix";

// A synthetic workload: namespaces <prefix>-1..<prefix>-N, each holding pods pod-0000..pod-<M-1>
// of realistic size (WorkloadPod). For the pod lister's tests and demo and for benchmarks.
struct WorkloadOptions {
    int namespaces = 3;
    int pods_per_namespace = 10;
    std::string prefix = "workload";
    // Creates (or deletes) in flight at once, on the caller's executor.
    int concurrency = 16;
    // When > 0, four pods in five get spec.nodeName "<prefix>-node-<k>" (no such Node exists: the
    // API server does not check), so a NODE column has something to show. 0: every pod unscheduled.
    int nodes = 0;
    // The deadline of each request.
    std::chrono::milliseconds request_timeout{std::chrono::seconds(30)};
};

// What a CreateWorkload or DeleteWorkload did.
struct WorkloadReport {
    // Created by CreateWorkload; deleted by DeleteWorkload.
    int namespaces = 0;
    int pods = 0;
    // CreateWorkload: pods already there (a re-run); AlreadyExists is not an error.
    int pods_existing = 0;
    std::chrono::milliseconds took{0};

    // pods per second of `took`.
    double PodsPerSecond() const;
};

std::string WorkloadNamespace(const WorkloadOptions& options, int namespace_index);  // index from 0
std::string WorkloadPodName(const WorkloadOptions& options, int pod_index);
// The pod to create: ~3 KB of JSON (three containers with env, resources, ports, mounts,
// probes; labels and annotations), ~8 KB as the server returns it (defaults added; managedFields are half of it).
api::Pod WorkloadPod(const WorkloadOptions& options, int namespace_index, int pod_index);

// Creates the namespaces, then every pod, with options.concurrency creates in flight. Objects that
// already exist are counted, not recreated, so a re-run completes a partial workload. The first
// error stops it (the creates in flight finish) and is returned naming the object.
Task<StatusOr<WorkloadReport>> CreateWorkload(Context ctx, client::Client& client, WorkloadOptions options);

// Deletes the workload's pods (grace period 0: no kubelet has to confirm), then its namespaces.
// Objects already gone are fine. Without a namespace controller (the local control plane) the
// namespaces stay Terminating; a later CreateWorkload with the same prefix then fails.
Task<StatusOr<WorkloadReport>> DeleteWorkload(Context ctx, client::Client& client, WorkloadOptions options);

}  // namespace ctrl::testing
