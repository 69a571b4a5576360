#pragma once

#include <chrono>
#include <functional>

#include "runtime/core/context.hpp"
#include "runtime/core/status.hpp"
#include "runtime/core/task.hpp"

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

// Runs attempt until it returns anything but Conflict, or backoff's steps run out; the last
// Conflict is returned then. attempt re-reads the object, changes it and writes it back
// (client-go's retry.RetryOnConflict):
//   co_await RetryOnConflict(ctx, kDefaultRetry, [&]() -> Task<Status> {
//       CTRL_CO_RETURN_IF_ERROR(co_await client.Get(ctx, key, cm));
//       cm.SetLabel("touched", "yes");
//       co_return co_await client.Update(ctx, cm);
//   });
// Cancelled or Timeout when ctx ends while waiting.
Task<Status> RetryOnConflict(Context ctx, Backoff backoff, std::function<Task<Status>()> attempt);
// The same for any error retriable says to retry (retry.OnError).
Task<Status> RetryOnError(Context ctx, Backoff backoff, std::function<bool(const Status&)> retriable,
                          std::function<Task<Status>()> attempt);

}  // namespace ctrl::client
