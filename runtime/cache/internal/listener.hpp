#pragma once

#include <deque>
#include <memory>
#include <mutex>
#include <string_view>

#include "ctrl/cache/event_handler.hpp"
#include "ctrl/cache/internal/informer_faults.hpp"
#include "ctrl/cache/internal/queued_object.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/notification.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/task.hpp"

namespace ctrl::cache::internal {

// One event handler of an informer with the notifications it has yet to receive (client-go's
// processorListener). The reflector queues notifications while it holds its dispatch lock, then
// calls Deliver without any lock; Deliver hands them to the handler one at a time, in the order
// queued, never two at once (a second Deliver while one runs returns at once and the running
// one delivers what was added). So a handler may call back into its informer and cache. A
// notification's object is decoded as it is delivered (QueuedObject), so a long queue holds
// references into the store, not decoded objects. An exception from the handler is caught and
// reported (InformerFaults); the next notification follows. Thread-safe.
class Listener final {
  public:
    Listener(std::shared_ptr<EventHandler> handler, std::shared_ptr<const InformerFaults> faults);

    void QueueAdd(QueuedObject object, bool is_initial_list);
    void QueueUpdate(QueuedObject old_object, QueuedObject new_object);
    void QueueDelete(QueuedObject last_known, bool final_state_unknown);
    // HasSynced turns true once every notification queued before this one is delivered.
    void QueueSynced();
    // Delivers what is queued (see the class comment).
    void Deliver();
    // Drops what is queued and lets go of the handler; nothing more is queued or delivered. A
    // handler call under way on another thread finishes. (Letting go breaks the cycle of a handler
    // that keeps its own EventHandlerRegistration.)
    void Stop();

    bool HasSynced() const;
    bool HasPending() const;
    // OK once listener HasSynced; Cancelled when it was stopped first (or is null); ctx's error
    // when ctx ends first.
    static Task<Status> WaitForSync(Context ctx, std::shared_ptr<const Listener> listener);

  private:
    enum class Kind { kAdd, kUpdate, kDelete, kSynced };
    struct Pending {
        Kind kind;
        QueuedObject object;  // the new object (add, update); the last one (delete)
        QueuedObject old_object;
        bool flag = false;  // is_initial_list (add); final_state_unknown (delete)
    };

    void Queue(Pending pending);
    // Calls handler for pending, catching and reporting what it throws.
    void Call(EventHandler& handler, const Pending& pending);

    std::shared_ptr<EventHandler> handler_;  // null once stopped
    const std::shared_ptr<const InformerFaults> faults_;
    mutable std::mutex mu_;
    std::deque<Pending> queue_;
    bool delivering_ = false;
    bool stopped_ = false;
    bool synced_ = false;
    // Notified once synced_ or stopped_ turns true.
    Notification decided_;
};

}  // namespace ctrl::cache::internal
