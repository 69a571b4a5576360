#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "ctrl/api/pod.hpp"
#include "ctrl/cluster/cluster.hpp"
#include "ctrl/core/run_sync.hpp"
#include "test/bench/bench_process.hpp"
#include "test/bench/process_stats.hpp"
#include "test/bench/vs/load_observer.hpp"
#include "test/bench/vs/probe_kind.hpp"
#include "test/bench/vs/probe_setup.hpp"
#include "test/bench/vs/scenarios.hpp"

namespace ctrl::bench::vs {
namespace {

// RunSync over Kind's objects (pods, or ServiceMonitors: JSON, so `protobuf` is 0).
template <typename Kind>
int SyncKind(const ProbeArgs& args) {
    StatusOr<rest::Config> config = LoadProbeConfig(args);
    if (!config.Ok())
        return Fail(args, config.GetStatus().ToString());
    StatusOr<std::shared_ptr<scheme::Scheme>> kinds = ProbeScheme(args);
    if (!kinds.Ok())
        return Fail(args, "scheme: " + kinds.GetStatus().ToString());
    Loop loop;
    cluster::Options options;
    options.scheme = *kinds;
    if (args.Switch("keep-managed-fields"))
        options.cache.default_transform = nullptr;  // the default strips managedFields
    StatusOr<std::unique_ptr<cluster::Cluster>> made = cluster::Cluster::New(*config, loop.Executor(), options);
    if (!made.Ok())
        return Fail(args, "cluster: " + made.GetStatus().ToString());
    cluster::Cluster& cluster = **made;
    if (Status warm = WarmUp(args, cluster.GetAPIReader(), loop.Executor()); !warm.Ok())
        return Fail(args, "warm-up: " + warm.ToString());

    // From the cache's start to synced: the informer made, its list pages stored, events dispatched.
    const Memory before = SettledMemory();
    const double cpu_before = CpuSeconds();
    const auto start = std::chrono::steady_clock::now();
    Context stop = Context::WithCancel(Context::Background());
    StatusOr<cache::Informer*> informer =
        StartInformer(cluster, loop, stop, scheme::GroupVersionKindOf<typename Kind::Type>());
    if (!informer.Ok())
        return Fail(args, std::string(Kind::kWhat) + " informer: " + informer.GetStatus().ToString());
    const Status synced = WaitForSync(cluster, loop);
    const double sync_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double cpu_seconds = CpuSeconds() - cpu_before;
    if (!synced.Ok()) {
        StopCluster(stop, cluster, loop);
        return Fail(args, "sync: " + synced.ToString());
    }
    const std::size_t rss_raw = SnapshotProcess().rss;
    const Memory after = SettledMemory();
    const std::size_t rss_peak = SnapshotProcess().rss_peak;

    // After the memory figures: each cached object re-serialized to JSON.
    const cache::ReflectorStats stats = (*informer)->Stats();
    const cache::Store& store = (*informer)->GetStore();
    std::size_t json_bytes = 0;
    std::size_t pods = 0;
    for (const cache::CachedObject& object : store.List()) {
        json_bytes += object.Copy().ToJson().size();
        ++pods;
    }
    StopCluster(stop, cluster, loop);
    if (pods < static_cast<std::size_t>(args.Pods()))
        return Fail(args, "the cache holds " + std::to_string(pods) + " " + std::string(Kind::kWhat) +
                              ", the workload has " + std::to_string(args.Pods()));
    PrintResult({{"pods", static_cast<double>(pods)},
                 {"sync_s", sync_seconds},
                 {"cpu_s", cpu_seconds},
                 {"rss_before_bytes", static_cast<double>(before.rss)},
                 {"rss_raw_bytes", static_cast<double>(rss_raw)},
                 {"rss_after_bytes", static_cast<double>(after.rss)},
                 {"heap_after_bytes", static_cast<double>(after.heap)},
                 {"rss_peak_bytes", static_cast<double>(rss_peak)},
                 {"json_bytes", static_cast<double>(json_bytes)},
                 {"protobuf", stats.protobuf_watches > 0 && stats.protobuf_fallbacks == 0 ? 1.0 : 0.0},
                 {"watch_list", stats.watch_lists > 0 ? 1.0 : 0.0}});
    return 0;
}

}  // namespace

// sync [--keep-managed-fields] [--servicemonitors]: a cache over pods (or ServiceMonitors) in every
// namespace, from its start to synced. ctrl reads built-in kinds in protobuf by default
// (CacheOptions::protobuf); the figures say whether the watch was answered in protobuf and the list
// streamed as a watch-list. --protobuf (how controller-runtime's peer is asked for its default)
// exits 2 with a message saying so.
int RunSync(const ProbeArgs& args) {
    if (args.Switch("protobuf")) {
        std::fprintf(stderr,
                     "ctrl-vs-probe sync: --protobuf: ctrl reads pods in protobuf by default; the flag is "
                     "for controller-runtime's peer\n");
        return 2;
    }
    return ForKind(args, [&]<typename Kind>() { return SyncKind<Kind>(args); });
}

}  // namespace ctrl::bench::vs
