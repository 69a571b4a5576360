#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "ctrl/api/pod.hpp"
#include "ctrl/cache/event_handler.hpp"
#include "ctrl/cluster/cluster.hpp"
#include "ctrl/core/run_sync.hpp"
#include "test/bench/annotation_patch_load.hpp"
#include "test/bench/bench_process.hpp"
#include "test/bench/vs/load_observer.hpp"
#include "test/bench/vs/probe_setup.hpp"
#include "test/bench/vs/scenarios.hpp"

namespace ctrl::bench::vs {
// watch: a cache over every pod (managedFields stripped), synced, with an update handler noting the
// first time it saw each value of the load's annotation; SYNCED, the load, STOP, the figures.
int RunWatch(const ProbeArgs& args) {
    StatusOr<rest::Config> config = LoadProbeConfig(args);
    if (!config.Ok())
        return Fail(args, config.GetStatus().ToString());
    Loop loop;
    StatusOr<std::unique_ptr<cluster::Cluster>> made = cluster::Cluster::New(*config, loop.Executor());
    if (!made.Ok())
        return Fail(args, "cluster: " + made.GetStatus().ToString());
    cluster::Cluster& cluster = **made;
    if (Status warm = WarmUp(args, cluster.GetAPIReader(), loop.Executor()); !warm.Ok())
        return Fail(args, "warm-up: " + warm.ToString());

    Context stop = Context::WithCancel(Context::Background());
    StatusOr<cache::Informer*> informer = StartInformer(cluster, loop, stop, scheme::GroupVersionKindOf<api::Pod>());
    if (!informer.Ok())
        return Fail(args, "pod informer: " + informer.GetStatus().ToString());
    // The handler notes each load value's first sighting, and the process's CPU seconds at the
    // latest one (a getrusage call, ~0.3 us: cpu_s ends at the last event seen, not at STOP).
    SeenValues seen;
    std::atomic<double> cpu_at_last_event{0};
    std::atomic<int> updates{0};  // every update event, this load's or not (stderr only)
    auto handler = std::make_shared<cache::EventHandlerFuncs>();
    handler->on_update = [&](const std::shared_ptr<const Object>&, const std::shared_ptr<const Object>& object) {
        updates.fetch_add(1);
        if (!object->Annotation(AnnotationPatchLoad::kAnnotation))
            return;
        seen.Note(*object);
        cpu_at_last_event.store(CpuSeconds());
    };
    const cache::EventHandlerRegistration registration = (*informer)->AddEventHandler(handler);
    if (Status synced = WaitForSync(cluster, loop); !synced.Ok()) {
        StopCluster(stop, cluster, loop);
        return Fail(args, "sync: " + synced.ToString());
    }

    const double cpu_at_synced = CpuSeconds();
    StatusOr<LoadRecord> record = AwaitStop();
    if (!record.Ok()) {
        StopCluster(stop, cluster, loop);
        return Fail(args, record.GetStatus().ToString());
    }
    WaitUntilAllSeen(*record, seen);
    Figures figures = LoadFigures(*record, seen);
    const double cpu_seconds = cpu_at_last_event.load() - cpu_at_synced;
    StopCluster(stop, cluster, loop);
    std::fprintf(stderr, "ctrl-vs-probe watch: %d update events in all; %d patches of this load answered OK\n",
                 updates.load(), record->Answered());
    if (figures["events"] == 0)
        return Fail(args, "no patch of the load (nonce " + record->nonce + ") was seen");
    figures["cpu_s"] = cpu_seconds;
    figures["cpu_ms_per_1000_events"] = cpu_seconds * 1e3 / figures["events"] * 1000;
    PrintResult(figures);
    return 0;
}

}  // namespace ctrl::bench::vs
