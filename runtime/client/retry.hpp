#pragma once

#include <chrono>
#include <utility>

#include "ctrl/core/await_safe_function.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/sleep.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"

namespace ctrl::client {

// How often and how long to wait between attempts (wait.Backoff): the n-th wait is
// duration * factor^n, each stretched by up to jitter (a fraction) at random, capped by cap.
struct Backoff {
    std::chrono::milliseconds duration{10};
    double factor = 1.0;
    double jitter = 0.1;
    int steps = 5;                     // attempts in all
    std::chrono::milliseconds cap{0};  // 0: no cap
};

// client-go's retry.DefaultRetry: 5 attempts 10 ms apart, for conflicts between writers.
inline constexpr Backoff kDefaultRetry{std::chrono::milliseconds(10), 1.0, 0.1, 5, std::chrono::milliseconds(0)};
// client-go's retry.DefaultBackoff: 4 attempts, 10, 50, 250 ms apart, for a busy server.
inline constexpr Backoff kDefaultBackoff{std::chrono::milliseconds(10), 5.0, 0.1, 4, std::chrono::milliseconds(0)};

namespace internal {
// The wait before attempt n + 2 (n counts from 0): duration * factor^n, jittered, capped.
std::chrono::steady_clock::duration WaitAfter(const Backoff& backoff, int n);
}  // namespace internal

// Runs attempt until it returns OK or an error retriable refuses, or backoff's steps run out; the
// last error is returned then (retry.OnError). Cancelled or Timeout when ctx ends while waiting.
// Written inside the co_await expression, a lambda capturing by reference ([&]) is safe; one that
// captures by copy does not compile (AwaitSafeFunction; GCC 12 would destroy it twice): name it.
inline Task<Status> RetryOnError(Context ctx, Backoff backoff, AwaitSafeFunction<bool(const Status&)> retriable,
                                 AwaitSafeFunction<Task<Status>()> attempt) {
    const int steps = backoff.steps > 1 ? backoff.steps : 1;
    Status last;
    for (int n = 0; n < steps; ++n) {
        if (n > 0) {
            const std::chrono::steady_clock::duration wait = internal::WaitAfter(backoff, n - 1);
            if (Status slept = co_await SleepFor(ctx, wait); !slept.Ok())
                co_return slept;
        }
        last = co_await attempt();
        if (last.Ok() || !retriable(last))
            co_return last;
    }
    co_return last;
}

// RetryOnError for Conflict (client-go's retry.RetryOnConflict): attempt re-reads the object,
// changes it and writes it back; the last Conflict is returned when the steps run out.
//   co_await RetryOnConflict(ctx, kDefaultRetry, [&]() -> Task<Status> {
//       CTRL_CO_RETURN_IF_ERROR(co_await client.Get(ctx, key, cm));
//       cm.SetLabel("touched", "yes");
//       co_return co_await client.Update(ctx, cm);
//   });
inline Task<Status> RetryOnConflict(Context ctx, Backoff backoff, AwaitSafeFunction<Task<Status>()> attempt) {
    return RetryOnError(
        std::move(ctx), backoff, [](const Status& status) { return IsConflict(status); }, std::move(attempt));
}

}  // namespace ctrl::client
