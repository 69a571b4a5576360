// ctrl-workload: creates (or deletes) a synthetic workload of namespaces and realistic pods
// through the client, many creates in flight on one thread, and prints how long it took.
//
//   ctrl-workload [--kubeconfig PATH] [--context NAME] [--namespaces N] [--pods-per-namespace M]
//                 [--prefix P] [--concurrency C] [--nodes K] [--delete]

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <boost/asio/io_context.hpp>

#include "ctrl/core/run_sync.hpp"
#include "ctrl/rest/load_config.hpp"
#include "test/support/workload.hpp"

namespace {

int Usage(std::ostream& out, int code) {
    out << "usage: ctrl-workload [--kubeconfig PATH] [--context NAME] [--namespaces N (3)]\n"
           "                     [--pods-per-namespace M (10)] [--prefix P (workload)] [--concurrency C (16)]\n"
           "                     [--nodes K (0)] [--delete]\n"
           "Creates namespaces P-1..P-N, each with pods pod-0000..pod-<M-1> (~8 KB each as stored), or\n"
           "with --delete removes them. Objects that exist already are kept, so a re-run is cheap. With\n"
           "--nodes K, four pods in five get spec.nodeName P-node-<k>. On the local control plane no\n"
           "namespace controller runs: deleted namespaces stay Terminating, and creating in them fails\n"
           "until the control plane restarts (hack/control-plane.sh down; up starts with empty etcd).\n";
    return code;
}

int Fail(const std::string& message) {
    std::cerr << "ctrl-workload: error: " << message << std::endl;
    return 1;
}

std::optional<int> ParseCount(std::string_view text) {
    char* end = nullptr;
    std::string copy(text);
    long value = std::strtol(copy.c_str(), &end, 10);
    if (copy.empty() || *end != '\0' || value < 0 || value > 10'000'000)
        return std::nullopt;
    return static_cast<int>(value);
}

}  // namespace

int main(int argc, char** argv) {
    ctrl::testing::WorkloadOptions options;
    ctrl::rest::LoadConfigOptions config_options;
    bool remove = false;
    for (int i = 1; i < argc; ++i) {
        std::string_view arg = argv[i];
        if (arg == "-h" || arg == "--help")
            return Usage(std::cout, 0);
        if (arg == "--delete") {
            remove = true;
            continue;
        }
        std::string_view name = arg;
        std::optional<std::string_view> value;
        if (size_t eq = arg.find('='); eq != std::string_view::npos) {
            name = arg.substr(0, eq);
            value = arg.substr(eq + 1);
        } else if (i + 1 < argc) {
            value = argv[++i];
        }
        if (!value)
            return Fail("flag " + std::string(arg) + " needs a value");
        if (name == "--kubeconfig") {
            config_options.kubeconfig = *value;
        } else if (name == "--context") {
            config_options.context = *value;
        } else if (name == "--prefix") {
            options.prefix = *value;
        } else if (name == "--namespaces" || name == "--pods-per-namespace" || name == "--concurrency" ||
                   name == "--nodes") {
            std::optional<int> count = ParseCount(*value);
            if (!count)
                return Fail("flag " + std::string(name) + ": \"" + std::string(*value) + "\" is not a count");
            int* target = name == "--namespaces"           ? &options.namespaces
                          : name == "--pods-per-namespace" ? &options.pods_per_namespace
                          : name == "--concurrency"        ? &options.concurrency
                                                           : &options.nodes;
            *target = *count;
        } else {
            std::cerr << "ctrl-workload: unknown flag " << name << "\n";
            return Usage(std::cerr, 2);
        }
    }

    ctrl::StatusOr<ctrl::rest::Config> config = ctrl::rest::LoadConfig(config_options);
    if (!config.Ok())
        return Fail("loading the client config: " + config.GetStatus().ToString());
    boost::asio::io_context io;
    auto client = ctrl::client::New(*config, io.get_executor());
    if (!client.Ok())
        return Fail("making a client for " + config->host + ": " + client.GetStatus().ToString());

    ctrl::Context ctx = ctrl::Context::Background();
    ctrl::StatusOr<ctrl::testing::WorkloadReport> report =
        remove ? ctrl::RunSync(io, ctrl::testing::DeleteWorkload(ctx, **client, options))
               : ctrl::RunSync(io, ctrl::testing::CreateWorkload(ctx, **client, options));
    if (!report.Ok())
        return Fail(report.GetStatus().ToString());
    const std::string range = options.prefix + "-1.." + options.prefix + "-" + std::to_string(options.namespaces);
    if (remove) {
        std::printf("ctrl-workload: deleted %d pods and %d namespaces (%s) in %lld ms\n", report->pods,
                    report->namespaces, range.c_str(), static_cast<long long>(report->took.count()));
    } else {
        std::printf(
            "ctrl-workload: %d pods created (%d existed already) in %d namespaces (%s, %d new) in %lld ms: "
            "%.0f pods/s with %d in flight\n",
            report->pods, report->pods_existing, options.namespaces, range.c_str(), report->namespaces,
            static_cast<long long>(report->took.count()), report->PodsPerSecond(), options.concurrency);
    }
    return 0;
}
