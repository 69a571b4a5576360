#include "ctrl/workqueue/token_bucket.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

namespace ctrl::workqueue {

TokenBucket::TokenBucket(double rate, int burst, NowFunction now)
    : rate_(rate), burst_(std::max(burst, 1)), now_(std::move(now)), tokens_(burst_) {}

std::chrono::nanoseconds TokenBucket::Reserve() {
    return ReserveAt(now_());
}

std::chrono::nanoseconds TokenBucket::ReserveAt(Clock::time_point now) {
    if (std::isinf(rate_))
        return std::chrono::nanoseconds::zero();
    std::lock_guard lock(mu_);
    if (!started_) {
        started_ = true;
        last_ = now;
    }
    if (now > last_) {
        const double elapsed = std::chrono::duration<double>(now - last_).count();
        tokens_ = std::min(static_cast<double>(burst_), tokens_ + elapsed * rate_);
        last_ = now;
    }
    tokens_ -= 1.0;
    if (tokens_ >= 0)
        return std::chrono::nanoseconds::zero();
    // Scaled before dividing, so whole debts at whole rates give exact waits (300 ms, not 299.999999 ms).
    return std::chrono::nanoseconds(static_cast<int64_t>(-tokens_ * 1e9 / rate_));
}

}  // namespace ctrl::workqueue
