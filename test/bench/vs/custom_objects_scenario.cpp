// custom-objects [--concurrency C (16)] (PROTOCOL.md): the cost curve's custom resources. Installs
// the ServiceMonitor CRD as prometheus-operator publishes it, waits until it is served, then creates
// ServiceMonitors sm-0000 .. sm-<M-1> in each namespace P-1 .. P-N (made when missing), C creates in
// flight on the probe's loop. An object already there counts as existing, so a re-run with more
// namespaces makes only the new ones.

#include <chrono>
#include <cstdio>
#include <exception>
#include <latch>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio/co_spawn.hpp>

#include "ctrl/api/namespace.hpp"
#include "ctrl/client/client.hpp"
#include "ctrl/client/option_values.hpp"
#include "ctrl/envtest/crd_install.hpp"
#include "ctrl/metrics/registry.hpp"
#include "test/bench/bench_process.hpp"
#include "test/bench/servicemonitor_workload.hpp"
#include "test/bench/vs/load_observer.hpp"
#include "test/bench/vs/probe_setup.hpp"
#include "test/bench/vs/scenarios.hpp"

namespace ctrl::bench::vs {
namespace {

using namespace std::chrono_literals;

// What the create lanes share. They all run on the loop's one thread, so plain fields do.
struct Creates {
    client::Client& client;
    const ctrl::testing::WorkloadOptions& layout;
    int total = 0;
    int next = 0;
    int made = 0;
    int existing = 0;
    Status first_error = OkStatus();
};

// Creates the objects next, next + 1, ... (namespace i / M, index i % M) until all are made or one
// fails for another reason than AlreadyExists.
Task<void> CreateLane(Creates& creates) {
    const int per_namespace = creates.layout.pods_per_namespace;
    while (creates.first_error.Ok() && creates.next < creates.total) {
        const int i = creates.next++;
        ServiceMonitor object = WorkloadServiceMonitor(creates.layout, i / per_namespace, i % per_namespace);
        Context ctx = Context::WithTimeout(Context::Background(), 30s);
        client::CreateOptions options;  // named: a defaulted argument inside co_await is freed twice (GCC 12)
        const Status created = co_await creates.client.Create(std::move(ctx), object, std::move(options));
        if (created.Ok()) {
            ++creates.made;
        } else if (IsAlreadyExists(created)) {
            ++creates.existing;
        } else if (creates.first_error.Ok()) {
            creates.first_error =
                created.Annotate("creating " + std::string(object.Namespace()) + "/" + std::string(object.Name()));
        }
    }
}

// Creates the workload's namespaces that are missing, labelled as ctrl-workload labels its own.
Task<Status> CreateNamespaces(client::Client& client, ctrl::testing::WorkloadOptions layout) {
    for (int n = 0; n < layout.namespaces; ++n) {
        api::Namespace ns;
        ns.SetName(ctrl::testing::WorkloadNamespace(layout, n));
        ns.SetLabel(ctrl::testing::kWorkloadLabel, layout.prefix);
        Context ctx = Context::WithTimeout(Context::Background(), 30s);
        client::CreateOptions options;
        const Status created = co_await client.Create(std::move(ctx), ns, std::move(options));
        if (!created.Ok() && !IsAlreadyExists(created))
            co_return created.Annotate("creating namespace " + std::string(ns.Name()));
    }
    co_return OkStatus();
}

// The mean size of P-1's ServiceMonitors as the server returns them (a direct List), in bytes of
// JSON; 0 when it holds none.
Task<StatusOr<double>> JsonBytesPerObject(client::Client& client, std::string namespace_name) {
    ServiceMonitorList list;
    Context ctx = Context::WithTimeout(Context::Background(), 60s);
    const Status listed = co_await client.List(std::move(ctx), list, client::InNamespace(namespace_name));
    if (!listed.Ok())
        co_return listed.Annotate("listing the ServiceMonitors of " + namespace_name);
    if (list.Items().empty())
        co_return 0.0;
    std::size_t bytes = 0;
    for (const Object& object : list.Items())
        bytes += object.ToJson().size();
    co_return static_cast<double>(bytes) / static_cast<double>(list.Items().size());
}

// Installs the CRD and waits until ServiceMonitors are served.
Status InstallServiceMonitorCrd(const rest::Config& config) {
    envtest::CRDInstallOptions options;
    options.paths = {ServiceMonitorCrdPath()};
    options.max_time = 120s;
    return envtest::InstallCRDs(config, options).GetStatus();
}

}  // namespace

int RunCustomObjects(const ProbeArgs& args) {
    const double concurrency = args.Number("concurrency", 16);
    if (concurrency < 1 || concurrency != static_cast<int>(concurrency)) {
        std::fprintf(stderr, "ctrl-vs-probe custom-objects: --concurrency must be a count of at least 1\n");
        return 2;
    }
    StatusOr<rest::Config> config = LoadProbeConfig(args);
    if (!config.Ok())
        return Fail(args, config.GetStatus().ToString());
    if (Status installed = InstallServiceMonitorCrd(*config); !installed.Ok())
        return Fail(args, "the ServiceMonitor CRD: " + installed.ToString());
    StatusOr<std::shared_ptr<scheme::Scheme>> kinds = ServiceMonitorScheme();
    if (!kinds.Ok())
        return Fail(args, "scheme: " + kinds.GetStatus().ToString());
    Loop loop;
    metrics::Registry registry;
    client::Options options;
    options.scheme = *kinds;
    options.registry = &registry;
    StatusOr<std::unique_ptr<client::Client>> direct = client::New(*config, loop.Executor(), std::move(options));
    if (!direct.Ok())
        return Fail(args, "client: " + direct.GetStatus().ToString());
    if (Status made = RunOn(loop.Executor(), CreateNamespaces(**direct, args.layout)); !made.Ok())
        return Fail(args, made.ToString());

    Creates creates{.client = **direct, .layout = args.layout, .total = args.Pods()};
    const int lanes = static_cast<int>(concurrency);
    const auto start = std::chrono::steady_clock::now();
    std::latch done(lanes);
    for (int lane = 0; lane < lanes; ++lane)
        boost::asio::co_spawn(loop.Executor(), CreateLane(creates), [&done](std::exception_ptr) { done.count_down(); });
    done.wait();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!creates.first_error.Ok())
        return Fail(args, creates.first_error.ToString());
    if (creates.made + creates.existing != creates.total)
        return Fail(args, std::to_string(creates.made + creates.existing) + " of " + std::to_string(creates.total) +
                              " ServiceMonitors made or found (a create lane threw)");
    StatusOr<double> bytes = RunOn(loop.Executor(), JsonBytesPerObject(**direct, FirstNamespace(args)));
    if (!bytes.Ok())
        return Fail(args, bytes.GetStatus().ToString());
    PrintResult({{"made", static_cast<double>(creates.made)},
                 {"existing", static_cast<double>(creates.existing)},
                 {"seconds", seconds},
                 {"json_bytes_per_object", *bytes}});
    return 0;
}

}  // namespace ctrl::bench::vs
