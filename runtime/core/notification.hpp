#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

#include "ctrl/core/context.hpp"
#include "ctrl/core/resume.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/task.hpp"

namespace ctrl {

// Something that happens once (absl::Notification, for coroutines): "the informer synced", "the
// call finished", "data arrived". Coroutines await it with a Context; Notify, from any thread,
// wakes every waiter, each on its own executor; waits that begin later return at once. Waiting
// holds no thread. Thread-safe. Share it (std::shared_ptr) when a Notify may come after its
// owner is gone.
class Notification final {
  public:
    Notification();
    Notification(const Notification&) = delete;
    Notification& operator=(const Notification&) = delete;

    // Marks it happened and wakes every waiter. Later calls do nothing.
    void Notify();
    bool HasBeenNotified() const;
    // OK once notified; ctx's error (Cancelled, or Timeout at its deadline) when ctx ends first.
    Task<Status> Wait(Context ctx) const;

  private:
    struct State {
        std::mutex mu;
        bool notified = false;
        uint64_t next_id = 1;
        std::map<uint64_t, Resume<Status>> waiters;
    };
    std::shared_ptr<State> state_;
};

}  // namespace ctrl
