#include "ctrl/cache/internal/reflector_metrics.hpp"

#include <chrono>

namespace ctrl::cache::internal {
namespace {

metrics::CounterFamily Lists(metrics::Registry& registry) {
    return registry.AddCounter("ctrl_informer_relists_total",
                               "Complete lists of a resource into an informer's cache, by kind and reason: initial "
                               "(the first), gone_410 (the watch's or list's resourceVersion expired), error (a "
                               "list that failed was started over).",
                               {"gvk", "reason"});
}

metrics::Gauge StoreGauge(metrics::Registry& registry, const std::string& name, const std::string& help,
                          const std::string& gvk, const std::string& namespace_name) {
    return registry.AddGauge(name, help, {"gvk", "namespace"}).WithLabelValues({gvk, namespace_name});
}

}  // namespace

ReflectorMetrics::ReflectorMetrics(const std::string& gvk, const std::string& namespace_name,
                                   metrics::Registry& registry)
    : initial_(Lists(registry).WithLabelValues({gvk, "initial"})),
      gone_(Lists(registry).WithLabelValues({gvk, "gone_410"})),
      error_(Lists(registry).WithLabelValues({gvk, "error"})),
      objects_(StoreGauge(registry, "ctrl_informer_objects",
                          "Objects an informer's cache holds, by kind and namespace (\"\": every namespace).", gvk,
                          namespace_name)),
      bytes_(StoreGauge(registry, "ctrl_informer_bytes",
                        "Bytes of the compact forms of the objects an informer's cache holds, by kind and namespace.",
                        gvk, namespace_name)),
      last_sync_(StoreGauge(registry, "ctrl_informer_last_sync_timestamp_seconds",
                            "When an informer's last complete list went into its cache (Unix seconds), by kind and "
                            "namespace; 0 before the first.",
                            gvk, namespace_name)),
      evictions_(registry
                     .AddCounter("ctrl_informer_evictions_total",
                                 "Objects a bounded informer cache evicted (ByObject::max_bytes), by kind.", {"gvk"})
                     .WithLabelValues({gvk})) {}

ReflectorMetrics::~ReflectorMetrics() {
    objects_.Set(0);
    bytes_.Set(0);
}

void ReflectorMetrics::Listed(bool initial, bool after_gone) const {
    if (initial)
        initial_.Inc();
    else if (after_gone)
        gone_.Inc();
    else
        error_.Inc();
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    last_sync_.Set(std::chrono::duration<double>(now).count());
}

void ReflectorMetrics::Stored(std::size_t objects, std::size_t bytes, int64_t evictions) const {
    objects_.Set(static_cast<double>(objects));
    bytes_.Set(static_cast<double>(bytes));
    const int64_t before = evictions_seen_.exchange(evictions);
    if (evictions > before)
        evictions_.Inc(static_cast<double>(evictions - before));
}

}  // namespace ctrl::cache::internal
