#pragma once

#include <string>

#include "ctrl/metrics/metric.hpp"
#include "ctrl/metrics/registry.hpp"

namespace ctrl::sharding {

// The series of one ring member (label `ring`): ctrl_shard_ring_members (live members in its
// last round), ctrl_shard_owned_buckets (buckets it owns), ctrl_shard_handoffs_total{direction}
// (buckets it acquired or released) and ctrl_shard_bucket_unowned_seconds (how long a bucket had
// no live claim, as this member saw it, observed when someone claims it again). Handles, valid as
// long as their Registry.
struct RingMetrics {
    metrics::Gauge members;
    metrics::Gauge owned_buckets;
    metrics::Counter acquired;
    metrics::Counter released;
    metrics::Histogram unowned_seconds;
};

// Registers the families in registry (a no-op when already there) and returns ring's series.
RingMetrics NewRingMetrics(metrics::Registry& registry, const std::string& ring);

}  // namespace ctrl::sharding
