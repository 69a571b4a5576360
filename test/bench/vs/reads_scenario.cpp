#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ctrl/client/option_values.hpp"
#include "ctrl/cluster/cluster.hpp"
#include "ctrl/core/run_sync.hpp"
#include "test/bench/bench_process.hpp"
#include "test/bench/vs/load_observer.hpp"
#include "test/bench/vs/probe_kind.hpp"
#include "test/bench/vs/probe_setup.hpp"
#include "test/bench/vs/scenarios.hpp"

namespace ctrl::bench::vs {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// Reads done in one loop and how long it took; the first failure ends the loop.
struct ReadRate {
    int ops = 0;
    double seconds = 0;
    Status error = OkStatus();
};

// Awaits read(i) for i = 0, 1, ... one after another on the loop until `seconds` pass.
template <typename Read>
Task<ReadRate> ReadFor(double seconds, Read read) {
    ReadRate rate;
    const Clock::time_point start = Clock::now();
    const auto end = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    while (Clock::now() < end) {
        Status done = co_await read(rate.ops);
        if (!done.Ok()) {
            rate.error = done;
            break;
        }
        ++rate.ops;
    }
    rate.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    co_return rate;
}

// What one reads run shares: the loop, the config, the keys of P-1's objects.
struct ReadsRun {
    const rest::Config& config;
    std::shared_ptr<scheme::Scheme> kinds;
    Loop& loop;
    double seconds = 2;
    std::string ns;  // P-1
    std::vector<ObjectKey> keys;
};

// A cluster whose cache over Kind (in namespaces; every namespace when empty) runs under stop and
// has synced. On failure its cache is stopped (the loop keeps running).
template <typename Kind>
StatusOr<std::unique_ptr<cluster::Cluster>> SyncedCluster(ReadsRun& run, std::vector<std::string> namespaces,
                                                          Context& stop) {
    cluster::Options options;
    options.scheme = run.kinds;
    options.cache.default_namespaces = std::move(namespaces);
    StatusOr<std::unique_ptr<cluster::Cluster>> made = cluster::Cluster::New(run.config, run.loop.Executor(), options);
    if (!made.Ok())
        return made.GetStatus().Annotate("cluster");
    cluster::Cluster& cluster = **made;
    cluster.Start(stop);
    StatusOr<std::vector<cache::Informer*>> informers = RunOn(
        run.loop.Executor(),
        cluster.GetCache().GetInformersFor<typename Kind::Type>(Context::WithTimeout(Context::Background(), 60s)));
    Status synced = informers.GetStatus();
    if (synced.Ok())
        synced =
            RunOn(run.loop.Executor(), cluster.WaitForCacheSync(Context::WithTimeout(Context::Background(), 600s)));
    if (!synced.Ok()) {
        stop.Cancel();
        WaitUntil(10s, [&] { return cluster.GetCache().Stopped(); });
        return synced;
    }
    return made;
}

// Get of P-1's object i % M from the cluster's client (the cache) into a fresh typed object.
template <typename Kind>
ReadRate CachedGets(ReadsRun& run, cluster::Cluster& cluster) {
    client::Client& cached = cluster.GetClient();
    const Context ctx = Context::Background();
    return RunOn(run.loop.Executor(), ReadFor(run.seconds, [&](int i) -> Task<Status> {
                     typename Kind::Type object;
                     co_return co_await cached.Get(ctx, run.keys[i % run.keys.size()], object);
                 }));
}

// The figures of a cache over every namespace: cached Get, shared Get, cached List of P-1, and a
// direct Get. list_items: the items of one List.
template <typename Kind>
std::vector<std::pair<std::string, ReadRate>> ClusterWideReads(ReadsRun& run, cluster::Cluster& cluster,
                                                               std::size_t& list_items) {
    client::Client& cached = cluster.GetClient();
    client::Client& direct = cluster.GetAPIReader();
    cache::Cache& shared_reader = cluster.GetCache();
    const Context ctx = Context::Background();
    std::vector<std::pair<std::string, ReadRate>> rates;
    rates.emplace_back("cached_get", CachedGets<Kind>(run, cluster));
    rates.emplace_back("shared_get", RunOn(run.loop.Executor(), ReadFor(run.seconds, [&](int i) -> Task<Status> {
                                               const ObjectKey& key = run.keys[i % run.keys.size()];
                                               StatusOr<std::shared_ptr<const Object>> object =
                                                   co_await shared_reader.GetShared<typename Kind::Type>(ctx, key);
                                               co_return object.GetStatus();
                                           })));
    rates.emplace_back("cached_list", RunOn(run.loop.Executor(), ReadFor(run.seconds, [&](int) -> Task<Status> {
                                                typename Kind::List objects;
                                                Status listed =
                                                    co_await cached.List(ctx, objects, client::InNamespace(run.ns));
                                                list_items = objects.Items().size();
                                                co_return listed;
                                            })));
    rates.emplace_back("direct_get", RunOn(run.loop.Executor(), ReadFor(run.seconds, [&](int i) -> Task<Status> {
                                               typename Kind::Type object;
                                               co_return co_await direct.Get(ctx, run.keys[i % run.keys.size()],
                                                                             object);
                                           })));
    return rates;
}

// RunReads over Kind: the cluster-wide cache's reads, then the cached Get of a cache of P-1 alone.
template <typename Kind>
int ReadsKind(const ProbeArgs& args, double seconds) {
    StatusOr<rest::Config> config = LoadProbeConfig(args);
    if (!config.Ok())
        return Fail(args, config.GetStatus().ToString());
    StatusOr<std::shared_ptr<scheme::Scheme>> kinds = ProbeScheme(args);
    if (!kinds.Ok())
        return Fail(args, "scheme: " + kinds.GetStatus().ToString());
    Loop loop;
    ReadsRun run{
        .config = *config, .kinds = *kinds, .loop = loop, .seconds = seconds, .ns = FirstNamespace(args), .keys = {}};
    for (int i = 0; i < args.layout.pods_per_namespace; ++i)
        run.keys.emplace_back(run.ns, ObjectName(args, i));

    Context wide_stop = Context::WithCancel(Context::Background());
    StatusOr<std::unique_ptr<cluster::Cluster>> wide = SyncedCluster<Kind>(run, {}, wide_stop);
    if (!wide.Ok()) {
        loop.Stop();
        return Fail(args, "cache over every namespace: " + wide.GetStatus().ToString());
    }
    if (Status warm = WarmUp(args, (*wide)->GetAPIReader(), loop.Executor()); !warm.Ok()) {
        StopCluster(wide_stop, **wide, loop);
        return Fail(args, "warm-up: " + warm.ToString());
    }
    std::size_t list_items = 0;
    std::vector<std::pair<std::string, ReadRate>> rates = ClusterWideReads<Kind>(run, **wide, list_items);
    wide_stop.Cancel();
    WaitUntil(10s, [&] { return (*wide)->GetCache().Stopped(); });

    Context restricted_stop = Context::WithCancel(Context::Background());
    StatusOr<std::unique_ptr<cluster::Cluster>> restricted = SyncedCluster<Kind>(run, {run.ns}, restricted_stop);
    if (!restricted.Ok()) {
        loop.Stop();
        return Fail(args, "cache over " + run.ns + ": " + restricted.GetStatus().ToString());
    }
    rates.emplace_back("cached_get_restricted", CachedGets<Kind>(run, **restricted));
    StopCluster(restricted_stop, **restricted, loop);

    Figures figures;
    for (const auto& [what, rate] : rates) {
        if (!rate.error.Ok())
            return Fail(args, what + ": " + rate.error.ToString());
        if (rate.ops == 0)
            return Fail(args, what + ": no read finished in " + std::to_string(seconds) + " s");
        figures[what + "_us"] = rate.seconds * 1e6 / rate.ops;
        figures[what + "_ops"] = rate.ops;
    }
    figures["cached_list_items"] = static_cast<double>(list_items);
    PrintResult(figures);
    return 0;
}

}  // namespace

// reads [--seconds S] [--servicemonitors]: a cache over pods (or ServiceMonitors) in every
// namespace, synced, read through the manager-style client (cached Get, cached List of P-1, copies
// into typed objects), the cache's shared read (GetShared, no copy) and a direct Get from the API
// server; then a cache restricted to P-1, synced, and its cached Get of the same keys.
int RunReads(const ProbeArgs& args) {
    const double seconds = args.Number("seconds", 2);
    if (seconds <= 0) {
        std::fprintf(stderr, "ctrl-vs-probe reads: --seconds must be positive\n");
        return 2;
    }
    return ForKind(args, [&]<typename Kind>() { return ReadsKind<Kind>(args, seconds); });
}

}  // namespace ctrl::bench::vs
