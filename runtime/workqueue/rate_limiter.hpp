#pragma once

#include <chrono>

namespace ctrl::workqueue {

// Decides how long a failed item waits before it is retried (client-go's TypedRateLimiter).
// When records a failure and returns the wait; Forget clears what is known about an item (it
// succeeded); NumRequeues says how many failures are on record. Implementations are
// thread-safe: a queue calls them from any thread.
template <typename T>
class RateLimiter {
  public:
    virtual ~RateLimiter() = default;

    // The delay before item may be retried; counts one more failure of it.
    virtual std::chrono::nanoseconds When(const T& item) = 0;
    // Stops tracking item: its next When starts from the first delay again.
    virtual void Forget(const T& item) = 0;
    // The failures of item on record since its last Forget.
    virtual int NumRequeues(const T& item) const = 0;
};

}  // namespace ctrl::workqueue
