#include "test/bench/cache_sync_probe.hpp"

#include <chrono>
#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <utility>

#include "ctrl/cache/cache.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/discovery/discovery_client.hpp"
#include "ctrl/discovery/lazy_rest_mapper.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/rest/kubeconfig.hpp"
#include "test/bench/bench_process.hpp"

namespace ctrl::bench {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

const GroupVersionKind kPod{"", "v1", "Pod"};

double Seconds(Clock::duration d) {
    return std::chrono::duration<double>(d).count();
}

Context Within(Clock::duration timeout) {
    return Context::WithTimeout(Context::Background(), timeout);
}

int Fail(const std::string& message) {
    std::fprintf(stderr, "cache_sync_bench probe: %s\n", message.c_str());
    return 1;
}

}  // namespace

int RunProbe(const ProbeOptions& options) {
    rest::KubeconfigOptions kubeconfig;
    kubeconfig.explicit_path = options.kubeconfig;
    StatusOr<rest::Config> config = rest::LoadKubeconfig(kubeconfig);
    if (!config.Ok())
        return Fail("kubeconfig: " + config.GetStatus().ToString());
    const int pods = options.namespaces * options.pods_per_namespace;

    std::ostringstream out;
    out.precision(15);
    Context stop = Context::WithCancel(Context::Background());
    metrics::Registry registry;
    Loop loop;
    StatusOr<std::unique_ptr<rest::RestClient>> made = rest::RestClient::New(*config, loop.Executor(), registry);
    if (!made.Ok())
        return Fail("rest client: " + made.GetStatus().ToString());
    std::shared_ptr<rest::RestClient> rest = std::move(made).Value();
    auto discovery = std::make_shared<discovery::DiscoveryClient>(*rest, discovery::DiscoveryOptions{}, registry);
    auto mapper = std::make_shared<discovery::LazyRESTMapper>(discovery, discovery::LazyRESTMapperOptions{}, registry);
    cache::CacheOptions cache_options;
    if (options.keep_managed_fields)
        cache_options.default_transform = nullptr;

    // Warm-up, outside the figures: the TLS connection and the discovery of pods, which a Manager's
    // client has done before its cache starts (and which would add ~2 MB of fixed cost to the RSS).
    const Clock::time_point warm_start = Clock::now();
    StatusOr<discovery::RESTMapping> mapping =
        RunOn(loop.Executor(), mapper->RESTMapping(Within(60s), GroupKind{"", "Pod"}, {"v1"}));
    if (!mapping.Ok())
        return Fail("discovery of pods: " + mapping.GetStatus().ToString());
    const double warm_seconds = Seconds(Clock::now() - warm_start);

    // From an empty cache to synced: informer made, list pages in the store, events dispatched.
    const Memory before = SettledMemory();
    const double cpu_before = CpuSeconds();
    const Clock::time_point start = Clock::now();
    auto cache = std::make_unique<cache::Cache>(rest, mapper, loop.Executor(), std::move(cache_options));
    cache->Start(stop);
    StatusOr<std::vector<cache::Informer*>> informers =
        RunOn(loop.Executor(), cache->GetInformers(Within(60s), kPod, /*metadata_only=*/false));
    if (!informers.Ok() || informers->size() != 1)
        return Fail("pod informer: " + informers.GetStatus().ToString());
    Status synced = RunOn(loop.Executor(), cache->WaitForCacheSync(Within(600s)));
    const double sync_seconds = Seconds(Clock::now() - start);
    const double cpu_seconds = CpuSeconds() - cpu_before;
    if (!synced.Ok())
        return Fail("sync: " + synced.ToString());
    const Memory after = SettledMemory();

    cache::Informer& informer = *informers->front();
    const cache::Store& store = informer.GetStore();
    std::size_t json_bytes = 0;
    for (const cache::CachedObject& object : store.List())
        json_bytes += object.Copy().ToJson().size();
    if (store.Size() != static_cast<std::size_t>(pods))
        return Fail("the cache holds " + std::to_string(store.Size()) + " pods, the workload has " +
                    std::to_string(pods));
    out << "RESULT pods=" << store.Size() << " warm_s=" << warm_seconds << " sync_s=" << sync_seconds
        << " cpu_s=" << cpu_seconds << " list_pages=" << informer.Stats().list_pages << " rss_before=" << before.rss
        << " rss_held=" << static_cast<double>(after.rss) - static_cast<double>(before.rss)
        << " heap_held=" << static_cast<double>(after.heap) - static_cast<double>(before.heap)
        << " json_bytes=" << json_bytes << " encoded_bytes=" << store.EncodedBytes();

    Status load = OkStatus();
    if (options.patch_seconds > 0)
        load = RunPatchLoad(*config, informer, options, out);

    stop.Cancel();
    for (int i = 0; i < 1000 && !cache->Stopped(); ++i)
        std::this_thread::sleep_for(10ms);
    loop.Stop();
    if (!load.Ok())
        return Fail("patch load: " + load.ToString());
    std::printf("%s\n", out.str().c_str());
    std::fflush(stdout);
    return 0;
}

}  // namespace ctrl::bench
