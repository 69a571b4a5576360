#include "ctrl/cache/internal/reflector_metrics.hpp"

namespace ctrl::cache::internal {
namespace {

metrics::CounterFamily Lists(metrics::Registry& registry) {
    return registry.AddCounter("ctrl_informer_relists_total",
                               "Complete lists of a resource into an informer's cache, by kind and reason: initial "
                               "(the first), gone_410 (the watch's or list's resourceVersion expired), error (a "
                               "list that failed was started over).",
                               {"gvk", "reason"});
}

}  // namespace

ReflectorMetrics::ReflectorMetrics(const std::string& gvk, metrics::Registry& registry)
    : initial_(Lists(registry).WithLabelValues({gvk, "initial"})),
      gone_(Lists(registry).WithLabelValues({gvk, "gone_410"})),
      error_(Lists(registry).WithLabelValues({gvk, "error"})) {}

void ReflectorMetrics::Listed(bool initial, bool after_gone) const {
    if (initial)
        initial_.Inc();
    else if (after_gone)
        gone_.Inc();
    else
        error_.Inc();
}

}  // namespace ctrl::cache::internal
