// failover-objects --count N (PROTOCOL.md, "failover"): the objects both sides' failover replicas
// reconcile, made once by the driver: namespace <prefix>-failover and ConfigMaps cm-00000 ..
// cm-<N-1> in it, 16 creates in flight. Objects already there count as made (a re-run completes a
// partial set).

#include <atomic>
#include <chrono>
#include <cstdio>
#include <latch>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include <boost/asio/co_spawn.hpp>

#include "ctrl/api/config_map.hpp"
#include "ctrl/api/namespace.hpp"
#include "ctrl/client/client.hpp"
#include "ctrl/metrics/registry.hpp"
#include "test/bench/bench_process.hpp"
#include "test/bench/vs/failover.hpp"
#include "test/bench/vs/load_observer.hpp"
#include "test/bench/vs/probe_setup.hpp"
#include "test/bench/vs/scenarios.hpp"

namespace ctrl::bench::vs {
namespace {

using namespace std::chrono_literals;

constexpr int kLanes = 16;

// What the create lanes share.
struct Creates {
    std::string namespace_name;
    int count = 0;
    std::atomic<int> next{0};
    std::atomic<int> existing{0};
    std::mutex mu;
    Status first_error;  // guarded by mu
};

// Creates ConfigMaps next, next + 1, ... until count or an error.
Task<void> CreateLane(client::Client& client, Creates& creates) {
    for (int i = creates.next++; i < creates.count; i = creates.next++) {
        api::ConfigMap cm;
        cm.SetNamespace(creates.namespace_name);
        cm.SetName(FailoverObjectName(i));
        cm.SetDataValue("index", std::to_string(i));
        const Status created = co_await client.Create(Context::WithTimeout(Context::Background(), 30s), cm);
        if (IsAlreadyExists(created)) {
            ++creates.existing;
        } else if (!created.Ok()) {
            std::lock_guard lock(creates.mu);
            if (creates.first_error.Ok())
                creates.first_error = created.Annotate("creating " + std::string(cm.Name()));
            creates.next = creates.count;  // the other lanes stop after their create in flight
        }
    }
}

Task<Status> CreateNamespace(client::Client& client, std::string name) {
    api::Namespace ns;
    ns.SetName(name);
    const Status created = co_await client.Create(Context::WithTimeout(Context::Background(), 30s), ns);
    co_return IsAlreadyExists(created) ? OkStatus() : created;
}

}  // namespace

int RunFailoverObjects(const ProbeArgs& args) {
    const double count = args.Number("count", 0);
    if (count < 1 || count != static_cast<int>(count)) {
        std::fprintf(stderr, "ctrl-vs-probe failover-objects: --count must be a count of at least 1\n");
        return 2;
    }
    StatusOr<rest::Config> config = LoadProbeConfig(args);
    if (!config.Ok())
        return Fail(args, config.GetStatus().ToString());
    Loop loop;
    metrics::Registry registry;
    client::Options options;
    options.registry = &registry;
    StatusOr<std::unique_ptr<client::Client>> direct = client::New(*config, loop.Executor(), std::move(options));
    if (!direct.Ok())
        return Fail(args, "client: " + direct.GetStatus().ToString());
    Creates creates;
    creates.namespace_name = FailoverNamespace(args);
    creates.count = static_cast<int>(count);
    if (Status made = RunOn(loop.Executor(), CreateNamespace(**direct, creates.namespace_name)); !made.Ok())
        return Fail(args, "namespace " + creates.namespace_name + ": " + made.ToString());

    const auto start = std::chrono::steady_clock::now();
    std::latch done(kLanes);
    for (int lane = 0; lane < kLanes; ++lane)
        boost::asio::co_spawn(loop.Executor(), CreateLane(**direct, creates),
                              [&done](std::exception_ptr) { done.count_down(); });
    done.wait();
    if (!creates.first_error.Ok())
        return Fail(args, creates.first_error.ToString());
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    PrintResult({{"objects", static_cast<double>(creates.count)},
                 {"existing", static_cast<double>(creates.existing.load())},
                 {"seconds", seconds}});
    return 0;
}

}  // namespace ctrl::bench::vs
