#pragma once

#include <functional>
#include <memory>

#include "ctrl/core/context.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/task.hpp"

namespace ctrl::cache {

namespace internal {
class Listener;
class Processor;
}  // namespace internal

// Receives what happens to the objects of an informer (client-go's ResourceEventHandler), as
// shared const objects that must not be changed (docs/decisions.md, decision 20). Calls come one at a
// time, in the order the cache saw the changes, on the informer's executor: a handler must not
// block (a controller's handler only enqueues keys). No lock of the informer is held during a call,
// so a handler may call back into its informer and cache (add or remove handlers, read the store,
// get informers). An exception a handler throws is caught, logged and counted
// (ctrl_informer_handler_panics_total); the handler gets the next change as usual.
class EventHandler {
  public:
    virtual ~EventHandler() = default;
    // A new object. is_initial_list: it comes from the informer's first list (or, for a handler
    // added later, from the replay of what the cache held).
    virtual void OnAdd(const std::shared_ptr<const Object>& object, bool is_initial_list) = 0;
    // A changed object: the state the cache held before, and the new one. A relist calls it for
    // every object that is still there, changed or not (as client-go does).
    virtual void OnUpdate(const std::shared_ptr<const Object>& old_object,
                          const std::shared_ptr<const Object>& new_object) = 0;
    // A deleted object: its final state from the watch, or, when final_state_unknown, the last
    // state the cache held before a relist found the object gone (client-go's
    // DeletedFinalStateUnknown).
    virtual void OnDelete(const std::shared_ptr<const Object>& last_known, bool final_state_unknown) = 0;
};

// An EventHandler made of functions; an unset function ignores its events.
struct EventHandlerFuncs final : EventHandler {
    std::function<void(const std::shared_ptr<const Object>&, bool)> on_add{};
    std::function<void(const std::shared_ptr<const Object>&, const std::shared_ptr<const Object>&)> on_update{};
    std::function<void(const std::shared_ptr<const Object>&, bool)> on_delete{};

    void OnAdd(const std::shared_ptr<const Object>& object, bool is_initial_list) override {
        if (on_add)
            on_add(object, is_initial_list);
    }
    void OnUpdate(const std::shared_ptr<const Object>& old_object,
                  const std::shared_ptr<const Object>& new_object) override {
        if (on_update)
            on_update(old_object, new_object);
    }
    void OnDelete(const std::shared_ptr<const Object>& last_known, bool final_state_unknown) override {
        if (on_delete)
            on_delete(last_known, final_state_unknown);
    }
};

// A handler as added to an informer (client-go's ResourceEventHandlerRegistration): pass it to
// RemoveEventHandler to stop the handler's calls. A default-constructed one is null. Cheap to copy;
// thread-safe.
class EventHandlerRegistration {
  public:
    EventHandlerRegistration() = default;

    explicit operator bool() const { return listener_ != nullptr; }
    // Whether the handler has received every object of the informer's first list (for a handler
    // added after it: every object the cache held when it was added).
    bool HasSynced() const;
    // Waits until HasSynced: OK then; Cancelled when the handler was removed first (or the
    // registration is null); ctx's error (Cancelled, or Timeout at its deadline) when ctx ends first.
    Task<Status> WaitForSync(Context ctx) const;

    friend bool operator==(const EventHandlerRegistration& a, const EventHandlerRegistration& b) {
        return a.listener_ == b.listener_;
    }

  private:
    friend class internal::Processor;
    explicit EventHandlerRegistration(std::shared_ptr<internal::Listener> listener) : listener_(std::move(listener)) {}

    std::shared_ptr<internal::Listener> listener_;
};

}  // namespace ctrl::cache
