#pragma once

#include <string>
#include <vector>

#include "ctrl/metrics/metric.hpp"
#include "ctrl/metrics/registry.hpp"

namespace ctrl::controller {

// The series of one controller in controller-runtime's families (label `controller`; the
// reconcile_total counter also `result`), so dashboards built for Go operators work unchanged
// (docs/metrics.md). NewControllerMetrics pre-sets every counter to 0 and sets
// max_concurrent_reconciles, as controller-runtime does at controller start. Handles: cheap to
// copy, valid as long as their Registry.
struct ControllerMetrics {
    metrics::Counter reconcile_success;        // controller_runtime_reconcile_total{result="success"}
    metrics::Counter reconcile_error;          // {result="error"}
    metrics::Counter reconcile_requeue;        // {result="requeue"}
    metrics::Counter reconcile_requeue_after;  // {result="requeue_after"}
    metrics::Counter errors;                   // controller_runtime_reconcile_errors_total
    metrics::Counter terminal_errors;          // controller_runtime_terminal_reconcile_errors_total
    metrics::Counter panics;                   // controller_runtime_reconcile_panics_total
    metrics::Counter timeouts;                 // controller_runtime_reconcile_timeouts_total
    metrics::Histogram reconcile_time;         // controller_runtime_reconcile_time_seconds
    metrics::Gauge max_concurrent_reconciles;  // controller_runtime_max_concurrent_reconciles
    metrics::Gauge active_workers;             // controller_runtime_active_workers
};

// Registers the controller families in registry (a no-op when already there) and returns the
// series of the controller called name.
ControllerMetrics NewControllerMetrics(metrics::Registry& registry, const std::string& name,
                                       int max_concurrent_reconciles);

// The 40 bucket bounds of controller_runtime_reconcile_time_seconds (0.005 s to 60 s), written
// as controller-runtime writes them so the `le` labels match.
std::vector<double> ReconcileTimeBuckets();

}  // namespace ctrl::controller
