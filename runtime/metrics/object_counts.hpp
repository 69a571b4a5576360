#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "ctrl/metrics/metric.hpp"

namespace ctrl::metrics {

// Counts objects in a gauge family by label values (pods per namespace and phase), from what a
// reconciler last saw of each object: Set(key, labels) moves the object from the series of its
// previous labels to the series of these; Remove(key) drops it (the object is gone). An object
// counts `weight` (default 1) in its series: weight 0 keeps the series alive at 0 (the invalid
// policies of a namespace whose policies are all valid). A series no object is in any more is
// removed, so a deleted namespace leaves no series behind. Thread-safe.
class ObjectCounts {
  public:
    explicit ObjectCounts(GaugeFamily family) : family_(std::move(family)) {}

    // label_values in the order of the family's label names.
    void Set(const std::string& key, std::vector<std::string> label_values, int64_t weight = 1);
    void Remove(const std::string& key);

    // The objects counted now.
    std::size_t Size() const;

  private:
    struct Entry {
        std::vector<std::string> label_values;
        int64_t weight = 0;
    };
    struct Series {
        int64_t objects = 0;
        int64_t sum = 0;
    };
    void Add(const Entry& entry, int64_t sign);

    const GaugeFamily family_;
    mutable std::mutex mu_;
    std::unordered_map<std::string, Entry> entries_;
    std::map<std::vector<std::string>, Series> series_;
};

}  // namespace ctrl::metrics
