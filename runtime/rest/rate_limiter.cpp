#include "ctrl/rest/rate_limiter.hpp"

#include <algorithm>
#include <utility>

#include "ctrl/core/sleep.hpp"

namespace ctrl::rest {

RateLimiter::RateLimiter(double qps, int burst, NowFunction now)
    : qps_(qps), burst_(std::max(1, burst)), now_(std::move(now)), tokens_(std::max(1, burst)), last_(now_()) {}

void RateLimiter::RefillLocked(Clock::time_point now) {
    const double elapsed = std::chrono::duration<double>(now - last_).count();
    tokens_ = std::min(burst_, tokens_ + elapsed * qps_);
    last_ = now;
}

bool RateLimiter::TryAccept() {
    if (!Enabled())
        return true;
    std::lock_guard lock(mu_);
    RefillLocked(now_());
    if (tokens_ < 1)
        return false;
    tokens_ -= 1;
    return true;
}

RateLimiter::Clock::time_point RateLimiter::Reserve() {
    return ReserveAt(now_());
}

RateLimiter::Clock::time_point RateLimiter::ReserveAt(Clock::time_point now) {
    if (!Enabled())
        return now;
    std::lock_guard lock(mu_);
    RefillLocked(now);
    tokens_ -= 1;  // may go negative: later callers queue behind this reservation
    if (tokens_ >= 0)
        return now;
    return now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(-tokens_ / qps_));
}

void RateLimiter::CancelReservation() {
    if (!Enabled())
        return;
    std::lock_guard lock(mu_);
    tokens_ = std::min(burst_, tokens_ + 1);
}

Task<StatusOr<RateLimiter::Clock::duration>> RateLimiter::Wait(Context ctx) {
    const Clock::time_point start = now_();
    const Clock::time_point at = ReserveAt(start);
    if (at <= start)
        co_return Clock::duration::zero();
    Status waited = co_await SleepUntil(ctx, at);
    if (!waited.Ok()) {
        CancelReservation();
        co_return waited;
    }
    co_return now_() - start;
}

}  // namespace ctrl::rest
