#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "ctrl/api/pod.hpp"
#include "ctrl/client/option_values.hpp"
#include "ctrl/cluster/cluster.hpp"
#include "ctrl/core/run_sync.hpp"
#include "test/bench/bench_process.hpp"
#include "test/bench/vs/load_observer.hpp"
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

}  // namespace

// reads [--seconds S]: a cache over the pods of P-1 (100), synced, read through the manager-style
// client (cached Get, cached List, copies into typed pods), the cache's shared read (GetShared, no
// copy) and a direct Get from the API server.
int RunReads(const ProbeArgs& args) {
    const double seconds = args.Number("seconds", 2);
    if (seconds <= 0) {
        std::fprintf(stderr, "ctrl-vs-probe reads: --seconds must be positive\n");
        return 2;
    }
    StatusOr<rest::Config> config = LoadProbeConfig(args);
    if (!config.Ok())
        return Fail(args, config.GetStatus().ToString());
    const std::string ns = FirstNamespace(args);
    Loop loop;
    cluster::Options options;
    options.cache.default_namespaces = {ns};
    StatusOr<std::unique_ptr<cluster::Cluster>> made = cluster::Cluster::New(*config, loop.Executor(), options);
    if (!made.Ok())
        return Fail(args, "cluster: " + made.GetStatus().ToString());
    cluster::Cluster& cluster = **made;
    if (Status warm = WarmUp(args, cluster.GetAPIReader(), loop.Executor()); !warm.Ok())
        return Fail(args, "warm-up: " + warm.ToString());
    Context stop = Context::WithCancel(Context::Background());
    cluster.Start(stop);
    StatusOr<std::vector<cache::Informer*>> informers =
        RunOn(loop.Executor(),
              cluster.GetCache().GetInformersFor<api::Pod>(Context::WithTimeout(Context::Background(), 60s)));
    Status synced = informers.GetStatus();
    if (synced.Ok())
        synced = RunOn(loop.Executor(), cluster.WaitForCacheSync(Context::WithTimeout(Context::Background(), 120s)));
    if (!synced.Ok()) {
        StopCluster(stop, cluster, loop);
        return Fail(args, "cache over " + ns + ": " + synced.ToString());
    }

    client::Client& cached = cluster.GetClient();
    client::Client& direct = cluster.GetAPIReader();
    const int per_namespace = args.layout.pods_per_namespace;
    std::vector<ObjectKey> keys;
    for (int i = 0; i < per_namespace; ++i)
        keys.emplace_back(ns, ctrl::testing::WorkloadPodName(args.layout, i));
    const Context ctx = Context::Background();
    std::size_t list_items = 0;

    const ReadRate cached_get = RunOn(loop.Executor(), ReadFor(seconds, [&](int i) -> Task<Status> {
                                          api::Pod pod;
                                          co_return co_await cached.Get(ctx, keys[i % per_namespace], pod);
                                      }));
    cache::Cache& shared_reader = cluster.GetCache();
    const ReadRate shared_get = RunOn(loop.Executor(), ReadFor(seconds, [&](int i) -> Task<Status> {
                                          const ObjectKey& key = keys[i % per_namespace];
                                          StatusOr<std::shared_ptr<const Object>> pod =
                                              co_await shared_reader.GetShared<api::Pod>(ctx, key);
                                          co_return pod.GetStatus();
                                      }));
    const ReadRate cached_list = RunOn(loop.Executor(), ReadFor(seconds, [&](int) -> Task<Status> {
                                           api::PodList pods;
                                           Status listed = co_await cached.List(ctx, pods, client::InNamespace(ns));
                                           list_items = pods.Items().size();
                                           co_return listed;
                                       }));
    const ReadRate direct_get = RunOn(loop.Executor(), ReadFor(seconds, [&](int i) -> Task<Status> {
                                          api::Pod pod;
                                          co_return co_await direct.Get(ctx, keys[i % per_namespace], pod);
                                      }));
    StopCluster(stop, cluster, loop);
    for (const auto& [what, rate] : {std::pair<const char*, const ReadRate&>("cached Get", cached_get),
                                     std::pair<const char*, const ReadRate&>("cached shared Get", shared_get),
                                     std::pair<const char*, const ReadRate&>("cached List", cached_list),
                                     std::pair<const char*, const ReadRate&>("direct Get", direct_get)}) {
        if (!rate.error.Ok())
            return Fail(args, std::string(what) + ": " + rate.error.ToString());
        if (rate.ops == 0)
            return Fail(args, std::string(what) + ": no read finished in " + std::to_string(seconds) + " s");
    }
    auto us = [](const ReadRate& rate) { return rate.seconds * 1e6 / rate.ops; };
    PrintResult({{"cached_get_us", us(cached_get)},
                 {"cached_get_ops", cached_get.ops},
                 {"shared_get_us", us(shared_get)},
                 {"shared_get_ops", shared_get.ops},
                 {"cached_list_us", us(cached_list)},
                 {"cached_list_ops", cached_list.ops},
                 {"cached_list_items", static_cast<double>(list_items)},
                 {"direct_get_us", us(direct_get)},
                 {"direct_get_ops", direct_get.ops}});
    return 0;
}

}  // namespace ctrl::bench::vs
