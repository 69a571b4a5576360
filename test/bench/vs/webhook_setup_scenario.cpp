// webhook-setup --cert-dir DIR --port P [--configuration NAME]: what a webhook run's server needs,
// made as the integration tests make it (envtest::InstallWebhooks): a throw-away CA and a serving
// certificate for 127.0.0.1 in DIR (ca.crt, tls.crt, tls.key); with --configuration, a
// ValidatingWebhookConfiguration NAME for SecurityGroupPolicy creates and updates in namespace
// P-webhook, pointed at https://127.0.0.1:P with that CA. PROTOCOL.md, "webhook".

#include <cstdio>
#include <string>

#include "ctrl/envtest/webhook_install.hpp"
#include "test/bench/vs/load_observer.hpp"
#include "test/bench/vs/probe_setup.hpp"
#include "test/bench/vs/scenarios.hpp"
#include "test/bench/vs/webhook_load.hpp"

namespace ctrl::bench::vs {
namespace {

// The configuration: the sample's validating webhook (manifests/webhook/webhooks.yaml) restricted
// to namespace, so that nothing else the API server admits calls it. InstallWebhooks rewrites its
// clientConfig to url https://127.0.0.1:<port><path> and the CA.
std::string Configuration(const std::string& name, const std::string& namespace_name) {
    return "apiVersion: admissionregistration.k8s.io/v1\n"
           "kind: ValidatingWebhookConfiguration\n"
           "metadata: {name: " +
           name +
           "}\n"
           "webhooks:\n"
           "- name: vsecuritygrouppolicy.bench.ctrl.dev\n"
           "  admissionReviewVersions: [v1]\n"
           "  sideEffects: None\n"
           "  failurePolicy: Fail\n"
           "  timeoutSeconds: 5\n"
           "  clientConfig:\n"
           "    service: {name: bench, namespace: bench, path: " +
           std::string(kWebhookPath) +
           "}\n"
           "  namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: " +
           namespace_name +
           "}}\n"
           "  rules:\n"
           "  - apiGroups: [vpcresources.k8s.aws]\n"
           "    apiVersions: [v1beta1]\n"
           "    operations: [CREATE, UPDATE]\n"
           "    resources: [securitygrouppolicies]\n";
}

}  // namespace

int RunWebhookSetup(const ProbeArgs& args) {
    const double port = args.Number("port", 0);
    if (args.Text("cert-dir").empty() || port < 1 || port > 65535 || port != static_cast<int>(port)) {
        std::fprintf(stderr, "ctrl-vs-probe webhook-setup: --cert-dir and --port (1-65535) are required\n");
        return 2;
    }
    StatusOr<rest::Config> config = LoadProbeConfig(args);
    if (!config.Ok())
        return Fail(args, config.GetStatus().ToString());
    envtest::WebhookInstallOptions options;
    options.local_serving_port = static_cast<int>(port);
    options.local_serving_cert_dir = args.Text("cert-dir");
    if (!args.Text("configuration").empty())
        options.manifests = {Configuration(args.Text("configuration"), WebhookNamespace(args))};
    StatusOr<envtest::InstalledWebhooks> installed = envtest::InstallWebhooks(*config, options);
    if (!installed.Ok())
        return Fail(args, installed.GetStatus().ToString());
    PrintResult({{"configurations", static_cast<double>(installed->validating.size())}});
    return 0;
}

}  // namespace ctrl::bench::vs
