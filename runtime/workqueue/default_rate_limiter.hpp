#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <utility>

#include "ctrl/workqueue/bucket_rate_limiter.hpp"
#include "ctrl/workqueue/item_exponential_failure_rate_limiter.hpp"
#include "ctrl/workqueue/max_of_rate_limiter.hpp"
#include "ctrl/workqueue/rate_limiter.hpp"

namespace ctrl::workqueue {

// controller-runtime's defaults (client-go's DefaultTypedControllerRateLimiter).
inline constexpr std::chrono::nanoseconds kDefaultBaseDelay = std::chrono::milliseconds(5);
inline constexpr std::chrono::nanoseconds kDefaultMaxDelay = std::chrono::seconds(1000);
inline constexpr double kDefaultBucketRate = 10.0;  // retries per second, over all items
inline constexpr int kDefaultBucketBurst = 100;

// The rate limiter a controller uses unless told otherwise: the larger of a per-item
// exponential backoff (5 ms doubling to 1000 s) and an overall bucket of 10 retries per second
// with a burst of 100. now is the bucket's clock (tests inject one they move themselves).
template <typename T, typename Hash = std::hash<T>, typename Eq = std::equal_to<T>>
std::shared_ptr<RateLimiter<T>> DefaultControllerRateLimiter(TokenBucket::NowFunction now = TokenBucket::Clock::now) {
    return std::make_shared<MaxOfRateLimiter<T>>(std::vector<std::shared_ptr<RateLimiter<T>>>{
        std::make_shared<ItemExponentialFailureRateLimiter<T, Hash, Eq>>(kDefaultBaseDelay, kDefaultMaxDelay),
        std::make_shared<BucketRateLimiter<T>>(kDefaultBucketRate, kDefaultBucketBurst, std::move(now)),
    });
}

}  // namespace ctrl::workqueue
