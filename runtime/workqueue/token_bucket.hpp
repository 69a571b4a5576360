#pragma once

#include <chrono>
#include <functional>
#include <mutex>

namespace ctrl::workqueue {

// A token bucket with reservations (the part of Go's rate.Limiter that client-go's
// BucketRateLimiter uses): it starts full with `burst` tokens and refills at `rate` tokens per
// second up to `burst`. Reserve always takes a token, going into debt when none is left, and
// returns how long the caller must wait for it. rate must be > 0 (infinity: never waits) and
// burst >= 1. Thread-safe.
class TokenBucket final {
  public:
    using Clock = std::chrono::steady_clock;
    // What Reserve reads as the current time (tests inject a clock they move themselves).
    using NowFunction = std::function<Clock::time_point()>;

    TokenBucket(double rate, int burst, NowFunction now = Clock::now);

    // Takes a token now; zero when one was free, else the wait until the debt is repaid.
    std::chrono::nanoseconds Reserve();
    // The same at an explicit time (tests; callers with their own clock). Times earlier than
    // a previous call count as that call's time.
    std::chrono::nanoseconds ReserveAt(Clock::time_point now);

    double Rate() const { return rate_; }
    int Burst() const { return burst_; }

  private:
    const double rate_;
    const int burst_;
    const NowFunction now_;
    std::mutex mu_;
    double tokens_;
    bool started_ = false;
    Clock::time_point last_{};
};

}  // namespace ctrl::workqueue
