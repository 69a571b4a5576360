// ctrl-operator: the sample operator. A manager::Manager running the SecurityGroupPolicy watcher
// (controllers/sgp) and the pod-phase controller (controllers/podlister), configured from the
// command line (operator_flags.hpp). Exit code 0 after a clean stop (SIGTERM or SIGINT), 1 when
// it cannot start or fails, 2 for bad flags.

#include <cstdio>
#include <memory>
#include <string>

#include "controllers/operator/operator_flags.hpp"
#include "controllers/operator/operator_manager.hpp"
#include "ctrl/log/log.hpp"
#include "ctrl/manager/signals.hpp"
#include "ctrl/rest/load_config.hpp"

namespace {

int Fail(int code, const std::string& what) {
    std::fprintf(stderr, "ctrl-operator: %s\n", what.c_str());
    return code;
}

}  // namespace

int main(int argc, char** argv) {
    ctrl::StatusOr<ctrl::op::OperatorFlags> flags = ctrl::op::ParseOperatorFlags(argc, argv);
    if (!flags.Ok())
        return Fail(2, flags.GetStatus().ToString());
    if (flags->manager.help) {
        std::printf("%s", ctrl::op::OperatorUsage().c_str());
        return 0;
    }
    ctrl::rest::LoadConfigOptions load;
    load.kubeconfig = flags->manager.kubeconfig;
    load.context = flags->context;
    ctrl::StatusOr<ctrl::rest::Config> config = ctrl::rest::LoadConfig(load);
    if (!config.Ok())
        return Fail(1, "loading the cluster's config: " + config.GetStatus().ToString());
    if (!flags->metrics_secure_given)
        flags->manager.metrics_secure = config->in_cluster;

    const ctrl::Context ctx = ctrl::manager::SetupSignalHandler();
    ctrl::StatusOr<std::unique_ptr<ctrl::manager::Manager>> mgr = ctrl::op::NewOperatorManager(*config, *flags);
    if (!mgr.Ok())
        return Fail(1, mgr.GetStatus().ToString());
    ctrl::log::Logger().WithName("setup").Info("Starting the manager", "config", config->source, "secure metrics",
                                               flags->manager.metrics_secure);
    const ctrl::Status stopped = (*mgr)->Start(ctx);
    if (!stopped.Ok())
        return Fail(1, "the manager stopped: " + stopped.ToString());
    return 0;
}
