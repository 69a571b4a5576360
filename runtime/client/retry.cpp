#include "ctrl/client/retry.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <utility>

#include "ctrl/core/sleep.hpp"
#include "ctrl/core/status_or.hpp"

namespace ctrl::client {
namespace internal {

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

}  // namespace internal
}  // namespace ctrl::client
