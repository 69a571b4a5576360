#pragma once

// One measured cache for cache_sync_bench, run in a process of its own so that its RSS figures
// hold nothing of the workload's creation or of another cache.

#include <map>
#include <ostream>
#include <string>

#include "ctrl/cache/informer.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/rest/config.hpp"

namespace ctrl::bench {

// What the probe measures and against which cluster.
struct ProbeOptions {
    std::string kubeconfig{};
    // The pods the cluster holds (the workload's), laid out as WorkloadOptions lays them.
    std::string prefix{};
    int namespaces = 0;
    int pods_per_namespace = 0;
    // false: the cache's default transform (managedFields stripped); true: no transform.
    bool keep_managed_fields = false;
    // Seconds of patch load after the sync; 0: none.
    double patch_seconds = 0;
    // Merge patches in flight during the load.
    int patch_concurrency = 32;
};

// Starts a cache over pods, syncs it and measures; then, when asked, runs the patch load. Prints
// one line "RESULT key=value ..." on stdout (ParseProbeResult reads it) and returns the exit code.
int RunProbe(const ProbeOptions& options);

// Merge-patches the workload's pods for options.patch_seconds through a direct client of its own
// while an event handler on informer (synced, over those pods) notes when each patch comes back as
// an update; a raw watch on a connection and thread of its own notes the same, to tell the server's
// share of the delay from the cache's. Appends " key=value" figures to out.
Status RunPatchLoad(const rest::Config& config, cache::Informer& informer, const ProbeOptions& options,
                    std::ostream& out);

}  // namespace ctrl::bench
