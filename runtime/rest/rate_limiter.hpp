#pragma once

#include <chrono>
#include <functional>
#include <mutex>

#include "ctrl/core/context.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"

namespace ctrl::rest {

// A token bucket shared by every request of a client (client-go's flowcontrol QPS/burst): up
// to burst requests at once, then qps per second. Waiting is a timer on the caller's executor,
// never a blocked thread. With qps <= 0 it never waits (the default, as controller-runtime
// since v0.21). Thread-safe.
class RateLimiter final {
  public:
    using Clock = std::chrono::steady_clock;
    // What the limiter reads as the current time. Tests inject a clock that moves only when they
    // say so; Wait still sleeps on the executor's steady_clock timer until the time it reads.
    using NowFunction = std::function<Clock::time_point()>;

    RateLimiter(double qps, int burst, NowFunction now = Clock::now);

    bool Enabled() const { return qps_ > 0; }
    // Waits for a token and returns how long it waited. Cancelled / Timeout when ctx ends
    // first; a token reserved for a wait that did not finish is given back.
    Task<StatusOr<Clock::duration>> Wait(Context ctx);
    // Takes a token now if one is free (for tests and non-blocking callers).
    bool TryAccept();
    // Reserves the next token and returns when it becomes usable (now or later).
    Clock::time_point Reserve();
    // Returns a reservation that will not be used.
    void CancelReservation();

  private:
    Clock::time_point ReserveAt(Clock::time_point now);
    void RefillLocked(Clock::time_point now);

    const double qps_;
    const double burst_;
    const NowFunction now_;
    std::mutex mu_;
    double tokens_;
    Clock::time_point last_;
};

}  // namespace ctrl::rest
