#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include <boost/asio/any_io_executor.hpp>

#include "ctrl/core/context.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/server/certificate_source.hpp"
#include "ctrl/server/health_checks.hpp"
#include "ctrl/server/http_exchange.hpp"
#include "ctrl/server/http_server.hpp"
#include "ctrl/webhook/admission/handler.hpp"
#include "ctrl/webhook/conversion/converter.hpp"
#include "ctrl/webhook/conversion/registry.hpp"

namespace ctrl::webhook {

// The options of a webhook Server (controller-runtime's webhook.Options).
struct ServerOptions {
    // The address to listen on: "" for every address, "127.0.0.1" for loopback only.
    std::string host{};
    // The port: 9443 by default (controller-runtime's), 0 for a free port the kernel picks, -1 to
    // disable the server (Run returns at once, registrations are kept but not served).
    int port = 9443;
    // Where the serving certificate and key are read from (and re-read when they change:
    // certwatcher): <cert_dir>/<cert_name> and <cert_dir>/<key_name>. Default: the system's temp
    // directory + /k8s-webhook-server/serving-certs, tls.crt, tls.key, as controller-runtime's.
    std::string cert_dir{};
    std::string cert_name = "tls.crt";
    std::string key_name = "tls.key";
    // Instead of files: the pair this source holds at each handshake (self-managed certificates).
    std::shared_ptr<const server::CertificateSource> certificates{};
    // A larger AdmissionReview gets 413 (controller-runtime's limit: 7 MiB).
    std::size_t max_body_bytes = 7 << 20;
    // Where controller_runtime_webhook_* and certwatcher_* go. Null: metrics::DefaultRegistry().
    metrics::Registry* registry = nullptr;
};

// The HTTPS server of a manager's webhooks (controller-runtime's webhook.Server): paths registered
// before or while it runs, each counted in controller-runtime's metrics
// (controller_runtime_webhook_requests_total{webhook,code}, _latency_seconds{webhook},
// _requests_in_flight{webhook}, the label being the path). It serves TLS 1.2 or later with the
// certificate of cert_dir (reloaded when the files change) or of a CertificateSource. It does not
// need the leader: every replica serves. Thread-safe.
class Server final {
  public:
    // Checks the options; binds nothing yet (the certificate may be written after the manager is
    // made, by cert-manager or a self-managed authority). BadRequest naming a bad option.
    static StatusOr<std::unique_ptr<Server>> New(boost::asio::any_io_executor executor, ServerOptions options);
    ~Server();
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    // Serves path ("/validate-v1-configmap") with a raw HTTP handler. AlreadyExists when the path
    // is taken.
    Status Register(const std::string& path, server::HttpHandler handler);
    // Serves path with an admission handler (admission::Serve).
    Status RegisterAdmission(const std::string& path, admission::Handler handler);
    // Serves conversion of converter's group and kind at /convert (conversion::kPath, registered
    // with the first converter, as controller-runtime's builder does). AlreadyExists when that
    // group and kind has a converter, or /convert was taken by another handler.
    Status RegisterConversion(conversion::Converter converter);
    // The converters served at /convert.
    const conversion::Registry& Conversions() const { return *conversions_; }
    // Whether path is registered.
    bool Registered(const std::string& path) const;

    // Loads the certificate (Unavailable naming the files when it cannot), listens and serves
    // until ctx ends, then stops. Call once.
    Task<Status> Run(Context ctx);
    bool NeedLeaderElection() const { return false; }
    std::string Name() const { return "webhook server"; }

    // Whether the port is -1.
    bool Disabled() const { return options_.port < 0; }
    // OK once Run listens (controller-runtime's StartedChecker, as a /readyz check).
    server::Checker StartedChecker() const;
    // The port listened on, 0 before Run listens; "https://<host>:<port>" (127.0.0.1 for every
    // address), "" before.
    uint16_t Port() const { return port_.load(); }
    std::string Url() const;
    const ServerOptions& Options() const { return options_; }

  private:
    struct Metrics;
    Server(boost::asio::any_io_executor executor, ServerOptions options);
    server::HttpHandler Instrumented(const std::string& path, server::HttpHandler handler) const;

    const boost::asio::any_io_executor executor_;
    const ServerOptions options_;
    std::shared_ptr<Metrics> metrics_;
    std::shared_ptr<conversion::Registry> conversions_ = std::make_shared<conversion::Registry>();
    std::once_flag conversion_path_once_;
    Status conversion_path_;  // what registering /convert said
    std::atomic<uint16_t> port_{0};
    mutable std::mutex mu_;
    std::map<std::string, server::HttpHandler> routes_;  // instrumented
    std::shared_ptr<server::HttpServer> http_;           // once Run listens
};

}  // namespace ctrl::webhook
