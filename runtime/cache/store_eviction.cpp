// Store: a bounded store's eviction (StoreOptions::max_bytes), least recently used first.

#include <algorithm>
#include <mutex>
#include <utility>
#include <vector>

#include "ctrl/cache/internal/indexer.hpp"
#include "ctrl/cache/internal/stored_object.hpp"
#include "ctrl/cache/store.hpp"

namespace ctrl::cache {

void Store::Touch(const internal::StoredObject& entry) const {
    if (options_.max_bytes != 0)
        entry.Touch(clock_.fetch_add(1, std::memory_order_relaxed) + 1);
}

void Store::EvictLocked(std::vector<EntryPtr>& evicted) {
    if (options_.max_bytes == 0 || encoded_bytes_ <= options_.max_bytes)
        return;
    // Down to 90% at once, so a store at its limit sorts its entries once per tenth of it, not
    // once per object stored.
    const std::size_t target = options_.max_bytes / 10 * 9;
    std::vector<std::pair<uint64_t, const internal::StoredObject*>> by_use;
    by_use.reserve(objects_.size());
    for (const auto& [key, entry] : objects_)
        by_use.emplace_back(entry->LastUse(), entry.get());
    std::sort(by_use.begin(), by_use.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [last_use, entry] : by_use) {
        if (encoded_bytes_ <= target)
            break;
        auto it = objects_.find(entry->Key());
        const std::string key(entry->Key());
        encoded_bytes_ -= entry->Value().Size();
        evicted.push_back(std::move(it->second));
        objects_.erase(it);
        indexer_->Remove(key);
        ++evictions_;
        evicted_ = true;
    }
}

bool Store::HasEvicted() const {
    std::shared_lock lock(mu_);
    return evicted_;
}

int64_t Store::Evictions() const {
    std::shared_lock lock(mu_);
    return evictions_;
}

}  // namespace ctrl::cache
