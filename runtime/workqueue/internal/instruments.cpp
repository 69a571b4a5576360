#include "ctrl/workqueue/internal/instruments.hpp"

namespace ctrl::workqueue::internal {
namespace {

void PublishHistogram(const Instruments::HistogramCounts& counts, metrics::Histogram& series) {
    if (counts.empty)
        return;
    const std::vector<double> buckets(counts.buckets.begin(), counts.buckets.end());
    series.ObserveBuckets(buckets, counts.sum);
}

}  // namespace

void Instruments::Publish(const Counts& counts) const {
    if (!metrics_)
        return;
    std::lock_guard lock(publish_mu_);
    if (counts.adds > 0)
        metrics_->adds.Inc(static_cast<double>(counts.adds));
    if (counts.retries > 0)
        metrics_->retries.Inc(static_cast<double>(counts.retries));
    PublishHistogram(counts.queued, metrics_->queue_duration);
    PublishHistogram(counts.worked, metrics_->work_duration);
    for (const auto& [level, depth] : counts.depth) {
        if (!by_priority_) {
            metrics_->depth.Set(static_cast<double>(depth));
            continue;
        }
        auto series = depth_series_.begin();
        while (series != depth_series_.end() && series->first != level)
            ++series;
        if (series == depth_series_.end()) {
            depth_series_.emplace_back(level, metrics_->depth_by_priority.WithLabelValues(
                                                  {metrics_->name, metrics_->name, std::to_string(level)}));
            series = depth_series_.end() - 1;
        }
        series->second.Set(static_cast<double>(depth));
    }
}

}  // namespace ctrl::workqueue::internal
