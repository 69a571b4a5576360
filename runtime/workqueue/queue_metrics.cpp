#include "ctrl/workqueue/queue_metrics.hpp"

namespace ctrl::workqueue {

std::vector<double> DurationBuckets() {
    return metrics::ExponentialBuckets(1e-8, 10, 12);
}

QueueMetrics NewQueueMetrics(metrics::Registry& registry, const std::string& name) {
    const std::vector<std::string> labels = {"name", "controller"};
    const std::vector<std::string> values = {name, name};
    const metrics::GaugeFamily depth =
        registry.AddGauge("workqueue_depth", "Current depth of the work queue, by queue and priority",
                          {"name", "controller", "priority"});
    return QueueMetrics{
        .name = name,
        .depth_by_priority = depth,
        .depth = depth.WithLabelValues({name, name, ""}),
        .adds = registry.AddCounter("workqueue_adds_total", "Total number of adds handled by the work queue", labels)
                    .WithLabelValues(values),
        .queue_duration = registry
                              .AddHistogram("workqueue_queue_duration_seconds",
                                            "Seconds an item waits in the work queue before it is handed out", labels,
                                            DurationBuckets())
                              .WithLabelValues(values),
        .work_duration = registry
                             .AddHistogram("workqueue_work_duration_seconds",
                                           "Seconds from handing an item out of the work queue to its Done", labels,
                                           DurationBuckets())
                             .WithLabelValues(values),
        .unfinished_work = registry
                               .AddGauge("workqueue_unfinished_work_seconds",
                                         "Seconds of work in progress not yet observed by work_duration; a steady rise "
                                         "means stuck workers, and its rate is the number of stuck workers",
                                         labels)
                               .WithLabelValues(values),
        .longest_running_processor = registry
                                         .AddGauge("workqueue_longest_running_processor_seconds",
                                                   "Seconds the longest-running item of the work queue has been "
                                                   "in progress",
                                                   labels)
                                         .WithLabelValues(values),
        .retries =
            registry.AddCounter("workqueue_retries_total", "Total number of retries handled by the work queue", labels)
                .WithLabelValues(values),
    };
}

}  // namespace ctrl::workqueue
