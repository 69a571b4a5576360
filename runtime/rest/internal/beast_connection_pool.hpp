#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "ctrl/rest/internal/beast_connection.hpp"

namespace ctrl::rest::internal {

// Keeps idle keep-alive connections to one server for reuse: at most `max_idle`, each for at
// most `max_idle_time`; the most recently used one is handed out first (the least likely to
// have been closed by the server). Thread-safe: a mutex guards a small vector and is never
// held across I/O, so any thread of the executor may take and return connections.
class BeastConnectionPool final {
  public:
    BeastConnectionPool(std::size_t max_idle, std::chrono::steady_clock::duration max_idle_time);

    // An idle connection that still looks usable, or null. Drops the stale ones it meets.
    std::shared_ptr<BeastConnection> TakeIdle();
    // Keeps a connection whose last response was read completely and allowed keep-alive; the
    // caller must not use it afterwards. Dropped when the pool is full.
    void PutIdle(std::shared_ptr<BeastConnection> connection);
    std::size_t IdleCount() const;

  private:
    struct Entry {
        std::shared_ptr<BeastConnection> connection;
        std::chrono::steady_clock::time_point since;
    };

    const std::size_t max_idle_;
    const std::chrono::steady_clock::duration max_idle_time_;
    mutable std::mutex mu_;
    std::vector<Entry> idle_;  // oldest first
};

}  // namespace ctrl::rest::internal
