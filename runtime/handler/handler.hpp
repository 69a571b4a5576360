#pragma once

#include <functional>
#include <memory>

#include "ctrl/core/context.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/event/event.hpp"
#include "ctrl/handler/request_queue.hpp"

namespace ctrl::handler {

// Turns the events of a source into reconcile Requests on a controller's queue
// (controller-runtime's handler.EventHandler): which keys does this change concern? Calls come
// from the source's executor, one at a time per source; a handler must not block (it enqueues,
// or reads the cache's synchronous views). ctx is the controller's: done when it stops.
class EventHandler {
  public:
    virtual ~EventHandler() = default;

    // Called once by a source before its first event, with the controller's context: a handler
    // that needs I/O to get ready (a RESTMapper lookup) does it here. A failure keeps the source
    // from starting and names why. Default: nothing to do.
    virtual Task<Status> Prepare(Context ctx);

    virtual void Create(const Context& ctx, const event::CreateEvent& event, RequestQueue& queue) = 0;
    virtual void Update(const Context& ctx, const event::UpdateEvent& event, RequestQueue& queue) = 0;
    virtual void Delete(const Context& ctx, const event::DeleteEvent& event, RequestQueue& queue) = 0;
    virtual void Generic(const Context& ctx, const event::GenericEvent& event, RequestQueue& queue) = 0;
};

// An EventHandler made of functions (controller-runtime's handler.Funcs); an unset function
// ignores its events.
struct Funcs final : EventHandler {
    std::function<void(const Context&, const event::CreateEvent&, RequestQueue&)> create{};
    std::function<void(const Context&, const event::UpdateEvent&, RequestQueue&)> update{};
    std::function<void(const Context&, const event::DeleteEvent&, RequestQueue&)> delete_{};
    std::function<void(const Context&, const event::GenericEvent&, RequestQueue&)> generic{};

    void Create(const Context& ctx, const event::CreateEvent& event, RequestQueue& queue) override {
        if (create)
            create(ctx, event, queue);
    }
    void Update(const Context& ctx, const event::UpdateEvent& event, RequestQueue& queue) override {
        if (update)
            update(ctx, event, queue);
    }
    void Delete(const Context& ctx, const event::DeleteEvent& event, RequestQueue& queue) override {
        if (delete_)
            delete_(ctx, event, queue);
    }
    void Generic(const Context& ctx, const event::GenericEvent& event, RequestQueue& queue) override {
        if (generic)
            generic(ctx, event, queue);
    }
};

}  // namespace ctrl::handler
