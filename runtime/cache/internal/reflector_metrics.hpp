#pragma once

#include <string>

#include "ctrl/metrics/metric.hpp"
#include "ctrl/metrics/registry.hpp"

namespace ctrl::cache::internal {

// Counts how often a reflector listed its resource and why, per kind:
// ctrl_informer_relists_total{gvk, reason} with reason "initial" (the first list), "gone_410" (a
// 410 Gone / Expired made it list again) or "error" (a list that failed midway was started over).
// The three series exist from construction, at 0. Thread-safe.
class ReflectorMetrics final {
  public:
    ReflectorMetrics(const std::string& gvk, metrics::Registry& registry);

    // A complete list went into the store; `initial`: the first one; `after_gone`: a 410 caused it.
    void Listed(bool initial, bool after_gone) const;

  private:
    const metrics::Counter initial_;
    const metrics::Counter gone_;
    const metrics::Counter error_;
};

}  // namespace ctrl::cache::internal
