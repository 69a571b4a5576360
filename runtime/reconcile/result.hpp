#pragma once

#include <chrono>

namespace ctrl::reconcile {

// What a successful reconcile asks of its controller (controller-runtime's reconcile.Result):
// nothing (the default: the key is forgotten until an event brings it back), a rate-limited
// requeue (`requeue`), or a requeue after a fixed delay (`requeue_after` > 0, which wins over
// `requeue` and resets the key's backoff). Trivially destructible, so `Result{.requeue_after = d}`
// is safe anywhere, co_await expressions included.
struct Result {
    bool requeue = false;
    std::chrono::nanoseconds requeue_after{0};

    bool IsZero() const { return !requeue && requeue_after.count() == 0; }
    bool operator==(const Result&) const = default;
};

}  // namespace ctrl::reconcile
