// webhook-serve --cert-dir DIR --port P: the sample operator's SecurityGroupPolicy validator
// (sgp::PolicyValidator) on a manager's webhook server, registered with the builder as an operator's
// main() registers it. Prints SERVING once the server listens, serves until SIGTERM, then prints
// RESULT. PROTOCOL.md, "webhook".

#include <chrono>
#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <utility>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>

#include "controllers/sgp/api/vpcresources.hpp"
#include "controllers/sgp/policy_webhook.hpp"
#include "ctrl/api/builtins.hpp"
#include "ctrl/builder/webhook_builder.hpp"
#include "ctrl/core/sleep.hpp"
#include "ctrl/manager/manager.hpp"
#include "ctrl/manager/signals.hpp"
#include "test/bench/bench_process.hpp"
#include "test/bench/process_stats.hpp"
#include "test/bench/vs/load_observer.hpp"
#include "test/bench/vs/probe_setup.hpp"
#include "test/bench/vs/scenarios.hpp"

namespace ctrl::bench::vs {
namespace {

using namespace std::chrono_literals;

// Prints "SERVING <unix ns>" once the webhook server listens.
Task<void> SayWhenServing(Context ctx, manager::Manager& mgr) {
    const server::Checker started = mgr.GetWebhookServer().StartedChecker();
    while (!started().Ok()) {
        if (!(co_await SleepFor(ctx, 10ms)).Ok())
            co_return;
    }
    std::printf("SERVING %lld\n", static_cast<long long>(UnixNanos()));
    std::fflush(stdout);
}

// controller_runtime_webhook_requests_total summed over every path and code.
double WebhookRequests(metrics::Registry& registry) {
    std::istringstream text(registry.SerializeText());
    double total = 0;
    for (std::string line; std::getline(text, line);) {
        if (line.starts_with("controller_runtime_webhook_requests_total{"))
            total += std::stod(line.substr(line.rfind(' ') + 1));
    }
    return total;
}

}  // namespace

int RunWebhookServe(const ProbeArgs& args) {
    const double port = args.Number("port", 0);
    if (args.Text("cert-dir").empty() || port < 1 || port > 65535 || port != static_cast<int>(port)) {
        std::fprintf(stderr, "ctrl-vs-probe webhook-serve: --cert-dir and --port (1-65535) are required\n");
        return 2;
    }
    StatusOr<rest::Config> config = LoadProbeConfig(args);
    if (!config.Ok())
        return Fail(args, config.GetStatus().ToString());
    auto scheme = std::make_shared<scheme::Scheme>();
    if (Status added = api::AddAllBuiltinsToScheme(*scheme); !added.Ok())
        return Fail(args, added.ToString());
    if (Status added = vpcresources::vpcresourcesv1beta1::AddToScheme(*scheme); !added.Ok())
        return Fail(args, added.ToString());
    manager::Options options;
    options.scheme = scheme;
    options.metrics.bind_address = "0";
    options.health_probe_bind_address = "0";
    options.webhook = {.host = "127.0.0.1", .port = static_cast<int>(port), .cert_dir = args.Text("cert-dir")};
    StatusOr<std::unique_ptr<manager::Manager>> mgr = manager::New(*config, options);
    if (!mgr.Ok())
        return Fail(args, "manager: " + mgr.GetStatus().ToString());
    // The sample's validator alone: the peer serves a validating webhook only.
    if (Status built = builder::WebhookManagedBy(**mgr)
                           .For<vpcresources::SecurityGroupPolicy>()
                           .WithValidator(std::make_shared<sgp::PolicyValidator>())
                           .Complete();
        !built.Ok())
        return Fail(args, "webhook: " + built.ToString());

    // As an operator's main(): Start(SetupSignalHandler()); the driver ends it with SIGTERM.
    Context stop = manager::SetupSignalHandler();
    boost::asio::co_spawn((*mgr)->GetExecutor(), SayWhenServing(stop, **mgr), boost::asio::detached);
    const Status ran = (*mgr)->Start(stop);
    if (!ran.Ok())
        return Fail(args, "the manager stopped with " + ran.ToString());
    const ProcessSnapshot process = SnapshotProcess();
    PrintResult({{"requests", WebhookRequests((*mgr)->GetMetricsRegistry())},
                 {"cpu_s", CpuSeconds()},
                 {"rss_bytes", static_cast<double>(process.rss)},
                 {"rss_peak_bytes", static_cast<double>(process.rss_peak)},
                 {"threads", static_cast<double>(process.threads)}});
    return 0;
}

}  // namespace ctrl::bench::vs
