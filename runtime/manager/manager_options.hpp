#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ctrl/cache/cache_options.hpp"
#include "ctrl/controller/controller_options.hpp"
#include "ctrl/core/gvk.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/scheme/scheme.hpp"
#include "ctrl/webhook/cert_rotator.hpp"
#include "ctrl/webhook/server.hpp"

namespace ctrl::manager {

// Leader election (controller-runtime's LeaderElection* options): a coordination.k8s.io/v1 Lease
// named `id` in `namespace_name`, with client-go's timing.
struct LeaderElectionOptions {
    // Elect a leader before running leader-election runnables (controllers). Default false.
    bool enabled = false;
    // The Lease's name. Required when enabled.
    std::string id{};
    // The Lease's namespace. Default "": the pod's namespace in a cluster (the service account's
    // namespace file), else an error naming this option.
    std::string namespace_name{};
    // How long a Lease holds without renewal. Default 15 s.
    std::chrono::milliseconds lease_duration = std::chrono::seconds(15);
    // How long the leader keeps trying to renew before it gives up. Default 10 s.
    std::chrono::milliseconds renew_deadline = std::chrono::seconds(10);
    // How often candidates try to acquire and the leader renews. Default 2 s.
    std::chrono::milliseconds retry_period = std::chrono::seconds(2);
    // Release the Lease when the manager stops (the next leader takes over at once). Default false,
    // as controller-runtime's; a manager stopped by a signal should set it.
    bool release_on_cancel = false;
    // Losing the Lease ends Start with an error (the process exits and restarts, as
    // controller-runtime's managers do). Default true; false only stops the leader runnables.
    bool exit_on_lost_lease = true;
};

// Serving /metrics (controller-runtime's metricsserver.Options).
struct MetricsServerOptions {
    // ":8080" (every address), "127.0.0.1:8080", ":0" (a free port), or "0" to disable. Default ":8080".
    std::string bind_address = ":8080";
    // HTTPS, with bearer tokens checked by TokenReview and SubjectAccessReview (get on the
    // non-resource URL /metrics). Default false.
    bool secure = false;
    // PEM certificate and key for HTTPS; both empty: a self-signed certificate made at start.
    std::string cert_file{};
    std::string key_file{};
};

// The client GetClient() hands out (controller-runtime's client.Options and its CacheOptions).
struct ClientOptions {
    struct CacheOptions {
        // Kinds always read straight from the API server, never from the cache
        // (controller-runtime's Client.Cache.DisableFor: the "uncached GVKs"). Default: none.
        std::vector<GroupVersionKind> disable_for{};
        // Whether unstructured reads (plain Object / ObjectList) come from the cache. Default false,
        // as controller-runtime's: they go to the server.
        bool unstructured = false;
    };
    CacheOptions cache{};
    // The field manager of writes that name none. Default: none (the server derives one).
    std::string field_owner{};
    // Every write is a dry run. Default false.
    bool dry_run = false;
};

// What manager::New builds, with controller-runtime's names and defaults.
struct Options {
    // The kinds the client and cache know. Default: every built-in kind of runtime/api.
    std::shared_ptr<const scheme::Scheme> scheme{};
    // Where every metric goes, and what /metrics serves. Default: metrics::DefaultRegistry().
    metrics::Registry* registry = nullptr;
    // The informer cache: default namespaces, per-kind selectors and transforms, resync period.
    cache::CacheOptions cache{};
    // The client GetClient() returns (controller-runtime's client.Options).
    ClientOptions client{};
    MetricsServerOptions metrics{};
    // The webhook server GetWebhookServer() makes (controller-runtime's webhook.Options): port
    // 9443, certificates from <temp>/k8s-webhook-server/serving-certs/tls.{crt,key}. Its metrics go
    // to `registry` unless it names another.
    webhook::ServerOptions webhook{};
    // Certificates the manager makes and rotates itself for its webhook server (kept in a Secret,
    // the CA bundle injected into the configurations it names; webhook::CertRotator), instead of
    // files in webhook.cert_dir. Default: none (the files).
    std::optional<webhook::CertRotatorOptions> webhook_certificates{};
    // /healthz and /readyz: an address as for metrics, "0" to disable. Default ":8081".
    std::string health_probe_bind_address = ":8081";
    LeaderElectionOptions leader_election{};
    // How long a stop waits for runnables (in-flight reconciles) before it cancels them and
    // returns. Default 30 s.
    std::chrono::milliseconds graceful_shutdown_timeout = std::chrono::seconds(30);
    // Defaults for every controller the builder makes against this manager.
    controller::Options controller{};
    // Threads running the manager's event loop (all I/O, timers, reconciles). Default 2.
    int threads = 2;
};

}  // namespace ctrl::manager
