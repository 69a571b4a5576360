// What a read costs through the client: a Get from the API server (direct client) beside a Get from
// the cache through the delegating client (a copy), a shared const view (GetShared), and a List of
// 100 pods from the cache. Then what read-your-own-writes adds to a read that does not wait: a
// synchronous cached read (GetSharedNow, no coroutine: the cheapest read, so the check's share is
// largest) with the feature off, on with nothing pending, and on with 100 writes of other pods
// pending. Starts its own kube-apiserver on loopback; the pods are the workload's realistic ones
// (~8 KB as stored, ~5 KB in the cache without managedFields).

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "ctrl/core/task.hpp"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "ctrl/api/pod.hpp"
#include "ctrl/cache/cache.hpp"
#include "ctrl/client/delegating_client.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/discovery/discovery_client.hpp"
#include "ctrl/discovery/lazy_rest_mapper.hpp"
#include "ctrl/rest/kubeconfig.hpp"
#include "test/support/control_plane.hpp"
#include "test/support/workload.hpp"

namespace ctrl::client {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kPods = 100;
constexpr auto kRunFor = std::chrono::seconds(3);

struct Rate {
    int ops = 0;
    double seconds = 0;
    int errors = 0;
};

// Runs read() in a loop on the executor's thread for kRunFor.
template <typename Read>
Task<Rate> Loop(Read read) {
    Rate rate;
    const Clock::time_point start = Clock::now();
    while (Clock::now() - start < kRunFor) {
        for (int i = 0; i < 100; ++i) {
            if (Status done = co_await read(rate.ops); !done.Ok())
                ++rate.errors;
            ++rate.ops;
        }
    }
    rate.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    co_return rate;
}

// ns per call of read(i), the best of 5 rounds of 1,000,000 calls.
template <typename Read>
double NanosPerRead(Read read) {
    constexpr int kCalls = 1'000'000;
    double best = 1e18;
    for (int round = 0; round < 5; ++round) {
        const Clock::time_point start = Clock::now();
        for (int i = 0; i < kCalls; ++i)
            read(i);
        best = std::min(best, std::chrono::duration<double, std::nano>(Clock::now() - start).count() / kCalls);
    }
    return best;
}

// GetSharedNow of the pods from a cache without read-your-own-writes, one with it and nothing
// pending, and one with 100 writes of other pods pending (recorded at a resourceVersion the
// informer has not reached, so they stay pending).
void PrintReadYourWritesCost(const std::shared_ptr<rest::RestClient>& rest,
                             const std::shared_ptr<discovery::RESTMapper>& mapper, boost::asio::io_context& io,
                             const Context& stop, const std::string& ns, const std::function<ObjectKey(int)>& key_of) {
    const GroupVersionKind pod_kind{"", "v1", "Pod"};
    cache::CacheOptions off_options;
    off_options.read_your_writes_timeout = std::chrono::milliseconds(0);
    cache::Cache off(rest, mapper, io.get_executor(), off_options);
    cache::Cache on(rest, mapper, io.get_executor(), cache::CacheOptions{});
    cache::Cache pending(rest, mapper, io.get_executor(), cache::CacheOptions{});
    const Context running = Context::WithCancel(stop);
    for (cache::Cache* cache : {&off, &on, &pending}) {
        cache->Start(running);
        StatusOr<std::shared_ptr<const Object>> warm =
            RunOn(io.get_executor(), cache->GetShared(Context::Background(), pod_kind, key_of(0)));
        if (!warm.Ok())
            std::fprintf(stderr, "cache: %s\n", warm.GetStatus().ToString().c_str());
    }
    for (int i = 0; i < 100; ++i) {
        const std::string name = "not-read-" + std::to_string(i);
        ObservedWrite write;
        write.gvk = pod_kind;
        write.namespace_name = ns;
        write.name = name;
        write.resource_version = "999999999999";
        pending.ObserveWrite(write);
    }
    int errors = 0;
    auto reader = [&](cache::Cache& cache) {
        return [&](int i) { errors += cache.GetSharedNow(pod_kind, key_of(i)).Ok() ? 0 : 1; };
    };
    const double off_ns = NanosPerRead(reader(off));
    const double on_ns = NanosPerRead(reader(on));
    const double pending_ns = NanosPerRead(reader(pending));
    std::printf("GetSharedNow, read-your-own-writes off        %9.1f ns/read\n", off_ns);
    std::printf("GetSharedNow, on, nothing pending            %9.1f ns/read  (%+.1f ns)\n", on_ns, on_ns - off_ns);
    std::printf("GetSharedNow, on, 100 other writes pending   %9.1f ns/read  (%+.1f ns)  (%d errors)\n", pending_ns,
                pending_ns - off_ns, errors);
    running.Cancel();
    for (cache::Cache* cache : {&off, &on, &pending})
        for (int i = 0; i < 500 && !cache->Stopped(); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

void Print(const char* what, const Rate& rate) {
    std::printf("%-44s %10.0f ops/s  %9.2f us/op  (%d ops, %d errors)\n", what, rate.ops / rate.seconds,
                rate.seconds * 1e6 / rate.ops, rate.ops, rate.errors);
}

int RunBench(const std::string& kubeconfig) {
    rest::KubeconfigOptions options;
    options.explicit_path = kubeconfig;
    StatusOr<rest::Config> config = rest::LoadKubeconfig(options);
    if (!config.Ok()) {
        std::fprintf(stderr, "kubeconfig: %s\n", config.GetStatus().ToString().c_str());
        return 1;
    }
    boost::asio::io_context io;
    auto work = boost::asio::make_work_guard(io);
    std::thread loop([&io] { io.run(); });
    auto stop = Context::WithCancel(Context::Background());

    StatusOr<std::unique_ptr<rest::RestClient>> rest = rest::RestClient::New(*config, io.get_executor());
    StatusOr<std::unique_ptr<Client>> direct = New(*config, io.get_executor());
    if (!rest.Ok() || !direct.Ok()) {
        std::fprintf(stderr, "client: %s %s\n", rest.GetStatus().ToString().c_str(),
                     direct.GetStatus().ToString().c_str());
        return 1;
    }
    testing::WorkloadOptions workload;
    workload.namespaces = 1;
    workload.pods_per_namespace = kPods;
    workload.prefix = "bench";
    StatusOr<testing::WorkloadReport> created =
        RunOn(io.get_executor(), testing::CreateWorkload(Context::Background(), **direct, workload));
    if (!created.Ok()) {
        std::fprintf(stderr, "workload: %s\n", created.GetStatus().ToString().c_str());
        return 1;
    }
    const std::string ns = testing::WorkloadNamespace(workload, 0);

    std::shared_ptr<rest::RestClient> cache_rest(std::move(rest).Value());
    auto discovery = std::make_shared<discovery::DiscoveryClient>(*cache_rest, discovery::DiscoveryOptions{});
    auto mapper = std::make_shared<discovery::LazyRESTMapper>(discovery);
    cache::Cache cache(cache_rest, mapper, io.get_executor(), cache::CacheOptions{});
    cache.Start(stop);
    DelegatingClient client(**direct, cache, CacheReadOptions{});
    api::PodList warm;
    ListOptions in_namespace;
    in_namespace.namespace_name = ns;
    if (Status listed = RunOn(io.get_executor(), client.List(Context::Background(), warm, in_namespace));
        !listed.Ok()) {
        std::fprintf(stderr, "cache: %s\n", listed.ToString().c_str());
        return 1;
    }

    std::printf("%d pods of ~8 KB in %s; kube-apiserver on loopback shares the 2 cores\n", kPods, ns.c_str());
    const Context ctx = Context::Background();
    const GroupVersionKind pod_kind{"", "v1", "Pod"};
    auto key_of = [&](int i) { return ObjectKey{ns, testing::WorkloadPodName(workload, i % kPods)}; };

    Print("Get from the API server (direct client)", RunOn(io.get_executor(), Loop([&](int i) -> Task<Status> {
                                                               const ObjectKey key = key_of(i);
                                                               api::Pod pod;
                                                               co_return co_await direct.Value()->Get(ctx, key, pod);
                                                           })));
    Print("Get from the cache (delegating client, copy)", RunOn(io.get_executor(), Loop([&](int i) -> Task<Status> {
                                                                    const ObjectKey key = key_of(i);
                                                                    api::Pod pod;
                                                                    co_return co_await client.Get(ctx, key, pod);
                                                                })));
    Print("GetShared from the cache (shared const view)", RunOn(io.get_executor(), Loop([&](int i) -> Task<Status> {
                                                                    const ObjectKey key = key_of(i);
                                                                    StatusOr<std::shared_ptr<const Object>> pod =
                                                                        co_await cache.GetShared(ctx, pod_kind, key);
                                                                    co_return pod.GetStatus();
                                                                })));
    Print("List of 100 pods from the cache (copies)", RunOn(io.get_executor(), Loop([&](int) -> Task<Status> {
                                                                api::PodList pods;
                                                                co_return co_await client.List(ctx, pods, in_namespace);
                                                            })));

    PrintReadYourWritesCost(cache_rest, mapper, io, stop, ns, key_of);

    stop.Cancel();
    for (int i = 0; i < 500 && !cache.Stopped(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    work.reset();
    io.stop();
    loop.join();
    return 0;
}

}  // namespace
}  // namespace ctrl::client

int main() {
    ctrl::testing::ControlPlane control_plane;
    if (ctrl::Status started = control_plane.Start(); !started.Ok()) {
        std::fprintf(stderr, "control plane: %s\n", started.ToString().c_str());
        return 1;
    }
    const int rc = ctrl::client::RunBench(control_plane.KubeconfigPath());
    control_plane.Stop();
    return rc;
}
