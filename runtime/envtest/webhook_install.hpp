#pragma once

#include <string>
#include <vector>

#include "ctrl/core/status_or.hpp"
#include "ctrl/envtest/crd_install.hpp"
#include "ctrl/rest/config.hpp"

namespace ctrl::envtest {

// Admission webhook configurations to install so that the local kube-apiserver calls a webhook
// server the test runs on loopback (envtest.WebhookInstallOptions); with no configuration, only the
// certificate is made (for a conversion webhook: InstalledWebhooks::ConversionClient). Each webhook's clientConfig is
// rewritten to url https://<host>:<port><its service path> with the caBundle of a throw-away CA
// that also signed <cert_dir>/tls.crt: point a manager's webhook options at host, port and
// cert_dir (InstalledWebhooks::ServerOptions says how).
struct WebhookInstallOptions {
    // ValidatingWebhookConfiguration and MutatingWebhookConfiguration manifests (admissionregistration.k8s.io/v1):
    // files or directories of *.yaml, *.yml, *.json; other kinds in them are skipped.
    std::vector<std::string> paths{};
    // The same, given as YAML or JSON text.
    std::vector<std::string> manifests{};
    // Where the webhook server listens. Port 0: a free port is chosen.
    std::string local_serving_host = "127.0.0.1";
    int local_serving_port = 0;
    // Where the serving certificate is written (tls.crt, tls.key) beside the CA (ca.crt); "" makes a
    // new temporary directory (the caller removes it).
    std::string local_serving_cert_dir{};
};

// What InstallWebhooks did.
struct InstalledWebhooks {
    std::string host;
    int port = 0;
    std::string cert_dir;                 // tls.crt, tls.key, ca.crt
    std::string ca_pem;                   // the caBundle the configurations carry
    std::vector<std::string> validating;  // names of the configurations made
    std::vector<std::string> mutating;

    // The same server's conversion webhook, at controller-runtime's path /convert: what
    // CRDInstallOptions::conversion_webhook points CRDs converted by webhook at.
    ConversionWebhookClient ConversionClient() const {
        return {"https://" + host + ":" + std::to_string(port) + "/convert", ca_pem};
    }
};

// Creates (or replaces) the configurations the options name, pointed at the local server.
// NotFound for a missing path, BadRequest naming the manifest for one that does not parse or a
// webhook without clientConfig. Blocks the calling thread (its own event loop); not from a
// coroutine.
StatusOr<InstalledWebhooks> InstallWebhooks(const rest::Config& config, const WebhookInstallOptions& options);

}  // namespace ctrl::envtest
