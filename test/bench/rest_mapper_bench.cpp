// The lazy RESTMapper: ns per lookup of a known kind (one thread, and contended by several), and
// the discovery requests it takes to resolve 1, 10 and 50 kinds across groups, with aggregated
// discovery and on the legacy path. Discovery is served in memory (FakeDiscoveryServer), so the
// figures are the mapper's own.

#include "ctrl/core/task.hpp"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>

#include "ctrl/core/run_sync.hpp"
#include "ctrl/discovery/lazy_rest_mapper.hpp"
#include "test/unit/discovery/fake_discovery_server.hpp"

namespace ctrl::discovery {
namespace {

// A fake server with `groups` groups (group-<i>.example.com/v1, kind Kind<i>) plus core/v1 Pod.
struct Fixture {
    explicit Fixture(int groups, bool aggregated) {
        server.AddResource({"", "v1"}, "Pod", "pods", true);
        for (int i = 0; i < groups; ++i) {
            server.AddResource({Group(i), "v1"}, "Kind" + std::to_string(i), "kind" + std::to_string(i) + "s", true);
        }
        rest::Config config;
        config.host = "https://fake.invalid";
        rest = std::make_unique<rest::RestClient>(config, server.MakeTransport(), nullptr, registry);
        discovery = std::make_shared<DiscoveryClient>(*rest, DiscoveryOptions{.aggregated = aggregated}, registry);
        mapper = std::make_unique<LazyRESTMapper>(discovery, LazyRESTMapperOptions{}, registry);
    }
    static std::string Group(int i) { return "group-" + std::to_string(i) + ".example.com"; }

    boost::asio::io_context io;
    metrics::Registry registry;
    test::FakeDiscoveryServer server;
    std::unique_ptr<rest::RestClient> rest;
    std::shared_ptr<DiscoveryClient> discovery;
    std::unique_ptr<LazyRESTMapper> mapper;
};

Fixture& Shared() {
    static Fixture* fixture = [] {
        auto* f = new Fixture(1, true);
        (void)RunSync(f->io, f->mapper->RESTMapping(Context::Background(), {"", "Pod"}, {"v1"}));
        return f;
    }();
    return *fixture;
}

// A known kind from the cache: what every client call pays.
void BM_CachedMapping(benchmark::State& state) {
    LazyRESTMapper& mapper = *Shared().mapper;
    const GroupVersionKind pod{"", "v1", "Pod"};
    for (auto _ : state)
        benchmark::DoNotOptimize(mapper.CachedMapping(pod));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CachedMapping)->ThreadRange(1, 4)->UseRealTime();

// The same through the Task interface (a coroutine frame per lookup), on one thread.
void BM_RESTMappingTask(benchmark::State& state) {
    Fixture& f = Shared();
    for (auto _ : state) {
        benchmark::DoNotOptimize(RunSync(f.io, f.mapper->RESTMapping(Context::Background(), {"", "Pod"}, {"v1"})));
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RESTMappingTask);

void PrintRequestCounts() {
    std::printf("\nDiscovery requests to resolve N kinds across N groups (first lookup of each):\n");
    std::printf("%-34s %6s %6s %6s\n", "", "N=1", "N=10", "N=50");
    for (bool aggregated : {true, false}) {
        for (bool versioned : {true, false}) {
            std::printf("%-34s", (std::string(aggregated ? "aggregated" : "legacy") +
                                  (versioned ? ", lookups name v1" : ", lookups name no version"))
                                     .c_str());
            for (int n : {1, 10, 50}) {
                Fixture f(n, aggregated);
                for (int i = 0; i < n; ++i) {
                    std::vector<std::string> versions;
                    if (versioned)
                        versions.push_back("v1");
                    auto m =
                        RunSync(f.io, f.mapper->RESTMapping(Context::Background(),
                                                            {Fixture::Group(i), "Kind" + std::to_string(i)}, versions));
                    if (!m.Ok())
                        std::printf(" (error: %s)", m.GetStatus().ToString().c_str());
                }
                std::printf(" %6d", f.server.Total());
            }
            std::printf("\n");
        }
    }
    std::printf(
        "controller-runtime (docs/restmapper.md): aggregated 2 for the first miss, then 1-2 per later miss;\n"
        "legacy 3 for the first group version, then 1 per version named (2 without a version).\n\n");
}

}  // namespace
}  // namespace ctrl::discovery

int main(int argc, char** argv) {
    ctrl::discovery::PrintRequestCounts();
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
