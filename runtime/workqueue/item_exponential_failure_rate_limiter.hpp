#pragma once

#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <mutex>
#include <unordered_map>

#include "ctrl/workqueue/rate_limiter.hpp"

namespace ctrl::workqueue {

// Per-item exponential backoff (client-go's ItemExponentialFailureRateLimiter): the n-th
// failure of an item since its last Forget waits base_delay * 2^(n-1), at most max_delay.
// Items back off independently. Thread-safe; memory grows with the items not yet forgotten, so
// callers Forget an item once it succeeds.
template <typename T, typename Hash = std::hash<T>, typename Eq = std::equal_to<T>>
class ItemExponentialFailureRateLimiter final : public RateLimiter<T> {
  public:
    ItemExponentialFailureRateLimiter(std::chrono::nanoseconds base_delay, std::chrono::nanoseconds max_delay)
        : base_delay_(base_delay), max_delay_(max_delay) {}

    std::chrono::nanoseconds When(const T& item) override {
        int exponent = 0;
        {
            std::lock_guard lock(mu_);
            int& failures = failures_[item];
            exponent = failures;
            if (failures < INT_MAX)
                ++failures;
        }
        // In floating point, like client-go, so a large exponent saturates instead of overflowing.
        const double backoff = static_cast<double>(base_delay_.count()) * std::exp2(exponent);
        if (backoff >= static_cast<double>(std::numeric_limits<int64_t>::max()))
            return max_delay_;
        const std::chrono::nanoseconds delay(static_cast<int64_t>(backoff));
        return delay > max_delay_ ? max_delay_ : delay;
    }

    void Forget(const T& item) override {
        std::lock_guard lock(mu_);
        failures_.erase(item);
    }

    int NumRequeues(const T& item) const override {
        std::lock_guard lock(mu_);
        auto it = failures_.find(item);
        return it == failures_.end() ? 0 : it->second;
    }

  private:
    const std::chrono::nanoseconds base_delay_;
    const std::chrono::nanoseconds max_delay_;
    mutable std::mutex mu_;
    std::unordered_map<T, int, Hash, Eq> failures_;
};

}  // namespace ctrl::workqueue
