#pragma once

#include <chrono>
#include <cstdint>
#include <functional>

namespace ctrl::internal {

// The one timer of the process behind every Context deadline: an ordered set of pending deadlines
// and one thread that sleeps until the earliest and then runs what is due. Adding and removing a
// deadline is O(log n) under one mutex. The thread is woken only when a deadline earlier than the
// one it sleeps until arrives; removing a deadline never wakes it (it finds nothing due, and
// sleeps again until the new earliest), so deadlines that keep moving later, as a reconcile or a
// request timeout does, cost no wake-up each. The thread starts with the first deadline and ends
// after half a second with none pending (the next deadline starts it again): an idle process has
// no thread for deadlines, and a process with deadlines has one. Thread-safe.
class DeadlineService {
  public:
    using Clock = std::chrono::steady_clock;
    // A registered deadline: what Remove needs (its time and a number unique in the process).
    struct Handle {
        Clock::time_point at;
        uint64_t id = 0;  // 0: none
    };
    // What the service has done since the process started, for tests and the decision record.
    struct Stats {
        uint64_t added = 0;       // deadlines registered
        uint64_t removed = 0;     // deadlines removed before they fired
        uint64_t fired = 0;       // deadlines that fired
        uint64_t wakeups = 0;     // times the thread woke (due, earlier deadline, or spurious)
        uint64_t pending = 0;     // deadlines registered now
        int threads_started = 0;  // threads started (one at a time)
        int threads_running = 0;  // 1 while a thread serves deadlines, 0 once it ended idle
    };

    // The process's service.
    static DeadlineService& Get();

    // Runs fire once at `at` on the service's thread, unless removed first. fire must not block
    // and must not throw.
    Handle Add(Clock::time_point at, std::function<void()> fire);
    // Forgets a deadline not yet fired; a no-op for one that fired or was removed.
    void Remove(const Handle& handle);

    Stats GetStats() const;

  private:
    struct State;
    DeadlineService();
    State* state_;
};

}  // namespace ctrl::internal
