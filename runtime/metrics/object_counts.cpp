#include "runtime/metrics/object_counts.hpp"

namespace ctrl::metrics {

void ObjectCounts::Set(const std::string& key, std::vector<std::string> label_values) {
    std::lock_guard lock(mu_);
    auto [it, inserted] = labels_of_.try_emplace(key, label_values);
    if (!inserted) {
        if (it->second == label_values)
            return;
        Add(it->second, -1);
        it->second = label_values;
    }
    Add(label_values, +1);
}

void ObjectCounts::Remove(const std::string& key) {
    std::lock_guard lock(mu_);
    const auto it = labels_of_.find(key);
    if (it == labels_of_.end())
        return;
    Add(it->second, -1);
    labels_of_.erase(it);
}

std::size_t ObjectCounts::Size() const {
    std::lock_guard lock(mu_);
    return labels_of_.size();
}

void ObjectCounts::Add(const std::vector<std::string>& label_values, int64_t delta) {
    int64_t& count = counts_[label_values];
    count += delta;
    if (count > 0) {
        family_.WithLabelValues(label_values).Set(static_cast<double>(count));
        return;
    }
    counts_.erase(label_values);
    family_.Remove(label_values);
}

}  // namespace ctrl::metrics
