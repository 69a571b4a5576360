#pragma once

#include <atomic>

namespace ctrl::workqueue::internal {

// Lets the CPU know the caller is spinning (x86 pause, Arm yield); a no-op elsewhere.
inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

// A mutex that spins before it sleeps. A work queue holds its lock for a few hundred
// nanoseconds at most, and a producer and a consumer on two cores collide on it all the time:
// std::mutex (and glibc's adaptive mutex, whose spin is a hundred pauses at most) then puts the
// loser to sleep in the kernel and the holder pays a futex wake, microseconds per collision,
// where waiting the holder out costs tens of nanoseconds. After kSpins polls it sleeps on the
// atomic (a futex on Linux). Not recursive; Lockable (std::unique_lock,
// std::condition_variable_any).
class AdaptiveMutex final {
  public:
    AdaptiveMutex() = default;
    AdaptiveMutex(const AdaptiveMutex&) = delete;
    AdaptiveMutex& operator=(const AdaptiveMutex&) = delete;

    void lock() {
        if (try_lock())
            return;
        for (int i = 0; i < kSpins; ++i) {
            CpuRelax();
            if (state_.load(std::memory_order_relaxed) == kUnlocked && try_lock())
                return;
        }
        // Marks the lock contended, so the holder's unlock wakes a sleeper.
        while (state_.exchange(kContended, std::memory_order_acquire) != kUnlocked)
            state_.wait(kContended, std::memory_order_relaxed);
    }

    bool try_lock() {
        int expected = kUnlocked;
        return state_.compare_exchange_strong(expected, kLocked, std::memory_order_acquire, std::memory_order_relaxed);
    }

    void unlock() {
        if (state_.exchange(kUnlocked, std::memory_order_release) == kContended)
            state_.notify_one();
    }

  private:
    static constexpr int kUnlocked = 0;
    static constexpr int kLocked = 1;
    static constexpr int kContended = 2;  // locked, and a thread may sleep on it
    // Polls before sleeping: a few microseconds, many critical sections of the queue.
    static constexpr int kSpins = 100;

    std::atomic<int> state_{kUnlocked};
};

}  // namespace ctrl::workqueue::internal
