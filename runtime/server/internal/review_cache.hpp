#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

namespace ctrl::server::internal {

// Answers kept for a while, keyed by a string (a token's digest), at most max_entries of them:
// a full cache drops what has expired, then the entry that expires first. Thread-safe.
template <typename V>
class ReviewCache {
  public:
    using Clock = std::chrono::steady_clock;

    explicit ReviewCache(std::size_t max_entries) : max_entries_(max_entries) {}

    std::optional<V> Get(const std::string& key, Clock::time_point now) {
        std::lock_guard lock(mu_);
        auto it = entries_.find(key);
        if (it == entries_.end())
            return std::nullopt;
        if (it->second.expiry <= now) {
            entries_.erase(it);
            return std::nullopt;
        }
        return it->second.value;
    }

    void Put(const std::string& key, V value, Clock::time_point expiry, Clock::time_point now) {
        std::lock_guard lock(mu_);
        if (max_entries_ == 0)
            return;
        if (entries_.size() >= max_entries_ && !entries_.contains(key)) {
            std::erase_if(entries_, [now](const auto& entry) { return entry.second.expiry <= now; });
            if (entries_.size() >= max_entries_) {
                auto first = entries_.begin();
                for (auto it = entries_.begin(); it != entries_.end(); ++it) {
                    if (it->second.expiry < first->second.expiry)
                        first = it;
                }
                entries_.erase(first);
            }
        }
        entries_.insert_or_assign(key, Entry{std::move(value), expiry});
    }

    std::size_t Size() const {
        std::lock_guard lock(mu_);
        return entries_.size();
    }

  private:
    struct Entry {
        V value;
        Clock::time_point expiry;
    };
    const std::size_t max_entries_;
    mutable std::mutex mu_;
    std::map<std::string, Entry> entries_;
};

}  // namespace ctrl::server::internal
