#pragma once

#include <chrono>
#include <optional>
#include <utility>

#include "ctrl/workqueue/queue_metrics.hpp"

namespace ctrl::workqueue::internal {

// What a queue reports: the series of QueueMetrics when the queue has a name; nothing, and no
// clock reads, when it has none (client-go's unnamed queues). Thread-safe, as the handles are.
class Instruments final {
  public:
    using Clock = std::chrono::steady_clock;

    explicit Instruments(std::optional<QueueMetrics> metrics) : metrics_(std::move(metrics)) {}

    bool Enabled() const { return metrics_.has_value(); }
    // The time to record for a later duration; a dummy when nothing is reported.
    Clock::time_point Now() const { return metrics_ ? Clock::now() : Clock::time_point{}; }

    // A key became dirty.
    void Added() const {
        if (metrics_) {
            metrics_->adds.Inc();
            metrics_->depth.Inc();
        }
    }
    // A key was handed out after waiting `waited`; call Queued outside the queue's lock.
    void Taken() const {
        if (metrics_)
            metrics_->depth.Dec();
    }
    void Queued(Clock::duration waited) const {
        if (metrics_)
            metrics_->queue_duration.Observe(Seconds(waited));
    }
    // A key handed out at `started` is Done.
    void Worked(Clock::time_point started) const {
        if (metrics_)
            metrics_->work_duration.Observe(Seconds(Clock::now() - started));
    }
    void Retried() const {
        if (metrics_)
            metrics_->retries.Inc();
    }
    // The ages of the keys in progress at `now`.
    template <typename ForEachStart>
    void InProgress(Clock::time_point now, ForEachStart&& for_each_start) const {
        if (!metrics_)
            return;
        double unfinished = 0;
        double longest = 0;
        for_each_start([&](Clock::time_point started) {
            const double age = Seconds(now - started);
            unfinished += age;
            longest = age > longest ? age : longest;
        });
        metrics_->unfinished_work.Set(unfinished);
        metrics_->longest_running_processor.Set(longest);
    }

  private:
    static double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

    // Set once; mutable because the handles' updates are thread-safe and not the object's state.
    mutable std::optional<QueueMetrics> metrics_;
};

}  // namespace ctrl::workqueue::internal
