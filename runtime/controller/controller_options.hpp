#pragma once

#include <chrono>
#include <memory>
#include <optional>

#include "ctrl/core/gvk.hpp"
#include "ctrl/log/log.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/reconcile/request.hpp"
#include "ctrl/workqueue/rate_limiter.hpp"

namespace ctrl::controller {

// How a Controller runs (controller-runtime's controller.Options). Every field has
// controller-runtime's default. Controller::New is not a coroutine, so designated initializers
// are fine here: `controller::Options{.max_concurrent_reconciles = 4}`.
struct Options {
    // Reconciles running at once (different keys; one key never runs twice at once). Default 1.
    int max_concurrent_reconciles = 1;
    // When > 0, each reconcile's Context is cancelled this long after it starts, and the
    // reconcile is counted in controller_runtime_reconcile_timeouts_total. Default: none.
    std::chrono::nanoseconds reconcile_timeout{0};
    // How long Run waits for its sources to sync before it fails. Default 2 minutes. A source
    // waiting for its kind (not served yet, or forbidden) does not count: the workers start and
    // the readiness check names what it waits for.
    std::chrono::nanoseconds cache_sync_timeout = std::chrono::minutes(2);
    // AddRateLimited's delays. Null: DefaultControllerRateLimiter (5 ms doubling to 1000 s per
    // key, at most 10 retries per second after a burst of 100).
    std::shared_ptr<workqueue::RateLimiter<reconcile::Request>> rate_limiter{};
    // Whether the queue is a workqueue::PriorityQueue (controller-runtime's UsePriorityQueue,
    // default true): events of the initial list and resyncs wait behind other work, and
    // Result.priority is honoured. false: the plain FIFO workqueue::Queue.
    std::optional<bool> use_priority_queue{};
    // The priority queue's aging bound: once a key has waited this long, nothing queued after it
    // goes ahead of it; a kLowPriority key yields to normal keys for half of it. Default 5 minutes.
    std::chrono::nanoseconds aging_bound = std::chrono::minutes(5);
    // Whether the controller runs only on the elected leader. Default true.
    std::optional<bool> needs_leader_election{};
    // Warm standby (controller-runtime's EnableWarmup): a controller that needs the leader starts
    // its sources (informers, handlers: its queue fills) and waits for them to sync while its
    // manager is still campaigning, so that once elected it only starts its workers. Costs the
    // standby the memory of the informers and the queue. Default false.
    std::optional<bool> enable_warmup{};
    // Whether an exception escaping Reconcile is caught, logged and counted as a panic (and the
    // key retried). Default true; false lets it escape and end the process (std::terminate).
    std::optional<bool> recover_panic{};
    // Skip the check that no other live controller has the same name (names label the metrics:
    // two controllers with one name would report as one).
    bool skip_name_validation = false;
    // The logger reconciles log through. Default: log::Logger() named "controller", with the
    // key-value pairs controller=<name> (and controllerGroup/controllerKind when for_kind is set).
    std::optional<log::Logger> logger{};
    // The kind the controller reconciles, for its logs (the builder sets it from For<T>).
    std::optional<GroupVersionKind> for_kind{};
    // Where the controller and workqueue metrics go. Default: metrics::DefaultRegistry().
    metrics::Registry* registry = nullptr;
};

}  // namespace ctrl::controller
