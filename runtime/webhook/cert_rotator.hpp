#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ctrl/client/client.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/notification.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/log/log.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/rest/rest_client.hpp"
#include "ctrl/server/certificate_source.hpp"

namespace ctrl::webhook {

// What a CertRotator keeps and where (self-managed webhook certificates).
struct CertRotatorOptions {
    // The Secret holding the CA bundle (ca.crt: the current CA first, then older ones still valid),
    // the current CA's key (ca.key) and the serving pair (tls.crt, tls.key). Both required.
    std::string secret_namespace{};
    std::string secret_name{};
    // The serving certificate's names: the webhook Service's DNS names
    // ("ctrl-operator-webhook.ctrl-system.svc") and, for a server the API server calls by URL on
    // loopback, "127.0.0.1". At least one.
    std::vector<std::string> dns_names{};
    std::vector<std::string> ips{};
    // Validity of a new CA and of a new serving certificate. Each is renewed once less than a third
    // of its validity is left, so the old one is still valid for a third of its life.
    std::chrono::seconds ca_validity = std::chrono::hours(24 * 365 * 5);
    std::chrono::seconds cert_validity = std::chrono::hours(24 * 365);
    // After a new CA enters the bundle, how long to wait before serving a certificate it signed (the
    // API server reloads a webhook's CA bundle from its own watch: a moment).
    std::chrono::milliseconds propagation_delay = std::chrono::seconds(5);
    // The objects whose CA bundle it keeps equal to ca.crt: every webhook of these
    // ValidatingWebhookConfigurations and MutatingWebhookConfigurations, and spec.conversion.webhook
    // of these CustomResourceDefinitions. Re-injected when someone changes them (a re-apply).
    std::vector<std::string> validating_webhooks{};
    std::vector<std::string> mutating_webhooks{};
    std::vector<std::string> conversion_crds{};
    // The CA's common name.
    std::string ca_name = "ctrl-webhook-ca";
};

// Certificates a webhook server makes and rotates itself, without cert-manager (cert-controller's
// rotator, in ctrl's shapes). Every replica runs one: it watches the Secret and presents the pair
// the Secret holds (a server::CertificateSource: a rotation is served from the next handshake on);
// and it keeps the Secret valid: it makes a CA and a serving certificate when there are none,
// renews the serving certificate and the CA before they expire, and injects the CA bundle into the
// configurations it owns. A new CA joins the bundle beside the old one, and a certificate the new
// CA signed is served only after propagation_delay, so the API server trusts whatever pair a
// replica presents during a rotation; an old CA leaves the bundle when it expires. Replicas write
// with optimistic concurrency (the Secret's resourceVersion), so several can run without a leader,
// and a standby follows the leader's rotation through its watch. Thread-safe.
class CertRotator final : public server::CertificateSource {
  public:
    // BadRequest naming a missing option. writer: the uncached client it writes with (a manager's
    // GetAPIReader); rest: the connection its watches use.
    static StatusOr<std::shared_ptr<CertRotator>> New(CertRotatorOptions options,
                                                      std::shared_ptr<rest::RestClient> rest, client::Client& writer,
                                                      metrics::Registry& registry);
    ~CertRotator() override;

    std::shared_ptr<const server::TlsIdentity> Current() const override;
    Task<Status> WaitForCertificate(Context ctx) const override;

    // Watches the Secret and the configurations and keeps them valid until ctx ends. OK then.
    Task<Status> Run(Context ctx);
    bool NeedLeaderElection() const { return false; }
    std::string Name() const { return "certificate rotator"; }

    // The CA bundle last read from the Secret (PEM), for tests and status.
    std::string CaBundle() const;

    struct State;

  private:
    explicit CertRotator(std::shared_ptr<State> state);
    std::shared_ptr<State> state_;
};

}  // namespace ctrl::webhook
