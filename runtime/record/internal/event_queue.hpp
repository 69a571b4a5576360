#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "ctrl/api/event.hpp"
#include "ctrl/api/timestamp.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/notification.hpp"
#include "ctrl/core/task.hpp"

namespace ctrl::record::internal {

// An event as a recorder hands it over: what it is about and what happened, not yet an Event.
struct PendingEvent {
    api::ObjectReference regarding;
    std::string type;
    std::string reason;
    std::string message;
    std::string component;  // the recorder's name
    api::Timestamp time{};
};

// A bounded queue between recorders (any thread, never waiting) and the one coroutine that writes
// events: Push refuses when full or closed instead of blocking. Thread-safe.
class EventQueue final {
  public:
    explicit EventQueue(size_t capacity) : capacity_(capacity > 0 ? capacity : 1) {}

    // Adds event; false (and the event is dropped) when the queue is full or closed.
    bool Push(PendingEvent event);
    // The oldest event, waiting for one; nullopt once ctx ends. One consumer at a time.
    Task<std::optional<PendingEvent>> Pop(Context ctx);
    // The oldest event, or nullopt when empty.
    std::optional<PendingEvent> TryPop();
    // Refuses every later Push (what is queued stays for TryPop).
    void Close();
    size_t Size() const;

  private:
    const size_t capacity_;
    mutable std::mutex mu_;
    std::deque<PendingEvent> events_;
    bool closed_ = false;
    std::shared_ptr<Notification> waiter_;  // set while the consumer waits on an empty queue
};

}  // namespace ctrl::record::internal
