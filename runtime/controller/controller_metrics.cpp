#include "ctrl/controller/controller_metrics.hpp"

namespace ctrl::controller {

std::vector<double> ReconcileTimeBuckets() {
    return {0.005, 0.01, 0.025, 0.05, 0.1,  0.15, 0.2,  0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6,
            0.7,   0.8,  0.9,   1.0,  1.25, 1.5,  1.75, 2.0,  2.5, 3.0,  3.5, 4.0,  4.5, 5,
            6,     7,    8,     9,    10,   15,   20,   25,   30,  40,   50,  60};
}

ControllerMetrics NewControllerMetrics(metrics::Registry& registry, const std::string& name,
                                       int max_concurrent_reconciles) {
    const std::vector<std::string> labels = {"controller"};
    const std::vector<std::string> values = {name};
    const metrics::CounterFamily total =
        registry.AddCounter("controller_runtime_reconcile_total", "Total number of reconciliations per controller",
                            {"controller", "result"});
    ControllerMetrics m{
        .reconcile_success = total.WithLabelValues({name, "success"}),
        .reconcile_error = total.WithLabelValues({name, "error"}),
        .reconcile_requeue = total.WithLabelValues({name, "requeue"}),
        .reconcile_requeue_after = total.WithLabelValues({name, "requeue_after"}),
        .errors = registry
                      .AddCounter("controller_runtime_reconcile_errors_total",
                                  "Total number of reconciliation errors per controller", labels)
                      .WithLabelValues(values),
        .terminal_errors = registry
                               .AddCounter("controller_runtime_terminal_reconcile_errors_total",
                                           "Total number of terminal reconciliation errors per controller", labels)
                               .WithLabelValues(values),
        .panics = registry
                      .AddCounter("controller_runtime_reconcile_panics_total",
                                  "Total number of reconciliation panics per controller", labels)
                      .WithLabelValues(values),
        .timeouts = registry
                        .AddCounter("controller_runtime_reconcile_timeouts_total",
                                    "Total number of reconciliation timeouts per controller", labels)
                        .WithLabelValues(values),
        .reconcile_time =
            registry
                .AddHistogram("controller_runtime_reconcile_time_seconds",
                              "Length of time per reconciliation per controller", labels, ReconcileTimeBuckets())
                .WithLabelValues(values),
        .max_concurrent_reconciles = registry
                                         .AddGauge("controller_runtime_max_concurrent_reconciles",
                                                   "Maximum number of concurrent reconciles per controller", labels)
                                         .WithLabelValues(values),
        .active_workers = registry
                              .AddGauge("controller_runtime_active_workers",
                                        "Number of currently used workers per controller", labels)
                              .WithLabelValues(values),
    };
    m.max_concurrent_reconciles.Set(max_concurrent_reconciles);
    m.active_workers.Set(0);
    return m;
}

}  // namespace ctrl::controller
