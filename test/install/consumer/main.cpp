// consumer-operator: a Manager with one trivial controller, built against the installed ctrl.
//   consumer-operator [--kubeconfig FILE]   run until SIGTERM or SIGINT

#include <cstdio>
#include <string>

#include "annotator.hpp"
#include "ctrl/manager/manager.hpp"
#include "ctrl/manager/signals.hpp"
#include "ctrl/rest/load_config.hpp"

int main(int argc, char** argv) {
    ctrl::rest::LoadConfigOptions load;
    if (argc == 3 && std::string(argv[1]) == "--kubeconfig")
        load.kubeconfig = argv[2];
    ctrl::StatusOr<ctrl::rest::Config> config = ctrl::rest::LoadConfig(load);
    if (!config.Ok()) {
        std::fprintf(stderr, "consumer-operator: %s\n", config.GetStatus().ToString().c_str());
        return 1;
    }
    ctrl::StatusOr<std::unique_ptr<ctrl::manager::Manager>> mgr = ctrl::manager::New(*config);
    ctrl::Status status = mgr.Ok() ? consumer::AddAnnotator(**mgr) : mgr.GetStatus();
    if (status.Ok())
        status = (*mgr)->Start(ctrl::manager::SetupSignalHandler());
    if (!status.Ok()) {
        std::fprintf(stderr, "consumer-operator: %s\n", status.ToString().c_str());
        return 1;
    }
    return 0;
}
