#include "ctrl/rest/internal/beast_connection_pool.hpp"

#include <algorithm>
#include <utility>

namespace ctrl::rest::internal {

BeastConnectionPool::BeastConnectionPool(std::size_t max_idle, std::chrono::steady_clock::duration max_idle_time)
    : max_idle_(max_idle), max_idle_time_(max_idle_time) {}

std::shared_ptr<BeastConnection> BeastConnectionPool::TakeIdle() {
    std::vector<Entry> stale;  // destroyed outside the lock
    std::shared_ptr<BeastConnection> found;
    {
        std::lock_guard lock(mu_);
        const auto oldest_allowed = std::chrono::steady_clock::now() - max_idle_time_;
        auto expired =
            std::find_if(idle_.begin(), idle_.end(), [&](const Entry& e) { return e.since >= oldest_allowed; });
        std::move(idle_.begin(), expired, std::back_inserter(stale));
        idle_.erase(idle_.begin(), expired);
        while (!idle_.empty() && !found) {
            Entry entry = std::move(idle_.back());
            idle_.pop_back();
            if (entry.connection->LooksReusable()) {
                found = std::move(entry.connection);
            } else {
                stale.push_back(std::move(entry));
            }
        }
    }
    return found;
}

void BeastConnectionPool::PutIdle(std::shared_ptr<BeastConnection> connection) {
    std::lock_guard lock(mu_);
    if (idle_.size() >= max_idle_)
        return;  // `connection` is released after the lock
    idle_.push_back({std::move(connection), std::chrono::steady_clock::now()});
}

std::size_t BeastConnectionPool::IdleCount() const {
    std::lock_guard lock(mu_);
    return idle_.size();
}

}  // namespace ctrl::rest::internal
