#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio/any_io_executor.hpp>

#include "ctrl/controller/controller_metrics.hpp"
#include "ctrl/controller/controller_options.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/notification.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/handler/request_queue.hpp"
#include "ctrl/log/log.hpp"
#include "ctrl/reconcile/reconciler.hpp"
#include "ctrl/source/source.hpp"

namespace ctrl::controller {

// Runs a Reconciler over a work queue fed by sources (controller-runtime's controller.Controller):
// max_concurrent_reconciles workers, each a coroutine on the controller's executor (no thread
// per worker), take Requests from the queue and reconcile them with controller-runtime's
// semantics:
//  - a key is never reconciled twice at once (the queue never hands it to two workers);
//  - an error requeues the key rate-limited (5 ms doubling by default), a Terminal error is not
//    requeued; Result.requeue_after > 0 forgets the key's backoff and re-adds it after that
//    delay; Result.requeue requeues it rate-limited; success forgets its backoff;
//  - an exception escaping Reconcile is a panic: logged with its what(), counted, and the key
//    requeued with backoff (unless recover_panic is false);
//  - the queue is a priority queue (unless use_priority_queue is false): the sources' initial
//    lists and resyncs come in at kLowPriority, a requeue keeps the key's priority unless
//    Result.priority sets one, and aging bounds every key's wait (workqueue::PriorityQueue);
//  - a reconcile running past reconcile_timeout has its Context cancelled and is counted;
//  - every reconcile logs through a logger carrying controller, namespace, name and a fresh
//    reconcileID, which the reconciler gets from log::FromContext(ctx);
//  - controller_runtime_* and workqueue_* metrics labelled with the controller's name.
//
// Lifecycle: New, Watch sources, then Run (what a manager does; a test may call Run itself).
// Run starts the sources, waits for them to sync, starts the workers and returns after its
// context ends and the workers have stopped. With enable_warmup, Warmup may come first (a manager
// calls it while it campaigns for the Lease): it starts the sources and waits for their sync, and
// Run then reuses them and starts the workers at once. On stop the queue takes no more work and in-flight
// reconciles finish with their Context still live (unlike controller-runtime, which cancels
// them with the manager's context): a graceful shutdown lets them complete. AbortReconciles()
// cancels their Contexts (the manager calls it when its graceful-shutdown timeout passes); so
// does destroying the controller. Thread-safe.
class Controller final : public std::enable_shared_from_this<Controller> {
  public:
    // AlreadyExists when another live controller has this name (unless
    // options.skip_name_validation); InvalidArgument-like BadRequest for an empty name, a null
    // reconciler or max_concurrent_reconciles < 1. The queue and metrics exist from here on.
    static StatusOr<std::shared_ptr<Controller>> New(std::string name,
                                                     std::shared_ptr<reconcile::Reconciler> reconciler,
                                                     boost::asio::any_io_executor executor, Options options = {});
    ~Controller();
    Controller(const Controller&) = delete;
    Controller& operator=(const Controller&) = delete;

    // Adds a source of events. Before Run it is started by Run; after Run began it is started
    // at once (a failure is logged). After Run returned: FailedPrecondition-like BadRequest.
    Status Watch(std::shared_ptr<source::Source> source);

    // Starts sources, waits up to cache_sync_timeout for them to sync (a source waiting for its
    // kind does not hold the workers back), runs the workers until ctx ends, then stops taking
    // work and returns once every in-flight reconcile has finished. An error when a source
    // fails to start or to sync in time (naming it), or when Run was called before.
    Task<Status> Run(Context ctx);

    // Warm standby: when enable_warmup is set, starts the sources with ctx (they deliver into the
    // queue until ctx ends) and waits up to cache_sync_timeout for their sync; no worker runs. Run
    // then starts only the sources Warmup did not start, and waits only for those it did not see
    // synced (a Run that comes while Warmup waits, waits for it first). A no-op (OK) without
    // enable_warmup, after Run began, or when called before; the sync's error otherwise (Run then
    // starts and waits for what is left itself).
    Task<Status> Warmup(Context ctx);
    // Whether Warmup does anything (options.enable_warmup).
    bool WarmupEnabled() const { return options_.enable_warmup.value_or(false); }

