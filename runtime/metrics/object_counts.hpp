#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/metrics/metric.hpp"

namespace ctrl::metrics {

// Counts objects in a gauge family by label values (pods per namespace and phase), from what a
// reconciler last saw of each object: Set(key, labels) moves the object from the series of its
// previous labels to the series of these; Remove(key) drops it (the object is gone). A series whose
// count falls to zero is removed, so a deleted namespace leaves no series behind. Thread-safe.
class ObjectCounts {
  public:
    explicit ObjectCounts(GaugeFamily family) : family_(std::move(family)) {}

    // label_values in the order of the family's label names.
    void Set(const std::string& key, std::vector<std::string> label_values);
    void Remove(const std::string& key);

    // The objects counted now.
    std::size_t Size() const;

  private:
    void Add(const std::vector<std::string>& label_values, int64_t delta);

    const GaugeFamily family_;
    mutable std::mutex mu_;
    std::unordered_map<std::string, std::vector<std::string>> labels_of_;
    std::map<std::vector<std::string>, int64_t> counts_;
};

}  // namespace ctrl::metrics
