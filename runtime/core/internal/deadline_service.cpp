#include "ctrl/core/internal/deadline_service.hpp"

#include <pthread.h>

#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace ctrl::internal {

namespace {
// How long the thread waits with nothing pending before it ends.
constexpr std::chrono::milliseconds kLinger{500};
}  // namespace

struct DeadlineService::State {
    mutable std::mutex mu;
    std::condition_variable wake;
    // Ordered by time, then by id: begin() is the earliest. A red-black tree rather than a binary
    // heap so that Remove finds its entry in O(log n) from the handle alone.
    std::map<std::pair<Clock::time_point, uint64_t>, std::function<void()>> pending;
    uint64_t next_id = 1;
    // When the thread wakes next by itself: max while it waits without a deadline, min while it
    // runs (it looks at `pending` again before it sleeps, so nobody needs to wake it).
    Clock::time_point sleeping_until = Clock::time_point::min();
    bool running = false;  // a thread runs Loop
    Stats stats;

    // The service thread: runs what is due, then sleeps until the earliest deadline or a wake.
    void Loop() {
        pthread_setname_np(pthread_self(), "ctrl-deadlines");  // as top and gdb show it
        std::unique_lock lock(mu);
        std::vector<std::function<void()>> due;
        for (;;) {
            const Clock::time_point now = Clock::now();
            while (!pending.empty() && pending.begin()->first.first <= now) {
                due.push_back(std::move(pending.begin()->second));
                pending.erase(pending.begin());
                ++stats.fired;
            }
            if (!due.empty()) {
                sleeping_until = Clock::time_point::min();
                lock.unlock();
                for (std::function<void()>& fire : due)
                    fire();
                due.clear();  // what the callbacks hold is released outside the lock
                lock.lock();
                continue;
            }
            if (pending.empty()) {
                // Nothing to wait for: linger a little (deadlines tend to come in runs), then end,
                // so that a process with no deadline pending, an idle operator, has no thread
                // for them. The next Add starts one again.
                sleeping_until = Clock::time_point::max();
                if (wake.wait_for(lock, kLinger) == std::cv_status::timeout && pending.empty()) {
                    running = false;
                    return;
                }
            } else {
                sleeping_until = pending.begin()->first.first;
                wake.wait_until(lock, sleeping_until);
            }
            sleeping_until = Clock::time_point::min();
            ++stats.wakeups;
        }
    }
};

DeadlineService::DeadlineService() : state_(new State) {}

DeadlineService& DeadlineService::Get() {
    // Never destroyed: contexts may be released by static destructors and by other threads while
    // the process exits, and the thread it runs is never joined.
    static DeadlineService* const service = new DeadlineService();
    return *service;
}

DeadlineService::Handle DeadlineService::Add(Clock::time_point at, std::function<void()> fire) {
    State& state = *state_;
    bool notify = false;
    Handle handle;
    {
        std::lock_guard lock(state.mu);
        handle = {at, state.next_id++};
        state.pending.emplace(std::make_pair(at, handle.id), std::move(fire));
        ++state.stats.added;
        if (!state.running) {
            state.running = true;
            ++state.stats.threads_started;
            std::thread([&state] { state.Loop(); }).detach();
        } else {
            notify = at < state.sleeping_until;
        }
    }
    if (notify)
        state.wake.notify_one();
    return handle;
}

void DeadlineService::Remove(const Handle& handle) {
    if (handle.id == 0)
        return;
    std::function<void()> dropped;  // destroyed outside the lock
    State& state = *state_;
    std::lock_guard lock(state.mu);
    auto it = state.pending.find({handle.at, handle.id});
    if (it == state.pending.end())
        return;
    dropped = std::move(it->second);
    state.pending.erase(it);
    ++state.stats.removed;
}

DeadlineService::Stats DeadlineService::GetStats() const {
    std::lock_guard lock(state_->mu);
    Stats stats = state_->stats;
    stats.pending = state_->pending.size();
    stats.threads_running = state_->running ? 1 : 0;
    return stats;
}

}  // namespace ctrl::internal
