#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "ctrl/cache/index_func.hpp"
#include "ctrl/cluster/cluster.hpp"
#include "ctrl/controller/controller.hpp"
#include "ctrl/controller/host.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/notification.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/leaderelection/leader_elector.hpp"
#include "ctrl/log/log.hpp"
#include "ctrl/manager/manager_options.hpp"
#include "ctrl/manager/runnable.hpp"
#include "ctrl/manager/runnable_group.hpp"
#include "ctrl/record/event_broadcaster.hpp"
#include "ctrl/rest/config.hpp"
#include "ctrl/scheme/typed_object.hpp"
#include "ctrl/server/health_checks.hpp"
#include "ctrl/server/http_server.hpp"
#include "ctrl/webhook/server.hpp"

namespace ctrl::manager {

// What an operator's main() makes (controller-runtime's manager.Manager): it owns the event loop
// (Options::threads threads run every I/O, timer and reconcile), the cluster (Scheme, lazy
// RESTMapper, informer Cache, the delegating Client with its DisableFor kinds, an uncached
// APIReader), the controllers added to it (it is the builder's controller::Host), other runnables,
// leader election, and the HTTP servers for /metrics and /healthz /readyz.
//
// Start order (controller-runtime's): HTTP servers; caches (and their sync); runnables that do not
// need the leader; with leader election, the warmup of the controllers that enable_warmup (their
// sources start and sync while this replica campaigns: a warm standby) and the elector; once
// elected, the leader runnables (controllers; warmed ones only start their workers). Stop order
// is the reverse: a stop (the Start context ends, a runnable fails, the Lease is lost) stops the
// leader runnables (and the warmed sources) first — controllers take no new work and in-flight reconciles finish, up to
// graceful_shutdown_timeout, after which their contexts are cancelled — then the others, then the
// Lease is released (release_on_cancel), then the caches and the servers.
class Manager final : public controller::Host {
  public:
    // Builds everything; connects nothing yet. BadRequest for options that cannot work (naming
    // the option), or a config that cannot make a transport.
    static StatusOr<std::unique_ptr<Manager>> New(const rest::Config& config, Options options = {});
    ~Manager() override;
    Manager(const Manager&) = delete;
    Manager& operator=(const Manager&) = delete;

    // Runs the manager on its threads until ctx ends (manager::SetupSignalHandler() gives one that
    // ends on SIGTERM), then stops as described above. OK after a clean stop; the first error of a
    // runnable, or the lost Lease, otherwise. Call once.
    Status Start(Context ctx);

    client::Client& GetClient() { return cluster_->GetClient(); }
    // Reads and writes straight to the API server (never the cache).
    client::Client& GetAPIReader() { return cluster_->GetAPIReader(); }
    cache::Cache& GetCache() override { return cluster_->GetCache(); }
    const scheme::Scheme& GetScheme() const override { return cluster_->GetScheme(); }
    discovery::RESTMapper& GetRESTMapper() override { return cluster_->GetRESTMapper(); }
    boost::asio::any_io_executor GetExecutor() const override { return io_.get_executor(); }
    metrics::Registry& GetMetricsRegistry() override { return *registry_; }
    log::Logger GetLogger() const override { return logger_; }
    controller::Options ControllerDefaults() const override { return options_.controller; }
    const rest::Config& GetConfig() const { return config_; }
    cluster::Cluster& GetCluster() { return *cluster_; }

    // Adds a controller (the builder's Complete calls this): run once elected when it needs the
    // leader (warmed up before, with leader election and enable_warmup), and its readiness (sources synced, kinds
    // served) becomes a /readyz check named after it.
    Status Add(std::shared_ptr<controller::Controller> controller) override;
    // Adds a runnable; started in its group (leader or not), at once when that group runs.
    Status Add(std::shared_ptr<Runnable> runnable);
    // Adds a field index to the cache before Start (controller-runtime's
    // mgr.GetFieldIndexer().IndexField): List and ListSharedNow with MatchingFields(field, value)
    // then find the objects of gvk whose extract returns value. It runs on the manager's loop,
    // which is not running yet (finding the kind may need discovery), and waits for it. BadRequest
    // once Start was called: a runnable indexes with co_await GetCache().IndexField(...).
    // Not awaited, so extract may be any callable (cache::IndexField's refuses a temporary lambda that
    // captures by copy).
    Status IndexField(GroupVersionKind gvk, std::string field, cache::IndexFunc extract);
    template <scheme::TypedObject T>
    Status IndexField(std::string field, cache::IndexFunc extract) {
        return IndexField(scheme::GroupVersionKindOf<T>(), std::move(field), std::move(extract));
    }
    // Adds a /healthz or /readyz check (before or after Start). AlreadyExists for a taken name. A
    // readiness detail shows after the check's "ok" (server::HealthChecks).
    Status AddHealthzCheck(const std::string& name, server::Checker check);
    Status AddReadyzCheck(const std::string& name, server::Checker check, server::Detail detail = {});
    // Runs every check of /healthz or /readyz now: name -> result.
    std::map<std::string, Status> HealthzChecks() const;
    std::map<std::string, Status> ReadyzChecks() const;

