#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/metrics/metric.hpp"

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

    // Every family in the text exposition format 0.0.4 (what /metrics serves).
    std::string SerializeText() const;

  private:
    struct State;
    std::unique_ptr<State> state_;
};

// The process's one registry: every layer registers here, /metrics serves it.
Registry& DefaultRegistry();

}  // namespace ctrl::metrics
