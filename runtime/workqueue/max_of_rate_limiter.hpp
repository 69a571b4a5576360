#pragma once

#include <algorithm>
#include <chrono>
#include <memory>
#include <utility>
#include <vector>

#include "ctrl/workqueue/rate_limiter.hpp"

namespace ctrl::workqueue {

// Combines limiters (client-go's MaxOfRateLimiter): When asks every one of them (each records
// the failure) and returns the longest wait; NumRequeues is the largest count; Forget forgets
// in all. The limiters must be non-null. Thread-safe when they are.
template <typename T>
class MaxOfRateLimiter final : public RateLimiter<T> {
  public:
    explicit MaxOfRateLimiter(std::vector<std::shared_ptr<RateLimiter<T>>> limiters) : limiters_(std::move(limiters)) {}

    std::chrono::nanoseconds When(const T& item) override {
        auto longest = std::chrono::nanoseconds::zero();
        for (const auto& limiter : limiters_)
            longest = std::max(longest, limiter->When(item));
        return longest;
    }

    void Forget(const T& item) override {
        for (const auto& limiter : limiters_)
            limiter->Forget(item);
    }

    int NumRequeues(const T& item) const override {
        int most = 0;
        for (const auto& limiter : limiters_)
            most = std::max(most, limiter->NumRequeues(item));
        return most;
    }

  private:
    const std::vector<std::shared_ptr<RateLimiter<T>>> limiters_;
};

}  // namespace ctrl::workqueue
