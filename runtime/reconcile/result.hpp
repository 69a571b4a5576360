#pragma once

#include <chrono>
#include <optional>

namespace ctrl::reconcile {

// What a successful reconcile asks of its controller (controller-runtime's reconcile.Result):
// nothing (the default: the key is forgotten until an event brings it back), a rate-limited
// requeue (`requeue`), or a requeue after a fixed delay (`requeue_after` > 0, which wins over
// `requeue` and resets the key's backoff). `priority` is the priority of the requeue (also of
// a requeue after an error); unset keeps the priority the key was handed out at. Only a priority
// queue (the controller's default) honours it. Trivially destructible, so
// `Result{.requeue_after = d}` is safe anywhere, co_await expressions included.
struct Result {
    bool requeue = false;
    std::chrono::nanoseconds requeue_after{0};
    std::optional<int> priority{};

    bool IsZero() const { return !requeue && requeue_after.count() == 0; }
    bool operator==(const Result&) const = default;
};

}  // namespace ctrl::reconcile
