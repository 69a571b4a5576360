#include "ctrl/metrics/object_counts.hpp"

namespace ctrl::metrics {

void ObjectCounts::Set(const std::string& key, std::vector<std::string> label_values, int64_t weight) {
    std::lock_guard lock(mu_);
    Entry entry{std::move(label_values), weight};
    auto [it, inserted] = entries_.try_emplace(key, entry);
    if (!inserted) {
        if (it->second.label_values == entry.label_values && it->second.weight == entry.weight)
            return;
        Add(it->second, -1);
        it->second = entry;
    }
    Add(entry, +1);
}

void ObjectCounts::Remove(const std::string& key) {
    std::lock_guard lock(mu_);
    const auto it = entries_.find(key);
    if (it == entries_.end())
        return;
    Add(it->second, -1);
    entries_.erase(it);
}

std::size_t ObjectCounts::Size() const {
    std::lock_guard lock(mu_);
    return entries_.size();
}

void ObjectCounts::Add(const Entry& entry, int64_t sign) {
    Series& series = series_[entry.label_values];
    series.objects += sign;
    series.sum += sign * entry.weight;
    if (series.objects > 0) {
        family_.WithLabelValues(entry.label_values).Set(static_cast<double>(series.sum));
        return;
    }
    series_.erase(entry.label_values);
    family_.Remove(entry.label_values);
}

}  // namespace ctrl::metrics
