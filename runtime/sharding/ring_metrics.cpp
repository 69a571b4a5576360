#include "ctrl/sharding/ring_metrics.hpp"

namespace ctrl::sharding {

RingMetrics NewRingMetrics(metrics::Registry& registry, const std::string& ring) {
    const metrics::GaugeFamily members = registry.AddGauge(
        "ctrl_shard_ring_members", "Live members of the shard ring in this member's last round.", {"ring"});
    const metrics::GaugeFamily owned =
        registry.AddGauge("ctrl_shard_owned_buckets", "Buckets of the shard ring this member owns.", {"ring"});
    const metrics::CounterFamily handoffs = registry.AddCounter(
        "ctrl_shard_handoffs_total", "Buckets this member acquired or released.", {"ring", "direction"});
    const metrics::HistogramFamily unowned = registry.AddHistogram(
        "ctrl_shard_bucket_unowned_seconds",
        "How long a bucket had no live claim, as this member saw it, observed when it was claimed again.", {"ring"},
        {0.5, 1, 2, 5, 10, 20, 30, 60, 120});
    return RingMetrics{members.WithLabelValues({ring}), owned.WithLabelValues({ring}),
                       handoffs.WithLabelValues({ring, "acquired"}), handoffs.WithLabelValues({ring, "released"}),
                       unowned.WithLabelValues({ring})};
}

}  // namespace ctrl::sharding
