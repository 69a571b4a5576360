#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ctrl/core/run_sync.hpp"
#include "ctrl/discovery/mapper_for_rest_client.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/rest/authenticator.hpp"
#include "ctrl/rest/rest_client.hpp"
#include "test/bench/bench_process.hpp"
#include "test/bench/vs/load_observer.hpp"
#include "test/bench/vs/probe_setup.hpp"
#include "test/bench/vs/scenarios.hpp"
#include "test/support/counting_transport.hpp"

namespace ctrl::bench::vs {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// What the lookups of one run are.
struct Lookups {
    int groups = 0;
    int misses = 0;
};

GroupKind ThingOf(int i) {
    return GroupKind("bench" + std::to_string(i) + ".ctrl.dev", "Thing");
}

double MillisSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Resolves Thing of bench<1..groups>.ctrl.dev through mapper, naming version v1 (or none); each must
// map to the namespaced resource things.
Task<Status> ResolveThings(discovery::RESTMapper& mapper, int groups, bool versioned) {
    for (int i = 1; i <= groups; ++i) {
        std::vector<std::string> versions;
        if (versioned)
            versions.emplace_back("v1");
        Context ctx = Context::WithTimeout(Context::Background(), 30s);
        StatusOr<discovery::RESTMapping> mapping = co_await mapper.RESTMapping(ctx, ThingOf(i), std::move(versions));
        if (!mapping.Ok())
            co_return mapping.GetStatus().Annotate(ThingOf(i).group + " Thing");
        if (mapping->resource.resource != "things" || mapping->resource.version != "v1" || !mapping->Namespaced())
            co_return Status(StatusCode::kInternal, ThingOf(i).group + " Thing mapped to " +
                                                        mapping->resource.String() + ", not namespaced v1 things");
    }
    co_return OkStatus();
}

// Looks up bench1.ctrl.dev/v1 Missing `misses` times in a row; each must be a no-match.
Task<Status> MissRepeatedly(discovery::RESTMapper& mapper, int misses) {
    for (int i = 0; i < misses; ++i) {
        std::vector<std::string> versions = {"v1"};
        Context ctx = Context::WithTimeout(Context::Background(), 30s);
        StatusOr<discovery::RESTMapping> mapping =
            co_await mapper.RESTMapping(ctx, GroupKind("bench1.ctrl.dev", "Missing"), std::move(versions));
        if (!IsNoMatch(mapping.GetStatus()))
            co_return Status(StatusCode::kInternal, "lookup " + std::to_string(i + 1) +
                                                        " of bench1.ctrl.dev/v1 Missing was not a no-match: " +
                                                        mapping.GetStatus().ToString());
    }
    co_return OkStatus();
}

}  // namespace

// discovery --groups G [--legacy] [--misses K]: requests a fresh lazy RESTMapper makes to resolve G
// kinds in G groups (with and without the version named), then for K misses in a row.
int RunDiscovery(const ProbeArgs& args) {
    Lookups lookups;
    const double groups = args.Number("groups", 0);
    const double misses = args.Number("misses", 10);
    if (groups < 1 || groups > 50 || groups != static_cast<int>(groups) || misses < 0 ||
        misses != static_cast<int>(misses)) {
        std::fprintf(stderr, "ctrl-vs-probe discovery: --groups G (1..50) is required; --misses K is a count\n");
        return 2;
    }
    lookups.groups = static_cast<int>(groups);
    lookups.misses = static_cast<int>(misses);
    StatusOr<rest::Config> config = LoadProbeConfig(args);
    if (!config.Ok())
        return Fail(args, config.GetStatus().ToString());

    // One RestClient whose transport counts every request; the mappers measured and the warm-up's
    // client share it (and its connection pool).
    Loop loop;
    metrics::Registry& registry = metrics::DefaultRegistry();
    StatusOr<std::unique_ptr<rest::Transport>> transport = rest::NewTransport(*config, loop.Executor());
    if (!transport.Ok())
        return Fail(args, "transport: " + transport.GetStatus().ToString());
    auto counting = std::make_unique<ctrl::testing::CountingTransport>(std::move(transport).Value());
    ctrl::testing::CountingTransport& counter = *counting;
    StatusOr<std::shared_ptr<rest::Authenticator>> auth = rest::NewAuthenticator(*config);
    if (!auth.Ok())
        return Fail(args, "authenticator: " + auth.GetStatus().ToString());
    auto rest = std::make_shared<rest::RestClient>(*config, std::move(counting), std::move(auth).Value(), registry);

    // Warm-up through a client of its own (with its own mapper): the connection is then open.
    StatusOr<std::unique_ptr<client::Client>> direct = client::NewForRestClient(rest);
    if (!direct.Ok())
        return Fail(args, "client: " + direct.GetStatus().ToString());
    if (Status warm = WarmUp(args, **direct, loop.Executor()); !warm.Ok())
        return Fail(args, "warm-up: " + warm.ToString());

    const discovery::DiscoveryOptions discovery_options{.aggregated = !args.Switch("legacy")};
    std::shared_ptr<discovery::LazyRESTMapper> mapper =
        discovery::NewLazyRESTMapperFor(rest, discovery_options, discovery::LazyRESTMapperOptions{}, registry);
    int before = counter.Count();
    Clock::time_point start = Clock::now();
    if (Status resolved = RunOn(loop.Executor(), ResolveThings(*mapper, lookups.groups, true)); !resolved.Ok())
        return Fail(args, "resolving with the version named: " + resolved.ToString());
    const double resolve_ms = MillisSince(start);
    const int resolve_requests = counter.Count() - before;

    std::shared_ptr<discovery::LazyRESTMapper> unversioned_mapper =
        discovery::NewLazyRESTMapperFor(rest, discovery_options, discovery::LazyRESTMapperOptions{}, registry);
    before = counter.Count();
    if (Status resolved = RunOn(loop.Executor(), ResolveThings(*unversioned_mapper, lookups.groups, false));
        !resolved.Ok())
        return Fail(args, "resolving without a version: " + resolved.ToString());
    const int resolve_unversioned_requests = counter.Count() - before;

    before = counter.Count();
    start = Clock::now();
    if (Status missed = RunOn(loop.Executor(), MissRepeatedly(*mapper, lookups.misses)); !missed.Ok())
        return Fail(args, missed.ToString());
    const double miss_ms = MillisSince(start);
    const int miss_requests = counter.Count() - before;
    loop.Stop();

    PrintResult({{"resolve_requests", resolve_requests},
                 {"resolve_unversioned_requests", resolve_unversioned_requests},
                 {"miss_requests", miss_requests},
                 {"resolve_ms", resolve_ms},
                 {"miss_ms", miss_ms}});
    return 0;
}

}  // namespace ctrl::bench::vs
