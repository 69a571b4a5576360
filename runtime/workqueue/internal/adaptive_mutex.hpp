#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace ctrl::workqueue::internal {

// Lets the CPU know the caller is spinning (x86 pause, Arm yield); a no-op elsewhere.
inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

// A mutex for a work queue's short critical sections (a few hundred nanoseconds), tuned for two
// or more threads that use one queue back to back.
//
// What it avoids: when two threads on two cores alternate on one lock, every acquisition pulls
// the lock's cache line and the queue's own lines (its index, list nodes, keys) from the other
// core. On this project's 2-vCPU machine that made two threads each doing Add+Get+Done cost
// 500-900 ns per item, where the same loop on one core costs ~130 ns (and Go's queue, whose
// goroutines share one core when they collide, ~300 ns).
//
// How: a thread that did not hold the lock last watches for kBusyProbe whether the holder is
// using it back to back (two or more acquisitions meanwhile). If so it keeps off the shared lines
// for kBusyYield, so the busy thread runs a burst of operations out of its own cache, then
// competes as usual: spins kSpins polls, then sleeps on the atomic (a futex on Linux) until an
// unlock wakes it. A thread defers once per lock() at most, so nothing waits longer than
// kBusyYield more than with a plain mutex. The cost: a lock() right after another thread's costs
// about kBusyProbe more (a thread that locks again after itself pays nothing extra).
// Not recursive; Lockable (std::unique_lock, std::condition_variable_any).
class AdaptiveMutex final {
  public:
    AdaptiveMutex() = default;
    AdaptiveMutex(const AdaptiveMutex&) = delete;
    AdaptiveMutex& operator=(const AdaptiveMutex&) = delete;

    void lock() {
        const std::uintptr_t me = ThisThread();
        if (last_owner_.load(std::memory_order_relaxed) != me)
            YieldToBusyOwner();
        if (TryLockAs(me))
            return;
        for (int i = 0; i < kSpins; ++i) {
            CpuRelax();
            if (state_.load(std::memory_order_relaxed) == kUnlocked && TryLockAs(me))
                return;
        }
        // Marks the lock contended, so the holder's unlock wakes a sleeper.
        while (state_.exchange(kContended, std::memory_order_acquire) != kUnlocked)
            state_.wait(kContended, std::memory_order_relaxed);
        Own(me);
    }

    bool try_lock() { return TryLockAs(ThisThread()); }

    void unlock() {
        if (state_.exchange(kUnlocked, std::memory_order_release) == kContended)
            state_.notify_one();
    }

  private:
    using Clock = std::chrono::steady_clock;

    // A value unique to the calling thread while it lives.
    static std::uintptr_t ThisThread() {
        thread_local const char token = 0;
        return reinterpret_cast<std::uintptr_t>(&token);
    }

    // Waits out another thread's burst (see the class comment).
    void YieldToBusyOwner() const {
        const std::uint32_t before = acquisitions_.load(std::memory_order_relaxed);
        const Clock::time_point start = Clock::now();
        SpinUntil(start + kBusyProbe);
        if (acquisitions_.load(std::memory_order_relaxed) - before >= 2)
            SpinUntil(start + kBusyYield);
    }

    // Spins without touching the lock's cache line.
    static void SpinUntil(Clock::time_point deadline) {
        while (Clock::now() < deadline)
            CpuRelax();
    }

    bool TryLockAs(std::uintptr_t me) {
        int expected = kUnlocked;
        if (!state_.compare_exchange_strong(expected, kLocked, std::memory_order_acquire, std::memory_order_relaxed))
            return false;
        Own(me);
        return true;
    }

    // Under the lock: counts the acquisition and records who made it.
    void Own(std::uintptr_t me) {
        acquisitions_.store(acquisitions_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        if (last_owner_.load(std::memory_order_relaxed) != me)
            last_owner_.store(me, std::memory_order_relaxed);
    }

    static constexpr int kUnlocked = 0;
    static constexpr int kLocked = 1;
    static constexpr int kContended = 2;  // locked, and a thread may sleep on it
    // Polls (a pause each) before sleeping.
    static constexpr int kSpins = 100;
    // How long a thread watches for another's back-to-back use, and how long it then keeps off.
    static constexpr Clock::duration kBusyProbe = std::chrono::microseconds(1);
    static constexpr Clock::duration kBusyYield = std::chrono::microseconds(20);

    std::atomic<int> state_{kUnlocked};
    std::atomic<std::uint32_t> acquisitions_{0};  // written under the lock, read by waiters
    std::atomic<std::uintptr_t> last_owner_{0};   // ThisThread() of the last holder
};

}  // namespace ctrl::workqueue::internal
