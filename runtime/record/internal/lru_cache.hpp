#pragma once

#include <cstddef>
#include <list>
#include <string>
#include <unordered_map>
#include <utility>

namespace ctrl::record::internal {

// A map from string keys that keeps at most capacity entries, forgetting the least recently used
// (groupcache's lru.Cache, which client-go's event correlator uses). Not thread-safe.
template <typename V>
class LruCache final {
  public:
    explicit LruCache(size_t capacity) : capacity_(capacity > 0 ? capacity : 1) {}

    // The entry under key, marked most recently used; null when absent.
    V* Get(const std::string& key) {
        auto found = index_.find(key);
        if (found == index_.end())
            return nullptr;
        entries_.splice(entries_.begin(), entries_, found->second);
        return &found->second->second;
    }

    // Stores value under key as the most recently used entry, evicting the oldest when full.
    void Add(const std::string& key, V value) {
        if (V* existing = Get(key)) {
            *existing = std::move(value);
            return;
        }
        entries_.emplace_front(key, std::move(value));
        index_.emplace(key, entries_.begin());
        if (entries_.size() > capacity_) {
            index_.erase(entries_.back().first);
            entries_.pop_back();
        }
    }

    size_t Size() const { return entries_.size(); }

  private:
    using Entries = std::list<std::pair<std::string, V>>;
    size_t capacity_;
    Entries entries_;
    std::unordered_map<std::string, typename Entries::iterator> index_;
};

}  // namespace ctrl::record::internal
