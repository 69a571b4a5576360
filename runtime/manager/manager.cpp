#include "ctrl/manager/manager.hpp"

#include <malloc.h>
#include <unistd.h>

#include <algorithm>

#include <future>
#include <type_traits>
#include <utility>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>

#include "ctrl/core/run_sync.hpp"
#include "ctrl/manager/in_cluster_namespace.hpp"
#include "ctrl/manager/internal/runnable_adapters.hpp"
#include "ctrl/metrics/process_metrics.hpp"
#include "ctrl/server/access_reviewer.hpp"
#include "ctrl/server/auth_filter.hpp"
#include "ctrl/server/metrics_handler.hpp"

namespace ctrl::manager {
namespace {

using internal::FunctionRunnable;
using internal::RunnableOf;

// A controller's Warmup as a runnable of the warmup group. A failure is logged and does not stop
// the manager: once elected, the controller's Run starts and waits for what Warmup left.
class WarmupOf final : public Runnable {
  public:
    WarmupOf(std::shared_ptr<controller::Controller> target, log::Logger logger)
        : target_(std::move(target)), logger_(std::move(logger)) {}
    Task<Status> Run(Context ctx) override {
        const std::shared_ptr<controller::Controller> target = target_;
        const Status status = co_await target->Warmup(ctx);
        if (!status.Ok() && ctx.Err().Ok())
            logger_.Error(status, "Warmup failed: the controller starts its sources once elected", "controller",
                          target->Name());
        co_return OkStatus();
    }
    bool NeedLeaderElection() const override { return false; }
    std::string Name() const override { return "warmup of controller " + target_->Name(); }

