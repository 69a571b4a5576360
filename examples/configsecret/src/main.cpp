// configsecret-operator: keeps a Secret for each ConfigSecret (examples.ctrl.dev/v1beta1, also served
// as v1alpha1) holding chosen keys of a ConfigMap, and serves the conversion webhook between the two
// versions (HTTPS on port 9443, the certificate from /tmp/k8s-webhook-server/serving-certs, as
// controller-runtime's defaults). Flags: those of every ctrl operator (--kubeconfig, --leader-elect,
// --metrics-bind-address, --health-probe-bind-address, -v ...; --help lists them).

#include <cstdio>
#include <memory>

#include <ctrl/ctrl.hpp>

#include "config_secret_reconciler.hpp"
#include "config_secret_webhook.hpp"
#include "configsecret_api/examples_v1alpha1.hpp"
#include "configsecret_api/examples_v1beta1.hpp"

namespace {

int Fail(int code, const ctrl::Status& status, const char* what) {
    std::fprintf(stderr, "configsecret-operator: %s: %s\n", what, status.ToString().c_str());
    return code;
}

}  // namespace

int main(int argc, char** argv) {
    ctrl::manager::Flags defaults;
    defaults.leader_election_id = "configsecret-operator.examples.ctrl.dev";
    ctrl::StatusOr<ctrl::manager::Flags> flags = ctrl::manager::ParseFlags(argc, argv, defaults);
    if (!flags.Ok())
        return Fail(2, flags.GetStatus(), "bad flags");
    if (flags->help || argc > 1) {
        std::printf("usage: configsecret-operator [flags]\n%s", ctrl::manager::FlagsUsage(defaults).c_str());
        return flags->help ? 0 : 2;
    }

    auto scheme = std::make_shared<ctrl::scheme::Scheme>();
    ctrl::Status registered = ctrl::api::AddAllBuiltinsToScheme(*scheme);
    if (registered.Ok())
        registered = examples::v1alpha1::AddToScheme(*scheme);
    if (registered.Ok())
        registered = examples::v1beta1::AddToScheme(*scheme);
    if (!registered.Ok())
        return Fail(1, registered, "registering the kinds");

    ctrl::StatusOr<ctrl::rest::Config> config = ctrl::GetConfig(*flags);
    if (!config.Ok())
        return Fail(1, config.GetStatus(), "loading the cluster's config");

    ctrl::Options options;
    options.scheme = scheme;
    ctrl::manager::ApplyFlags(*flags, options);
    ctrl::StatusOr<std::unique_ptr<ctrl::Manager>> mgr = ctrl::NewManager(*config, std::move(options));
    if (!mgr.Ok())
        return Fail(1, mgr.GetStatus(), "making the manager");
    const ctrl::Status setup = configsecret::SetupWithManager(**mgr);
    if (!setup.Ok())
        return Fail(1, setup, "setting up the ConfigSecret controller");
    const ctrl::Status webhook = configsecret::SetupWebhookWithManager(**mgr);
    if (!webhook.Ok())
        return Fail(1, webhook, "setting up the ConfigSecret conversion webhook");

    ctrl::Log().WithName("setup").Info("Starting the manager", "config", config->source);
    const ctrl::Status stopped = (*mgr)->Start(ctrl::SetupSignalHandler());
    if (!stopped.Ok())
        return Fail(1, stopped, "the manager stopped");
    return 0;
}
