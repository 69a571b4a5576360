#pragma once

#include <chrono>
#include <optional>

namespace ctrl::workqueue {

// The priority handlers give events of an informer's initial list and of resyncs (an update whose
// resourceVersion did not change): controller-runtime's handler.LowPriority. Priorities are
// ints, higher sooner; everything else is added at 0.
inline constexpr int kLowPriority = -100;

// How an item is added (controller-runtime's priorityqueue.AddOpts). `after` > 0 delays it;
// `rate_limited` delays it by the rate limiter's next delay for it (the smaller of the two when
// both are set); `priority` unset means 0. Adding a key that is already waiting keeps the higher
// priority and the earlier time. A queue without priorities ignores `priority`.
struct AddOptions {
    std::chrono::nanoseconds after{0};
    bool rate_limited = false;
    std::optional<int> priority{};
};

// An item handed out with the priority it was wanted at (the highest its adds asked for).
template <typename T>
struct PrioritizedItem {
    T item;
    int priority = 0;
};

}  // namespace ctrl::workqueue
