#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ctrl/workqueue/queue_metrics.hpp"

namespace ctrl::workqueue::internal {

// What a queue reports: the series of QueueMetrics when the queue has a name; nothing, and no
// clock reads, when it has none (client-go's unnamed queues).
//
// The queue counts under its own lock, in plain integers (Added, Moved, Taken, Worked, Retried:
// call them with the queue's lock held), and the counts reach the series when the registry is
// scraped (the queue registers a collect hook that calls TakeCounts under its lock, then Publish)
// and when the queue is destroyed. A producer and a consumer thread thus share no metric cache
// line besides the queue's own, and no histogram takes a lock per item. The depth is counted per
// priority level when by_priority (a series per level, made on first publish), else in the ""
// series.
class Instruments final {
  public:
    using Clock = std::chrono::steady_clock;
    // One histogram's observations since the last publish: per bucket (one per bound, then +Inf)
    // and their sum in seconds.
    struct HistogramCounts {
        std::array<uint64_t, 13> buckets{};
        double sum = 0;
        bool empty = true;
    };
    // What was counted since the last publish, and the depth per level now.
    struct Counts {
        uint64_t adds = 0;
        uint64_t retries = 0;
        std::vector<std::pair<int, int64_t>> depth;  // (level, keys waiting)
        HistogramCounts queued;
        HistogramCounts worked;
    };

    Instruments(std::optional<QueueMetrics> metrics, bool by_priority)
        : metrics_(std::move(metrics)), by_priority_(by_priority), bounds_(DurationBuckets()) {}

    bool Enabled() const { return metrics_.has_value(); }
    // The time to record for a later duration; a dummy when nothing is reported.
    Clock::time_point Now() const { return metrics_ ? Clock::now() : Clock::time_point{}; }

    // Under the queue's lock: a key became dirty, waiting in level.
    void Added(int level) {
        if (metrics_) {
            ++counts_.adds;
            DepthOf(level) += 1;
        }
    }
    // Under the queue's lock: a waiting key moved from one level to another.
    void Moved(int from, int to) {
        if (metrics_ && from != to) {
            DepthOf(from) -= 1;
            DepthOf(to) += 1;
        }
    }
    // Under the queue's lock: a key of level was handed out after waiting `waited`.
    void Taken(int level, Clock::duration waited) {
        if (metrics_) {
            DepthOf(level) -= 1;
            Observe(counts_.queued, waited);
        }
    }
    // Under the queue's lock: a key handed out `worked` ago is Done.
    void Worked(Clock::duration worked) {
        if (metrics_)
            Observe(counts_.worked, worked);
    }
    // Under the queue's lock: an AddAfter or AddRateLimited.
    void Retried() {
        if (metrics_)
            ++counts_.retries;
    }

    // Under the queue's lock: the counts since the last call (the depths stay).
    Counts TakeCounts() {
        Counts taken = std::move(counts_);
        counts_ = Counts{};
        counts_.depth = taken.depth;
        return taken;
    }
    // Without the queue's lock: adds counts to the series.
    void Publish(const Counts& counts) const;

    // The ages of the keys in progress at `now` (set at once: the metrics loop's, a few a second).
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

    int64_t& DepthOf(int level) {
        for (auto& [at, depth] : counts_.depth) {
            if (at == level)
                return depth;
        }
        return counts_.depth.emplace_back(level, 0).second;
    }

    void Observe(HistogramCounts& histogram, Clock::duration d) const {
        const double seconds = Seconds(d);
        std::size_t bucket = 0;
        while (bucket < bounds_.size() && seconds > bounds_[bucket])
            ++bucket;
        ++histogram.buckets[bucket];
        histogram.sum += seconds;
        histogram.empty = false;
    }

    // Set once; mutable because the handles' updates are thread-safe and not the object's state.
    mutable std::optional<QueueMetrics> metrics_;
    const bool by_priority_;
    const std::vector<double> bounds_;  // DurationBuckets(): 12 bounds, +Inf after them
    Counts counts_;                     // guarded by the queue's lock
    mutable std::mutex publish_mu_;     // one Publish at a time (a scrape and the queue's end)
    mutable std::vector<std::pair<int, metrics::Gauge>> depth_series_;  // guarded by publish_mu_
};

}  // namespace ctrl::workqueue::internal
