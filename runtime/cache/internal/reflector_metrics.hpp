#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ctrl/metrics/metric.hpp"
#include "ctrl/metrics/registry.hpp"

namespace ctrl::cache::internal {

// One reflector's metrics. Counts how often it listed its resource and why, per kind:
// ctrl_informer_relists_total{gvk, reason} with reason "initial" (the first list), "gone_410" (a
// 410 Gone / Expired made it list again) or "error" (a list that failed midway was started over);
// the three series exist from construction, at 0. And what its store holds, per kind and namespace
// ("" for every namespace): ctrl_informer_objects, ctrl_informer_bytes (the compact forms' bytes)
// and ctrl_informer_last_sync_timestamp_seconds (the end of the last complete list). When the
// reflector goes, its objects and bytes read 0 (the series stay: another informer of the same kind
// and namespace, say in a second cache on the same registry, may be using them). Thread-safe.
class ReflectorMetrics final {
  public:
    ReflectorMetrics(const std::string& gvk, const std::string& namespace_name, metrics::Registry& registry);
    ~ReflectorMetrics();
    ReflectorMetrics(const ReflectorMetrics&) = delete;
    ReflectorMetrics& operator=(const ReflectorMetrics&) = delete;

    // A complete list went into the store; `initial`: the first one; `after_gone`: a 410 caused it.
    void Listed(bool initial, bool after_gone) const;
    // The store holds `objects` objects in `bytes` bytes now, and has evicted `evictions` in all
    // (a bounded store).
    void Stored(std::size_t objects, std::size_t bytes, int64_t evictions = 0) const;

  private:
    const metrics::Counter initial_;
    const metrics::Counter gone_;
    const metrics::Counter error_;
    mutable metrics::Gauge objects_;
    mutable metrics::Gauge bytes_;
    mutable metrics::Gauge last_sync_;
    const metrics::Counter evictions_;
    mutable std::atomic<int64_t> evictions_seen_{0};
};

}  // namespace ctrl::cache::internal
