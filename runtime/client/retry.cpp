#include "runtime/client/retry.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <utility>

#include "runtime/core/sleep.hpp"
#include "runtime/core/status_or.hpp"

namespace ctrl::client {
namespace {

// The wait before attempt n + 1 (n counts from 0), jittered and capped.
std::chrono::steady_clock::duration WaitAfter(const Backoff& backoff, int n) {
    double wait_ms = static_cast<double>(backoff.duration.count()) * std::pow(backoff.factor, n);
    if (backoff.jitter > 0) {
        thread_local std::mt19937 random{std::random_device{}()};
        std::uniform_real_distribution<double> stretch(0.0, backoff.jitter);
        wait_ms += wait_ms * stretch(random);
    }
    if (backoff.cap.count() > 0)
        wait_ms = std::min(wait_ms, static_cast<double>(backoff.cap.count()));
    return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double, std::milli>(wait_ms));
}

}  // namespace

Task<Status> RetryOnError(Context ctx, Backoff backoff, std::function<bool(const Status&)> retriable,
                          std::function<Task<Status>()> attempt) {
    const int steps = std::max(backoff.steps, 1);
    Status last;
    for (int n = 0; n < steps; ++n) {
        if (n > 0) {
            const std::chrono::steady_clock::duration wait = WaitAfter(backoff, n - 1);
            CTRL_CO_RETURN_IF_ERROR(co_await SleepFor(wait, ctx));
        }
        last = co_await attempt();
        if (last.Ok() || !retriable(last))
            co_return last;
    }
    co_return last;
}

Task<Status> RetryOnConflict(Context ctx, Backoff backoff, std::function<Task<Status>()> attempt) {
    std::function<bool(const Status&)> is_conflict = [](const Status& status) { return IsConflict(status); };
    co_return co_await RetryOnError(std::move(ctx), backoff, std::move(is_conflict), std::move(attempt));
}

}  // namespace ctrl::client