    // An event recorder writing core/v1 Events as `name` (source.component), aggregated by
    // client-go's correlator; its calls never block (controller-runtime's GetEventRecorderFor).
    record::EventRecorder GetEventRecorderFor(std::string_view name) const;
    // Whether this process holds the Lease now (always true without leader election once started).
    bool IsLeader() const;
    // Whether leader election is on.
    bool LeaderElectionEnabled() const { return elector_ != nullptr; }
    // Whether this replica waits for another's Lease: leader election is on and it does not lead, so
    // its leader-election runnables (controllers) do not run. A readiness check of something those
    // runnables do passes on a standby.
    bool IsStandby() const { return LeaderElectionEnabled() && !IsLeader(); }

    // Where /metrics and the probes are served ("http://127.0.0.1:8080", "https://..." when secure);
    // "" when disabled ("0"). With ":0" the kernel picks the port at New.
    std::string MetricsURL() const { return metrics_server_ ? metrics_server_->Url() : ""; }
    std::string HealthProbeURL() const { return probe_server_ ? probe_server_->Url() : ""; }

    // The server of this manager's webhooks (controller-runtime's GetWebhookServer), made by the
    // first call from Options::webhook and run from then on with the HTTP servers, before the
    // caches (a conversion webhook must serve before an informer of its kind can list), on every
    // replica, leader or not; its readiness is the /readyz check "webhook-server". The builder's
    // WebhookManagedBy registers on it.
    webhook::Server& GetWebhookServer();
    // The rotator of self-managed webhook certificates (Options::webhook_certificates); null without.
    const std::shared_ptr<webhook::CertRotator>& GetCertRotator() const { return cert_rotator_; }

    // Notified once this manager is the leader (at once after start without leader election).
    const Notification& Elected() const { return *elected_; }
    // This process's identity in leader election (hostname + "_" + a random id).
    const std::string& Identity() const { return identity_; }

  private:
    explicit Manager(rest::Config config, Options options);
    Task<Status> Run(Context ctx);
    Task<void> Shutdown();
    // Runs the elector; its end (a lost Lease) stops the manager or, with exit_on_lost_lease off,
    // the leader runnables.
    Task<Status> RunElection(Context ctx);
    // Once the controllers present at start have synced: malloc_trim (glibc), once.
    Task<void> TrimAfterSync(Context ctx);
    void Fail(Status status);
    // Builds the metrics and probe servers (unless disabled) and the built-in checks.
    Status MakeServers();
    // Builds the webhook server (not run until GetWebhookServer is called): BadRequest for bad
    // Options::webhook.
    Status MakeWebhookServer();

    const rest::Config config_;
    const Options options_;
    metrics::Registry* registry_ = nullptr;
    const log::Logger logger_;
    std::string identity_;
    mutable boost::asio::io_context io_;
    std::unique_ptr<cluster::Cluster> cluster_;

    RunnableGroup servers_;
    RunnableGroup caches_;
    RunnableGroup others_;
    RunnableGroup leader_;
    // The Warmup of controllers that need the leader and enable_warmup; started with the elector.
    RunnableGroup warmup_;
    std::vector<std::shared_ptr<controller::Controller>> controllers_;  // guarded by mu_
    std::unique_ptr<record::Broadcaster> events_;
    std::unique_ptr<leaderelection::LeaderElector> elector_;  // null without leader election
    Context election_ctx_ = Context::WithCancel(Context::Background());
    std::shared_ptr<Notification> election_done_ = std::make_shared<Notification>();

    mutable std::mutex mu_;
    server::HealthChecks healthz_;
    server::HealthChecks readyz_;
    std::shared_ptr<server::HttpServer> metrics_server_;
    std::shared_ptr<server::HttpServer> probe_server_;
    std::once_flag webhook_once_;
    std::shared_ptr<webhook::Server> webhook_server_;
    std::shared_ptr<webhook::CertRotator> cert_rotator_;  // with Options::webhook_certificates
    std::atomic<bool> caches_synced_{false};
    Status first_error_;  // guarded by mu_
    Context internal_ = Context::Background();
    std::atomic<bool> started_{false};
    std::shared_ptr<Notification> elected_ = std::make_shared<Notification>();
};

// manager::New: the usual way to make one.
inline StatusOr<std::unique_ptr<Manager>> New(const rest::Config& config, Options options = {}) {
    return Manager::New(config, std::move(options));
}

}  // namespace ctrl::manager
