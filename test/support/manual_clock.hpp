#pragma once

#include <atomic>
#include <chrono>
#include <functional>

namespace ctrl::testing {

// A steady clock that moves only when the test says so, for code that takes a "now" function
// (the rate limiters): it starts at the real steady_clock's now, so timers of the real clock
// still make sense, and Advance moves it forward. Thread-safe.
class ManualClock final {
  public:
    using Clock = std::chrono::steady_clock;

    ManualClock() : now_(Clock::now().time_since_epoch().count()) {}

    Clock::time_point Now() const { return Clock::time_point(Clock::duration(now_.load())); }
    void Advance(Clock::duration by) { now_ += by.count(); }
    // The function to inject; the clock must outlive whatever holds it.
    std::function<Clock::time_point()> Function() {
        return [this] { return Now(); };
    }

  private:
    std::atomic<Clock::rep> now_;
};

}  // namespace ctrl::testing
