#pragma once

#include <atomic>
#include <thread>
#include <utility>

namespace ctrl::internal {

// One value that several threads read and replace whole (a shared_ptr or weak_ptr), guarded by a
// one-byte spin lock held only to copy or swap the value. For small, rarely contended slots read on
// hot paths, where a std::mutex would cost 40 bytes per object.
//
// Not std::atomic<std::shared_ptr<T>>: libstdc++ 12's releases its internal lock after a load with a
// relaxed store, which orders nothing, so a load and a later store race by the memory model
// (ThreadSanitizer reports it; on a weakly ordered CPU the load can read the pointer the store wrote
// with the old reference count).
template <typename T>
class LockedSlot {
  public:
    LockedSlot() = default;
    explicit LockedSlot(T value) : value_(std::move(value)) {}
    LockedSlot(const LockedSlot&) = delete;
    LockedSlot& operator=(const LockedSlot&) = delete;

    // A copy of the value.
    T Load() const {
        const Guard guard(locked_);
        return value_;
    }

    // Replaces the value; the old one is destroyed after the lock is released.
    void Store(T value) {
        {
            const Guard guard(locked_);
            std::swap(value_, value);
        }
    }

  private:
    class Guard {
      public:
        explicit Guard(std::atomic<bool>& locked) : locked_(locked) {
            while (locked_.exchange(true, std::memory_order_acquire)) {
                while (locked_.load(std::memory_order_relaxed))
                    std::this_thread::yield();
            }
        }
        ~Guard() { locked_.store(false, std::memory_order_release); }
        Guard(const Guard&) = delete;
        Guard& operator=(const Guard&) = delete;

      private:
        std::atomic<bool>& locked_;
    };

    mutable std::atomic<bool> locked_{false};
    T value_;
};

}  // namespace ctrl::internal
