#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ctrl/workqueue/queue_metrics.hpp"

namespace ctrl::workqueue::internal {

// What a queue reports: the series of QueueMetrics when the queue has a name; nothing, and no
// clock reads, when it has none (client-go's unnamed queues). The depth is counted by priority
// level when by_priority (a series per level, made on first use), else in the "" series. The
// depth calls (Added, Taken, Moved) are made under the queue's lock, which guards the level
// series; the others are thread-safe, as the handles are.
class Instruments final {
  public:
    using Clock = std::chrono::steady_clock;

    Instruments(std::optional<QueueMetrics> metrics, bool by_priority)
        : metrics_(std::move(metrics)), by_priority_(by_priority) {}

    bool Enabled() const { return metrics_.has_value(); }
    // The time to record for a later duration; a dummy when nothing is reported.
    Clock::time_point Now() const { return metrics_ ? Clock::now() : Clock::time_point{}; }

    // A key became dirty, waiting in level.
    void Added(int level) const {
        if (metrics_) {
            metrics_->adds.Inc();
            Depth(level).Inc();
        }
    }
    // A waiting key moved from one level to another.
    void Moved(int from, int to) const {
        if (metrics_ && from != to) {
            Depth(from).Dec();
            Depth(to).Inc();
        }
    }
    // A key of level was handed out; its wait goes to Queued, outside the queue's lock.
    void Taken(int level) const {
        if (metrics_)
            Depth(level).Dec();
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

    // The depth series of level (requires metrics_).
    metrics::Gauge& Depth(int level) const {
        if (!by_priority_)
            return metrics_->depth;
        for (auto& [priority, gauge] : levels_) {
            if (priority == level)
                return gauge;
        }
        levels_.emplace_back(level, metrics_->depth_by_priority.WithLabelValues(
                                        {metrics_->name, metrics_->name, std::to_string(level)}));
        return levels_.back().second;
    }

    // Set once; mutable because the handles' updates are thread-safe and not the object's state.
    mutable std::optional<QueueMetrics> metrics_;
    const bool by_priority_;
    mutable std::vector<std::pair<int, metrics::Gauge>> levels_;  // guarded by the queue's lock
};

}  // namespace ctrl::workqueue::internal
