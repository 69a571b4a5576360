#include "ctrl/cache/internal/backoff.hpp"

#include <algorithm>

namespace ctrl::cache::internal {

Backoff::Backoff(std::chrono::milliseconds initial, std::chrono::milliseconds max)
    : initial_(initial), max_(std::max(initial, max)), random_(std::random_device{}()) {}

std::chrono::milliseconds Backoff::Next() {
    double base = static_cast<double>(initial_.count());
    for (int i = 0; i < failures_ && base < static_cast<double>(max_.count()); ++i)
        base *= 2;
    base = std::min(base, static_cast<double>(max_.count()));
    ++failures_;
    std::uniform_real_distribution<double> stretch(0.0, 1.0);
    return std::chrono::milliseconds(static_cast<int64_t>(base * (1.0 + stretch(random_))));
}

}  // namespace ctrl::cache::internal
