#pragma once

#include <string>
#include <vector>

#include "ctrl/metrics/metric.hpp"
#include "ctrl/metrics/registry.hpp"

namespace ctrl::workqueue {

// The series of one named queue, in the families controller-runtime registers (labels `name`
// and `controller`, both the queue's name; `workqueue_depth` also has `priority`: "" for a queue
// without priorities, else the priority level, as controller-runtime's priority queue reports).
// Handles: cheap to copy, valid as long as their Registry.
struct QueueMetrics {
    std::string name;                          // the queue's
    metrics::GaugeFamily depth_by_priority;    // workqueue_depth{name, controller, priority}
    metrics::Gauge depth;                      // workqueue_depth: items waiting to be handed out (priority "")
    metrics::Counter adds;                     // workqueue_adds_total: adds that were not duplicates
    metrics::Histogram queue_duration;         // workqueue_queue_duration_seconds: Add to Get
    metrics::Histogram work_duration;          // workqueue_work_duration_seconds: Get to Done
    metrics::Gauge unfinished_work;            // workqueue_unfinished_work_seconds: sum of running ages
    metrics::Gauge longest_running_processor;  // workqueue_longest_running_processor_seconds
    metrics::Counter retries;                  // workqueue_retries_total: AddAfter and AddRateLimited calls
};

// Registers the workqueue families in registry (a no-op when already there) and returns the
// series for the queue called name.
QueueMetrics NewQueueMetrics(metrics::Registry& registry, const std::string& name);

// The bucket bounds of both duration histograms: 1e-8 s to 1e3 s, factor 10 (12 buckets).
std::vector<double> DurationBuckets();

}  // namespace ctrl::workqueue
