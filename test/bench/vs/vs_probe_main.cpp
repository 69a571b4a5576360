// ctrl-vs-probe: ctrl's side of `hack/bench.sh --vs controller-runtime`. One scenario per run,
// figures on one "RESULT" line; test/bench/vs/PROTOCOL.md says what each measures.

#include <cstdio>
#include <functional>
#include <map>
#include <string>

#include "test/bench/vs/scenarios.hpp"

namespace {

using ctrl::bench::vs::ProbeArgs;
using ctrl::bench::vs::ScenarioFlags;

struct Scenario {
    ScenarioFlags flags;
    std::function<int(const ProbeArgs&)> run;
};

const std::map<std::string, Scenario>& Scenarios() {
    using namespace ctrl::bench::vs;
    static const std::map<std::string, Scenario> scenarios = {
        {"sync", {{{}, {"keep-managed-fields", "protobuf", "servicemonitors"}}, RunSync}},
        {"watch", {{}, RunWatch}},
        {"reads", {{{"seconds"}, {"servicemonitors"}}, RunReads}},
        {"reconcile", {{{"workers"}, {"load", "servicemonitors"}}, RunReconcile}},
        {"queue", {{{"seconds"}, {}}, RunQueue}},
        {"discovery", {{{"groups", "misses"}, {"legacy"}}, RunDiscovery}},
        {"idle", {{{"seconds"}, {"servicemonitors"}}, RunIdle}},
        {"failover", {{{"objects", "lease"}, {"warmup"}}, RunFailover}},
        {"failover-objects", {{{"count"}, {}}, RunFailoverObjects}},
        {"custom-objects", {{{"concurrency"}, {}}, RunCustomObjects}},
        {"patch-load", {{{"concurrency", "seconds", "out"}, {}}, RunPatchLoad}},
        {"webhook-setup", {{{"cert-dir", "port", "configuration"}, {}}, RunWebhookSetup}},
        {"webhook-serve", {{{"cert-dir", "port"}, {}}, RunWebhookServe}},
        {"webhook-load", {{{"cert-dir", "port", "clients", "seconds"}, {"apiserver"}}, RunWebhookLoad}},
    };
    return scenarios;
}

}  // namespace

int main(int argc, char** argv) {
    std::map<std::string, ScenarioFlags> accepted;
    for (const auto& [name, scenario] : Scenarios())
        accepted[name] = scenario.flags;
    auto args = ctrl::bench::vs::ParseProbeArgs(argc, argv, accepted);
    if (!args.Ok()) {
        std::fprintf(
            stderr,
            "ctrl-vs-probe: %s\nusage: ctrl-vs-probe "
            "sync|watch|reads|reconcile|queue|discovery|idle|failover|failover-objects|custom-objects|patch-load|"
            "webhook-setup|"
            "webhook-serve|webhook-load --kubeconfig PATH "
            "[flags]\n"
            "(test/bench/vs/PROTOCOL.md)\n",
            args.GetStatus().ToString().c_str());
        return 2;
    }
    return Scenarios().at(args->scenario).run(*args);
}
