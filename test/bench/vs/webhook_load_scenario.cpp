// webhook-load --cert-dir DIR --port P --clients C --seconds S [--apiserver]: the one admission load
// both sides' webhook servers get (webhook_load.hpp), then RESULT. PROTOCOL.md, "webhook".

#include <cstdio>
#include <string>

#include "ctrl/core/internal/read_file.hpp"
#include "test/bench/bench_process.hpp"
#include "test/bench/vs/load_observer.hpp"
#include "test/bench/vs/probe_setup.hpp"
#include "test/bench/vs/scenarios.hpp"
#include "test/bench/vs/webhook_load.hpp"

namespace ctrl::bench::vs {

int RunWebhookLoad(const ProbeArgs& args) {
    const double port = args.Number("port", 0);
    const double clients = args.Number("clients", 0);
    const double seconds = args.Number("seconds", 0);
    if (args.Text("cert-dir").empty() || port < 1 || port > 65535 || port != static_cast<int>(port) || clients < 1 ||
        clients != static_cast<int>(clients) || seconds <= 0) {
        std::fprintf(stderr,
                     "ctrl-vs-probe webhook-load: --cert-dir, --port (1-65535), --clients (a count) and --seconds "
                     "(positive) are required\n");
        return 2;
    }
    AdmissionLoadOptions options;
    options.through_apiserver = args.Switch("apiserver");
    options.namespace_name = WebhookNamespace(args);
    options.clients = static_cast<int>(clients);
    options.seconds = seconds;
    rest::Config target;
    if (options.through_apiserver) {
        StatusOr<rest::Config> config = LoadProbeConfig(args);
        if (!config.Ok())
            return Fail(args, config.GetStatus().ToString());
        target = *config;
    } else {
        StatusOr<std::string> ca = ctrl::internal::ReadFile(args.Text("cert-dir") + "/ca.crt");
        if (!ca.Ok())
            return Fail(args, ca.GetStatus().ToString());
        target.host = "https://127.0.0.1:" + std::to_string(static_cast<int>(port));
        target.tls.ca_pem = *ca;
    }
    const double cpu_before = CpuSeconds();
    StatusOr<AdmissionLoadResult> load = RunAdmissionLoad(target, options);
    if (!load.Ok())
        return Fail(args, load.GetStatus().ToString());
    if (load->errors > 0)
        std::fprintf(stderr, "ctrl-vs-probe webhook-load: %d of %d requests failed; the first: %s\n", load->errors,
                     load->requests, load->first_error.c_str());
    PrintResult({{"requests", load->requests},
                 {"errors", load->errors},
                 {"warmup_requests", load->warmup_requests},
                 {"seconds", load->seconds},
                 {"requests_per_s", load->seconds > 0 ? load->requests / load->seconds : 0},
                 {"p50_us", QuantileMs(load->latencies, 0.50) * 1000},
                 {"p99_us", QuantileMs(load->latencies, 0.99) * 1000},
                 {"client_cpu_s", CpuSeconds() - cpu_before}});
    return 0;
}

}  // namespace ctrl::bench::vs
