#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ctrl/metrics/metric.hpp"

namespace prometheus {
class Registry;
}  // namespace prometheus

namespace ctrl::metrics {

// Holds the metric families of a process and renders them in the Prometheus text format.
// Registering a name again returns the existing family when its type and label names are
// the same (so layers can register lazily); a clash in type or labels is a programming error
// and aborts naming the metric. Thread-safe.
class Registry {
  public:
    Registry();
    ~Registry();
    Registry(const Registry&) = delete;
    Registry& operator=(const Registry&) = delete;

    CounterFamily AddCounter(const std::string& name, const std::string& help, std::vector<std::string> label_names);
    GaugeFamily AddGauge(const std::string& name, const std::string& help, std::vector<std::string> label_names);
    HistogramFamily AddHistogram(const std::string& name, const std::string& help, std::vector<std::string> label_names,
                                 std::vector<double> buckets);

    // Runs hook at the start of every SerializeText, before anything is rendered, so that
    // values read at scrape time (process metrics: CPU, memory, open files) are fresh. Hooks run
    // in the order added, on the scraping thread, one scrape at a time; a hook must not call
    // SerializeText. Hooks cannot be removed: the registry owns them until it is destroyed.
    void AddCollectHook(std::function<void()> hook);
    // The same for as long as owner lives: a scrape after owner is gone drops the hook (what a
    // short-lived object, such as a work queue that counts under its own lock, registers).
    void AddCollectHook(std::weak_ptr<const void> owner, std::function<void()> hook);

    // Every family in the text exposition format 0.0.4 (what /metrics serves), after running
    // the collect hooks.
    std::string SerializeText() const;

  private:
    struct State;
    std::unique_ptr<State> state_;
};

// The process's one registry: every layer registers here, /metrics serves it.
Registry& DefaultRegistry();

}  // namespace ctrl::metrics
