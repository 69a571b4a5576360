#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "ctrl/core/object.hpp"

namespace ctrl::cache::internal {

// The last `capacity` shared views a store decoded, kept alive after their readers let go, so the
// next shared read of a hot object finds its view (StoredObject::LiveView) instead of decoding
// again. A ring: each newly decoded view takes the place of the oldest, which is then freed unless
// a reader still holds it. Memory: at most capacity decoded objects beyond what readers hold (a
// decoded 4 KB pod is ~10 KB). Thread-safe.
class HotViews {
  public:
    explicit HotViews(std::size_t capacity) : ring_(capacity) {}
    HotViews(const HotViews&) = delete;
    HotViews& operator=(const HotViews&) = delete;

    // Keeps view alive until `capacity` later views push it out. No-op when capacity is 0.
    void Keep(std::shared_ptr<const Object> view) const {
        if (ring_.empty())
            return;
        {
            std::lock_guard lock(mu_);
            ring_[next_].swap(view);
            next_ = next_ + 1 == ring_.size() ? 0 : next_ + 1;
        }
        // view now holds the pushed-out one: freed here, outside the lock.
    }
    std::size_t Capacity() const { return ring_.size(); }

  private:
    mutable std::mutex mu_;
    mutable std::vector<std::shared_ptr<const Object>> ring_;
    mutable std::size_t next_ = 0;
};

}  // namespace ctrl::cache::internal