  private:
    std::shared_ptr<controller::Controller> target_;
    log::Logger logger_;
};

}  // namespace

StatusOr<std::unique_ptr<Manager>> Manager::New(const rest::Config& config, Options options) {
    if (options.threads < 1)
        return BadRequestError("manager option threads must be at least 1, not " + std::to_string(options.threads));
    if (options.leader_election.enabled) {
        if (options.leader_election.id.empty())
            return BadRequestError(
                "leader election needs an id (--leader-election-id, "
                "Options.leader_election.id)");
        if (options.leader_election.namespace_name.empty()) {
            StatusOr<std::string> in_cluster = InClusterNamespace();
            if (!in_cluster.Ok())
                return in_cluster.GetStatus().Annotate(
                    "leader election needs a namespace (--leader-election-namespace, "
                    "Options.leader_election.namespace_name) when not running in a cluster");
            options.leader_election.namespace_name = *in_cluster;
        }
    }
    std::unique_ptr<Manager> manager(new Manager(config, std::move(options)));
    cluster::Options cluster_options;
    cluster_options.scheme = manager->options_.scheme;
    cluster_options.registry = manager->registry_;
    cluster_options.cache = manager->options_.cache;
    if (cluster_options.cache.registry == nullptr)
        cluster_options.cache.registry = manager->registry_;  // /metrics serves the informers' too
    cluster_options.client_cache.uncached.insert(manager->options_.client.cache.disable_for.begin(),
                                                 manager->options_.client.cache.disable_for.end());
    cluster_options.client_cache.unstructured = manager->options_.client.cache.unstructured;
    cluster_options.field_owner = manager->options_.client.field_owner;
    cluster_options.dry_run = manager->options_.client.dry_run;
    CTRL_ASSIGN_OR_RETURN(manager->cluster_,
                          cluster::Cluster::New(config, manager->io_.get_executor(), std::move(cluster_options)));
    cluster::Cluster* cluster = manager->cluster_.get();
    CTRL_RETURN_IF_ERROR(manager->MakeServers());
    CTRL_RETURN_IF_ERROR(manager->MakeWebhookServer());
    record::BroadcasterOptions event_options;
    event_options.registry = manager->registry_;
    manager->events_ = std::make_unique<record::Broadcaster>(cluster->GetAPIReader(), event_options);
    record::Broadcaster* events = manager->events_.get();
    CTRL_RETURN_IF_ERROR(manager->others_.Add(std::make_shared<FunctionRunnable>(
        "event broadcaster", [events](Context ctx) { return events->Run(std::move(ctx)); }, false)));
    if (manager->options_.leader_election.enabled) {
        const LeaderElectionOptions& le = manager->options_.leader_election;
        leaderelection::LeaderElectionOptions elector;
        elector.name = le.id;
        elector.namespace_name = le.namespace_name;
        elector.identity = manager->identity_;
        elector.lease_duration = le.lease_duration;
        elector.renew_deadline = le.renew_deadline;
        elector.retry_period = le.retry_period;
        elector.release_on_cancel = le.release_on_cancel;
        elector.registry = manager->registry_;
        Manager* self = manager.get();
        elector.callbacks.on_started_leading = [self](const Context&) {
            self->logger_.Info("Elected leader: starting the leader election runnables", "identity", self->identity_);
            self->elected_->Notify();
            self->leader_.Start(Context::Background());
        };
        elector.callbacks.on_new_leader = [self](const std::string& identity) {
            self->logger_.Info("New leader observed", "leader", identity);
        };
        CTRL_ASSIGN_OR_RETURN(manager->elector_,
                              leaderelection::LeaderElector::New(cluster->GetAPIReader(), std::move(elector)));
    }
    CTRL_RETURN_IF_ERROR(manager->caches_.Add(std::make_shared<FunctionRunnable>(
        "cache", [cluster](Context ctx) { return cluster->Run(std::move(ctx)); }, false)));
    return manager;
}

Manager::Manager(rest::Config config, Options options)
    : config_(std::move(config)),
      options_(std::move(options)),
      registry_(options_.registry ? options_.registry : &metrics::DefaultRegistry()),
      logger_(log::Logger()),
      identity_(leaderelection::DefaultIdentity()),
      servers_("servers", io_.get_executor(), [this](Status s) { Fail(std::move(s)); }),
      caches_("caches", io_.get_executor(), [this](Status s) { Fail(std::move(s)); }),
      others_("others", io_.get_executor(), [this](Status s) { Fail(std::move(s)); }),
      leader_("leader election runnables", io_.get_executor(), [this](Status s) { Fail(std::move(s)); }),
      warmup_("warmup runnables", io_.get_executor(), [this](Status s) { Fail(std::move(s)); }) {}

Manager::~Manager() {
    for (const std::shared_ptr<controller::Controller>& controller : controllers_)
        controller->AbortReconciles();
    internal_.Cancel();
    io_.stop();
}

Status Manager::Add(std::shared_ptr<controller::Controller> controller) {
    if (!controller)
        return BadRequestError("a null controller cannot be added to the manager");
    {
        std::lock_guard lock(mu_);
        controllers_.push_back(controller);
    }
    const std::weak_ptr<controller::Controller> weak = controller;
    // A controller waiting for the Lease is not unready: a standby replica must pass its probe.
    CTRL_RETURN_IF_ERROR(AddReadyzCheck("controller-" + controller->Name(), [this, weak] {
        const std::shared_ptr<controller::Controller> c = weak.lock();
        if (!c || (c->NeedLeaderElection() && IsStandby()))
            return OkStatus();
        return c->ReadyCheck();
    }));
    // A warm standby: the sources start while the elector campaigns (without leader election the
    // controller runs at once, and there is nothing to warm).
    if (elector_ && controller->NeedLeaderElection() && controller->WarmupEnabled())
        CTRL_RETURN_IF_ERROR(warmup_.Add(std::make_shared<WarmupOf>(controller, logger_)));
    return Add(std::static_pointer_cast<Runnable>(
        std::make_shared<RunnableOf<controller::Controller>>(std::move(controller))));
}

Status Manager::Add(std::shared_ptr<Runnable> runnable) {
    if (!runnable)
        return BadRequestError("a null runnable cannot be added to the manager");
    return runnable->NeedLeaderElection() ? leader_.Add(std::move(runnable)) : others_.Add(std::move(runnable));
}

Status Manager::AddHealthzCheck(const std::string& name, server::Checker check) {
    return healthz_.Add(name, std::move(check));
}

Status Manager::AddReadyzCheck(const std::string& name, server::Checker check, server::Detail detail) {
    return readyz_.Add(name, std::move(check), std::move(detail));
}

Status Manager::MakeServers() {
    CTRL_RETURN_IF_ERROR(AddHealthzCheck("ping", server::Ping));
    CTRL_RETURN_IF_ERROR(AddReadyzCheck("ping", server::Ping));
    CTRL_RETURN_IF_ERROR(AddReadyzCheck("cache-sync", [this] {
        return caches_synced_.load() ? OkStatus() : UnavailableError("the informer caches have not synced yet");
    }));
    metrics::RegisterProcessMetrics(*registry_);

    server::HttpServerOptions metrics_options;
    metrics_options.name = "metrics";
    metrics_options.bind_address = options_.metrics.bind_address;
    metrics_options.serve_tls = options_.metrics.secure;
    metrics_options.cert_file = options_.metrics.cert_file;
    metrics_options.key_file = options_.metrics.key_file;
    StatusOr<std::unique_ptr<server::HttpServer>> metrics_server =
        server::HttpServer::New(io_.get_executor(), metrics_options);
    if (!metrics_server.Ok())
        return metrics_server.GetStatus().Annotate("the metrics server (--metrics-bind-address " +
                                                   options_.metrics.bind_address + ")");
    if (!(*metrics_server)->Disabled()) {
        server::HttpHandler handler = server::MetricsHandler(*registry_);
        if (options_.metrics.secure)
            handler = server::WithAuthenticationAndAuthorization(
                server::NewClientAccessReviewer(cluster_->GetAPIReader()), std::move(handler));
        (*metrics_server)->Handle("/metrics", std::move(handler));
        metrics_server_ = std::move(metrics_server).Value();
        CTRL_RETURN_IF_ERROR(servers_.Add(std::make_shared<RunnableOf<server::HttpServer>>(metrics_server_)));
        logger_.Info("Serving metrics", "url", metrics_server_->Url() + "/metrics", "secure", options_.metrics.secure);
    }

    server::HttpServerOptions probe_options;
    probe_options.name = "health probe";
    probe_options.bind_address = options_.health_probe_bind_address;
    StatusOr<std::unique_ptr<server::HttpServer>> probe_server =
        server::HttpServer::New(io_.get_executor(), probe_options);
    if (!probe_server.Ok())
        return probe_server.GetStatus().Annotate("the health probe server (--health-probe-bind-address " +
                                                 options_.health_probe_bind_address + ")");
    if (!(*probe_server)->Disabled()) {
        healthz_.Register(**probe_server, "/healthz");
        readyz_.Register(**probe_server, "/readyz");
        probe_server_ = std::move(probe_server).Value();
        CTRL_RETURN_IF_ERROR(servers_.Add(std::make_shared<RunnableOf<server::HttpServer>>(probe_server_)));
        logger_.Info("Serving health probes", "url", probe_server_->Url(), "paths", "/healthz /readyz");
    }
    return OkStatus();
}

std::map<std::string, Status> Manager::HealthzChecks() const {
    return healthz_.RunAll();
}

std::map<std::string, Status> Manager::ReadyzChecks() const {
    return readyz_.RunAll();
}

void Manager::Fail(Status status) {
    std::lock_guard lock(mu_);
    if (first_error_.Ok())
        first_error_ = status;
    internal_.Cancel(status);
}

Status Manager::IndexField(GroupVersionKind gvk, std::string field, cache::IndexFunc extract) {
    if (started_.load())
        return BadRequestError("IndexField(" + field +
                               ") after the manager started: co_await GetCache().IndexField(...)");
    return RunSync(io_,
                   GetCache().IndexField(Context::Background(), std::move(gvk), std::move(field), std::move(extract)));
}

Status Manager::Start(Context ctx) {
    if (started_.exchange(true))
        return AlreadyExistsError("the manager was started before");
    auto work = boost::asio::make_work_guard(io_);
    std::promise<Status> promise;
    std::future<Status> done = promise.get_future();
    boost::asio::co_spawn(io_, Run(std::move(ctx)), [&promise](const std::exception_ptr& error, Status status) {
        promise.set_value(error ? InternalError("the manager's run threw an exception") : std::move(status));
    });
    std::vector<std::thread> threads;
    for (int i = 0; i < options_.threads; ++i)
        threads.emplace_back([this] { io_.run(); });
    const Status result = done.get();
    work.reset();
    io_.stop();
    for (std::thread& thread : threads)
        thread.join();
    return result;
}

Task<Status> Manager::Run(Context ctx) {
    {
        std::lock_guard lock(mu_);
        internal_ = Context::WithCancel(ctx);
    }
    logger_.Info("Starting manager", "identity", identity_);
    const Context background = Context::Background();
    servers_.Start(background);
    caches_.Start(background);
    // The cache's Run begins in a coroutine of its own: wait for it before waiting for its sync.
    (void)co_await cluster_->GetCache().WaitForStarted(internal_);
    const Status synced = co_await cluster_->WaitForCacheSync(internal_);
    if (synced.Ok()) {
        caches_synced_.store(true);
        others_.Start(background);
        boost::asio::co_spawn(io_, TrimAfterSync(internal_), boost::asio::detached);
        if (!elector_) {
            elected_->Notify();
            leader_.Start(background);
        } else {
            warmup_.Start(background);
            boost::asio::co_spawn(io_, RunElection(election_ctx_), boost::asio::detached);
        }
        const Notification never;
        (void)co_await never.Wait(internal_);
    } else if (ctx.Err().Ok()) {
        Fail(synced.Annotate("waiting for the caches to sync"));
    }
    co_await Shutdown();
    std::lock_guard lock(mu_);
    if (first_error_.Ok())
        logger_.Info("Manager stopped");
    else
        logger_.Info("Manager stopped", "error", first_error_.ToString());
    co_return first_error_;
}

Task<void> Manager::TrimAfterSync(Context ctx) {
    // The first lists are decoded into memory that glibc keeps after the objects are compacted
    // into the cache (~9 KB per pod at 10,000 pods: docs/benchmarks.md). Once every controller
    // present at start has synced, hand it back to the kernel, once.
    std::vector<std::shared_ptr<controller::Controller>> controllers;
    {
        std::lock_guard lock(mu_);
        controllers = controllers_;
    }
    // A controller that never starts (not elected, sources not synced) holds the trim back until
    // cache_sync_timeout at most.
    const Context until = Context::WithTimeout(ctx, options_.controller.cache_sync_timeout);
    for (const std::shared_ptr<controller::Controller>& controller : controllers)
        if (!(co_await controller->WaitForStarted(until)).Ok())
            break;
    if (!ctx.Err().Ok())
        co_return;
#if defined(__GLIBC__)
    malloc_trim(0);
    logger_.V(1).Info("Returned the memory freed after the initial sync to the kernel (malloc_trim)");
#endif
}

Task<Status> Manager::RunElection(Context ctx) {
    const Status status = co_await elector_->Run(ctx);
    election_done_->Notify();
    if (!status.Ok() && ctx.Err().Ok()) {
        if (options_.leader_election.exit_on_lost_lease) {
            Fail(status.Annotate("leader election lost"));
        } else {
            logger_.Error(status, "Leader election lost; stopping the leader election runnables");
            leader_.Stop();
        }
    }
    co_return status;
}

record::EventRecorder Manager::GetEventRecorderFor(std::string_view name) const {
    return events_->GetEventRecorderFor(name);
}

bool Manager::IsLeader() const {
    return elector_ ? elector_->IsLeader() : elected_->HasBeenNotified();
}

Task<void> Manager::Shutdown() {
    const auto deadline = Context::Clock::now() + options_.graceful_shutdown_timeout;
    const Context background = Context::Background();
    logger_.Info("Stopping and waiting for leader election runnables");
    leader_.Stop();
    // The warmed sources stop with the controllers, as the sources their Run starts do.
    warmup_.Stop();
    if (!(co_await leader_.Wait(Context::WithDeadline(background, deadline))).Ok()) {
        logger_.Info("Graceful shutdown timed out; cancelling in-flight reconciles", "timeout",
                     options_.graceful_shutdown_timeout);
        std::vector<std::shared_ptr<controller::Controller>> controllers;
        {
            std::lock_guard lock(mu_);
            controllers = controllers_;
        }
        for (const std::shared_ptr<controller::Controller>& controller : controllers)
            controller->AbortReconciles();
        (void)co_await leader_.Wait(Context::WithTimeout(background, std::chrono::seconds(5)));
    }
    (void)co_await warmup_.Wait(Context::WithTimeout(background, std::chrono::seconds(5)));
    logger_.Info("Stopping and waiting for non leader election runnables");
    others_.Stop();
    (void)co_await others_.Wait(
        Context::WithDeadline(background, std::max(deadline, Context::Clock::now() + std::chrono::seconds(1))));
    if (elector_) {
        logger_.Info("Stopping leader election", "release", options_.leader_election.release_on_cancel);
        election_ctx_.Cancel();
        (void)co_await election_done_->Wait(Context::WithTimeout(background, std::chrono::seconds(5)));
    }
    logger_.Info("Stopping and waiting for caches");
    caches_.Stop();
    (void)co_await caches_.Wait(Context::WithTimeout(background, std::chrono::seconds(10)));
    logger_.Info("Stopping and waiting for HTTP servers");
    servers_.Stop();
    (void)co_await servers_.Wait(Context::WithTimeout(background, std::chrono::seconds(5)));
}

}  // namespace ctrl::manager