    // Cancels the Context of every in-flight and future reconcile.
    void AbortReconciles();

    // OK once every source has synced and delivers events; otherwise why not ("controller pod:
    // waiting for kind ...: no match ...", "controller pod: caches not synced yet"). What the
    // manager's /readyz check for this controller reports.
    Status ReadyCheck() const;

    // Whether Run's sources have synced and its workers started.
    bool Started() const { return started_.HasBeenNotified(); }
    // Waits until Started: OK then; ctx's error (Cancelled, or Timeout at its deadline) when ctx
    // ends first (a controller that never starts: not elected, or its sources did not sync).
    Task<Status> WaitForStarted(Context ctx) const { return started_.Wait(std::move(ctx)); }
    const std::string& Name() const { return name_; }
    bool NeedLeaderElection() const { return options_.needs_leader_election.value_or(true); }
    int MaxConcurrentReconciles() const { return options_.max_concurrent_reconciles; }
    // The controller's work queue: user code may Add requests by hand.
    handler::RequestQueue& Queue() { return *queue_; }
    const log::Logger& GetLogger() const { return logger_; }
    const ControllerMetrics& Metrics() const { return metrics_; }
    boost::asio::any_io_executor GetExecutor() const { return executor_; }

  private:
    Controller(std::string name, std::shared_ptr<reconcile::Reconciler> reconciler,
               boost::asio::any_io_executor executor, Options options);
    // One worker: takes keys until the queue shuts down.
    Task<void> Worker();
    // Reconciles one key (handed out at priority) and decides what happens to it next.
    Task<void> ReconcileOne(reconcile::Request request, int priority);
    // Reconcile with panic recovery and the timeout.
    Task<StatusOr<reconcile::Result>> CallReconciler(Context ctx, const reconcile::Request& request);
    // Starts one source (Watch after Run began).
    Task<void> StartLate(std::shared_ptr<source::Source> source);
    // Starts those of sources not started before (by Warmup) with ctx; the first failure.
    Task<Status> StartSources(Context ctx, std::vector<std::shared_ptr<source::Source>> sources);
    // Waits up to cache_sync_timeout for those of sources not seen synced before: OK, or the first
    // source that failed (a source waiting for its kind does not count: logged and passed over).
    Task<Status> WaitForSources(Context ctx, std::vector<std::shared_ptr<source::Source>> sources);

    const std::string name_;
    const std::shared_ptr<reconcile::Reconciler> reconciler_;
    const boost::asio::any_io_executor executor_;
    const Options options_;
    const log::Logger logger_;
    ControllerMetrics metrics_;
    const std::unique_ptr<handler::RequestQueue> queue_;
    // Parent of every reconcile's Context; AbortReconciles cancels it.
    const Context reconcile_base_;
    // The reason a reconcile's Context gets when reconcile_timeout passes.
    const Status reconcile_timeout_error_;

    mutable std::mutex mu_;
    std::vector<std::shared_ptr<source::Source>> sources_;  // guarded by mu_
    bool running_ = false;                                  // Run began; guarded by mu_
    bool stopped_ = false;                                  // Run returned; guarded by mu_
    Context run_ctx_ = Context::Background();               // Run's context; guarded by mu_
    std::set<const source::Source*> started_sources_;       // started (by Warmup or Run); guarded by mu_
    std::set<const source::Source*> synced_sources_;        // seen synced; guarded by mu_
    std::shared_ptr<Notification> warmup_done_;             // set while or after Warmup ran; guarded by mu_
    Notification started_;                                  // Run's sources synced and its workers started
    std::atomic<bool> stopping_{false};                     // no new reconcile starts
    std::shared_ptr<Notification> workers_done_;
};

}  // namespace ctrl::controller
