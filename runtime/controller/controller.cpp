#include "ctrl/controller/controller.hpp"

#include <chrono>
#include <exception>
#include <set>
#include <typeinfo>
#include <utility>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>

#include "ctrl/controller/internal/reconcile_id.hpp"
#include "ctrl/workqueue/queue.hpp"

namespace ctrl::controller {
namespace {

// Names of the live controllers: two with one name would report as one in the metrics.
std::mutex& NamesMutex() {
    static std::mutex mu;
    return mu;
}
std::set<std::string>& LiveNames() {
    static std::set<std::string> names;
    return names;
}

log::Logger ControllerLogger(const std::string& name, const Options& options) {
    log::Logger logger = options.logger.value_or(log::Logger().WithName("controller"));
    logger = logger.WithValues("controller", name);
    if (options.for_kind)
        logger =
            logger.WithValues("controllerGroup", options.for_kind->group, "controllerKind", options.for_kind->kind);
    return logger;
}

std::unique_ptr<handler::RequestQueue> NewQueue(const std::string& name, const boost::asio::any_io_executor& executor,
                                                const Options& options) {
    workqueue::QueueOptions<reconcile::Request> queue_options;
    queue_options.name = name;
    queue_options.registry = options.registry ? options.registry : &metrics::DefaultRegistry();
    queue_options.rate_limiter = options.rate_limiter;
    if (options.use_priority_queue.value_or(true))
        return std::make_unique<workqueue::PriorityQueue<reconcile::Request>>(executor, std::move(queue_options),
                                                                              options.aging_bound);
    return std::make_unique<workqueue::Queue<reconcile::Request>>(executor, std::move(queue_options));
}

double Seconds(std::chrono::steady_clock::duration d) {
    return std::chrono::duration<double>(d).count();
}

}  // namespace

StatusOr<std::shared_ptr<Controller>> Controller::New(std::string name,
                                                      std::shared_ptr<reconcile::Reconciler> reconciler,
                                                      boost::asio::any_io_executor executor, Options options) {
    if (name.empty())
        return BadRequestError("a controller needs a name");
    if (!reconciler)
        return BadRequestError("controller " + name + ": the reconciler is null");
    if (options.max_concurrent_reconciles < 1)
        return BadRequestError("controller " + name + ": max_concurrent_reconciles must be at least 1, not " +
                               std::to_string(options.max_concurrent_reconciles));
    if (!options.skip_name_validation) {
        std::lock_guard lock(NamesMutex());
        if (!LiveNames().insert(name).second)
            return AlreadyExistsError("controller with name " + name +
                                      " already exists. Controller names must be unique to avoid multiple controllers "
                                      "reporting to the same metric");
    }
    return std::shared_ptr<Controller>(
        new Controller(std::move(name), std::move(reconciler), std::move(executor), std::move(options)));
}

Controller::Controller(std::string name, std::shared_ptr<reconcile::Reconciler> reconciler,
                       boost::asio::any_io_executor executor, Options options)
    : name_(std::move(name)),
      reconciler_(std::move(reconciler)),
      executor_(std::move(executor)),
      options_(std::move(options)),
      logger_(ControllerLogger(name_, options_)),
      metrics_(NewControllerMetrics(options_.registry ? *options_.registry : metrics::DefaultRegistry(), name_,
                                    options_.max_concurrent_reconciles)),
      queue_(NewQueue(name_, executor_, options_)),
      reconcile_base_(Context::WithCancel(Context::Background())),
      reconcile_timeout_error_(
          TimeoutError("reconcile timed out after " + std::to_string(Seconds(options_.reconcile_timeout)) + " s")),
      workers_done_(std::make_shared<Notification>()) {}

Controller::~Controller() {
    reconcile_base_.Cancel(CancelledError("controller " + name_ + " destroyed"));
    queue_->ShutDown();
    if (!options_.skip_name_validation) {
        std::lock_guard lock(NamesMutex());
        LiveNames().erase(name_);
    }
}

Status Controller::Watch(std::shared_ptr<source::Source> source) {
    if (!source)
        return BadRequestError("controller " + name_ + ": Watch of a null source");
    std::lock_guard lock(mu_);
    if (stopped_)
        return BadRequestError("controller " + name_ + " has stopped: cannot watch " + source->String());
    sources_.push_back(source);
    if (running_)
        boost::asio::co_spawn(executor_, StartLate(std::move(source)), boost::asio::detached);
    return OkStatus();
}

Task<void> Controller::StartLate(std::shared_ptr<source::Source> source) {
    const std::shared_ptr<Controller> self = shared_from_this();
    Context ctx = Context::Background();
    {
        std::lock_guard lock(mu_);
        ctx = run_ctx_;
    }
    const Status status = co_await source->Start(ctx, *queue_);
    if (!status.Ok())
        logger_.Error(status, "Could not start a source added after the controller started", "source",
                      source->String());
}

Task<Status> Controller::Warmup(Context ctx) {
    if (!WarmupEnabled())
        co_return OkStatus();
    const std::shared_ptr<Controller> self = shared_from_this();
    std::vector<std::shared_ptr<source::Source>> sources;
    std::shared_ptr<Notification> done;
    {
        std::lock_guard lock(mu_);
        if (running_ || stopped_ || warmup_done_)
            co_return OkStatus();
        warmup_done_ = std::make_shared<Notification>();
        done = warmup_done_;
        sources = sources_;
    }
    logger_.Info("Warming up: starting the sources before the workers", "sources", sources.size());
    Status status = co_await StartSources(ctx, sources);
    if (status.Ok())
        status = co_await WaitForSources(ctx, sources);
    if (status.Ok())
        logger_.Info("Warmed up: the sources have synced");
    done->Notify();
    co_return status;
}

Task<Status> Controller::StartSources(Context ctx, std::vector<std::shared_ptr<source::Source>> sources) {
    for (const std::shared_ptr<source::Source>& source : sources) {
        {
            std::lock_guard lock(mu_);
            if (!started_sources_.insert(source.get()).second)
                continue;  // Warmup started it
        }
        logger_.Info("Starting EventSource", "source", source->String());
        const Status status = co_await source->Start(ctx, *queue_);
        if (!status.Ok()) {
            std::lock_guard lock(mu_);
            started_sources_.erase(source.get());
            co_return status.Annotate("controller " + name_ + ": starting " + source->String());
        }
    }
    co_return OkStatus();
}

Task<Status> Controller::WaitForSources(Context ctx, std::vector<std::shared_ptr<source::Source>> sources) {
    // The sync's deadline lives in this frame: Run goes on to run the workers until the controller
    // stops, and a deadline it kept would stay pending for cache_sync_timeout.
    const Context sync_ctx = Context::WithTimeout(ctx, options_.cache_sync_timeout);
    for (const std::shared_ptr<source::Source>& source : sources) {
        {
            std::lock_guard lock(mu_);
            if (synced_sources_.count(source.get()) > 0)
                continue;  // Warmup saw it synced
        }
        const Status status = co_await source->WaitForSync(sync_ctx);
        if (status.Ok()) {
            std::lock_guard lock(mu_);
            synced_sources_.insert(source.get());
            continue;
        }
        if (IsNoMatch(status) || IsForbidden(status)) {
            logger_.Info("A source waits for its kind; starting the workers anyway", "source", source->String(),
                         "reason", status.ToString());
            continue;
        }
        if (!ctx.Err().Ok())
            co_return ctx.Err();
        logger_.Error(status, "Could not wait for Cache to sync", "source", source->String());
        co_return status.Annotate("controller " + name_ + ": failed to wait for " + source->String() + " to sync");
    }
    co_return OkStatus();
}

Task<Status> Controller::Run(Context ctx) {
    const std::shared_ptr<Controller> self = shared_from_this();
    std::vector<std::shared_ptr<source::Source>> sources;
    std::shared_ptr<Notification> warmup;
    {
        std::lock_guard lock(mu_);
        if (running_ || stopped_)
            co_return AlreadyExistsError("controller " + name_ + " was already started");
        running_ = true;
        run_ctx_ = ctx;
        sources = sources_;
        warmup = warmup_done_;
    }
    const auto finish = [this](Status status) {
        stopping_.store(true);
        queue_->ShutDown();
        std::lock_guard lock(mu_);
        stopped_ = true;
        return status;
    };

    // A Warmup under way started the sources: wait for it rather than start them twice. What it
    // left (a source that failed to start or sync) is done below.
    if (warmup) {
        const Status warmed = co_await warmup->Wait(ctx);
        if (!warmed.Ok())
            co_return finish(OkStatus());  // stopped while warming up
    }
    const Status started = co_await StartSources(ctx, sources);
    if (!started.Ok())
        co_return finish(started);
    logger_.Info("Starting Controller");
    const Status synced = co_await WaitForSources(ctx, sources);
    if (!synced.Ok() && ctx.Err().Ok())
        co_return finish(synced);
    if (!synced.Ok()) {  // stopped before the sources synced
        for (const std::shared_ptr<source::Source>& source : sources)
            co_await source->WaitStopped();
        co_return finish(OkStatus());
    }

    const int workers = options_.max_concurrent_reconciles;
    logger_.Info("Starting workers", "worker count", workers);
    started_.Notify();
    const auto running = std::make_shared<std::atomic<int>>(workers);
    for (int i = 0; i < workers; ++i) {
        auto on_end = [self = std::shared_ptr<Controller>(self), running,
                       done = workers_done_](const std::exception_ptr& error) mutable {
            // Let go of the controller before counting: once the count reaches 0, Run returns and
            // its owner may destroy the controller, and with it the metrics its queue publishes to.
            self.reset();
            if (running->fetch_sub(1) == 1)
                done->Notify();
            if (error)
                std::rethrow_exception(error);  // only with recover_panic = false
        };
        boost::asio::co_spawn(executor_, Worker(), std::move(on_end));
    }

    const Notification never;
    (void)co_await never.Wait(ctx);
    logger_.Info("Shutdown signal received, waiting for all workers to finish");
    stopping_.store(true);
    queue_->ShutDown();
    (void)co_await workers_done_->Wait(Context::Background());
    logger_.Info("All workers finished");
    for (const std::shared_ptr<source::Source>& source : sources)
        co_await source->WaitStopped();
    co_return finish(OkStatus());
}

void Controller::AbortReconciles() {
    reconcile_base_.Cancel(CancelledError("controller " + name_ + ": reconciles aborted"));
}

Status Controller::ReadyCheck() const {
    std::vector<std::shared_ptr<source::Source>> sources;
    {
        std::lock_guard lock(mu_);
        sources = sources_;
    }
    for (const std::shared_ptr<source::Source>& source : sources) {
        const Status status = source->Ready();
        if (!status.Ok())
            return status.Annotate("controller " + name_);
    }
    if (!Started())
        return UnavailableError("controller " + name_ + ": sources not synced yet");
    return OkStatus();
}

Task<void> Controller::Worker() {
    for (;;) {
        const std::optional<workqueue::PrioritizedItem<reconcile::Request>> next =
            co_await queue_->AsyncGetWithPriority();
        if (!next)
            co_return;
        if (!stopping_.load()) {
            metrics_.active_workers.Inc();
            co_await ReconcileOne(next->item, next->priority);
            metrics_.active_workers.Dec();
        }
        queue_->Done(next->item);
    }
}

Task<void> Controller::ReconcileOne(reconcile::Request request, int priority) {
    const auto start = std::chrono::steady_clock::now();
    const log::Logger logger = logger_.WithValues("namespace", request.namespace_name, "name", request.name,
                                                  "reconcileID", internal::NewReconcileId());
    Context ctx = log::IntoContext(reconcile_base_, logger);
    if (options_.reconcile_timeout.count() > 0) {
        // The Context's own deadline cancels whatever the reconciler waits on: no timer here.
        ctx = Context::WithTimeout(ctx, options_.reconcile_timeout, reconcile_timeout_error_);
    }
    logger.V(5).Info("Reconciling");
    const StatusOr<reconcile::Result> result = co_await CallReconciler(ctx, request);
    if (options_.reconcile_timeout.count() > 0 && IsTimeout(ctx.Err()))
        metrics_.timeouts.Inc();
    metrics_.reconcile_time.Observe(Seconds(std::chrono::steady_clock::now() - start));

    if (!result.Ok()) {
        const Status& error = result.GetStatus();
        if (error.IsTerminal())
            metrics_.terminal_errors.Inc();
        else
            queue_->AddWithOptions({.rate_limited = true, .priority = priority}, request);
        metrics_.errors.Inc();
        metrics_.reconcile_error.Inc();
        logger.Error(error, "Reconciler error");
        co_return;
    }
    const reconcile::Result& outcome = result.Value();
    const int requeue_priority = outcome.priority.value_or(priority);
    if (outcome.requeue_after.count() > 0) {
        logger.V(5).Info("Reconcile done, requeueing after", "requeueAfter", outcome.requeue_after);
        queue_->Forget(request);
        queue_->AddWithOptions({.after = outcome.requeue_after, .priority = requeue_priority}, request);
        metrics_.reconcile_requeue_after.Inc();
    } else if (outcome.requeue) {
        logger.V(5).Info("Reconcile done, requeueing");
        queue_->AddWithOptions({.rate_limited = true, .priority = requeue_priority}, request);
        metrics_.reconcile_requeue.Inc();
    } else {
        logger.V(5).Info("Reconcile successful");
        queue_->Forget(request);
        metrics_.reconcile_success.Inc();
    }
}

Task<StatusOr<reconcile::Result>> Controller::CallReconciler(Context ctx, const reconcile::Request& request) {
    const bool recover = options_.recover_panic.value_or(true);
    std::string panic;
    try {
        co_return co_await reconciler_->Reconcile(ctx, request);
    } catch (const std::exception& e) {
        if (!recover)
            throw;
        panic = std::string(e.what()) + " (" + typeid(e).name() + ")";
    } catch (...) {
        if (!recover)
            throw;
        panic = "an exception that is not a std::exception";
    }
    metrics_.panics.Inc();
    const Status error = InternalError("panic: " + panic + " [recovered]");
    log::FromContext(ctx).Error(error, "Observed a panic");
    co_return error;
}

}  // namespace ctrl::controller
