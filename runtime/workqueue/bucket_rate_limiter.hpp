#pragma once

#include <chrono>
#include <utility>

#include "ctrl/workqueue/rate_limiter.hpp"
#include "ctrl/workqueue/token_bucket.hpp"

namespace ctrl::workqueue {

// One token bucket shared by all items (client-go's BucketRateLimiter): bounds the overall
// retry rate, not any one item's. When takes a token (zero wait while the burst lasts);
// Forget does nothing and NumRequeues is always 0. Thread-safe.
template <typename T>
class BucketRateLimiter final : public RateLimiter<T> {
  public:
    // rate in tokens per second (> 0); burst tokens available at once; now: the bucket's clock.
    BucketRateLimiter(double rate, int burst, TokenBucket::NowFunction now = TokenBucket::Clock::now)
        : bucket_(rate, burst, std::move(now)) {}

    std::chrono::nanoseconds When(const T&) override { return bucket_.Reserve(); }
    void Forget(const T&) override {}
    int NumRequeues(const T&) const override { return 0; }

  private:
    TokenBucket bucket_;
};

}  // namespace ctrl::workqueue
